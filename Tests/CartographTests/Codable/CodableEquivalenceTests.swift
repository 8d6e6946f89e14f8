import CorpusModels
import Foundation
import Testing

@testable import Cartograph

/// Cartograph's Decoder and Encoder against Foundation's, on real data and
/// on seeded random values of every supported field type.
@Suite struct CodableEquivalenceTests {
    let mapper = JSONMapper()

    @Test(arguments: ["twitter.json", "canada.json"])
    func corpusDecodesToFoundationsValuesAndBothWritersAgree(_ name: String) throws {
        let bytes = try Fixtures.bytes(name)
        if name == "twitter.json" {
            let ours = try mapper.decode(TwitterResponse.self, from: bytes)
            let theirs = try JSONDecoder().decode(TwitterResponse.self, from: Data(bytes))
            #expect(ours == theirs)
            #expect(try JSONDecoder().decode(TwitterResponse.self, from: try mapper.encodeData(ours)) == ours)
            #expect(try mapper.decode(TwitterResponse.self, from: try JSONEncoder().encode(theirs)) == theirs)
        } else {
            let ours = try mapper.decode(FeatureCollection.self, from: bytes)
            let theirs = try JSONDecoder().decode(FeatureCollection.self, from: Data(bytes))
            #expect(ours == theirs)
            #expect(try JSONDecoder().decode(FeatureCollection.self, from: try mapper.encodeData(ours)) == ours)
            #expect(try mapper.decode(FeatureCollection.self, from: try JSONEncoder().encode(theirs)) == theirs)
        }
    }

    enum Color: String, Codable, CaseIterable { case red, green, blue }

    struct Inner: Codable, Equatable {
        var label: String
        var weight: Double
    }

    struct AllTypes: Codable, Equatable {
        var bool: Bool
        var int: Int
        var int8: Int8
        var int16: Int16
        var int32: Int32
        var int64: Int64
        var uint: UInt
        var uint8: UInt8
        var uint16: UInt16
        var uint32: UInt32
        var uint64: UInt64
        var float: Float
        var double: Double
        var decimal: Decimal
        var string: String
        var date: Date
        var data: Data
        var url: URL
        var uuid: UUID
        var color: Color
        var optional: Int?
        var missing: String?
        var array: [Int]
        var nested: [[Double]]
        var dictionary: [String: Inner]
        var inner: Inner
        var inners: [Inner]
        var set: Set<String>
    }

