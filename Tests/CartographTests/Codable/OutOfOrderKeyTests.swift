import Foundation
import Testing

@testable import Cartograph

/// Objects whose keys come in another order than the type asks for them
/// (Foundation's `JSONEncoder` writes a struct's keys in hash order): each
/// lookup misses its hint and searches the object, and every answer is the
/// one Foundation's `JSONDecoder` gives (or, for repeated keys, the one the
/// duplicate policy names).
@Suite struct OutOfOrderKeyTests {
    private struct Line: Codable, Equatable {
        var sku: String
        var quantity: Int
        var price: Double
        var tags: [String]
    }

    private struct Order: Codable, Equatable {
        var id: Int
        var name: String
        var email: String
        var active: Bool
        var score: Double
        var created: String
        var note: String?
        var lines: [Line]
        var billing: Line?
    }

    /// `{"key":value,...}` with the members in `order`.
    private func object(_ members: [(String, String)], order: [Int]) -> String {
        "{" + order.map { "\"\(members[$0].0)\":\(members[$0].1)" }.joined(separator: ",") + "}"
    }

    private func line(_ index: Int, using generator: inout SeededGenerator) -> String {
        let members = [
            ("sku", "\"SKU-\(index)\""), ("quantity", "\(index % 7)"), ("price", "\(Double(index) / 8)"),
            ("tags", "[\"t\(index)\",\"sale\"]")
        ]
        return object(members, order: Array(members.indices).shuffled(using: &generator))
    }

    private func order(_ index: Int, using generator: inout SeededGenerator) -> String {
        var members = [
            ("id", "\(index)"), ("name", "\"Customer \(index) Ölmez\""), ("email", "\"c\(index)@example.com\""),
            ("active", index % 2 == 0 ? "true" : "false"), ("score", "\(Double(index) * 1.375)"),
            ("created", "\"2026-11-\(10 + index % 18)\""),
            ("lines", "[" + (0..<(index % 3)).map { line(index * 10 + $0, using: &generator) }.joined(separator: ",") + "]")
        ]
        // Optional members: absent, null or present.
        switch index % 3 {
        case 0: members.append(("note", "null"))
        case 1: members.append(("note", "\"ring twice\""))
        default: break
        }
        if index % 2 == 1 { members.append(("billing", line(index, using: &generator))) }
        return object(members, order: Array(members.indices).shuffled(using: &generator))
    }

    @Test func objectsInAnyKeyOrderDecodeAsFoundationDecodesThem() throws {
        var generator = SeededGenerator(seed: 42)
        let json = "[" + (0..<200).map { order($0, using: &generator) }.joined(separator: ",") + "]"
        let ours = try JSONMapper().decode([Order].self, from: Array(json.utf8))
        let theirs = try JSONDecoder().decode([Order].self, from: Data(json.utf8))
        #expect(ours.count == 200)
        #expect(ours == theirs)
        // Through the drop-in decoder too.
        #expect(try CartographJSONDecoder().decode([Order].self, from: Data(json.utf8)) == theirs)
    }

    private enum LongKeys: String, CodingKey {
        // 17 bytes each: the same length, the same first and last eight bytes.
        case first = "aaaaaaaaXbbbbbbbb"
        case second = "aaaaaaaaYbbbbbbbb"
        case third = "aaaaaaaaZbbbbbbbb"
    }

