import Foundation
import Testing

@testable import Cartograph

/// Key templates kept from one encode to the next (``SharedKeyTemplates``):
/// a later encode's first object follows a template an earlier encode
/// learned, in the way of writing keys it was learned in only, and keys
/// that are data are never kept.
@Suite struct SharedKeyTemplateTests {
    /// Keys that the escaping options write differently. Its own type, so
    /// that no other test teaches its template.
    struct Escaped: Codable {
        var slash = 1
        var quote = "q"
        var accent = 3
        var nestedKey = 4
        var note: String?
        enum CodingKeys: String, CodingKey {
            case slash = "a/b"
            case quote = "q\"uote"
            case accent = "caf\u{E9}"
            case nestedKey
            case note
        }
    }

    /// Each way of writing keys, alternately, several times over: a
    /// template kept for one way and followed by another would write the
    /// first way's quoted keys.
    @Test func keptTemplatesHoldOnlyForTheWayTheyWereWrittenIn() throws {
        var mappers = StreamingEncoderTests.writeOptions.map { JSONMapper(writeOptions: $0) }
        for options in [WriteOptions { $0.escapeSlashes = true }, WriteOptions { $0.asciiOnly = true }] {
            for keys in [CodableOptions.KeyStrategy.snakeCase, .snakeCaseRoundTrip] {
                var mapper = JSONMapper(writeOptions: options)
                mapper.codableOptions.keys = keys
                mappers.append(mapper)
            }
        }
        let values = [Escaped(), Escaped(note: "n")]
        for round in 0..<3 {
            for (index, mapper) in mappers.enumerated() {
                for value in values {
                    try StreamingEncoderTests.expectStreamed(value, mapper, "round \(round), mapper \(index)")
                    try StreamingEncoderTests.expectStreamed([value, value], mapper, "round \(round), mapper \(index), array")
                }
            }
        }
        #expect(SharedKeyTemplates.shared.keepsTemplate(for: Escaped.CodingKeys.self, style: Self.defaultStyle))
    }

    static let defaultStyle = SharedKeyTemplates.Style(escaping: StringEscaping(escapeSlashes: false, asciiOnly: false), keys: .useDefaultKeys)

