import Foundation
import Testing

@testable import Cartograph

/// The session's exact scalars through class models as the seeds register
/// them: a non-final `@Mappable` class and a subclass mapped with
/// `Mapping(inheriting:)` read whole numbers written with a fraction,
/// fractional ISO dates and long decimals as the `Codable` decoder reads
/// them; non-final `Codable` classes with a subclass encode through kept
/// key templates as Foundation encodes them, encode after encode.
@Suite struct ClassModelScalarTests {
    @Mappable
    class Event {
        var id: Int64 = 0
        var when: Date?
        var amount: Decimal = 0
        required init() {}
        static let mapping = Mapping<Event>({ Event() }) {
            Map(\.id)
            Map(\.when)
            Map(\.amount)
        }
    }

    @Mappable
    final class Payment: Event {
        var fee = 0.0
        static let paymentMapping = Mapping<Payment>(inheriting: Event.mapping, { Payment() }) {
            Map(\.fee)
        }
    }

    struct Reference: Decodable {
        var id: Int64
        var when: Date
        var amount: Decimal
    }

    @Test func classModelsReadExactScalarsAsCodableDoes() throws {
        var registry = ModelRegistry()
        registry.register(Event.mapping)
        registry.register(Payment.paymentMapping)
        let mapper = JSONMapper(registry: registry)
        let json = Array(#"{"id":9007199254740993.0,"when":"2017-04-11T00:19:33.160Z","amount":0.1,"fee":2.5}"#.utf8)
        let reference = try JSONMapper(options: CodableOptions { $0.dates = .iso8601(fractionalSeconds: true) }).decode(Reference.self, from: json)
        #expect(reference.id == 9_007_199_254_740_993)
        #expect(reference.when.timeIntervalSinceReferenceDate == 513_562_773.16)
        for event in [try mapper.decode(Event.self, from: json), try mapper.decode(Payment.self, from: json) as Event] {
            #expect(event.id == reference.id)
            #expect(event.when?.timeIntervalSinceReferenceDate.bitPattern == reference.when.timeIntervalSinceReferenceDate.bitPattern)
            #expect(event.amount == reference.amount)
        }
        #expect(try mapper.decode(Payment.self, from: json).fee == 2.5)
    }

    class Animal: Codable {
        var name = "a"
        var legs = 4
        init() {}
    }

    final class Dog: Animal {
        var breed = "b"
        var tags = ["x/y"]
        private enum CodingKeys: String, CodingKey { case breed, tags }
        override init() { super.init() }
        required init(from decoder: any Decoder) throws { fatalError("not read here") }
        override func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(breed, forKey: .breed)
            try container.encode(tags, forKey: .tags)
            try super.encode(to: container.superEncoder())
        }
    }

    @Test func codableClassesEncodeThroughKeptTemplatesAsFoundationDoes() throws {
        let values: [Animal] = [Dog(), Animal(), Dog()]
        let foundation = JSONEncoder()
        foundation.outputFormatting = .sortedKeys
        let expected = try JSONSerialization.jsonObject(with: try foundation.encode(values)) as? NSArray
        for _ in 0..<3 {
            for escaping in [false, true] {
                let mapper = JSONMapper(writeOptions: WriteOptions { $0.escapeSlashes = escaping })
                let bytes = try mapper.encode(values)
                #expect(try JSONSerialization.jsonObject(with: Data(bytes)) as? NSArray == expected)
                #expect(String(decoding: bytes, as: UTF8.self).contains(escaping ? #""x\/y""# : #""x/y""#))
            }
        }
    }
}
