import Foundation
import Testing

@testable import Cartograph

/// `CartographJSONDecoder` / `CartographJSONEncoder` configured exactly as
/// Foundation's coders are, with Foundation's own strategy values: the same
/// bytes and the same values.
@Suite struct DropInCoderTests {
    struct Event: Codable, Equatable {
        var eventNumber: Int
        var title: String
        var startsAt: Date
        var payload: Data
        var ratio: Double
        var link: URL
        var tags: [String: Int]
    }

    static let event = Event(
        eventNumber: 7, title: "a/b \u{1}é", startsAt: Date(timeIntervalSince1970: 1_700_000_000), payload: Data([1, 2, 3]),
        ratio: 2, link: URL(string: "https://example.com/a/b")!, tags: ["some_tag": 1, "other": 2])

    @Test(arguments: [0, 1, 2, 3])
    func sameBytesAndValuesAsFoundation(_ variant: Int) throws {
        let foundationEncoder = JSONEncoder()
        let ourEncoder = CartographJSONEncoder()
        let foundationDecoder = JSONDecoder()
        let ourDecoder = CartographJSONDecoder()
        foundationEncoder.outputFormatting = .sortedKeys
        ourEncoder.outputFormatting = .sortedKeys
        switch variant {
        case 1:
            foundationEncoder.keyEncodingStrategy = .convertToSnakeCase
            ourEncoder.keyEncodingStrategy = .convertToSnakeCase
            foundationDecoder.keyDecodingStrategy = .convertFromSnakeCase
            ourDecoder.keyDecodingStrategy = .convertFromSnakeCase
        case 2:
            foundationEncoder.dateEncodingStrategy = .iso8601
            foundationEncoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            ourEncoder.dateEncodingStrategy = .iso8601
            ourEncoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            foundationDecoder.dateDecodingStrategy = .iso8601
            ourDecoder.dateDecodingStrategy = .iso8601
        case 3:
            let formatter = DateFormatter()
            formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
            formatter.timeZone = TimeZone(identifier: "UTC")
            formatter.locale = Locale(identifier: "en_US_POSIX")
            foundationEncoder.dateEncodingStrategy = .formatted(formatter)
            ourEncoder.dateEncodingStrategy = .formatted(formatter)
            foundationDecoder.dateDecodingStrategy = .formatted(formatter)
            ourDecoder.dateDecodingStrategy = .formatted(formatter)
            foundationEncoder.dataEncodingStrategy = .deferredToData
            ourEncoder.dataEncodingStrategy = .deferredToData
            foundationDecoder.dataDecodingStrategy = .deferredToData
            ourDecoder.dataDecodingStrategy = .deferredToData
        default: break
        }
        let theirs = try foundationEncoder.encode(Self.event)
        let ours = try ourEncoder.encode(Self.event)
        #expect(String(decoding: ours, as: UTF8.self) == String(decoding: theirs, as: UTF8.self))
        #expect(try ourDecoder.decode(Event.self, from: theirs) == foundationDecoder.decode(Event.self, from: theirs))
        #expect(try ourDecoder.decode(Event.self, from: ours) == Self.event)
    }

    /// `.prettyLikeFoundation` writes Foundation's layout from every source:
    /// `Codable`, a `JSONValue` and a parsed `Document` give `JSONEncoder`'s bytes.
    @Test func foundationPrettyLayoutFromEverySource() throws {
        let value: [String: [String: [Int]]] = ["b": ["x": [1, 2], "empty": []], "a": [:]]
        let foundation = JSONEncoder()
        foundation.outputFormatting = [.prettyPrinted, .sortedKeys]
        let expected = Array(try foundation.encode(value))
        let options = WriteOptions {
            $0.formatting = .prettyLikeFoundation; $0.sortedKeys = true
        }
        let document = try Document(parsing: expected)
        #expect(try document.encoded(options: options) == expected)
        #expect(try document.root.jsonValue().encoded(options: options) == expected)
        #expect(try JSONMapper(options: CodableOptions(), writeOptions: options).encode(value) == expected)
        #expect(String(decoding: expected, as: UTF8.self).contains("\"a\" : {\n\n  }"))
    }

    /// Foundation's `.custom` key strategies work both ways (the paths the
    /// closures see are compared with Foundation's in `FoundationCoderSuiteTests`).
    @Test func jsonMapperEncodesDataWhereDataIsAskedFor() throws {
        let mapper = JSONMapper()
        let data: Data = try mapper.encode(Self.event)
        let bytes = try mapper.encode(Self.event)
        #expect(type(of: bytes) == [UInt8].self)
        #expect(Array(data) == bytes)
        #expect(try mapper.decode(Event.self, from: Array(data)) == Self.event)
        // Where Foundation's encoder went, Cartograph's mapper goes unchanged.
        func store(_ body: Data) -> Int { body.count }
        #expect(store(try mapper.encode(Self.event)) == bytes.count)
    }

    @Test func customKeyStrategies() throws {
        let encoder = CartographJSONEncoder()
        encoder.keyEncodingStrategy = .custom { StringKey("k_" + $0.last!.stringValue) }
        encoder.outputFormatting = .sortedKeys
        let bytes = try encoder.encode(Self.event)
        #expect(String(decoding: bytes, as: UTF8.self).hasPrefix(#"{"k_eventNumber":7,"#))
        let decoder = CartographJSONDecoder()
        decoder.keyDecodingStrategy = .custom { StringKey(String($0.last!.stringValue.dropFirst(2))) }
        #expect(try decoder.decode(Event.self, from: bytes) == Self.event)
    }

    @Test func nonConformingFloatsAndUserInfo() throws {
        let encoder = CartographJSONEncoder()
        encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "+inf", negativeInfinity: "-inf", nan: "nan")
        #expect(String(decoding: try encoder.encode([Double.infinity, 1.5]), as: UTF8.self) == #"["+inf",1.5]"#)
        let decoder = CartographJSONDecoder()
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(positiveInfinity: "+inf", negativeInfinity: "-inf", nan: "nan")
        #expect(try decoder.decode([Double].self, from: Data(#"["+inf", 1.5]"#.utf8)) == [.infinity, 1.5])
    }
}
