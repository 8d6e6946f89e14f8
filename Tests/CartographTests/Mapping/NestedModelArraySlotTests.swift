import Foundation
import Testing

@testable import Cartograph

/// A struct's array-of-models property is filled by the rule loop itself
/// when a new model is made from an array of objects and the element type's
/// mapping is the only answer; every other case declines, before anything
/// is made, to the rule's own path. Each case is checked against a twin
/// that always takes that path: the same properties on a class (slots are
/// for structs, whose properties sit at fixed offsets).
@Suite struct NestedModelArraySlotTests {
    struct Item: Mappable, Equatable {
        var name = ""
        var score = 0
        static let mapping = Mapping<Item>({ Item() }) {
            Map(\.name, "name")
            Map(\.score, "score", required: true)
        }
    }

    struct Basket: Mappable, Equatable {
        var items: [Item] = [Item(name: "preset", score: -1)]
        var extra: [Item]? = []
        var holes: [Item?] = []
        static let mapping = Mapping<Basket>({ Basket() }) {
            Map(\.items, "items")
            Map(\.extra, "extra")
            Map(\.holes, "holes")
        }
    }

    /// The same model read through the rules' general path only.
    final class GeneralBasket: Mappable {
        var items: [Item] = [Item(name: "preset", score: -1)]
        var extra: [Item]? = []
        var holes: [Item?] = []
        static let mapping = Mapping<GeneralBasket>({ GeneralBasket() }) {
            Map(\.items, "items")
            Map(\.extra, "extra")
            Map(\.holes, "holes")
        }
    }

    func mapper(_ configure: (inout MappingOptions) -> Void = { _ in }, _ register: (inout ModelRegistry) -> Void = { _ in }) -> JSONMapper {
        var registry = ModelRegistry(options: MappingOptions(configure))
        registry.register(Basket.self)
        registry.register(GeneralBasket.self)
        register(&registry)
        if !registry.isRegistered(Item.self) { registry.register(Item.self) }
        return JSONMapper(registry: registry)
    }

    /// Decodes `text` as both baskets: the same models, or the same error.
    func bothWays(_ text: String, _ mapper: JSONMapper) throws -> Result<Basket, CartographError> {
        let slot = Result { try mapper.decode(Basket.self, from: text) }.mapError { $0 as! CartographError }
        let general = Result { try mapper.decode(GeneralBasket.self, from: text) }.mapError { $0 as! CartographError }
        switch (slot, general) {
        case (.success(let a), .success(let b)):
            #expect(a.items == b.items && a.extra == b.extra && a.holes == b.holes, "\(text)")
        case (.failure(let a), .failure(let b)):
            #expect(a.kind == b.kind && a.path == b.path && a.message == b.message, "\(text)")
        default:
            Issue.record("slot \(slot) but general path \(general) for \(text)")
        }
        return slot
    }

    @Test func slotsAreMadeForArraysOfModelsAndTheirOptionalsOnly() {
        let rules = Basket.mapping.rules
        #expect(rules[0].nested is NestedModelArraySlot<[Item], [Item]>)
        #expect(rules[1].nested is NestedModelArraySlot<[Item]?, [Item]>)
        #expect(rules[2].nested == nil)
        #expect(GeneralBasket.mapping.rules.allSatisfy { $0.nested == nil })
    }

