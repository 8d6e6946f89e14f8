import Foundation
import Testing

@testable import Cartograph

/// The examples the four seed libraries document (../shared/seeds), ported
/// to Cartograph with class models, both directions.
@Suite struct SeedExampleTests {
    // MARK: MAXJsonAdapter

    /// MAXJsonAdapter's `User`: renamed and nested keys both ways, email
    /// ignored when writing, refresh of an existing object.
    @Mappable
    class MAXUser {
        var email: String?
        var firstName: String?
        var middleName: String?
        var lastName: String?
        var phoneNumber: String?
        var usernames: [String] = []
        required init() {}

        static let mapping = Mapping<MAXUser>({ MAXUser() }) {
            Map(\.firstName, "personInfo.firstName")
            Map(\.middleName, "personInfo.middleName", nilEncoding: .null)
            Map(\.lastName, "personInfo.lastName")
            Map(\.phoneNumber)
            Map(\.email, "userEmail")
            Map(\.usernames, "aliases")
            Ignore(\.email, on: .encode)
        }
    }

    static let maxJSON = """
        {"personInfo": {"firstName": "Bruce", "middleName": null, "lastName": "Wayne"},
         "phoneNumber": "7728282737", "userEmail": "batman@batman.com",
         "aliases": ["KillTheJoker", "RobinIsMyPet101", "TheRiddlerRiddlesTheRiddle"]}
        """

