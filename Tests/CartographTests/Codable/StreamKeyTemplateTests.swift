import Foundation
import Testing

@testable import Cartograph

/// The streaming encoder's key templates (``StreamKeyLog``, ``KeyTemplate``):
/// objects of one `CodingKey` type that follow the keys an earlier one
/// wrote, skip some, repeat one, bring new ones or write another key's
/// canonically equivalent spelling are written as the tree writes them.
@Suite struct StreamKeyTemplateTests {
    /// Writes its keys in order, each with its position as the value.
    struct Scripted: Encodable {
        var names: [String]
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: StringKey.self)
            for (position, name) in names.enumerated() { try container.encode(position, forKey: StringKey(name)) }
        }
    }

    /// The stream (when it keeps the value) and the mapper write the tree's bytes.
    static func expectAsTheTree<T: Encodable>(
        _ value: T, _ mapper: JSONMapper, _ comment: String, sourceLocation: Testing.SourceLocation = #_sourceLocation
    )
        throws
    {
        let (stream, tree) = try StreamingEncoderTests.both(value, mapper)
        if let stream {
            #expect(String(decoding: stream, as: UTF8.self) == String(decoding: tree, as: UTF8.self), "\(comment)", sourceLocation: sourceLocation)
        }
        #expect(try mapper.encode(value) == tree, "\(comment)", sourceLocation: sourceLocation)
    }

    /// One element's keys: the base order with keys left out, swapped,
    /// repeated or new ones put in, at the given rates (percent).
    static func script(_ base: [String], omit: Int, swap: Int, repeatKey: Int, newKey: Int, using generator: inout SeededGenerator) -> [String] {
        var names: [String] = []
        for name in base {
            let roll = Int.random(in: 0..<100, using: &generator)
            if roll < omit { continue }
            names.append(name)
            if Int.random(in: 0..<100, using: &generator) < repeatKey, let earlier = names.randomElement(using: &generator) { names.append(earlier) }
            if Int.random(in: 0..<100, using: &generator) < newKey { names.append("new\(Int.random(in: 0..<5, using: &generator))") }
        }
        if names.count > 1, Int.random(in: 0..<100, using: &generator) < swap {
            names.swapAt(Int.random(in: 0..<names.count, using: &generator), Int.random(in: 0..<names.count, using: &generator))
        }
        return names
    }

    @Test(arguments: 0..<StreamingEncoderTests.writeOptions.count)
    func arraysOfObjectsWithVaryingKeysAreWrittenAsTheTreeWritesThem(_ option: Int) throws {
        let mapper = JSONMapper(writeOptions: StreamingEncoderTests.writeOptions[option])
        var generator = SeededGenerator(seed: UInt64(0x7E_3D + option))
        // Key names that every escaping option treats differently.
        let alphabet = ["id", "name", "a/b", "q\"uote", "caf\u{E9}", "\u{1F600}", "tab\t", "x"]
        for size in [2, 3, 9, 20, 63, 64, 65, 70] {
            let base = (0..<size).map { alphabet[$0 % alphabet.count] + "\($0)" }
            for rates in [(0, 0, 0, 0), (20, 0, 0, 0), (10, 5, 0, 5), (5, 20, 3, 10), (60, 0, 0, 0)] {
                let elements = (0..<12).map { _ in
                    Scripted(names: Self.script(base, omit: rates.0, swap: rates.1, repeatKey: rates.2, newKey: rates.3, using: &generator))
                }
                try Self.expectAsTheTree(elements, mapper, "size \(size) rates \(rates)")
            }
        }
    }

    /// A template learned from one spelling is not written for another that
    /// `String` equality calls the same: each object writes its own bytes.
    /// One `CodingKey` type per `Tag` (the synthesized keys of a generic
    /// type are a type of their own in each specialisation).
    struct Tagged<Tag>: Encodable {
        var id: Int
        var name: String
        var note: String?
    }

    /// Objects of 24 key types, each type met several times: more types
    /// than the template table compares in its list, so the last ones are
    /// kept and found in its dictionary.
    struct ManyKeyTypes: Encodable {
        func encode(to encoder: any Encoder) throws {
            var container = encoder.unkeyedContainer()
            for round in 0..<3 {
                func put<Tag>(_: Tag.Type, _ index: Int) throws {
                    try container.encode(Tagged<Tag>(id: index * 10 + round, name: "n\(index)", note: round == 1 ? nil : "r\(round)"))
                }
                try put(Int.self, 0); try put(String.self, 1); try put(Double.self, 2); try put(Bool.self, 3)
                try put(Int8.self, 4); try put(Int16.self, 5); try put(Int32.self, 6); try put(Int64.self, 7)
                try put(UInt.self, 8); try put(UInt8.self, 9); try put(UInt16.self, 10); try put(UInt32.self, 11)
                try put(UInt64.self, 12); try put(Float.self, 13); try put(Character.self, 14); try put([Int].self, 15)
                try put([String].self, 16); try put(Set<Int>.self, 17); try put(Int?.self, 18); try put([Int: Int].self, 19)
                try put(Substring.self, 20); try put(Data.self, 21); try put(Date.self, 22); try put(URL.self, 23)
            }
        }
    }

    @Test func objectsOfManyKeyTypesAreWrittenAsTheTreeWritesThem() throws {
        for option in StreamingEncoderTests.writeOptions.indices {
            try Self.expectAsTheTree(ManyKeyTypes(), JSONMapper(writeOptions: StreamingEncoderTests.writeOptions[option]), "option \(option)")
        }
        // And as Foundation reads it: every object, in order, with its keys.
        let json = try JSONMapper().encode(ManyKeyTypes())
        let objects = try #require(try JSONSerialization.jsonObject(with: Data(json)) as? [[String: Any]])
        #expect(objects.count == 72)
        #expect(objects.map { $0["id"] as? Int } == (0..<3).flatMap { round in (0..<24).map { $0 * 10 + round } })
        #expect(objects.filter { $0["note"] == nil }.count == 24)
    }

    /// The table itself: a template per type, found again (the same
    /// object), replaced, for types in its list and past it.
    @Test func theTemplateTableKeepsOneTemplatePerType() {
        final class Token {}
        let tokens = (0..<40).map { _ in Token() }
        var table = KeyTemplateTable()
        var kept: [KeyTemplate] = []
        for (index, token) in tokens.enumerated() {
            #expect(table[ObjectIdentifier(token)] == nil)
            let template = KeyTemplate(keys: ["k\(index)"], escaping: StringEscaping(escapeSlashes: false, asciiOnly: false))
            table.set(template, for: ObjectIdentifier(token))
            kept.append(template)
        }
        for (index, token) in tokens.enumerated() { #expect(table[ObjectIdentifier(token)] === kept[index], "type \(index)") }
        for index in [3, 17, 39] {
            let replacement = KeyTemplate(keys: ["r\(index)", "s"], escaping: StringEscaping(escapeSlashes: false, asciiOnly: false))
            table.set(replacement, for: ObjectIdentifier(tokens[index]))
            #expect(table[ObjectIdentifier(tokens[index])] === replacement)
        }
        #expect(table[ObjectIdentifier(tokens[4])] === kept[4])
        #expect(table[ObjectIdentifier(tokens[20])] === kept[20])
    }

    @Test func canonicallyEquivalentKeysKeepTheirOwnBytes() throws {
        let pairs = [
            ("\u{E9}", "e\u{301}"), ("e\u{301}", "\u{E9}"), ("K", "\u{212A}"), ("\u{212A}", "K"), (";", "\u{37E}"),
            ("a\u{301}\u{316}", "a\u{316}\u{301}")
        ]
        for (first, second) in pairs {
            let elements = [Scripted(names: [first, "b"]), Scripted(names: [second, "b"]), Scripted(names: [first, "b"])]
            for options in StreamingEncoderTests.writeOptions {
                try Self.expectAsTheTree(elements, JSONMapper(writeOptions: options), "\(first.debugDescription) then \(second.debugDescription)")
            }
            let written = try JSONMapper().encodeString(elements)
            #expect(written == #"[{"\#(first)":0,"b":1},{"\#(second)":0,"b":1},{"\#(first)":0,"b":1}]"#)
        }
    }

    /// A key written twice in an object that otherwise follows the template
    /// is found (the stream hands the value to the tree).
    @Test func aRepeatInAFollowingObjectIsFound() throws {
        let base = ["a", "b", "c", "d"]
        for repeated in [["a", "b", "c", "d", "a"], ["a", "b", "a"], ["a", "c", "b", "c"], ["a", "b", "c", "d", "d"]] {
            let elements = [Scripted(names: base), Scripted(names: repeated)]
            let (stream, tree) = try StreamingEncoderTests.both(elements, JSONMapper())
            #expect(stream == nil, "\(repeated)")
            #expect(try JSONMapper().encode(elements) == tree)
        }
        // Foundation's answer for the same repeat: one member with the last
        // value (its objects are unordered on Linux: compared as values).
        let value = [Scripted(names: base), Scripted(names: ["a", "b", "a"])]
        let foundation = try JSONSerialization.jsonObject(with: JSONEncoder().encode(value)) as? [[String: Int]]
        let ours = try JSONSerialization.jsonObject(with: CartographJSONEncoder().encode(value)) as? [[String: Int]]
        #expect(ours == foundation && ours?.last == ["a": 2, "b": 1])
        #expect(try JSONMapper().encodeString(value) == #"[{"a":0,"b":1,"c":2,"d":3},{"a":2,"b":1}]"#)
    }

    /// Two `CodingKey` types writing into one object (a class and its
    /// superclass through one encoder) each follow their own template, and a
    /// name both write is still a repeat.
    @Test func twoKeyTypesInOneObjectAreCheckedTogether() throws {
        struct Both: Encodable {
            var first: [String]
            var second: [String]
            func encode(to encoder: any Encoder) throws {
                var one = encoder.container(keyedBy: StringKey.self)
                for name in first { try one.encode(1, forKey: StringKey(name)) }
                var two = encoder.container(keyedBy: OtherKey.self)
                for name in second { try two.encode(2, forKey: OtherKey(stringValue: name)) }
            }
        }
        let elements = [
            Both(first: ["a", "b"], second: ["c", "d"]), Both(first: ["a", "b"], second: ["c", "d"]), Both(first: ["a"], second: ["c", "a"])
        ]
        try Self.expectAsTheTree(elements, JSONMapper(), "two key types")
        let (stream, _) = try StreamingEncoderTests.both(elements, JSONMapper())
        #expect(stream == nil)
    }

    /// A member whose value throws and is caught is undone, template match
    /// included: the same key can then be written.
    @Test func aCaughtErrorUndoesTheTemplateMatch() throws {
        struct Retrying: Encodable {
            struct Refused: Error {}
            struct Refusing: Encodable {
                func encode(to encoder: any Encoder) throws { throw Refused() }
            }
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: StringKey.self)
                try container.encode(1, forKey: StringKey("a"))
                try? container.encode(Refusing(), forKey: StringKey("b"))
                try container.encode(2, forKey: StringKey("b"))
                try container.encode(3, forKey: StringKey("c"))
            }
        }
        let elements = [Scripted(names: ["a", "b", "c"]), Scripted(names: ["a", "b", "c"])]
        let mixed: [AnyEncodable] = [AnyEncodable(elements[0]), AnyEncodable(Retrying()), AnyEncodable(elements[1])]
        try Self.expectAsTheTree(mixed, JSONMapper(), "retry")
        #expect(try JSONMapper().encodeString(mixed) == #"[{"a":0,"b":1,"c":2},{"a":1,"b":2,"c":3},{"a":0,"b":1,"c":2}]"#)
    }

    /// `[String: Value]` dictionaries share one key type: objects with
    /// unrelated keys each fall back to the log and are written in full.
    @Test func dictionariesWithUnrelatedKeysAreWrittenInFull() throws {
        var generator = SeededGenerator(seed: 0xD1C7)
        let dictionaries: [[String: Int]] = (0..<30).map { index in
            var dictionary: [String: Int] = [:]
            for _ in 0..<Int.random(in: 0..<80, using: &generator) { dictionary["k\(Int.random(in: 0..<90, using: &generator))"] = index }
            return dictionary
        }
        try Self.expectAsTheTree(dictionaries, JSONMapper(), "dictionaries")
        let decoded = try JSONDecoder().decode([[String: Int]].self, from: Data(try JSONMapper().encode(dictionaries)))
        #expect(decoded == dictionaries)
    }
}

/// A second key type of plain names.
private struct OtherKey: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { return nil }
}

/// Any encodable value, for arrays that mix types.
private struct AnyEncodable: Encodable {
    let value: any Encodable
    init(_ value: any Encodable) { self.value = value }
    func encode(to encoder: any Encoder) throws { try value.encode(to: encoder) }
}