    private struct Colliding: Decodable, Equatable {
        var first: Int, second: Int, third: Int
        init(first: Int, second: Int, third: Int) { (self.first, self.second, self.third) = (first, second, third) }
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: LongKeys.self)
            first = try container.decode(Int.self, forKey: .first)
            second = try container.decode(Int.self, forKey: .second)
            third = try container.decode(Int.self, forKey: .third)
        }
    }

    @Test func keysSharingTheirLengthAndEndsAreToldApart() throws {
        // Read first, second, third from an object in the reverse order: every lookup misses the hint.
        let json = #"{"aaaaaaaaZbbbbbbbb":3,"aaaaaaaaYbbbbbbbb":2,"aaaaaaaaXbbbbbbbb":1}"#
        let ours = try JSONMapper().decode(Colliding.self, from: Array(json.utf8))
        #expect(ours == Colliding(first: 1, second: 2, third: 3))
    }

    private enum ShortKeys: String, CodingKey { case a, b, c, d, e }

    private struct Reversed: Decodable, Equatable {
        var values: [String: Int?] = [:]
        init(values: [String: Int?]) { self.values = values }
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: ShortKeys.self)
            for key in [ShortKeys.e, .d, .b, .c, .a] { values[key.stringValue] = try container.decodeIfPresent(Int.self, forKey: key) }
        }
    }

    @Test func repeatedKeysReadOutOfOrderFollowTheDuplicatePolicy() throws {
        let json = #"{"a":1,"c":3,"b":2,"a":10,"d":4,"c":30}"#
        for (policy, a, c) in [(DuplicateKeyPolicy.lastWins, 10, 30), (.firstWins, 1, 3)] {
            let mapper = JSONMapper(parseOptions: ParseOptions { $0.duplicateKeys = policy })
            let ours = try mapper.decode(Reversed.self, from: Array(json.utf8))
            #expect(ours == Reversed(values: ["a": a, "b": 2, "c": c, "d": 4, "e": nil]), "\(policy)")
        }
    }

    @Test func aKeyAbsentFromAnObjectReadOutOfOrderIsReportedAsMissing() throws {
        // `b` and `a` miss the hint, then `x` is searched for in the whole object.
        struct Probe: Decodable {
            enum Keys: String, CodingKey { case b, a, x }
            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: Keys.self)
                _ = try container.decode(Int.self, forKey: .b)
                _ = try container.decode(Int.self, forKey: .a)
                _ = try container.decode(Int.self, forKey: .x)
            }
        }
        let json = #"{"a":1,"c":3,"b":2}"#
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(Probe.self, from: Data(json.utf8)) }
        do {
            _ = try JSONMapper().decode(Probe.self, from: Array(json.utf8))
            Issue.record("decoded an object without the key x")
        } catch let error as DecodingError {
            guard case .keyNotFound(let key, _) = error else { Issue.record("\(error)"); return }
            #expect(key.stringValue == "x")
        } catch let error as CartographError {
            #expect(error.message.contains("x"), "\(error)")
        }
    }

    @Test func aCanonicallyEquivalentKeyIsFoundOutOfOrder() throws {
        // The JSON spells "café" decomposed; the coding key is precomposed.
        // Foundation finds it (String equality); so does the search past the bytes.
        struct Menu: Decodable, Equatable {
            enum Keys: String, CodingKey { case tea, cafe = "caf\u{E9}", water }
            var tea: Int, cafe: Int, water: Int
            init(tea: Int, cafe: Int, water: Int) { (self.tea, self.cafe, self.water) = (tea, cafe, water) }
            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: Keys.self)
                tea = try container.decode(Int.self, forKey: .tea)
                water = try container.decode(Int.self, forKey: .water)
                cafe = try container.decode(Int.self, forKey: .cafe)
            }
        }
        let json = "{\"water\":3,\"cafe\u{301}\":2,\"tea\":1}"
        let theirs = try JSONDecoder().decode(Menu.self, from: Data(json.utf8))
        let ours = try JSONMapper().decode(Menu.self, from: Array(json.utf8))
        #expect(theirs == Menu(tea: 1, cafe: 2, water: 3))
        #expect(ours == theirs)
    }

    /// Nested `depth` levels, each level's keys in reverse order.
    private indirect enum Nest: Decodable, Equatable {
        case leaf
        case level(Int, String, Nest)
        private enum Keys: String, CodingKey { case number, text, inner }
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Keys.self)
            guard let number = try container.decodeIfPresent(Int.self, forKey: .number) else {
                self = .leaf
                return
            }
            let text = try container.decode(String.self, forKey: .text)
            self = .level(number, text, try container.decode(Nest.self, forKey: .inner))
        }
    }

    @Test func deeplyNestedObjectsReadOutOfOrderFindTheirOwnKeys() throws {
        let depth = 74
        var json = "{}"
        var expected = Nest.leaf
        for level in (0..<depth).reversed() {
            json = "{\"inner\":\(json),\"text\":\"t\(level)\",\"number\":\(level)}"
            expected = .level(level, "t\(level)", expected)
        }
        #expect(try JSONMapper().decode(Nest.self, from: Array(json.utf8)) == expected)
    }
}

/// Fourteen members, past ``ObjectKeyList/minimumKeys``: read out of order,
/// an object's keys are listed after its second miss, by the `Codable`
/// decoder and by the mapping layer's cursor alike.
@Mappable
private struct WideRecord: Codable, Equatable {
    var id = 0
    var tags: [String] = []
    var name = ""
    var active = false
    var email = ""
    var score = 0.0
    var note: String?
    var created = ""
    var count = 0
    var ratio = 0.0
    var city = ""
    var zip = ""
    var country: String?
    var flag = false
}

