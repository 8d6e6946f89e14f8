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

    func read(_ json: Data, asking names: [String]) throws -> (foundation: Reader, cartograph: Reader) {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        decoder.userInfo = [Self.askedKey: names]
        let ours = JSONMapper(options: CodableOptions {
            $0.keys = .snakeCase
            $0.userInfo = [Self.askedKey: names]
        })
        return (try decoder.decode(Reader.self, from: json), try ours.decode(Reader.self, from: json))
    }

    /// Keys from swift-foundation's key-strategy tests and the issue's list.
    static let namedKeys = [
        "", "a", "A", "myProperty", "myURLProperty", "URLProperty", "userID", "_id", "__private", "trailing_", "_both_",
        "ALL_CAPS", "one_2_three", "snake_case_key", "alreadyCamel", "camel_Case", "__", "_", "a_", "_a", "a__b",
        "my_url", "MY_URL", "html5Parser", "createdAt1234", "überCool", "ÜberCool", "straße_name", "Ωmega_ω", "kind_ÉTÉ",
        "lowercase", "UPPERCASE", "mixedCASEWord", "aBC", "ABc", "x_Y_z",
    ]

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
