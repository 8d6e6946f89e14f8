import Foundation
import Testing

@testable import Cartograph

/// Sub-mappers (a mapping or a factory given to one rule) read and write,
/// under the options of the registry that runs them; array coercion works
/// for model-typed properties.
@Suite struct SubMapperTests {
    @Mappable
    final class Person {
        var firstName = ""
        var lastName = ""
    }

    /// How the registry writes people everywhere else.
    static let registered = Mapping<Person>({ Person() }) {
        Map(\.firstName, "first")
        Map(\.lastName, "last")
    }

    /// How one property of a team writes them: keys derived from names.
    static let nested = Mapping<Person>({ Person() }) {
        Map(\.firstName)
        Map(\.lastName)
    }

    struct PersonFactory: ModelFactory {
        var keys: [String] { ["n"] }
        func make(from object: ObjectView, context: MappingContext) throws -> Person {
            let person = Person()
            person.firstName = try object["n"]?.string() ?? ""
            return person
        }
        func encode(_ model: Person, context: EncodingContext) throws -> EncodedValue {
            .object([("n", .string(model.firstName))])
        }
    }

    @Mappable
    final class Team {
        var lead = Person()
        var members: [Person] = []
        var coach: Person?
        var mascot: Person?
        var staff: [Person] = []
        static let mapping = Mapping<Team>({ Team() }) {
            Map(\.lead, "lead", using: SubMapperTests.nested)
            Map(\.members, "members", using: SubMapperTests.nested)
            Map(\.coach, "coach", using: PersonFactory())
            Map(\.mascot, "mascot", coerceArray: true)
            Map(\.staff, "staff", coerceArray: true)
        }
    }

    private func mapper(_ naming: NamingStrategy = .exact) -> JSONMapper {
        var registry = ModelRegistry(options: MappingOptions { $0.naming = naming })
        registry.register(Self.registered)
        registry.register(Team.mapping)
        return JSONMapper(registry: registry)
    }

    @Test func subMappersReadAndWriteTheirOwnKeys() throws {
        let json = Array(#"{"lead": {"firstName": "Ada", "lastName": "L"}, "members": [{"firstName": "B"}], "coach": {"n": "C"}}"#.utf8)
        let team = try mapper().decode(Team.self, from: json)
        #expect(team.lead.firstName == "Ada" && team.members.first?.firstName == "B" && team.coach?.firstName == "C")
        let written = String(decoding: try mapper().encode(team), as: UTF8.self)
        #expect(written.contains(#""lead":{"firstName":"Ada","lastName":"L"}"#), "\(written)")
        #expect(written.contains(#""members":[{"firstName":"B","lastName":""}]"#), "\(written)")
        #expect(written.contains(#""coach":{"n":"C"}"#), "\(written)")
        // A person elsewhere still goes through the registry's mapping.
        #expect(String(decoding: try mapper().encode(team.lead), as: UTF8.self) == #"{"first":"Ada","last":"L"}"#)
    }

    @Test func subMappersFollowTheRegistrysNamingStrategy() throws {
        let json = Array(#"{"lead": {"first_name": "Ada", "last_name": "L"}}"#.utf8)
        let team = try mapper(.snakeCase).decode(Team.self, from: json)
        #expect(team.lead.firstName == "Ada")
        let written = String(decoding: try mapper(.snakeCase).encode(team), as: UTF8.self)
        #expect(written.contains(#""lead":{"first_name":"Ada","last_name":"L"}"#), "\(written)")
    }

    @Test func arrayCoercionWorksForModels() throws {
        let json = Array(#"{"mascot": [{"first": "M1"}, {"first": "M2"}], "staff": {"first": "S"}}"#.utf8)
        let team = try mapper().decode(Team.self, from: json)
        #expect(team.mascot?.firstName == "M1")
        #expect(team.staff.map(\.firstName) == ["S"])
    }
}

/// Every entry point reads JSON text the same way.
@Suite struct TextInputTests {
    @Mappable
    final class Note {
        var text = ""
        var stars = 0
        static let mapping = Mapping<Note>({ Note() }) {
            Map(\.text)
            Map(\.stars)
        }
    }

    private var mapper: JSONMapper {
        var registry = ModelRegistry()
        registry.register(Note.mapping)
        return JSONMapper(registry: registry)
    }

    @Test func jsonTextDecodesAndUpdatesMappedModels() throws {
        let note = try mapper.decode(Note.self, from: #"{"text": "hi", "stars": 2}"#)
        #expect(note.text == "hi" && note.stars == 2)
        let text: String = #"{"stars": 5}"#
        try mapper.update(note, from: text)
        #expect(note.stars == 5 && note.text == "hi")
        var copy = note
        try mapper.update(&copy, from: #"{"text": "there"}"#)
        #expect(note.text == "there")
        #expect(throws: CartographError.self) { try mapper.decode(Note.self, from: "not json") }
    }
}

/// A factory can leave an object out (JSACollection's objectForDictionary returning nil).
@Suite struct SkipElementTests {
    final class User {
        var id = 0
        init(id: Int) { self.id = id }
    }

    struct ActiveUsers: ModelFactory {
        var keys: [String] { ["id", "active"] }
        func make(from object: ObjectView, context: MappingContext) throws -> User {
            guard try object["active"]?.bool() == true else { throw SkipElement("inactive") }
            return User(id: try object["id"]!.int())
        }
        func encode(_ model: User, context: EncodingContext) throws -> EncodedValue { .object([("id", .number(JSONNumber(model.id)))]) }
    }

    @Mappable
    final class Group {
        var members: [User] = []
        var byName: [String: User] = [:]
        var owner: User?
        static let mapping = Mapping<Group>({ Group() }) {
            Map(\.members)
            Map(\.byName)
            Map(\.owner)
        }
    }

    private var mapper: JSONMapper {
        var registry = ModelRegistry()
        registry.register(ActiveUsers())
        registry.register(Group.mapping)
        return JSONMapper(registry: registry)
    }

    @Test func skippedObjectsAreLeftOutOfCollections() throws {
        let json = #"""
            {"members": [{"id": 1, "active": true}, {"id": 2, "active": false}, {"id": 3, "active": true}],
             "byName": {"a": {"id": 4, "active": false}, "b": {"id": 5, "active": true}},
             "owner": {"id": 6, "active": false}}
            """#
        let group = try mapper.decode(Group.self, from: json)
        #expect(group.members.map(\.id) == [1, 3])
        #expect(group.byName.keys.sorted() == ["b"])
        #expect(group.owner == nil)
        #expect(try mapper.decode([User].self, from: Array(#"[{"id": 1, "active": false}, {"id": 2, "active": true}]"#.utf8)).map(\.id) == [2])
        let single = try #require(throws: CartographError.self) { try mapper.decode(User.self, from: #"{"id": 1, "active": false}"#) }
        #expect(single.message.contains("inactive"))
    }
}
