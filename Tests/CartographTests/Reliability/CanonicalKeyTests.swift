import Foundation
import Testing

@testable import Cartograph

/// Keys that differ in bytes but are equal as Swift strings (canonically
/// equivalent) are duplicates under every policy, and every reader — a
/// struct's coding keys, a `[String: T]`, a JSONValue, a plist — sees the
/// same one.
@Suite struct CanonicalKeyTests {
    private struct Secret: Codable, Equatable {
        var API_KEY: String
    }

    /// The same two keys, the second with U+212A KELVIN SIGN for K: escaped, and as raw UTF-8.
    private static let inputs = [#"{"API_KEY":"A","API_\u212AEY":"B"}"#, "{\"API_KEY\":\"A\",\"API_\u{212A}EY\":\"B\"}"]

    private func mapper(_ policy: DuplicateKeyPolicy) -> JSONMapper {
        var mapper = JSONMapper()
        mapper.parseOptions.duplicateKeys = policy
        return mapper
    }

    @Test func rejectRefusesCanonicallyEqualKeys() {
        for input in Self.inputs {
            let error = try? #require(throws: CartographError.self) {
                try Document(parsing: input, options: ParseOptions { $0.duplicateKeys = .reject })
            }
            #expect(error?.kind == .duplicateKey, "\(input)")
            #expect(throws: DecodingError.self) { try mapper(.reject).decode(Secret.self, from: input) }
        }
    }

    @Test func lastWinsGivesTheLastValueToEveryReader() throws {
        for input in Self.inputs {
            let mapper = mapper(.lastWins)
            #expect(try mapper.decode(Secret.self, from: input) == Secret(API_KEY: "B"))
            #expect(try mapper.decode([String: String].self, from: input) == ["API_KEY": "B"])
            let document = try Document(parsing: input)
            #expect(try document.root.object().count == 1)
            #expect(try document.root.object()["API_KEY"]?.string() == "B")
            let json = try document.encoded()
            #expect(try JSONSerialization.jsonObject(with: Data(json)) as? [String: String] == ["API_KEY": "B"])
            let plist = try PropertyListMapper().encode(document, format: .binary)
            #expect(try PropertyListMapper().decode([String: String].self, from: plist) == ["API_KEY": "B"])
        }
    }

    @Test func firstWinsGivesTheFirstValueToEveryReader() throws {
        for input in Self.inputs {
            let mapper = mapper(.firstWins)
            #expect(try mapper.decode(Secret.self, from: input) == Secret(API_KEY: "A"))
            #expect(try mapper.decode([String: String].self, from: input) == ["API_KEY": "A"])
        }
    }

    @Test func aKeySpelledDecomposedIsFoundByItsComposedName() throws {
        struct Place: Codable, Equatable {
            var café: Int
        }
        let decomposed = "{\"cafe\u{0301}\": 7}"
        #expect(try JSONMapper().decode(Place.self, from: decomposed) == Place(café: 7))
        #expect(try JSONDecoder().decode(Place.self, from: Data(decomposed.utf8)) == Place(café: 7))
        #expect(try Document(parsing: decomposed).root.object()["café"]?.int() == 7)
        // Through a mapping too (the rule loop's cursor), with a key the
        // object lacks looked up before and after: both absent, not found
        // by the canonical pass.
        var registry = ModelRegistry()
        registry.register(
            Mapping<MappedPlace>({ MappedPlace() }) {
                Map(\.before, "absent")
                Map(\.café, "café")
                Map(\.after, "après")
            })
        let mapped = try JSONMapper(registry: registry).decode(MappedPlace.self, from: Array(decomposed.utf8))
        #expect(mapped.café == 7 && mapped.before == -1 && mapped.after == -1)
    }

    /// Non-final, as the seeds' models are.
    private class MappedPlace {
        var before = -1
        var café = 0
        var after = -1
        required init() {}
    }

    @Test func plistReadersApplyThePolicyToo() throws {
        let xml = Array(
            """
            <?xml version="1.0" encoding="UTF-8"?><plist version="1.0"><dict><key>API_KEY</key><string>A</string>\
            <key>API_\u{212A}EY</key><string>B</string></dict></plist>
            """.utf8)
        #expect(try PropertyListMapper().decode([String: String].self, from: xml) == ["API_KEY": "B"])
        #expect(try PropertyListMapper().decode(Secret.self, from: xml) == Secret(API_KEY: "B"))
    }
}
