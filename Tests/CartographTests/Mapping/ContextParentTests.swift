import Testing

@testable import Cartograph

/// `MappingContext.parent` is the class instance a nested model sits in,
/// and a context is a public value: a factory may keep it past the decode,
/// which then must not have freed the parent it names.
@Suite struct ContextParentTests {
    /// A seed-style owner: a non-final class registered by its mapping,
    /// whose nested pet is made by a factory.
    class Owner {
        var pet: Pet?
        var age = 0
    }

    final class Pet {
        var name = ""
    }

    /// What a factory kept of its call. @unchecked: written and read on
    /// the test's own task only (a decode runs its factories synchronously).
    final class Kept: @unchecked Sendable {
        var context: MappingContext?
    }

    static func mapper(keeping kept: Kept) -> JSONMapper {
        var registry = ModelRegistry()
        registry.register(
            Mapping<Owner>({ Owner() }) {
                Map(\.pet, "pet")
                Map(\.age, "age")
            })
        registry.register(
            ClosureFactory<Pet>(keys: ["name"]) { object, context in
                kept.context = context
                let pet = Pet()
                pet.name = try object["name"]?.string() ?? ""
                return pet
            })
        return JSONMapper(registry: registry)
    }

    @Test func aNestedFactorySeesItsOwner() throws {
        let kept = Kept()
        let owner = try Self.mapper(keeping: kept).decode(Owner.self, from: Array(#"{"pet": {"name": "Rex"}, "age": 3}"#.utf8))
        #expect(owner.pet?.name == "Rex" && owner.age == 3)
        #expect(kept.context?.parent === owner)
    }

    /// The owner's decode fails after its pet was made, so the decode drops
    /// the owner; the context the factory kept still holds it (an
    /// unretained parent would name freed memory here).
    @Test func aKeptContextKeepsItsOwnerAliveAfterTheDecodeFails() throws {
        let kept = Kept()
        weak var dropped: AnyObject?
        #expect(throws: (any Error).self) {
            _ = try Self.mapper(keeping: kept).decode(Owner.self, from: Array(#"{"pet": {"name": "Rex"}, "age": "old"}"#.utf8))
        }
        dropped = kept.context?.parent
        #expect(dropped != nil)
        do {
            let owner = try #require(kept.context?.parent as? Owner)
            #expect(owner.pet?.name == "Rex" && owner.age == 0)
        }
        kept.context = nil
        #expect(dropped == nil)
    }
}