    @Test func readsArraysOfObjectsInPlace() throws {
        let mapper = mapper()
        let basket = try bothWays(#"{"items": [{"name": "a", "score": 1}, {"score": 2}], "extra": [{"score": 3}]}"#, mapper).get()
        #expect(basket.items == [Item(name: "a", score: 1), Item(name: "", score: 2)])
        #expect(basket.extra == [Item(name: "", score: 3)])
        // Empty arrays replace the defaults; the optional one is set, not left nil.
        let empty = try bothWays(#"{"items": [], "extra": []}"#, mapper).get()
        #expect(empty.items.isEmpty && empty.extra == [])
        let many = (0..<300).map { #"{"name": "n\#($0)", "score": \#($0)}"# }.joined(separator: ",")
        #expect(try bothWays(#"{"items": [\#(many)]}"#, mapper).get().items.map(\.score) == Array(0..<300))
    }

    @Test func nullsOtherKindsAndAbsenceTakeTheRulesPath() throws {
        let mapper = mapper()
        #expect(try bothWays(#"{}"#, mapper).get().items == [Item(name: "preset", score: -1)])
        #expect(try bothWays(#"{"extra": null}"#, mapper).get().extra == nil)
        let nullElement = try #require(throws: CartographError.self) { try bothWays(#"{"items": [{"score": 1}, null]}"#, mapper).get() }
        #expect(nullElement.path == "$.items[1]")
        let number = try #require(throws: CartographError.self) { try bothWays(#"{"items": [{"score": 1}, {"score": 2}, 3]}"#, mapper).get() }
        #expect(number.kind == .typeMismatch && number.path == "$.items[2]")
        let object = try #require(throws: CartographError.self) { try bothWays(#"{"items": {"score": 1}}"#, mapper).get() }
        #expect(object.kind == .typeMismatch && object.path == "$.items")
        // Under ignoreNulls a null element is left out (by the general path).
        let ignoring = self.mapper { $0.ignoreNulls = true }
        #expect(try bothWays(#"{"items": [null, {"score": 4}, null]}"#, ignoring).get().items == [Item(name: "", score: 4)])
        #expect(try bothWays(#"{"holes": [null, {"score": 5}]}"#, mapper).get().holes == [nil, Item(name: "", score: 5)])
    }

    @Test func errorsInsideNameTheElementsPath() throws {
        let mapper = mapper()
        let missing = try #require(throws: CartographError.self) {
            try bothWays(#"{"items": [{"score": 1}, {"score": 2}, {"name": "x"}]}"#, mapper).get()
        }
        #expect(missing.kind == .keyNotFound && missing.path == "$.items[2].score")
        let inOptional = try #require(throws: CartographError.self) { try bothWays(#"{"extra": [{"score": "x"}]}"#, mapper).get() }
        #expect(inOptional.path == "$.extra[0].score")
        let inRoot = try #require(throws: CartographError.self) {
            try mapper.decode([Basket].self, from: #"[{}, {"items": [{"score": 1}, {"score": true}]}]"#)
        }
        #expect(inRoot.path == "$[1].items[1].score")
        // A lossy decode records each bad element (the slot declines: it would stop at the first).
        let lossy = try mapper.decodeLossy(
            [Basket].self, from: Data(#"[{"items": [{"score": true}, {"score": 2}]}, {"items": [{"score": 3}]}]"#.utf8))
        #expect(lossy.value.map { $0.items.map(\.score) } == [[2], [3]])
        #expect(lossy.issues.map(\.path) == ["$[0].items[0].score"])
    }

    @Test func updatesAndFactoriesTakeTheRulesPath() throws {
        var basket = Basket(items: [Item(name: "old", score: 0)], extra: nil)
        try mapper().update(&basket, from: #"{"items": [{"score": 9}]}"#)
        #expect(basket.items == [Item(name: "", score: 9)] && basket.extra == nil)

        struct ItemFactory: ModelFactory {
            var keys: [String] { ["name"] }
            func make(from object: ObjectView, context: MappingContext) throws -> Item {
                Item(name: "factory:" + (try object["name"]?.string() ?? ""), score: 0)
            }
        }
        let factories = mapper({ _ in }, { $0.register(ItemFactory()) })
        let made = try bothWays(#"{"items": [{"name": "x"}], "extra": [{"name": "y"}]}"#, factories).get()
        #expect(made.items.map(\.name) == ["factory:x"] && made.extra?.map(\.name) == ["factory:y"])
    }

    // The single-model slot's suite's models, in arrays here.
    typealias Skipping = NestedModelSlotTests.Skipping
    typealias Animal = NestedModelSlotTests.Animal
    typealias Dog = NestedModelSlotTests.Dog
    typealias Owner = NestedModelSlotTests.Owner

    struct Rack: Mappable {
        var kept: [Skipping] = []
        static let mapping = Mapping<Rack>({ Rack() }) { Map(\.kept, "kept") }
    }

    @Test func aSkippedElementIsLeftOut() throws {
        var registry = ModelRegistry()
        registry.register(Rack.self)
        registry.register(Skipping.self)
        #expect(Rack.mapping.rules[0].nested != nil)
        let rack = try JSONMapper(registry: registry).decode(Rack.self, from: #"{"kept": [{"id": 1}, {"skip": true, "id": 2}, {"id": 3}]}"#)
        #expect(rack.kept.map(\.id) == [1, 3])
    }

    struct Farm: Mappable {
        var animals: [Animal] = []
        var owners: [Owner] = []
        static let mapping = Mapping<Farm>({ Farm() }) {
            Map(\.animals, "animals")
            Map(\.owners, "owners")
        }
    }

    @Test func classElementsKeepTheirSubclassesAndFinalClassesAreMade() throws {
        var registry = ModelRegistry()
        registry.register(Farm.self)
        registry.register(Animal.animalMapping)
        registry.register(Dog.dogMapping)
        registry.register(Owner.self)
        let farm = try JSONMapper(registry: registry).decode(
            Farm.self, from: #"{"animals": [{"name": "Rex", "barks": true}, {"name": "Tom"}], "owners": [{"name": "Ada"}, {"name": "Bo"}]}"#)
        // A base class element type: class inference (the general path) picks each subclass.
        #expect(farm.animals.count == 2 && (farm.animals[0] as? Dog)?.barks == true && !(farm.animals[1] is Dog))
        #expect(farm.owners.map(\.name) == ["Ada", "Bo"] && farm.owners[0] !== farm.owners[1])
    }

    @Test func randomArraysAgreeWithTheGeneralPath() throws {
        var generator = SystemRandomNumberGenerator()
        let mapper = mapper()
        let lenient = self.mapper { $0.ignoreNulls = true }
        let elements = [
            #"{"score": 1}"#, #"{"name": "é\u00e9", "score": -7}"#, #"{"name": "x"}"#, "null", "3", "[]", #"{"score": 2.5}"#,
            #"{"score": 1, "name": null}"#, "{}"
        ]
        for _ in 0..<300 {
            func array() -> String {
                let count = Int.random(in: 0...4, using: &generator)
                // Mostly valid elements, so that most arrays are read in place.
                return "["
                    + (0..<count).map { _ in
                        Bool.random(using: &generator) ? elements[0] : elements.randomElement(using: &generator)!
                    }.joined(separator: ",") + "]"
            }
            let extra = Int.random(in: 0..<5, using: &generator) == 0 ? "null" : array()
            let text = #"{"items": \#(array()), "extra": \#(extra)}"#
            _ = try? bothWays(text, mapper)
            _ = try? bothWays(text, lenient)
        }
    }
}
