import Foundation
import Testing

@testable import Cartograph

/// Schemas of class models registered as the seeds register them:
/// non-final classes with subclasses, properties typed as the base class
/// (class inference by discriminator, by closure, by keys), weak parent
/// references, recursion, `@Mappable` tables under a naming strategy, and
/// factories that only declare their keys.
@Suite struct ClassModelSchemaTests {
    @Mappable
    class Animal {
        var name = ""
        required init() {}
    }

    @Mappable
    final class Dog: Animal {
        var barks = true
    }

    @Mappable
    final class Cat: Animal {
        var lives = 9
    }

    @Mappable
    final class Shelter {
        var title = ""
        var pets: [Animal] = []
        var head: Animal?
        var rooms: [Room] = []
    }

    @Mappable
    final class Room {
        var number = 0
        weak var shelter: Shelter?
        var subrooms: [Room] = []
    }

    static func registry(_ configure: (inout ModelRegistry) -> Void = { _ in }) -> ModelRegistry {
        var registry = ModelRegistry(options: MappingOptions { $0.naming = .snakeCase })
        registry.register(Animal.self)
        registry.register(Dog.self)
        registry.register(Cat.self)
        registry.register(Shelter.self)
        registry.register(Room.self)
        configure(&registry)
        return registry
    }

    static func json(_ text: String) throws -> JSONValue { try JSONMapper().decode(JSONValue.self, from: text) }

    @Test func aDiscriminatorGivesOneOfWithEachBranchPinningItsValue() throws {
        let registry = Self.registry { $0.discriminator(key: "type", ["dog": Dog.self, "cat": Cat.self]) }
        let schema = try registry.jsonSchema(for: Shelter.self)
        let pets = try #require(schema["$defs"]?["Shelter"]?["properties"]?["pets"]?["items"])
        #expect(pets["discriminator"] == (try Self.json(##"{"propertyName":"type","mapping":{"cat":"#/$defs/Cat","dog":"#/$defs/Dog"}}"##)))
        guard case .array(let branches)? = pets["oneOf"] else { throw OutsideValidator.Failure(description: "no oneOf: \(pets)") }
        #expect(branches.count == 3, "cat, dog, and Animal for an object without the key")
        let mapper = JSONMapper(registry: registry)
        let inputs = [
            #"{"title":"Home","pets":[{"type":"dog","name":"Rex","barks":false},{"type":"cat","name":"Tom","lives":3}]}"#,
            #"{"title":"Home","pets":[{"name":"Plain"}]}"#,
            #"{"title":"Home","pets":[{"type":"cow","name":"Daisy"}]}"#,
            #"{"title":"Home","pets":[{"type":"cat","lives":"many"}]}"#,
            #"{"title":"Home","head":{"type":"dog","barks":"loud"}}"#,
            #"{"title":"Home","rooms":[{"number":1,"subrooms":[{"number":2,"subrooms":[{"number":"three"}]}]}]}"#,
            #"{"title":"Home","rooms":[{"number":1,"subrooms":[{"number":2}]}]}"#
        ]
        let verdicts = try OutsideValidator.errors(in: try inputs.map(Self.json), against: schema)
        for (input, errors) in zip(inputs, verdicts) {
            let accepted = (try? mapper.decode(Shelter.self, from: input)) != nil
            #expect(accepted == errors.isEmpty, "\(input): decoder \(accepted ? "accepts" : "refuses"), validator says \(errors)")
        }
        let read = try mapper.decode(Shelter.self, from: inputs[0])
        #expect(read.pets.first is Dog && read.pets.last is Cat)
    }

