import Foundation
import Testing

@testable import Cartograph

/// A class model's optional scalars are written through their getters
/// (``ClassScalarWrite``): the same bytes as the same properties of a
/// struct, which are written from the struct's memory, for every kind of
/// scalar, set and nil, in turns.
@Suite struct ClassOptionalScalarTests {
    /// Non-final, as the seeds' models are.
    @Mappable
    class Reading {
        var label: String?
        var count: Int?
        var ratio: Double?
        var on: Bool?
        var small: Int8?
        var big: UInt64?
        var when: Date?
        var link: URL?
        required init() {}
    }

    /// The class's properties again, on purpose: the struct is the
    /// reference the class is compared against (read by Foundation's
    /// `JSONDecoder` too).
    @Mappable
    struct Plain: Decodable, Equatable {
        var label: String?
        var count: Int?
        var ratio: Double?
        var on: Bool?
        var small: Int8?
        var big: UInt64?
        var when: Date?
        var link: URL?
    }

    @Test func optionalScalarsThroughGettersWriteWhatAStructWrites() throws {
        var readings: [Reading] = []
        var plains: [Plain] = []
        for round in 0..<256 {
            // Each property set or nil by its own bit of the round.
            func set(_ bit: Int) -> Bool { round & (1 << bit) != 0 }
            let reading = Reading()
            if set(0) { reading.label = "label \(round) \"q\"" }
            if set(1) { reading.count = round - 128 }
            if set(2) { reading.ratio = Double(round) / 8 }
            if set(3) { reading.on = round % 3 == 0 }
            if set(4) { reading.small = Int8(truncatingIfNeeded: round) }
            if set(5) { reading.big = UInt64.max - UInt64(round) }
            if set(6) { reading.when = Date(timeIntervalSince1970: Double(round) * 1_000) }
            if set(7) { reading.link = URL(string: "https://example.com/\(round)") }
            readings.append(reading)
            plains.append(Plain(reading))
        }
        for nulls in [false, true] {
            let mapper = JSONMapper(registry: ModelRegistry(options: MappingOptions { if nulls { $0.nilEncoding = .null } }))
            #expect(try mapper.encode(readings) == (try mapper.encode(plains)), "nilEncoding null: \(nulls)")
            #expect(try mapper.encodeValue(readings) == (try mapper.encodeValue(plains)))
        }
    }

    /// A subclass registered as the seeds register one: its own mapping,
    /// inheriting the superclass's rules (and so its optional scalars).
    final class LateReading: Reading, @unchecked Sendable {
        var note: String?
        static let mapping = Mapping<LateReading>(inheriting: Mapping<Reading>.automatic(), { LateReading() }) { Map(\.note, "note") }
    }

    /// A class's optional scalars are set through assigners compiled for
    /// each scalar (the model taken as an object): values, `null` and
    /// absence read as Foundation reads them into a struct, on the class
    /// and on a subclass that inherits its rules.
    @Test func optionalScalarsThroughSettersReadWhatFoundationReads() throws {
        let inputs = [
            #"{"label":"a\"b","count":-3,"ratio":0.5,"on":true,"small":-128,"big":18446744073709551615,"note":"n"}"#,
            #"{"label":null,"count":null,"ratio":null,"on":null,"small":null,"big":null}"#, "{}",
            #"{"count":7,"on":false}"#
        ]
        var registry = ModelRegistry()
        registry.register(Reading.self)
        registry.register(LateReading.mapping)
        let mapper = JSONMapper(registry: registry)
        for input in inputs {
            let expected = try JSONDecoder().decode(Plain.self, from: Data(input.utf8))
            for reading in [try mapper.decode(Reading.self, from: input), try mapper.decode(LateReading.self, from: input) as Reading] {
                #expect(Plain(reading) == expected, "\(input) as \(type(of: reading))")
            }
        }
        #expect(try mapper.decode(LateReading.self, from: inputs[0]).note == "n")
    }
}

extension ClassOptionalScalarTests.Plain {
    /// The class model's values, property by property.
    init(_ reading: ClassOptionalScalarTests.Reading) {
        self.init()
        label = reading.label
        count = reading.count
        ratio = reading.ratio
        on = reading.on
        small = reading.small
        big = reading.big
        when = reading.when
        link = reading.link
    }
}
