import Foundation
import Testing

@testable import Cartograph

/// parse → encode → parse gives equal values.
@Suite struct RoundTripTests {
    static func randomString(_ generator: inout SeededGenerator) -> String {
        let pool: [Unicode.Scalar] = ["a", "Z", "0", " ", "\"", "\\", "/", "\n", "\t", "\u{0}", "\u{1F}", "é", "€", "😀", "中", "\u{7F}", "\u{2028}"]
        var text = ""
        for _ in 0..<Int.random(in: 0...12, using: &generator) {
            text.unicodeScalars.append(pool.randomElement(using: &generator)!)
        }
        return text
    }

    static func randomValue(_ generator: inout SeededGenerator, depth: Int = 0) -> JSONValue {
        let choice = Int.random(in: 0..<(depth > 4 ? 6 : 8), using: &generator)
        switch choice {
        case 0: return .null
        case 1: return .bool(Bool.random(using: &generator))
        case 2: return .number(JSONNumber(Int64.random(in: Int64.min...Int64.max, using: &generator)))
        case 3:
            let bits = UInt64.random(in: 0...UInt64.max, using: &generator)
            let double = Double(bitPattern: bits)
            return .number(JSONNumber(double.isFinite ? double : Double.random(in: -1e6...1e6, using: &generator)))
        case 4: return .number(JSONNumber(UInt64.random(in: UInt64(Int64.max)...UInt64.max, using: &generator)))
        case 5: return .string(randomString(&generator))
        case 6:
            return .array((0..<Int.random(in: 0...5, using: &generator)).map { _ in randomValue(&generator, depth: depth + 1) })
        default:
            var object = JSONObject()
            for _ in 0..<Int.random(in: 0...5, using: &generator) {
                object[randomString(&generator)] = randomValue(&generator, depth: depth + 1)
            }
            return .object(object)
        }
    }

    @Test(arguments: 0..<200)
    func seededRandomValueSurvivesEncodeAndParse(_ seed: Int) throws {
        var generator = SeededGenerator(seed: UInt64(seed))
        let value = Self.randomValue(&generator)
        for options in [
            WriteOptions(), .pretty,
            WriteOptions {
                $0.asciiOnly = true; $0.escapeSlashes = true; $0.sortedKeys = true
            }
        ] {
            let bytes = try value.encoded(options: options)
            #expect(try JSONValue(parsing: bytes) == value, "seed \(seed): \(String(decoding: bytes, as: UTF8.self))")
            let document = try Document(parsing: bytes)
            #expect(try JSONValue(parsing: try document.encoded(options: options)) == value)
        }
    }

    /// The two test fixtures, and two public files of shapes the project
    /// was not built on (Benchmarks/Data: simdjson's `jsonexamples`).
    static func corpusBytes(_ name: String) throws -> [UInt8] {
        if ["github_events.json", "citm_catalog.json"].contains(name) { return try GeneratedCorpusDecodingTests.bytes(name) }
        return try Fixtures.bytes(name)
    }

    @Test(arguments: ["twitter.json", "canada.json", "github_events.json", "citm_catalog.json"])
    func corpusFileRoundTripsToAnEqualValue(_ name: String) throws {
        let bytes = try Self.corpusBytes(name)
        let value = try JSONValue(parsing: bytes)
        #expect(try JSONValue(parsing: try value.encoded()) == value)
        #expect(try JSONValue(parsing: try value.encoded(options: .pretty)) == value)
        let document = try Document(parsing: bytes)
        #expect(try JSONValue(parsing: try document.encoded()) == value)
    }

    /// Through a property list and back (both formats): a null member is
    /// left out, a null element is `$null` in its place; the rest is equal.
    @Test(arguments: ["twitter.json", "github_events.json", "citm_catalog.json"])
    func corpusFileCrossesAPropertyList(_ name: String) throws {
        func planned(_ value: JSONValue) -> JSONValue {
            switch value {
            case .array(let elements): return .array(elements.map { $0.isNull ? .string("$null") : planned($0) })
            case .object(let object): return .object(JSONObject(object.members.filter { !$0.value.isNull }.map { ($0.key, planned($0.value)) }))
            default: return value
            }
        }
        let document = try Document(parsing: try Self.corpusBytes(name))
        let expected = planned(try document.root.jsonValue())
        let plist = PropertyListMapper()
        for format in PropertyListFormat.allCases {
            #expect(try plist.document(from: try plist.encode(document, format: format)).root.jsonValue() == expected, "\(name) \(format)")
        }
    }

    @Test(arguments: ["twitter.json", "github_events.json", "citm_catalog.json"])
    func corpusValueAgreesWithFoundation(_ name: String) throws {
        let bytes = try Self.corpusBytes(name)
        let ours = try JSONValue(parsing: bytes)
        let foundation = try JSONValue(any: try JSONSerialization.jsonObject(with: Data(bytes)))
        #expect(ours == foundation)
    }
}
