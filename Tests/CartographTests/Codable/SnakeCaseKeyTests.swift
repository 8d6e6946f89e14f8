import Foundation
import Testing

@testable import Cartograph

/// `CodableOptions.KeyStrategy.snakeCase` against Foundation's
/// `convertToSnakeCase` / `convertFromSnakeCase`: the same keys written, the
/// same JSON keys found for each coding key, the same `allKeys`, and
/// dictionary keys left alone — on the cases swift-foundation's own tests
/// name and on seeded random keys.
@Suite struct SnakeCaseKeyTests {
    struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ string: String) { stringValue = string }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// Writes one member per name (value: its position).
    struct Writer: Encodable {
        let names: [String]
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: AnyKey.self)
            for (position, name) in names.enumerated() { try container.encode(position, forKey: AnyKey(name)) }
        }
    }

    static let askedKey = CodingUserInfoKey(rawValue: "asked")!

    /// Asks for each coding key in `userInfo[askedKey]`; records what it found and `allKeys`.
    struct Reader: Decodable, Equatable {
        var found: [String: Int] = [:]
        var allKeys: [String] = []
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: AnyKey.self)
            for name in decoder.userInfo[SnakeCaseKeyTests.askedKey] as? [String] ?? [] {
                if let value = try container.decodeIfPresent(Int.self, forKey: AnyKey(name)) { found[name] = value }
            }
            allKeys = container.allKeys.map(\.stringValue).sorted()
        }
    }

    let mapper = JSONMapper(options: CodableOptions { $0.keys = .snakeCase })

    func foundationKeys(_ names: [String]) throws -> [String: Int] {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        return try JSONSerialization.jsonObject(with: encoder.encode(Writer(names: names))) as! [String: Int]
    }

    func cartographKeys(_ names: [String]) throws -> [String: Int] {
        try JSONSerialization.jsonObject(with: mapper.encodeData(Writer(names: names))) as! [String: Int]
    }

    /// Foundation's decoder and ours, reading snake_case keys and asking for `names`.
    func decoders(asking names: [String]) -> (foundation: JSONDecoder, cartograph: JSONMapper) {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        decoder.userInfo = [Self.askedKey: names]
        // Foundation keeps the first of repeated keys (canonically equal ones too).
        let ours = JSONMapper(
            options: CodableOptions {
                $0.keys = .snakeCase
                $0.userInfo = [Self.askedKey: names]
            }, parseOptions: ParseOptions { $0.duplicateKeys = .firstWins })
        return (decoder, ours)
    }

    func read(_ json: Data, asking names: [String]) throws -> (foundation: Reader, cartograph: Reader) {
        let (decoder, ours) = decoders(asking: names)
        return (try decoder.decode(Reader.self, from: json), try ours.decode(Reader.self, from: json))
    }

    /// Keys from swift-foundation's key-strategy tests and the issue's list.
    static let namedKeys = [
        "", "a", "A", "myProperty", "myURLProperty", "URLProperty", "userID", "_id", "__private", "trailing_", "_both_",
        "ALL_CAPS", "one_2_three", "snake_case_key", "alreadyCamel", "camel_Case", "__", "_", "a_", "_a", "a__b",
        "my_url", "MY_URL", "html5Parser", "createdAt1234", "überCool", "ÜberCool", "straße_name", "Ωmega_ω", "kind_ÉTÉ",
        "lowercase", "UPPERCASE", "mixedCASEWord", "aBC", "ABc", "x_Y_z",
        // Graphemes of several scalars, canonically equivalent spellings, and
        // swift-foundation's own test keys for them.
        "aB\u{301}c", "x_e\u{301}", "x_\u{E9}", "xE\u{301}", "x\u{C9}", "\u{212A}elvin_key", "kelvin_\u{212A}ey", "A\u{301}B\u{301}C",
        "asdfĆqer", "🐧🐟", "m͉̟̹y̦̳G͍͚͎̳r̤͉̤͕ͅea̲͕t͇̥̼͖U͇̝̠R͙̻̥͓̣L̥̖͎͓̪̫ͅR̩͖̩eq͈͓u̞e̱s̙t̤̺ͅ", "m͉̟̹y̦̳_g͍͚͎̳r̤͉̤͕ͅea̲͕t͇̥̼͖_u͇̝̠r͙̻̥͓̣l̥̖͎͓̪̫ͅ_r̩͖̩eq͈͓u̞e̱s̙t̤̺ͅ"
    ]

    /// The review's cases: a decomposed letter after an underscore fills
    /// the precomposed coding key, and with both spellings present the first wins.
    @Test func canonicallyEquivalentKeysReadAsFoundationReadsThem() throws {
        let cases = [
            #"{"x_e\u0301": 1}"#, #"{"x_e\u0301": 1, "x_\u00e9": 2}"#, #"{"x_\u00e9": 2, "x_e\u0301": 1}"#,
            #"{"\u212a_b": 1, "k_b": 2}"#, #"{"k_b": 2, "\u212a_b": 1}"#, #"{"a_\u00c5": 1, "a_A\u030a": 2, "a_\u212b": 3}"#
        ]
        let asked = ["x\u{C9}", "xE\u{301}", "x\u{E9}", "kB", "\u{212A}B", "a\u{C5}", "aA\u{30A}", "a\u{212B}"]
        for json in cases {
            let (foundation, cartograph) = try read(Data(json.utf8), asking: asked)
            #expect(!foundation.found.isEmpty, "\(json)")
            #expect(cartograph == foundation, "\(json)")
        }
        #expect(try cartographKeys(["aB\u{301}c"]) == ["a_b\u{301}c": 0])
    }

    /// Random keys of letters, combining marks and singletons (the Kelvin
    /// and Ångström signs), read through the decode's key table and, after
    /// an object that fills it, through the per-container fallback: both
    /// as Foundation reads them.
    @Test func canonicalKeysMatchFoundationThroughTheTableAndItsFallback() throws {
        var generator = SeededGenerator(seed: 0xC0_4B1E)
        let alphabet = ["a", "b", "e", "E", "k", "K", "_", "_", "\u{301}", "\u{30A}", "\u{E9}", "\u{C9}", "\u{212A}", "\u{212B}", "\u{C5}", "A"]
        let filler = "{" + (0..<SnakeCaseKeyTable.capacity).map { "\"filler_\($0)\": 0" }.joined(separator: ",") + "}"
        for round in 0..<120 {
            let names = (0..<Int.random(in: 1...5, using: &generator)).map { _ in
                (0..<Int.random(in: 1...6, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }.joined()
            }
            let object = "{" + names.enumerated().map { "\"\($1)\": \($0)" }.joined(separator: ",") + "}"
            let asked = names.flatMap { [$0, SnakeCaseKeys.fromSnakeCase($0), SnakeCaseKeys.toSnakeCase($0)] }
            // One array for both: two `Array(Set(names))` need not come out in
            // the same order (a set's order follows its storage's address).
            let unique = Array(Set(names))
            #expect(try cartographKeys(unique) == foundationKeys(unique), "written \(unique)")
            let (foundation, cartograph) = try read(Data(object.utf8), asking: asked)
            #expect(cartograph == foundation, "table: \(object)")
            if round % 4 == 0 {
                let (decoder, ours) = decoders(asking: asked)
                let json = Data("[\(filler), \(object)]".utf8)
                let theirs = try decoder.decode([Reader].self, from: json)
                #expect(try ours.decode([Reader].self, from: json)[1] == theirs[1], "fallback: \(object)")
            }
        }
    }

    @Test func writtenKeysMatchFoundation() throws {
        for name in Self.namedKeys {
            #expect(try cartographKeys([name]) == foundationKeys([name]), "key \(name)")
        }
    }

    @Test func readKeysMatchFoundation() throws {
        for name in Self.namedKeys {
            // The JSON key, and what it and its words might be asked as.
            let asked = [name, SnakeCaseKeys.fromSnakeCase(name), SnakeCaseKeys.toSnakeCase(name), name.lowercased()]
            let json = try JSONSerialization.data(withJSONObject: [name: 1])
            let (foundation, cartograph) = try read(json, asking: asked)
            #expect(cartograph == foundation, "JSON key \(name)")
        }
    }

    @Test func theFirstOfKeysThatConvertAlikeWins() throws {
        let json = Data(#"{"user_name": 1, "userName": 2, "user__name": 3}"#.utf8)
        let (foundation, cartograph) = try read(json, asking: ["userName"])
        #expect(foundation.found == ["userName": 1])
        #expect(cartograph == foundation)
    }

    @Test func seededRandomKeysMatchFoundationBothWays() throws {
        var generator = SeededGenerator(seed: 0x5EED_CA5E)
        let alphabet = ["a", "b", "x", "A", "B", "U", "R", "L", "_", "_", "1", "2", "é", "É", "ß", "Ω", "ω"]
        for _ in 0..<400 {
            let names = (0..<Int.random(in: 1...5, using: &generator)).map { _ in
                (0..<Int.random(in: 0...7, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }.joined()
            }
            let unique = Array(Set(names)).sorted()
            #expect(try cartographKeys(unique) == foundationKeys(unique), "keys \(unique)")
            var object: [String: Int] = [:]
            for (position, name) in unique.enumerated() { object[name] = position }
            let json = try JSONSerialization.data(withJSONObject: object)
            let asked = unique.flatMap { [$0, SnakeCaseKeys.fromSnakeCase($0), SnakeCaseKeys.toSnakeCase($0)] }
            let (foundation, cartograph) = try read(json, asking: asked)
            #expect(cartograph == foundation, "JSON keys \(unique)")
        }
    }

    /// Asks for each name in `userInfo[askedKey]`, decoding the member
    /// `child_node` (a nested record) halfway through, so an object's keys are
    /// still read after its child's were; records what it found and `allKeys`
    /// (sorted: Foundation's come from a dictionary, ours in document order).
    struct Record: Decodable, Equatable {
        var found: [String: Int] = [:]
        var allKeys: [String] = []
        var child: [Record]?
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: AnyKey.self)
            let names = decoder.userInfo[SnakeCaseKeyTests.askedKey] as? [String] ?? []
            for (position, name) in names.enumerated() {
                if position == names.count / 2 { child = try container.decodeIfPresent([Record].self, forKey: AnyKey("childNode")) }
                if let value = try container.decodeIfPresent(Int.self, forKey: AnyKey(name)) { found[name] = value }
            }
            allKeys = container.allKeys.map(\.stringValue).sorted()
        }
    }

    /// One decode of many objects whose keys come from a vocabulary larger
    /// than the decode's key table starts with, keys that convert alike in
    /// every order, objects nested in objects, and keys repeated as they are
    /// within an object: what is found, and `allKeys`, as Foundation's.
    @Test func manyObjectsOfOneDecodeMatchFoundation() throws {
        var generator = SeededGenerator(seed: 0xC0FF_EE11)
        let alike = ["user_name", "userName", "user__name", "USER_NAME", "User_Name", "_user_name", "user_name_"]
        let vocabulary = alike + (0..<220).map { "field_\($0)_\(["id", "URL", "name", "é_x", "count"][$0 % 5])" }
        func object(depth: Int) -> String {
            let count = Int.random(in: 0...14, using: &generator)
            var members = (0..<count).map { _ in
                "\"\(vocabulary.randomElement(using: &generator)!)\": \(Int.random(in: 0...999, using: &generator))"
            }
            if depth < 2, Bool.random(using: &generator) {
                let children = (0..<Int.random(in: 0...3, using: &generator)).map { _ in object(depth: depth + 1) }
                members.insert("\"child_node\": [\(children.joined(separator: ", "))]", at: Int.random(in: 0...members.count, using: &generator))
            }
            return "{" + members.joined(separator: ", ") + "}"
        }
        let json = Data(("[" + (0..<300).map { _ in object(depth: 0) }.joined(separator: ", ") + "]").utf8)
        let asked =
            ["userName", "user_name", "_userName", "userName_"] + vocabulary.map { SnakeCaseKeys.fromSnakeCase($0) }.shuffled(using: &generator)
        var (decoder, ours) = decoders(asking: asked)
        // A key repeated as it is: JSONDecoder keeps the first, as the
        // drop-in decoder does (JSONMapper's default keeps the last).
        ours.parseOptions.duplicateKeys = .firstWins
        let foundation = try decoder.decode([Record].self, from: json)
        let cartograph = try ours.decode([Record].self, from: json)
        #expect(foundation.count == 300)
        #expect(foundation.contains { !$0.found.isEmpty && $0.child?.isEmpty == false })
        #expect(cartograph == foundation)
    }

    /// More distinct keys than a decode's table holds (an input built to
    /// grow it): the table stops at its capacity, objects with keys it has
    /// not met are converted one by one, objects with keys it holds still
    /// use it — and what is found, and `allKeys`, are Foundation's all the
    /// way through.
    @Test func moreDistinctKeysThanTheTableHoldsStillMatchFoundation() throws {
        let capacity = SnakeCaseKeyTable.capacity
        let full = "{" + (0..<capacity).map { "\"key_\($0)\": \($0)" }.joined(separator: ", ") + "}"
        let json = "[\(full), {\"user_name\": 1, \"new_key\": 2, \"userName\": 3}, {\"key_7\": 7, \"key_100\": 8}]"
        let document = try Document(parsing: Array(json.utf8))
        let table = SnakeCaseKeyTable()
        var list: [SnakeCaseKeyTable.Listed] = []
        let objects = try document.root.array().map(\.index)
        #expect(table.list(objects[0], tape: document.reader, into: &list))
        #expect(list.count == capacity && table.count == capacity)
        #expect(!table.list(objects[1], tape: document.reader, into: &list))
        #expect(table.count == capacity)
        // Keys it holds: the table still serves.
        #expect(table.list(objects[2], tape: document.reader, into: &list))
        #expect(list.count == 2)

        let asked = ["key7", "key100", "userName", "newKey", "key_7"]
        let (decoder, ours) = decoders(asking: asked)
        let data = Data(json.utf8)
        let foundation = try decoder.decode([Reader].self, from: data)
        #expect(foundation[1].found == ["userName": 1, "newKey": 2] && foundation[2].found == ["key7": 7, "key100": 8])
        #expect(try ours.decode([Reader].self, from: data) == foundation)
    }

    class Account: Codable, Equatable {
        let accountId: Int
        let displayName: String
        let avatarUrl: URL?

        static func == (lhs: Account, rhs: Account) -> Bool {
            type(of: lhs) == type(of: rhs) && lhs.accountId == rhs.accountId && lhs.displayName == rhs.displayName
                && lhs.avatarUrl == rhs.avatarUrl && lhs.isEqual(to: rhs)
        }

        func isEqual(to other: Account) -> Bool { true }
    }

    /// Reads its own keys, then its base's from the same object through
    /// `super.init(from:)` (a second container over the object).
    final class Organization: Account {
        let membersCount: Int
        let billingEmail: String?

        enum CodingKeys: String, CodingKey { case membersCount, billingEmail }

        required init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            membersCount = try container.decode(Int.self, forKey: .membersCount)
            billingEmail = try container.decodeIfPresent(String.self, forKey: .billingEmail)
            try super.init(from: decoder)
        }

        override func isEqual(to other: Account) -> Bool {
            guard let other = other as? Organization else { return false }
            return membersCount == other.membersCount && billingEmail == other.billingEmail
        }
    }

    /// A class model and its subclass under snake_case reading: the
    /// subclass's keys and its base's, read from one object by two
    /// containers, as Foundation reads them; a missing key named as
    /// Foundation names it.
    @Test func aSubclassAndItsBaseReadOneObjectAsFoundationDoes() throws {
        let json = Data(
            #"""
            [{"members_count": 3, "account_id": 7, "display_name": "Acme", "avatar_url": "https://example.com/a.png", "billing_email": null},
             {"account_id": 8, "display_name": "Beta", "billing_email": "b@example.com", "membersCount": 12},
             {"Display_Name": "Gamma", "account_id": 9, "members_count": 0, "ACCOUNT_ID": 10}]
            """#.utf8)
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        let foundation = try decoder.decode([Organization].self, from: json)
        #expect(try mapper.decode([Organization].self, from: json) == foundation)
        #expect(foundation.map(\.accountId) == [7, 8, 9] && foundation[2].displayName == "Gamma")
        let missing = Data(#"[{"account_id": 1, "display_name": "x", "member_count": 2}]"#.utf8)
        #expect(throws: DecodingError.self) { try decoder.decode([Organization].self, from: missing) }
        do {
            _ = try mapper.decode([Organization].self, from: missing)
            Issue.record("a missing key decoded")
        } catch DecodingError.keyNotFound(let key, let context) {
            #expect(key.stringValue == "membersCount")
            #expect(context.codingPath.map(\.stringValue) == ["Index 0"])
        }
    }

    struct Catalog: Codable, Equatable {
        var itemCount: Int
        var pricesByName: [String: Double]
        var nestedMaps: [String: [String: Int]]
    }

    @Test func dictionaryKeysAreLeftAloneBothWays() throws {
        let catalog = Catalog(itemCount: 2, pricesByName: ["green_tea": 1.5, "blackCoffee": 2], nestedMaps: ["outer_key": ["inner_key": 1]])
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.outputFormatting = .sortedKeys
        let foundationJSON = try encoder.encode(catalog)
        let ours = JSONMapper(options: CodableOptions { $0.keys = .snakeCase }, writeOptions: WriteOptions { $0.sortedKeys = true })
        let oursText = String(decoding: try ours.encodeData(catalog), as: UTF8.self)
        let foundationText = String(decoding: foundationJSON, as: UTF8.self)
        #expect(oursText == foundationText)
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        #expect(try ours.decode(Catalog.self, from: foundationJSON) == catalog)
        #expect(try decoder.decode(Catalog.self, from: foundationJSON) == catalog)
    }
}