    @Test func keyMatchingAndClosuresGiveAnyOfTheCandidates() throws {
        for registry in [Self.registry(), Self.registry { $0.identify { object, _ in object.contains("barks") ? Dog.self : nil } }] {
            let head = try #require(try registry.jsonSchema(for: Shelter.self)["$defs"]?["Shelter"]?["properties"]?["head"])
            #expect(
                head == (try Self.json(##"{"anyOf":[{"$ref":"#/$defs/Animal"},{"$ref":"#/$defs/Dog"},{"$ref":"#/$defs/Cat"},{"type":"null"}]}"##)))
        }
    }

    @Test func subclassesCarryTheirInheritedPropertiesUnderTheNamingStrategy() throws {
        let definitions = try #require(try Self.registry().jsonSchema(for: Dog.self)["$defs"])
        guard case .object(let properties)? = definitions["Dog"]?["properties"] else { throw OutsideValidator.Failure(description: "no Dog") }
        #expect(Set(properties.keys) == ["name", "barks"])
        guard case .object(let shelter)? = try Self.registry().jsonSchema(for: Shelter.self)["$defs"]?["Shelter"]?["properties"] else {
            throw OutsideValidator.Failure(description: "no Shelter")
        }
        #expect(shelter.keys == ["title", "pets", "head", "rooms"])
    }

    @Test func weakReferencesAreLeftOutAndRecursionIsAReference() throws {
        let room = try #require(try Self.registry().jsonSchema(for: Room.self)["$defs"]?["Room"])
        guard case .object(let properties)? = room["properties"] else { throw OutsideValidator.Failure(description: "no Room") }
        #expect(properties.keys == ["number", "subrooms"], "the weak parent is not mapped by default")
        #expect(properties["subrooms"] == (try Self.json(##"{"type":"array","items":{"$ref":"#/$defs/Room"}}"##)))
    }

    @Test func aFactoryListsItsKeysWithAnyValues() throws {
        final class Legacy {}
        var registry = ModelRegistry()
        registry.register(Legacy.self, keys: ["id", "payload"], make: { _, _ in Legacy() })
        let legacy = try #require(try registry.jsonSchema(for: Legacy.self)["$defs"]?["Legacy"])
        #expect(legacy["properties"] == ["id": [:], "payload": [:]])
        #expect(legacy["required"] == nil)
    }

    @Test func whatTheEncoderWritesForEachSubclassValidates() throws {
        let registry = Self.registry()
        let mapper = JSONMapper(registry: registry)
        let shelter = Shelter()
        shelter.title = "Home"
        let dog = Dog()
        dog.name = "Rex"
        shelter.pets = [dog, Cat(), Animal()]
        shelter.head = dog
        let room = Room()
        room.subrooms = [Room()]
        shelter.rooms = [room]
        let written = try JSONMapper().decode(JSONValue.self, from: try mapper.encode(shelter) as [UInt8])
        let verdicts = try OutsideValidator.errors(in: [written], against: try registry.jsonSchema(for: Shelter.self, direction: .encode))
        #expect(verdicts == [[]])
    }

    /// A property declared as a protocol: every discriminated model is a
    /// candidate, and the decoder and the validator agree.
    @Test func aProtocolTypedPropertyListsTheDiscriminatedModels() throws {
        var registry = ModelRegistry()
        registry.register(Circle.self)
        registry.register(Square.self)
        registry.register(Drawing.self)
        registry.discriminator(key: "type", ["circle": Circle.self, "square": Square.self])
        let schema = try registry.jsonSchema(for: Drawing.self)
        let items = try #require(schema["$defs"]?["Drawing"]?["properties"]?["shapes"]?["items"])
        #expect(items["discriminator"]?["mapping"] == ["circle": "#/$defs/Circle", "square": "#/$defs/Square"])
        let mapper = JSONMapper(registry: registry)
        let inputs = [
            #"{"title":"d","shapes":[{"type":"circle","radius":1},{"type":"square","side":2}]}"#,
            #"{"shapes":[{"type":"hexagon"}]}"#,
            #"{"shapes":[{"type":"circle","radius":"big"}]}"#,
            #"{"shapes":[]}"#
        ]
        let verdicts = try OutsideValidator.errors(in: try inputs.map(Self.json), against: schema)
        for (input, errors) in zip(inputs, verdicts) {
            let accepted = (try? mapper.decode(Drawing.self, from: input)) != nil
            #expect(accepted == errors.isEmpty, "\(input): decoder \(accepted ? "accepts" : "refuses"), validator says \(errors)")
        }
    }

    /// A sub-mapper's own keys are described in place, not the registry's.
    @Test func aSubMappersKeysAreDescribedInPlace() throws {
        struct Person: Mappable {
            var name = ""
            static let mapping = Mapping<Person>({ Person() }) { Map(\.name, "name") }
            static let legacy = Mapping<Person>({ Person() }) { Map(\.name, "full_name", required: true) }
        }
        struct Team: Mappable {
            var lead = Person()
            var members: [Person] = []
            static let mapping = Mapping<Team>({ Team() }) {
                Map(\.lead, "lead", using: Person.legacy)
                Map(\.members, "members")
            }
        }
        var registry = ModelRegistry()
        registry.register(Person.self)
        let schema = try registry.jsonSchema(for: Team.self)
        let team = try #require(schema["$defs"]?["Team"]?["properties"])
        #expect(team["lead"] == (try Self.json(#"{"type":"object","properties":{"full_name":{"type":"string"}},"required":["full_name"]}"#)))
        #expect(team["members"]?["items"] == ["$ref": "#/$defs/Person"])
    }

    @Test func openAPIComponentsSplitOnlyWhereRequestAndResponseDiffer() throws {
        struct Tag: Mappable {
            var label = ""
            static let mapping = Mapping<Tag>({ Tag() }) { Map(\.label, "label", required: true) }
        }
        var registry = Self.registry { $0.discriminator(key: "type", ["dog": Dog.self, "cat": Cat.self]) }
        registry.register(Tag.self)
        let components = try registry.openAPIComponents(for: [Shelter.self, Tag.self])
        guard case .object(let schemas)? = components["schemas"] else { throw OutsideValidator.Failure(description: "no schemas") }
        #expect(schemas["Tag"] != nil, "read and written alike: one entry")
        #expect(schemas["Shelter-Input"] != nil && schemas["Shelter-Output"] != nil)
        #expect(schemas["Shelter-Input"]?["properties"]?["rooms"]?["items"] == ["$ref": "#/components/schemas/Room-Input"])
        #expect(schemas["Shelter"] == nil)
        let document: JSONValue = [
            "openapi": "3.1.0", "info": ["title": "Shelters", "version": "1"],
            "paths": [
                "/shelters": [
                    "post": [
                        "requestBody": ["content": ["application/json": ["schema": ["$ref": "#/components/schemas/Shelter-Input"]]]],
                        "responses": [
                            "200": [
                                "description": "the shelter",
                                "content": ["application/json": ["schema": ["$ref": "#/components/schemas/Shelter-Output"]]]
                            ]
                        ]
                    ]
                ]
            ],
            "components": components
        ]
        #expect(try OutsideValidator.openAPIProblem(document) == nil)
        // And the validator is not vacuous: a dangling reference is reported.
        #expect(
            try OutsideValidator.openAPIProblem(document.merging(["paths": ["/x": ["get": ["responses": ["200": ["$ref": "#/nowhere"]]]]]])) != nil)
    }
}