/// `extra` and the fourteen keys of ``WideRecord``, under another key
/// type: reads them last to first (`extra` after the object is listed),
/// then asks for a key `absent`.
private struct ReversedWide: Decodable {
    static let names = [
        "extra", "id", "name", "email", "active", "score", "created", "note", "tags", "count", "ratio", "city", "zip", "country", "flag"
    ]
    var values: [String: String] = [:]
    var absentFound = false
    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: StringKey.self)
        for name in Self.names.reversed() {
            if let value = try? container.decodeIfPresent(JSONValue.self, forKey: StringKey(name)) {
                values[name] = try value.encodedString()
            }
        }
        absentFound = container.contains(StringKey("absent"))
    }
}

@Suite struct OutOfOrderWideObjectTests {
    private func member(_ name: String, _ index: Int) -> String {
        switch name {
        case "id", "count": return "\(index * 7)"
        case "active", "flag": return index % 2 == 0 ? "true" : "false"
        case "score", "ratio": return "\(Double(index) / 4)"
        case "tags": return "[\"t\(index)\",\"u\"]"
        default: return "\"\(name) \(index) \u{e9}\""
        }
    }

    /// Record `index` with its keys shuffled; `note` and `country` absent, null or present by turns.
    private func record(_ index: Int, using generator: inout SeededGenerator) -> String {
        var names = ReversedWide.names.filter { $0 != "extra" }
        if index % 3 == 0 { names.removeAll { $0 == "note" } }
        if index % 3 == 1 { names.removeAll { $0 == "country" } }
        names.shuffle(using: &generator)
        let members = names.map { name in
            let value = (name == "note" || name == "country") && index % 3 == 2 ? "null" : member(name, index)
            return "\"\(name)\":\(value)"
        }
        return "{" + members.joined(separator: ",") + "}"
    }

    @Test func wideObjectsInAnyKeyOrderDecodeAsFoundationDecodesThem() throws {
        var generator = SeededGenerator(seed: 7)
        let json = "[" + (0..<150).map { record($0, using: &generator) }.joined(separator: ",") + "]"
        let theirs = try JSONDecoder().decode([WideRecord].self, from: Data(json.utf8))
        #expect(theirs.count == 150)
        #expect(try JSONMapper().decode([WideRecord].self, from: Array(json.utf8)) == theirs)
        var registry = ModelRegistry()
        registry.register(WideRecord.self)
        // Through the @Mappable mapping (the mapping layer's cursor).
        #expect(try JSONMapper(registry: registry).decode([WideRecord].self, from: Array(json.utf8)) == theirs)
    }

    @Test func aListedObjectAnswersRepeatedAndAbsentKeys() throws {
        // Sixteen members, "extra" twice (the duplicate policy picks one),
        // read last to first, then a key the object does not have.
        let members = ReversedWide.names.enumerated().map { "\"\($1)\":\($0)" } + ["\"extra\":99"]
        let json = "{" + members.joined(separator: ",") + "}"
        for (policy, extra) in [(DuplicateKeyPolicy.lastWins, "99"), (.firstWins, "0")] {
            let mapper = JSONMapper(parseOptions: ParseOptions { $0.duplicateKeys = policy })
            let read = try mapper.decode(ReversedWide.self, from: Array(json.utf8))
            #expect(read.values.count == 15, "\(policy)")
            #expect(read.values["extra"] == extra, "\(policy)")
            #expect(read.values["id"] == "1" && read.values["flag"] == "14", "\(policy)")
            #expect(!read.absentFound, "\(policy)")
        }
    }

