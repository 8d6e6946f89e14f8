import Foundation
import Testing

@testable import Cartograph

/// A model-typed property's slot belongs to the `Mapping` value, which
/// every registry that registers the model shares: its cached answer must
/// be each registry's own, however many registries take turns and however
/// many threads ask at once.
@Suite struct ResolvedModelEntryTests {
    // The base class, its subclass and the struct holding one, shared with the slot's own tests.
    typealias Animal = NestedModelSlotTests.Animal
    typealias Dog = NestedModelSlotTests.Dog
    typealias Kennel = NestedModelSlotTests.Kennel

    /// Registries that alternate: even ones know only `Animal` (the slot's
    /// direct path), odd ones also `Dog` (inference: the general path).
    static func registries(_ count: Int) -> [ModelRegistry] {
        (0..<count).map { index in
            var registry = ModelRegistry()
            registry.register(Kennel.self)
            registry.register(Animal.animalMapping)
            if index % 2 == 1 { registry.register(Dog.dogMapping) }
            return registry
        }
    }

    @Test func eachRegistryGetsItsOwnAnswerPastThePublishedLimit() {
        let resolved = ResolvedModelEntry()
        let registries = Self.registries(2 * ResolvedModelEntry.publishedLimit + 8)
        for _ in 0..<3 {
            for (index, registry) in registries.enumerated() {
                let entry = resolved.entry(for: Animal.self, in: registry)
                #expect((entry == nil) == (index % 2 == 1), "registry \(index)")
            }
        }
        #expect(resolved.publishedCount == ResolvedModelEntry.publishedLimit)
    }

    @Test func decodesThroughOneSlotFollowEachRegistry() throws {
        let json = #"{"resident": {"name": "Rex", "barks": true}}"#
        let mappers = Self.registries(ResolvedModelEntry.publishedLimit + 6).map { JSONMapper(registry: $0) }
        for round in 0..<2 {
            for (index, mapper) in mappers.enumerated() {
                let kennel = try mapper.decode(Kennel.self, from: json)
                #expect(kennel.resident.name == "Rex")
                #expect((kennel.resident is Dog) == (index % 2 == 1), "round \(round), registry \(index)")
            }
        }
    }

    struct Label: Mappable, Equatable {
        var text = ""
        static let mapping = Mapping<Label>({ Label() }) { Map(\.text, "text") }
    }

    struct Parcel: Mappable {
        var label = Label()
        var labels: [Label] = []
        static let mapping = Mapping<Parcel>({ Parcel() }) {
            Map(\.label, "label")
            Map(\.labels, "labels")
        }
    }

    /// Past the published limit an answer is not kept for good: a nested
    /// type that only the registry's `Mappable` cache holds must still be
    /// read, by the slot or by the general path, with the same result.
    @Test func unregisteredMappableTypesPastTheLimitStillDecode() throws {
        let json = #"{"label": {"text": "a"}, "labels": [{"text": "b"}, {"text": "c"}]}"#
        for round in 0..<2 {
            for index in 0..<(2 * ResolvedModelEntry.publishedLimit + 4) {
                // Neither type registered: both compiled on first use from `Mappable`.
                let parcel = try JSONMapper(registry: ModelRegistry()).decode(Parcel.self, from: json)
                #expect(
                    parcel.label == Label(text: "a") && parcel.labels == [Label(text: "b"), Label(text: "c")],
                    "round \(round), registry \(index)")
            }
        }
    }

    @Test func concurrentDecodesWithManyRegistriesAgree() async throws {
        let json = #"{"resident": {"name": "Rex", "barks": true}}"#
        let mappers = Self.registries(2 * ResolvedModelEntry.publishedLimit + 4).map { JSONMapper(registry: $0) }
        let wrong = try await withThrowingTaskGroup(of: Int.self) { group in
            for task in 0..<4 {
                group.addTask {
                    var wrong = 0
                    for step in 0..<400 {
                        let index = (step * 7 + task * 5) % mappers.count
                        let kennel = try mappers[index].decode(Kennel.self, from: json)
                        if (kennel.resident is Dog) != (index % 2 == 1) || kennel.resident.name != "Rex" { wrong += 1 }
                    }
                    return wrong
                }
            }
            return try await group.reduce(0, +)
        }
        #expect(wrong == 0)
    }
}