    /// Writes the keys it is given, in order, each with its position.
    struct Scripted: Encodable {
        enum Keys: String, CodingKey, CaseIterable { case id, name, kind, size, owner, tags, score, note }
        var keys: [Keys]
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            for (position, key) in keys.enumerated() { try container.encode(position, forKey: key) }
        }
    }

    /// After one encode has kept a template, each later encode's only
    /// object follows it from its first key: keys left out, swapped,
    /// repeated (the tree then writes the object) or all different are
    /// written as the tree writes them, and as Foundation reads them.
    @Test func laterEncodesFollowingAKeptTemplateWriteAsTheTreeWritesThem() throws {
        let mapper = JSONMapper()
        let all = Scripted.Keys.allCases
        try StreamingEncoderTests.expectStreamed(Scripted(keys: all), mapper)
        #expect(SharedKeyTemplates.shared.keepsTemplate(for: Scripted.Keys.self, style: Self.defaultStyle))
        var generator = SeededGenerator(seed: 0x5_4A2E)
        for _ in 0..<200 {
            var keys = all.filter { _ in Int.random(in: 0..<4, using: &generator) != 0 }
            if keys.count > 1, Bool.random(using: &generator) {
                keys.swapAt(Int.random(in: 0..<keys.count, using: &generator), Int.random(in: 0..<keys.count, using: &generator))
            }
            if Int.random(in: 0..<6, using: &generator) == 0, let repeated = keys.randomElement(using: &generator) { keys.append(repeated) }
            let value = Scripted(keys: keys)
            let (_, tree) = try StreamingEncoderTests.both(value, mapper)
            let bytes = try mapper.encode(value)
            #expect(bytes == tree, "\(keys)")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Int])
            #expect(Set(object.keys) == Set(keys.map(\.stringValue)))
            for (position, key) in keys.enumerated() where keys.lastIndex(of: key) == position {
                #expect(object[key.stringValue] == position, "\(keys)")
            }
        }
    }

    /// A key type that takes any string: its keys are data.
    struct DataKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// Keys named by the data it holds.
    struct DataKeyed: Encodable {
        var names: [String]
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: DataKey.self)
            for name in names { try container.encode(1, forKey: DataKey(stringValue: name)) }
        }
    }

    /// An enum that reads any unknown name as a case of its own: not
    /// known to be code, so not kept.
    enum FallbackKey: String, CodingKey {
        case id, other
        init?(stringValue: String) { self = FallbackKey(rawValue: stringValue) ?? .other }
    }

    struct FallbackKeyed: Encodable {
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: FallbackKey.self)
            try container.encode(1, forKey: .id)
            try container.encode(2, forKey: .other)
        }
    }

    /// A response's keys that are data (a dictionary's, a key type made
    /// for data) are not kept past its encode: they are its users' data.
    @Test func keysThatAreDataAreNotKept() throws {
        let marker = "secret-\(UInt64.random(in: 0...UInt64.max))"
        let mapper = JSONMapper()
        for _ in 0..<3 {
            _ = try mapper.encode([marker + "-a": 1, marker + "-b": 2, marker + "-c": 3])
            _ = try mapper.encode([[marker + "-d": 1, marker + "-e": 2], [marker + "-d": 1, marker + "-e": 2]])
            _ = try mapper.encode(DataKeyed(names: [marker + "-f", marker + "-g", marker + "-h"]))
            _ = try mapper.encode(FallbackKeyed())
        }
        #expect(!SharedKeyTemplates.shared.keptKeys().contains { $0.hasPrefix(marker) })
        #expect(!SharedKeyTemplates.shared.keepsTemplate(for: DataKey.self, style: Self.defaultStyle))
        #expect(!SharedKeyTemplates.shared.keepsTemplate(for: FallbackKey.self, style: Self.defaultStyle))
        #expect(SharedKeyTemplates.keysAreCode(Scripted.Keys.self))
        #expect(!SharedKeyTemplates.keysAreCode(DataKey.self))
    }

    /// A template is not replaced by one with fewer keys (an object that
    /// left optional keys out), and one with more replaces it.
    @Test func aKeptTemplateIsReplacedOnlyByOneWithMoreKeys() throws {
        enum Keys: String, CodingKey { case a, b, c, d }
        struct Partial: Encodable {
            var count: Int
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: Keys.self)
                for key in [Keys.a, .b, .c, .d].prefix(count) { try container.encode(1, forKey: key) }
            }
        }
        let shared = SharedKeyTemplates.shared
        #expect(shared.template(for: Keys.self, style: Self.defaultStyle) == nil)
        _ = try JSONMapper().encode(Partial(count: 3))
        #expect(shared.template(for: Keys.self, style: Self.defaultStyle)?.keys == ["a", "b", "c"])
        _ = try JSONMapper().encode(Partial(count: 2))
        #expect(shared.template(for: Keys.self, style: Self.defaultStyle)?.keys == ["a", "b", "c"])
        _ = try JSONMapper().encode(Partial(count: 4))
        #expect(shared.template(for: Keys.self, style: Self.defaultStyle)?.keys == ["a", "b", "c", "d"])
    }

    /// Encodes in several tasks at once, each way of writing keys in its
    /// own task, every output as the tree writes it.
    @Test func tasksEncodingAtOnceShareTemplates() async throws {
        struct Item: Codable {
            var identifier = 1
            var title = "t/x\u{E9}"
            var children: [Item] = []
        }
        let tree = Item(children: [Item(), Item(children: [Item()])])
        try await withThrowingTaskGroup(of: Void.self) { group in
            for option in StreamingEncoderTests.writeOptions {
                group.addTask {
                    let mapper = JSONMapper(writeOptions: option)
                    for _ in 0..<50 {
                        let (stream, expected) = try StreamingEncoderTests.both(tree, mapper)
                        #expect(stream == expected)
                        #expect(try mapper.encode(tree) == expected)
                    }
                }
            }
            try await group.waitForAll()
        }
    }
}