    static func random(_ generator: inout SeededGenerator) -> AllTypes {
        func text() -> String {
            let pool = Array("abcXYZ 0é€😀\"\\/\n\t\u{0}")
            return String((0..<Int.random(in: 0...10, using: &generator)).map { _ in pool.randomElement(using: &generator)! })
        }
        func double() -> Double {
            switch Int.random(in: 0...3, using: &generator) {
            case 0: return Double(Int.random(in: -1000...1000, using: &generator))
            case 1: return Double.random(in: -1e6...1e6, using: &generator)
            case 2: return Double(bitPattern: UInt64.random(in: 0...0x7FEF_FFFF_FFFF_FFFF, using: &generator))
            default: return [0.1, -0.0, 1e-300, .leastNonzeroMagnitude, .greatestFiniteMagnitude][Int.random(in: 0...4, using: &generator)]
            }
        }
        return AllTypes(
            bool: .random(using: &generator), int: .random(in: .min ... .max, using: &generator),
            int8: .random(in: .min ... .max, using: &generator), int16: .random(in: .min ... .max, using: &generator),
            int32: .random(in: .min ... .max, using: &generator), int64: .random(in: .min ... .max, using: &generator),
            uint: .random(in: .min ... .max, using: &generator), uint8: .random(in: .min ... .max, using: &generator),
            uint16: .random(in: .min ... .max, using: &generator), uint32: .random(in: .min ... .max, using: &generator),
            uint64: .random(in: .min ... .max, using: &generator), float: Float.random(in: -1e6...1e6, using: &generator),
            double: double(),
            decimal: Decimal(string: "\(Int.random(in: -99999...99999, using: &generator)).\(Int.random(in: 0...9999, using: &generator))")!,
            string: text(), date: Date(timeIntervalSinceReferenceDate: Double(Int.random(in: -1_000_000_000...1_000_000_000, using: &generator))),
            data: Data((0..<Int.random(in: 0...20, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }),
            url: URL(string: "https://example.com/\(Int.random(in: 0...999, using: &generator))?q=1")!,
            uuid: UUID(uuid: (UInt8.random(in: 0...255, using: &generator), 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)),
            color: Color.allCases.randomElement(using: &generator)!,
            optional: Bool.random(using: &generator) ? Int.random(in: 0...9, using: &generator) : nil,
            missing: nil, array: (0..<Int.random(in: 0...5, using: &generator)).map { _ in Int.random(in: -9...9, using: &generator) },
            nested: [[double(), double()], []], dictionary: ["k\(Int.random(in: 0...9, using: &generator))": Inner(label: text(), weight: double())],
            inner: Inner(label: text(), weight: double()), inners: [Inner(label: text(), weight: double())],
            set: Set((0..<3).map { _ in text() }))
    }

    @Test(arguments: 0..<100)
    func seededRandomValuesAgreeWithFoundationBothWays(_ seed: Int) throws {
        var generator = SeededGenerator(seed: UInt64(seed) &+ 1000)
        let value = Self.random(&generator)
        let ours = try mapper.encodeData(value)
        #expect(try JSONDecoder().decode(AllTypes.self, from: ours) == value, "seed \(seed): \(String(decoding: ours, as: UTF8.self))")
        #expect(try mapper.decode(AllTypes.self, from: try JSONEncoder().encode(value)) == value)
        #expect(try mapper.decode(AllTypes.self, from: ours) == value)
    }

    struct Profile: Codable, Equatable {
        struct User: Codable, Equatable { var id: Int; var name: String }
        var users: [User]
    }

    @Test(arguments: [
        (#"{"users": [{"id": 1, "name": "a"}, {"id": "2", "name": "b"}]}"#, "$.users[1].id", "expected integer, found string"),
        (#"{"users": [{"id": 1}]}"#, "$.users[0].name", "missing"),
        (#"{"users": [{"id": 1, "name": null}]}"#, "$.users[0].name", "found null"),
        (#"{"users": {"id": 1}}"#, "$.users", "expected array, found object"),
        (#"{"users": [{"id": 1e400, "name": "x"}]}"#, "$.users[0].id", "does not fit")
    ])
    func invalidInputsThrowInBothAndOursNamesThePath(_ text: String, _ path: String, _ words: String) throws {
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(Profile.self, from: Data(text.utf8)) }
        let error = try #require(throws: DecodingError.self) { try mapper.decode(Profile.self, from: text) }
        let underlying = try #require(DecodingErrors.cartographError(error))
        #expect(underlying.path == path)
        #expect(underlying.line == 1 && underlying.column != nil)
        #expect("\(error)".contains(path))
        #expect("\(error)".contains(words))
    }

    @Test func syntaxErrorsAreDataCorruptedWithTheLocation() throws {
        let error = try #require(throws: DecodingError.self) { try mapper.decode(Profile.self, from: "{\"users\": [\n  {\"id\": 1,]}") }
        guard case .dataCorrupted(let context) = error else {
            Issue.record("expected dataCorrupted, got \(error)")
            return
        }
        #expect((context.underlyingError as? CartographError)?.line == 2)
    }

    @Test func integersDecodeExactlyOrThrow() throws {
        struct Small: Codable { var value: Int8 }
        #expect(try mapper.decode(Small.self, from: #"{"value": 127}"#).value == 127)
        #expect(try mapper.decode(Small.self, from: #"{"value": 1.0}"#).value == 1)
        #expect(throws: DecodingError.self) { try mapper.decode(Small.self, from: #"{"value": 128}"#) }
        #expect(throws: DecodingError.self) { try mapper.decode(Small.self, from: #"{"value": 1.5}"#) }
        struct Big: Codable, Equatable { var u: UInt64; var d: Decimal }
        let big = Big(u: .max, d: Decimal(string: "12345678901234567890.123456789")!)
        let written = try mapper.encodeString(big)
        #expect(written == #"{"u":18446744073709551615,"d":12345678901234567890.123456789}"#)
        #expect(try mapper.decode(Big.self, from: written) == big)
    }
}
