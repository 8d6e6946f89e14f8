import Testing

@testable import Cartograph

/// Naming strategies: property names to keys, both ways, and clashes.
@Suite struct NamingTests {
    @Mappable
    struct Profile: Mappable, Equatable {
        var firstName = ""
        var myURLProperty = ""
        var userID = 0
        static let mapping = Mapping<Profile>({ Profile() }) {
            Map(\.firstName)
            Map(\.myURLProperty)
            Map(\.userID)
        }
    }

    func mapper(_ naming: NamingStrategy, strict: Bool = false) -> JSONMapper {
        var registry = ModelRegistry(
            options: MappingOptions {
                $0.naming = naming; $0.strictNaming = strict
            })
        registry.register(Profile.self)
        return JSONMapper(registry: registry)
    }

    @Test func snakeCaseBothWaysWithAcronyms() throws {
        #expect(NamingStrategy.snakeCase.outputKey(for: "myURLProperty") == "my_url_property")
        #expect(NamingStrategy.snakeCase.outputKey(for: "userID") == "user_id")
        #expect(NamingStrategy.kebabCase.outputKey(for: "firstName") == "first-name")
        let mapper = mapper(.snakeCase)
        let profile = try mapper.decode(Profile.self, from: bytes(#"{"first_name": "A", "my_url_property": "u", "user_id": 7}"#))
        #expect(profile == Profile(firstName: "A", myURLProperty: "u", userID: 7))
        #expect(try mapper.encodeValue(profile) == ["first_name": "A", "my_url_property": "u", "user_id": 7])
    }

    @Test func exactAndCaseInsensitive() throws {
        #expect(try mapper(.exact).decode(Profile.self, from: bytes(#"{"firstname": "A"}"#)).firstName == "")
        #expect(try mapper(.caseInsensitive).decode(Profile.self, from: bytes(#"{"FIRSTNAME": "A"}"#)).firstName == "A")
    }

    @Mappable
    struct Loose: Mappable, Equatable {
        var nameString = ""
        var firstName = ""
        static let mapping = Mapping<Loose>({ Loose() }) {
            Map(\.nameString)
            Map(\.firstName)
        }
    }

    @Test func fuzzyFollowsJSACollectionsRules() throws {
        var registry = ModelRegistry(options: MappingOptions { $0.naming = .fuzzy })
        registry.register(Loose.self)
        let mapper = JSONMapper(registry: registry)
        #expect(try mapper.decode(Loose.self, from: bytes(#"{"name": "n", "first_name": "f"}"#)) == Loose(nameString: "n", firstName: "f"))
        #expect(try mapper.decode(Loose.self, from: bytes(#"{"NAMESTRING": "exact-ish", "name": "n"}"#)).nameString == "exact-ish")
    }

    @Mappable
    final class Item: Mappable {
        var jsc_description = ""
        var JSC_hash = 0
        var jsc_ = ""
        var displayName = ""
        init() {}
        static let mapping = Mapping<Item>({ Item() }) {
            Map(\.jsc_description)
            Map(\.JSC_hash)
            Map(\.jsc_)
            Map(\.displayName)
        }
    }

    /// JSACollection's key generator drops a `jsc_` prefix, so a property can
    /// be named after a key that clashes with an inherited member
    /// (`description`); dashed words match like underscored ones.
    @Test func fuzzyDropsTheJSCPrefixBothWays() throws {
        var registry = ModelRegistry(options: MappingOptions { $0.naming = .fuzzy })
        registry.register(Item.self)
        let mapper = JSONMapper(registry: registry)
        let item = try mapper.decode(Item.self, from: #"{"Description": "d", "hash": 7, "jsc_": "kept", "display-name": "n"}"#)
        #expect(item.jsc_description == "d")
        #expect(item.JSC_hash == 7)
        #expect(item.jsc_ == "kept")
        #expect(item.displayName == "n")
        #expect(try mapper.encodeValue(item) == ["description": "d", "hash": 7, "jsc_": "kept", "displayName": "n"])
        #expect(NamingStrategy.snakeCase.outputKey(for: "jsc_description") == "jsc_description")
    }

    @Test func clashesFollowPrecedenceOrThrowWhenStrict() throws {
        let text = bytes(#"{"firstName": "exact", "first_name": "converted"}"#)
        #expect(try mapper(.fuzzy).decode(Profile.self, from: text).firstName == "exact")
        let tie = bytes(#"{"first_name": "one", "first-name": "two"}"#)
        #expect(try mapper(.fuzzy).decode(Profile.self, from: tie).firstName == "one")
        let error = try #require(throws: CartographError.self) { try mapper(.fuzzy, strict: true).decode(Profile.self, from: tie) }
        #expect(error.kind == .ambiguousKey)
    }

    @Test func customStrategy() throws {
        let mapper = mapper(.custom { "x_" + $0 })
        #expect(try mapper.decode(Profile.self, from: bytes(#"{"x_userID": 3}"#)).userID == 3)
    }
}