    @Test func maxJsonAdapterUserMapsNestedAndRenamedKeysBothWays() throws {
        var registry = ModelRegistry()
        registry.register(MAXUser.mapping)
        let mapper = JSONMapper(registry: registry)
        let user = try mapper.decode(MAXUser.self, from: Self.maxJSON)
        #expect(user.firstName == "Bruce" && user.middleName == nil && user.lastName == "Wayne")
        #expect(user.email == "batman@batman.com" && user.usernames.count == 3)
        let written = try JSONSerialization.jsonObject(with: Data(mapper.encode(user))) as? [String: Any]
        let info = written?["personInfo"] as? [String: Any]
        #expect(info?["firstName"] as? String == "Bruce" && info?["middleName"] is NSNull)
        #expect(written?["userEmail"] == nil) // ignored when writing the dictionary
        #expect((written?["aliases"] as? [String])?.first == "KillTheJoker")
        // refreshObject: update an existing object.
        try mapper.update(user, from: #"{"phoneNumber": "555"}"#)
        #expect(user.phoneNumber == "555" && user.firstName == "Bruce")
    }

    // MARK: JAGPropertyConverter

    /// JAGPropertyConverter's `User`: nested model, arrays of models, a set of
    /// friends, identification by key (its identifyDict), URLs as strings.
    @Mappable
    final class JAGUser: Hashable {
        var userID = 0
        var name = ""
        var likes: [String] = []
        var invitedBy: JAGUser?
        var friends: Set<JAGUser> = []
        var homepage: URL?
        static func == (a: JAGUser, b: JAGUser) -> Bool { a.userID == b.userID }
        func hash(into hasher: inout Hasher) { hasher.combine(userID) }

        static let mapping = Mapping<JAGUser>({ JAGUser() }, keys: ["userID"]) {
            Map(\.userID)
            Map(\.name)
            Map(\.likes)
            Map(\.invitedBy)
            Map(\.friends)
            Map(\.homepage)
        }
    }

    @Test func jagPropertyConverterUserConvertsRecursively() throws {
        var registry = ModelRegistry()
        registry.register(JAGUser.mapping)
        registry.identify { object, _ in object.contains("userID") ? JAGUser.self : nil }
        let mapper = JSONMapper(registry: registry)
        let json = """
            {"userID": 1234, "name": "Jane Smith", "likes": ["swimming", "movies", "tennis"],
             "invitedBy": {"userID": 9876, "name": "Bob Willis"},
             "friends": [{"userID": 8873, "name": "Jodi Fischer"}, {"userID": 9876, "name": "Bob Willis"}],
             "homepage": "https://example.org/jane"}
            """
        let user = try mapper.decode(JAGUser.self, from: json)
        #expect(user.userID == 1234 && user.likes == ["swimming", "movies", "tennis"])
        #expect(user.invitedBy?.name == "Bob Willis")
        #expect(Set(user.friends.map(\.userID)) == [8873, 9876])
        #expect(user.homepage?.absoluteString == "https://example.org/jane")
        // Back to a dictionary and read again: the same graph.
        let again = try mapper.decode(JAGUser.self, from: mapper.encode(user))
        #expect(again.invitedBy?.userID == 9876 && again.friends.count == 2 && again.homepage == user.homepage)
        // decodeAny: identified dictionaries become models, others stay plain.
        let tree = try mapper.decodeAny(from: Array(#"{"who": {"userID": 1, "name": "A"}, "other": {"x": 1}}"#.utf8))
        guard case .object(let members) = tree else { Issue.record("\(tree)"); return }
        if case .model(let model)? = members.first(where: { $0.key == "who" })?.value {
            #expect((model as? JAGUser)?.userID == 1)
        } else {
            Issue.record("who is not a model")
        }
    }

    // MARK: JSACollection

    /// JSACollection: property names map case-insensitively to the same
    /// name, its first word, or its underscored words; arrays of a model
    /// class (MAP_ARRAY_CLASS); a parent reference (ASSIGN_PARENT_REFERENCE).
    @Mappable
    class JSACFoo {
        var nameString = ""
        var firstName = ""
        var otherFooArray: [JSACOther] = []
        required init() {}
        static let mapping = Mapping<JSACFoo>({ JSACFoo() }) {
            Map(\.nameString)
            Map(\.firstName)
            Map(\.otherFooArray)
        }
    }

    @Mappable
    final class JSACOther: Mappable {
        var title = ""
        weak var parent: JSACFoo?
        static let mapping = Mapping<JSACOther>({ JSACOther() }) {
            Map(\.title)
            ParentReference(\.parent)
        }
    }

    @Test func jsaCollectionNamingArraysOfClassesAndParents() throws {
        var registry = ModelRegistry(options: MappingOptions { $0.naming = .fuzzy })
        registry.register(JSACFoo.mapping)
        registry.register(JSACOther.self)
        let mapper = JSONMapper(registry: registry)
        let json = Array(#"[{"NAME": "bill", "First_Name": "Bill", "otherFooArray": [{"Title": "a"}, {"title": "b"}]}]"#.utf8)
        let foos = try mapper.decode([JSACFoo].self, from: json)
        #expect(foos.count == 1)
        #expect(foos[0].nameString == "bill") // the first word of the name
        #expect(foos[0].firstName == "Bill") // underscored words, any case
        #expect(foos[0].otherFooArray.map(\.title) == ["a", "b"])
        #expect(foos[0].otherFooArray.allSatisfy { $0.parent === foos[0] })
        // collect: every Foo anywhere in the container.
        let found = try mapper.collect(
            JSACFoo.self, from: Array(#"{"wrapper": {"items": [{"nameString": "x", "firstName": "y", "otherFooArray": []}]}}"#.utf8))
        #expect(found.map(\.nameString) == ["x"])
    }

    // MARK: MABMapper

    /// MABMapper's map configuration: per property a class, a path, required and array.
    @Mappable
    class MABObject {
        var identifier = 0
        var title = ""
        var tags: [MABTag] = []
        required init() {}
        static let mapping = Mapping<MABObject>({ MABObject() }) {
            Map(\.identifier, "meta.id", required: true)
            Map(\.title, "info.title")
            Map(\.tags, "info.tags")
        }
    }

    @Mappable
    final class MABTag: Mappable {
        var label = ""
        static let mapping = Mapping<MABTag>({ MABTag() }) { Map(\.label, "label") }
    }

    @Test func mabMapperPathsRequiredAndArrays() throws {
        var registry = ModelRegistry()
        registry.register(MABObject.mapping)
        let mapper = JSONMapper(registry: registry)
        let objects = try mapper.decode(
            [MABObject].self, from: Array(#"[{"meta": {"id": 1}, "info": {"title": "T", "tags": [{"label": "x"}]}}]"#.utf8))
        #expect(objects.first?.identifier == 1 && objects.first?.tags.first?.label == "x")
        let missing = try #require(throws: CartographError.self) {
            try mapper.decode([MABObject].self, from: Array(#"[{"info": {"title": "T"}}]"#.utf8))
        }
        #expect(missing.kind == .keyNotFound && missing.path == "$[0].meta.id")
    }
}
