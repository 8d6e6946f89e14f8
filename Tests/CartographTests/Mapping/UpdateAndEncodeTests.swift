import Foundation
import Testing

@testable import Cartograph

/// Refreshing models (absent vs null vs value) and encoding back.
@Suite struct UpdateAndEncodeTests {
    let mapper = JSONMapper()

    @Test func refreshLeavesAbsentKeysAlone() throws {
        var person = Person(firstName: "Ada", lastName: "Lovelace", age: 36, email: "a@x", nickname: "Countess")
        try mapper.update(&person, from: bytes(#"{"personInfo": {"age": 37}}"#))
        #expect(person == Person(firstName: "Ada", lastName: "Lovelace", age: 37, email: "a@x", nickname: "Countess"))
    }

    @Test func explicitNullClearsAnOptional() throws {
        var person = Person(firstName: "Ada", email: "a@x", nickname: "Countess")
        try mapper.update(&person, from: bytes(#"{"nickname": null}"#))
        #expect(person.nickname == nil)
        #expect(person.email == "a@x")
    }

    @Test func ignoreNullsKeepsTheOldValue() throws {
        let keeping = JSONMapper(registry: ModelRegistry(options: MappingOptions { $0.ignoreNulls = true }))
        var person = Person(firstName: "Ada", nickname: "Countess")
        try keeping.update(&person, from: bytes(#"{"nickname": null, "personInfo": {"lastName": "L"}}"#))
        #expect(person.nickname == "Countess" && person.lastName == "L")
        struct PerProperty: Mappable {
            var kept: String? = "k"
            var cleared: String? = "c"
            static let mapping = Mapping<PerProperty>({ PerProperty() }) {
                Map(\.kept, "kept", ignoreNull: true)
                Map(\.cleared, "cleared")
            }
        }
        var model = PerProperty()
        try mapper.update(&model, from: bytes(#"{"kept": null, "cleared": null}"#))
        #expect(model.kept == "k" && model.cleared == nil)
    }

    @Test func failedUpdateLeavesAValueModelUntouched() throws {
        let before = Person(firstName: "Ada", lastName: "Lovelace", age: 36, email: "a@x", nickname: "Countess")
        var person = before
        // lastName is set before age fails to convert; neither may stick.
        #expect(throws: CartographError.self) {
            try mapper.update(&person, from: bytes(#"{"nickname": "N", "personInfo": {"lastName": "L", "age": "old"}}"#))
        }
        #expect(person == before)
    }

    @Test func classInstancesUpdateInPlace() throws {
        var registry = ModelRegistry()
        registry.register(Team.self)
        registry.register(Member.self)
        let mapper = JSONMapper(registry: registry)
        let team = try mapper.decode(Team.self, from: bytes(#"{"name": "a", "members": [{"name": "x"}]}"#))
        try mapper.update(team, from: bytes(#"{"name": "b"}"#))
        #expect(team.name == "b" && team.members.count == 1)
    }

    @Test func nilIsOmittedOrWrittenAsNullByPolicy() throws {
        let person = Person(firstName: "A")
        #expect(try mapper.encodeValue(person) == ["personInfo": ["firstName": "A", "lastName": "", "age": 0]])
        let nulls = JSONMapper(registry: ModelRegistry(options: MappingOptions { $0.nilEncoding = .null }))
        #expect(try nulls.encodeValue(person)["nickname"] == .null)
        #expect(try nulls.encodeValue(person)["contact"] == ["email": nil])
    }

    @Test func profilesDecideWhatDatesDataAndURLsBecome() throws {
        let event = Event(name: "e", starts: Date(timeIntervalSince1970: 0), link: URL(string: "https://x.org"), payload: Data([1, 2]))
        let json = try mapper.encodeAny(event, profile: .json) as? [String: Any]
        #expect(json?["starts"] as? String == "1970-01-01T00:00:00Z")
        #expect(json?["payload"] as? String == "AQI=")
        let plist = try mapper.encodeAny(event, profile: .propertyList) as? [String: Any]
        #expect(plist?["starts"] as? Date == Date(timeIntervalSince1970: 0))
        #expect(plist?["payload"] as? Data == Data([1, 2]))
        struct Linked: Mappable {
            var link = URL(string: "https://x.org")!
            static let mapping = Mapping<Linked>({ Linked() }) { Map(\.link, "link") }
        }
        let full = try mapper.encodeAny(Linked(), profile: .full) as? [String: Any]
        #expect(full?["link"] as? URL == URL(string: "https://x.org"))
        #expect(try mapper.encodeValue(Linked()) == ["link": "https://x.org"])
    }

    @Test func cyclesAreAnErrorOrSkippedByPolicy() throws {
        final class Node: Mappable {
            var name = ""
            var next: Node?
            static let mapping = Mapping<Node>({ Node() }) {
                Map(\.name, "name")
                Map(\.next, "next")
            }
        }
        let a = Node()
        a.name = "a"
        let b = Node()
        b.name = "b"
        a.next = b
        b.next = a
        let error = try #require(throws: CartographError.self) { try mapper.encode(a) }
        #expect(error.kind == .cycle)
        #expect(error.path == "$.next.next")
        let skipping = JSONMapper(registry: ModelRegistry(options: MappingOptions { $0.cycles = .skip }))
        #expect(try skipping.encodeValue(a) == ["name": "a", "next": ["name": "b"]])
        b.next = nil // break the cycle the test made, so the nodes are freed
    }

    @Test func encodesArraysOfModelsAndNestedPaths() throws {
        let people = [Person(firstName: "A", age: 1), Person(firstName: "B", age: 2)]
        let value = try mapper.encodeValue(people)
        #expect(value[1]?["personInfo"]?["firstName"] == "B")
        #expect(try mapper.decode([Person].self, from: try mapper.encode(people)) == people)
    }
}