    @Test func aListedObjectFindsACanonicallyEquivalentKey() throws {
        // The JSON spells "café" decomposed; the key asked for is precomposed,
        // after twelve other keys read from the end.
        struct Menu: Decodable {
            var cafe: Int?
            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: StringKey.self)
                for index in (0..<12).reversed() { _ = try container.decode(Int.self, forKey: StringKey("k\(index)")) }
                cafe = try container.decodeIfPresent(Int.self, forKey: StringKey("caf\u{E9}"))
            }
        }
        let json = "{\"cafe\u{301}\":42," + (0..<12).map { "\"k\($0)\":\($0)" }.joined(separator: ",") + "}"
        #expect(try JSONDecoder().decode(Menu.self, from: Data(json.utf8)).cafe == 42)
        #expect(try JSONMapper().decode(Menu.self, from: Array(json.utf8)).cafe == 42)
    }

    @Test func listedKeysSharingLengthAndEndsAreToldApart() throws {
        // Three 17-byte keys alike but for their middle byte, among ten others, read from the end.
        let names = ["aaaaaaaaXbbbbbbbb", "aaaaaaaaYbbbbbbbb", "aaaaaaaaZbbbbbbbb"] + (0..<10).map { "filler\($0)" }
        struct Reader: Decodable {
            var values: [String: Int] = [:]
            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: StringKey.self)
                for key in container.allKeys.reversed() { values[key.stringValue] = try container.decode(Int.self, forKey: key) }
            }
        }
        let json = "{" + names.enumerated().map { "\"\($1)\":\($0)" }.joined(separator: ",") + "}"
        let read = try JSONMapper().decode(Reader.self, from: Array(json.utf8))
        #expect(read.values == Dictionary(uniqueKeysWithValues: names.enumerated().map { ($1, $0) }))
    }

    @Test func theCursorListsAnObjectReadOutOfOrder() throws {
        let names = (0..<13).map { "key\($0)" }
        let json = "{" + names.enumerated().map { "\"\($1)\":\($0)" }.joined(separator: ",") + ",\"key3\":30}"
        let document = try Document(parsing: Array(json.utf8))
        var cursor = try document.root.object().cursor()
        // Last to first: every lookup misses the member after the last one found.
        for (index, name) in names.enumerated().reversed() {
            let value = cursor.value(forKey: Array(name.utf8).span).flatMap { try? $0.int64() }
            #expect(value == Int64(name == "key3" ? 30 : index), "\(name)")
        }
        #expect(cursor.list != nil)
        #expect(cursor.value(forKey: Array("missing".utf8).span) == nil)
    }
}

/// A non-final `@Mappable` class of ten properties and a subclass adding
/// four (fourteen keys: listed when read out of order), registered as the
/// seed libraries register their models, with class inference.
@Mappable
private class Account {
    var id = 0
    var name = ""
    var email = ""
    var active = false
    var score = 0.0
    var created = ""
    var note: String?
    var tags: [String] = []
    var city = ""
    var zip = ""
}

@Mappable
private final class PremiumAccount: Account {
    var tier = 0
    var ratio = 0.0
    var country: String?
    var flag = false
}

@Suite struct OutOfOrderClassModelTests {
    /// Fourteen members of a premium account (every third one a plain
    /// account of ten), in document order or shuffled.
    private func account(_ index: Int, shuffled: Bool, using generator: inout SeededGenerator) -> String {
        var members = [
            "\"id\":\(index)", "\"name\":\"n\(index)\"", "\"email\":\"e\(index)@x.org\"", "\"active\":\(index % 2 == 0)",
            "\"score\":\(Double(index) / 2)", "\"created\":\"2026-11-\(10 + index % 18)\"", "\"note\":\(index % 4 == 0 ? "null" : "\"x\"")",
            "\"tags\":[\"a\(index)\"]", "\"city\":\"c\(index)\"", "\"zip\":\"\(1000 + index)\""
        ]
        if index % 3 != 0 {
            members += ["\"tier\":\(index % 5)", "\"ratio\":\(Double(index) / 8)", "\"country\":\"CH\"", "\"flag\":true"]
        }
        if shuffled { members.shuffle(using: &generator) }
        return "{" + members.joined(separator: ",") + "}"
    }

    @Test func classModelsAndSubclassesReadOutOfOrderMatchTheSameRecordsInOrder() throws {
        var registry = ModelRegistry()
        registry.register(Account.self)
        registry.register(PremiumAccount.self)
        registry.identify { object, _ in object["tier"] != nil ? PremiumAccount.self : Account.self }
        try registry.validate()
        let mapper = JSONMapper(registry: registry)
        var generator = SeededGenerator(seed: 11)
        let ordered = "[" + (0..<60).map { account($0, shuffled: false, using: &generator) }.joined(separator: ",") + "]"
        let shuffled = "[" + (0..<60).map { account($0, shuffled: true, using: &generator) }.joined(separator: ",") + "]"
        let expected = try mapper.decode([Account].self, from: Array(ordered.utf8))
        let read = try mapper.decode([Account].self, from: Array(shuffled.utf8))
        #expect(read.count == 60)
        #expect(read.filter { $0 is PremiumAccount }.count == 40)
        // The same records either way, written back byte for byte alike.
        #expect(try mapper.encode(read) == mapper.encode(expected))
        let premium = try #require(read[1] as? PremiumAccount)
        #expect(premium.id == 1 && premium.zip == "1001" && premium.tier == 1 && premium.ratio == 0.125 && premium.country == "CH")
        #expect(read[0].note == nil && read[1].note == "x" && read[3].tags == ["a3"])
    }
}
