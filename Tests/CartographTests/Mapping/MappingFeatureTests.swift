import Foundation
import Testing

@testable import Cartograph

/// Factories, sub-mappers, class inference, decodeAny, collect, parents, inheritance, naming.
@Suite struct MappingFeatureTests {
    static func registry(_ options: MappingOptions = MappingOptions()) -> ModelRegistry {
        var registry = ModelRegistry(options: options)
        registry.register(UserFactory())
        registry.register(Person.self)
        registry.register(Team.self)
        registry.register(Member.self)
        return registry
    }

    @Test func factoryWithListOfKeysMakesModels() throws {
        let mapper = JSONMapper(registry: Self.registry())
        let users = try mapper.decode([User].self, from: bytes(#"[{"userID": 1, "name": "Ada"}, {"userID": 2}]"#))
        #expect(users == [User(id: 1, name: "Ada"), User(id: 2, name: "")])
        #expect(String(decoding: try mapper.encode(users[0]), as: UTF8.self) == #"{"userID":1,"name":"Ada"}"#)
    }

    @Test func closureRegistrationForOneOffModels() throws {
        struct Tag: Equatable { var label: String }
        var registry = ModelRegistry()
        registry.register(
            Tag.self, keys: ["label"], make: { object, _ in Tag(label: try object["label"]?.string() ?? "") },
            encode: { tag, _ in .object([("label", .string(tag.label))]) })
        let mapper = JSONMapper(registry: registry)
        #expect(try mapper.decode(Tag.self, from: bytes(#"{"label": "x"}"#)) == Tag(label: "x"))
        #expect(try mapper.encodeValue(Tag(label: "y")) == ["label": "y"])
    }

    @Test func subMapperDecodesAPropertyThroughItsFactory() throws {
        let album = try JSONMapper().decode(
            Album.self, from: bytes(#"{"title": "T", "photos": [{"src": "a.jpg"}, {"src": "b.jpg"}], "cover": {"src": "c.jpg"}}"#))
        #expect(album.photos == [Photo(url: "a.jpg"), Photo(url: "b.jpg")])
        #expect(album.cover == Photo(url: "c.jpg"))
    }

    @Test func identifyByKeyPresence() throws {
        var registry = Self.registry()
        registry.identify { object, _ in object.contains("userID") ? User.self : nil }
        let tree = try JSONMapper(registry: registry).decodeAny(
            from: bytes(#"{"data": [{"userID": 1, "name": "A"}, {"other": true}], "meta": {"userID": 2}}"#))
        #expect(tree.models(of: User.self) == [User(id: 1, name: "A"), User(id: 2, name: "")])
        #expect(tree["data"]?[1]?["other"].map { if case .value(.bool(true)) = $0 { return true } else { return false } } == true)
    }

    @Test func identifyByTheKeyAnObjectSitsUnder() throws {
        var registry = Self.registry()
        registry.identify { _, key in key == "author" || key == "readers" ? User.self : nil }
        let tree = try JSONMapper(registry: registry).decodeAny(
            from: bytes(#"{"author": {"userID": 7}, "readers": [{"userID": 8}, {"userID": 9}], "editor": {"userID": 10}}"#))
        #expect(tree.models(of: User.self).map(\.id) == [7, 8, 9])
        #expect(tree["editor"]?.model(as: User.self) == nil)
    }

    @Test func bestMatchOnKeysWithoutRules() throws {
        var registry = ModelRegistry()
        registry.register(UserFactory())
        registry.register(PhotoFactory())
        let mapper = JSONMapper(registry: registry)
        let tree = try mapper.decodeAny(
            from: bytes(
                #"[{"src": "a.jpg"}, {"userID": 3, "name": "C"}, {"name": "only"}, {"nothing": 1}, {"src": "b.jpg", "userID": 4, "name": "D"}]"#))
        #expect(tree[0]?.model(as: Photo.self) == Photo(url: "a.jpg"))
        #expect(tree[1]?.model(as: User.self) == User(id: 3, name: "C"))
        #expect(tree[2]?.model(as: User.self) == nil)
        #expect(tree[3]?.model(as: User.self) == nil)
        #expect(tree[4]?.model(as: User.self) == User(id: 4, name: "D"), "the model with more matching keys wins")
    }

    @Test func discriminatorPicksTheModelForPolymorphicProperties() throws {
        var registry = ModelRegistry()
        registry.register(Circle.self)
        registry.register(Square.self)
        registry.register(Drawing.self)
        registry.discriminator(key: "type", ["circle": Circle.self, "square": Square.self])
        let drawing = try JSONMapper(registry: registry).decode(
            Drawing.self, from: bytes(#"{"title": "d", "shapes": [{"type": "circle", "radius": 1}, {"type": "square", "side": 2}]}"#))
        #expect(drawing.shapes.count == 2)
        #expect((drawing.shapes[0] as? Circle) == Circle(radius: 1))
        #expect((drawing.shapes[1] as? Square) == Square(side: 2))
        let error = try #require(throws: CartographError.self) {
            try JSONMapper(registry: registry).decode(Drawing.self, from: bytes(#"{"shapes": [{"type": "hexagon"}]}"#))
        }
        #expect(error.path == "$.shapes[0]")
    }

    @Test func onlyRegisteredModelsAreEverCreated() throws {
        var registry = ModelRegistry()
        registry.identify { _, _ in Square.self }
        #expect(throws: CartographError.self) { try JSONMapper(registry: registry).decodeAny(from: bytes(#"{"side": 1}"#)) }
    }

    @Test func collectFindsEveryMatchAtAnyDepthInDocumentOrder() throws {
        var registry = Self.registry()
        registry.identify { object, _ in object.contains("userID") ? User.self : nil }
        let text = #"{"envelope": {"payload": [[{"userID": 1}], {"wrapper": {"userID": 2, "friend": {"userID": 3}}}]}, "tail": {"userID": 4}}"#
        let users = try JSONMapper(registry: registry).collect(User.self, from: bytes(text))
        #expect(users.map(\.id) == [1, 2, 3, 4])
    }

    @Test func parentReferencesForSingleChildrenAndArrayElements() throws {
        let mapper = JSONMapper(registry: Self.registry())
        let team = try mapper.decode(
            Team.self, from: bytes(#"{"name": "core", "members": [{"name": "a"}, {"name": "b"}], "captain": {"name": "c"}}"#))
        #expect(team.members.count == 2)
        #expect(team.members.allSatisfy { $0.team === team })
        #expect(team.captain?.team === team)
    }

    @Test func subclassMappingExtendsTheSuperclassMapping() throws {
        var registry = ModelRegistry()
        registry.register(Dog.dogMapping)
        let dog = try JSONMapper(registry: registry).decode(Dog.self, from: bytes(#"{"name": "Rex", "legs": 4, "breed": "collie"}"#))
        #expect(dog.name == "Rex" && dog.legs == 4 && dog.breed == "collie")
        #expect(try JSONMapper(registry: registry).encodeValue(dog) == ["name": "Rex", "legs": 4, "breed": "collie"])
    }

    @Test func ignoreListsApplyPerDirection() throws {
        struct Cached: Mappable, Equatable {
            var id = 0
            var cache = ""
            var secret = ""
            var computed = ""
            static let mapping = Mapping<Cached>({ Cached() }) {
                Map(\.id, "id")
                Map(\.cache, "cache")
                Map(\.secret, "secret")
                Map(\.computed, "computed")
                Ignore(\.cache, on: .encode)
                Ignore(\.secret, on: .decode)
                Ignore(\.computed)
            }
        }
        let mapper = JSONMapper()
        let model = try mapper.decode(Cached.self, from: bytes(#"{"id": 1, "cache": "c", "secret": "s", "computed": "x"}"#))
        #expect(model == Cached(id: 1, cache: "c", secret: "", computed: ""))
        #expect(try mapper.encodeValue(Cached(id: 2, cache: "c", secret: "s", computed: "x")) == ["id": 2, "secret": "s"])
    }

    @Test func allowListKeepsOnlyNamedProperties() throws {
        var registry = ModelRegistry()
        registry.register(Person.mapping.only(["firstName", "age"]))
        let mapper = JSONMapper(registry: registry)
        let person = try mapper.decode(Person.self, from: bytes(#"{"personInfo": {"firstName": "A", "lastName": "B", "age": 3}, "nickname": "n"}"#))
        #expect(person.lastName == "" && person.nickname == nil && person.age == 3)
    }

    @Test func separateKeysForDecodingAndEncoding() throws {
        struct Renamed: Mappable {
            var name = ""
            static let mapping = Mapping<Renamed>({ Renamed() }) { Map(\.name, decode: "legacy_name", encode: "name") }
        }
        let model = try JSONMapper().decode(Renamed.self, from: bytes(#"{"legacy_name": "x"}"#))
        #expect(try JSONMapper().encodeValue(model) == ["name": "x"])
    }

    @Test func lossyModeSkipsBadElementsAndReportsThem() throws {
        let result = try JSONMapper().decodeLossy(
            [Person].self,
            from: bytes(
                #"[{"personInfo": {"firstName": "A"}}, {"personInfo": {}}, {"personInfo": {"firstName": "C", "age": "x"}}, {"personInfo": {"firstName": "D"}}]"#
            ))
        #expect(result.value.map(\.firstName) == ["A", "D"])
        #expect(result.issues.map(\.path) == ["$[1].personInfo.firstName", "$[2].personInfo.age"])
        #expect(result.issues.allSatisfy { $0.line != nil || $0.offset == nil })
    }

    @Test func registryIsSharedByConcurrentDecodes() async throws {
        let mapper = JSONMapper(registry: Self.registry())
        let text = bytes(#"{"name": "core", "members": [{"name": "a"}, {"name": "b"}]}"#)
        let counts = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    var total = 0
                    for _ in 0..<200 { total += try mapper.decode(Team.self, from: text).members.count }
                    return total
                }
            }
            return try await group.reduce(0, +)
        }
        #expect(counts == 8 * 200 * 2)
    }
}
