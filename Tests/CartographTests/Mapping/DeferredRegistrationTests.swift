import Foundation
import Synchronization
import Testing

@testable import Cartograph

/// Registering a mapping compiles nothing: a `Mappable` type's mapping is
/// built, and any mapping compiled, the first time a decode, an encode or
/// class inference needs it, once for the registry and every copy of it,
/// whichever task gets there first.
@Suite struct DeferredRegistrationTests {
    /// Counts how often its mapping is built (a computed `mapping`, so each
    /// read builds one).
    @Mappable
    final class Counted: Mappable {
        static let builds = Atomic<Int>(0)
        var name = ""
        var score = 0
        static var mapping: Mapping<Counted> {
            builds.add(1, ordering: .relaxed)
            return Mapping<Counted>({ Counted() }) {
                Map(\.name)
                Map(\.score)
            }
        }
    }

    /// Its own counter, for the test that races first uses.
    @Mappable
    struct Raced: Mappable {
        static let builds = Atomic<Int>(0)
        var id = 0
        var tags: [String] = []
        static var mapping: Mapping<Raced> {
            builds.add(1, ordering: .relaxed)
            return Mapping<Raced>({ Raced() }) {
                Map(\.id)
                Map(\.tags)
            }
        }
    }

    /// Its own counter, for the test of copies.
    @Mappable
    struct Copied: Mappable {
        static let builds = Atomic<Int>(0)
        var id = 0
        static var mapping: Mapping<Copied> {
            builds.add(1, ordering: .relaxed)
            return Mapping<Copied>({ Copied() }) { Map(\.id) }
        }
    }

    @Mappable
    class Pet {
        var name = ""
        required init() {}
        static let mapping = Mapping<Pet>({ Pet() }) { Map(\.name) }
    }

    @Mappable
    final class Dog: Pet {
        var barks = false
        static let dogMapping = Mapping<Dog>(inheriting: Pet.mapping, { Dog() }) { Map(\.barks) }
    }

    @Mappable
    final class Cat: Pet {
        var lives = 0
        static let catMapping = Mapping<Cat>(inheriting: Pet.mapping, { Cat() }) { Map(\.lives) }
    }

    @Mappable
    final class Shelter {
        var pets: [Pet] = []
        static let mapping = Mapping<Shelter>({ Shelter() }) { Map(\.pets) }
    }

    @Test func registeringBuildsNoMappingUntilAModelIsDecoded() throws {
        let before = Counted.builds.load(ordering: .relaxed)
        var registry = ModelRegistry()
        registry.register(Counted.self)
        #expect(registry.isRegistered(Counted.self))
        #expect(Counted.builds.load(ordering: .relaxed) == before)

        let mapper = JSONMapper(registry: registry)
        let first = try mapper.decode(Counted.self, from: #"{"name":"a","score":3}"#)
        #expect(first.name == "a" && first.score == 3)
        #expect(Counted.builds.load(ordering: .relaxed) == before + 1)

        // Later decodes and encodes use the compiled mapping: no rebuild.
        let second = try mapper.decode(Counted.self, from: #"{"name":"b","score":4}"#)
        #expect(second.name == "b" && second.score == 4)
        #expect(String(decoding: try mapper.encode(second), as: UTF8.self) == #"{"name":"b","score":4}"#)
        #expect(Counted.builds.load(ordering: .relaxed) == before + 1)
    }

    @Test func copiesOfARegistryShareOneCompiledMapping() throws {
        let before = Copied.builds.load(ordering: .relaxed)
        var registry = ModelRegistry()
        registry.register(Copied.self)
        let copy = registry
        #expect(try JSONMapper(registry: copy).decode(Copied.self, from: #"{"id":7}"#).id == 7)
        #expect(try JSONMapper(registry: registry).decode(Copied.self, from: #"{"id":8}"#).id == 8)
        #expect(Copied.builds.load(ordering: .relaxed) == before + 1)
    }

    @Test func concurrentFirstUsesAllDecode() async throws {
        var registry = ModelRegistry()
        registry.register(Raced.self)
        let mapper = JSONMapper(registry: registry)
        let before = Raced.builds.load(ordering: .relaxed)
        let ids = try await withThrowingTaskGroup(of: (Int, Raced).self) { group in
            for id in 0..<16 {
                group.addTask { (id, try mapper.decode(Raced.self, from: #"{"id":\#(id),"tags":["t\#(id)"]}"#)) }
            }
            var results: [(Int, Raced)] = []
            for try await result in group { results.append(result) }
            return results
        }
        #expect(ids.count == 16)
        for (id, model) in ids {
            #expect(model.id == id && model.tags == ["t\(id)"])
        }
        // Racing first uses may each compile; at most one per task, at least one.
        let builds = Raced.builds.load(ordering: .relaxed) - before
        #expect(builds >= 1 && builds <= 16)
        // Once compiled, no task builds again.
        _ = try mapper.decode(Raced.self, from: #"{"id":1}"#)
        #expect(Raced.builds.load(ordering: .relaxed) - before == builds)
    }

    @Test func classInferenceCompilesTheCandidatesItCompares() throws {
        // No model was used before the first decode, which must compile the
        // base class and both subclasses to match their keys.
        var registry = ModelRegistry()
        registry.register(Pet.mapping)
        registry.register(Dog.dogMapping)
        registry.register(Cat.catMapping)
        registry.register(Shelter.mapping)
        let shelter = try JSONMapper(registry: registry).decode(
            Shelter.self, from: #"{"pets":[{"name":"rex","barks":true},{"name":"tom","lives":9},{"name":"x"}]}"#)
        #expect(shelter.pets.count == 3)
        let dog = try #require(shelter.pets[0] as? Dog)
        #expect(dog.name == "rex" && dog.barks)
        let cat = try #require(shelter.pets[1] as? Cat)
        #expect(cat.name == "tom" && cat.lives == 9)
        #expect(type(of: shelter.pets[2]) == Pet.self)
        #expect(shelter.pets[2].name == "x")
    }

    @Test func aMappingsConfigurationErrorIsThrownByItsFirstUse() throws {
        // An allow list naming no property: registering succeeds, every use throws.
        let broken = Mapping<Pet>({ Pet() }) { Map(\.name) }.only(["nickname"])
        var registry = ModelRegistry()
        registry.register(broken)
        let mapper = JSONMapper(registry: registry)
        #expect(throws: CartographError.self) { try mapper.decode(Pet.self, from: #"{"name":"a"}"#) }
        #expect(throws: CartographError.self) { try mapper.decode(Pet.self, from: #"{"name":"a"}"#) }
    }
}
