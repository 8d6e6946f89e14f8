import Foundation
import Testing

@testable import Cartograph

/// Names from `@Mappable`'s property table: non-final classes registered
/// per model with `Map(\.name)` rules (no keys), properties typed as other
/// registered classes, weak references, subclasses, snake_case naming — the
/// seeds' shape — and nothing of the model runs while a mapping is built.
@Suite struct MappableTableTests {
    @Mappable class Address {
        var street: String?
        var zipCode = ""
        required init() {}
    }

    @Mappable class Person {
        var firstName: String?
        var addressInformation: Address?
        weak var manager: Person?
        var nicknames: [String] = []
        /// Computed: never in the table.
        var displayName: String { firstName ?? "" }
        required init() {}
    }

    @Mappable class Employee: Person {
        var badgeNumber = 0
    }

    @Mappable struct Tag {
        var label = ""
        var weight: Double?
    }

    static func registry(naming: NamingStrategy = .exact) -> ModelRegistry {
        var registry = ModelRegistry(options: MappingOptions { $0.naming = naming })
        registry.register(
            Mapping<Address>({ Address() }) {
                Map(\.street)
                Map(\.zipCode)
            })
        registry.register(
            Mapping<Person>({ Person() }) {
                Map(\.firstName)
                Map(\.addressInformation)
                Map(\.nicknames)
            })
        registry.register(
            Mapping<Employee>({ Employee() }) {
                Map(\.firstName)
                Map(\.addressInformation)
                Map(\.badgeNumber)
            })
        return registry
    }

    @Test func tablesListStoredPropertiesInOrderWithTheSuperclassFirst() {
        #expect(Person.mappableProperties.map(\.name) == ["firstName", "addressInformation", "manager", "nicknames"])
        #expect(Employee.mappableProperties.map(\.name) == ["firstName", "addressInformation", "manager", "nicknames", "badgeNumber"])
        #expect(Person.mappableProperties.map(\.isWeak) == [false, false, true, false])
        #expect(Person.mappableProperties[0].isOptional && !Person.mappableProperties[3].isOptional)
        #expect(Tag.mappableProperties.map(\.name) == ["label", "weight"])
    }

    /// A subclass's table holds its superclass's properties as key paths of
    /// the subclass: the ones its own mapping's rules are written with.
    @Test func aSubclassTableHoldsInheritedPropertiesAsItsOwnKeyPaths() {
        let table = Employee.mappableProperties
        #expect(table.first { $0.name == "firstName" }?.keyPath == \Employee.firstName)
        #expect(table.first { $0.name == "badgeNumber" }?.keyPath == \Employee.badgeNumber)
        #expect(Person.mappableProperties.first?.keyPath == \Person.firstName)
    }

    @Test func classModelsDecodeAndEncodeWithNamesFromTheTable() throws {
        let json = Array(#"{"firstName": "Ada", "addressInformation": {"street": "Main", "zipCode": "02139"}, "nicknames": ["A"]}"#.utf8)
        let mapper = JSONMapper(registry: Self.registry())
        let person = try mapper.decode(Person.self, from: json)
        #expect(person.firstName == "Ada" && person.addressInformation?.street == "Main" && person.nicknames == ["A"])
        let written = try JSONValue(parsing: mapper.encode(person))
        #expect(written == ["firstName": "Ada", "addressInformation": ["street": "Main", "zipCode": "02139"], "nicknames": ["A"]])
    }

    @Test func namesFollowTheRegistrysNamingStrategy() throws {
        let json = Array(#"{"first_name": "Ada", "address_information": {"zip_code": "02139"}, "badge_number": 7}"#.utf8)
        let mapper = JSONMapper(registry: Self.registry(naming: .snakeCase))
        let employee = try mapper.decode(Employee.self, from: json)
        #expect(employee.firstName == "Ada" && employee.addressInformation?.zipCode == "02139" && employee.badgeNumber == 7)
        let written = try JSONValue(parsing: mapper.encode(employee))
        #expect(written == ["first_name": "Ada", "address_information": ["zip_code": "02139"], "badge_number": 7])
    }

    /// A model whose initializer and observers count their calls (and one
    /// that would crash if a probe value were written through it).
    @Mappable class Guarded {
        nonisolated(unsafe) static var calls = 0
        var computed: String {
            get { Guarded.calls += 1; return email }
            set { Guarded.calls += 1; email = newValue }
        }
        var email = "a@b" {
            didSet {
                Guarded.calls += 1
                precondition(email.contains("@"), "an invariant a probe would break")
            }
        }
        var count = 0 { willSet { Guarded.calls += 1 } }
        required init() { Guarded.calls += 1 }
    }

    @Mappable final class GuardedSub: Guarded {
        var level = 1 { didSet { Guarded.calls += 1 } }
    }

    @Test func buildingAndRegisteringAMappingRunsNothingOfTheModel() throws {
        Guarded.calls = 0
        let mapping = Mapping<Guarded>({ Guarded() }) {
            Map(\.email)
            Map(\.count)
        }
        try mapping.validate()
        var registry = ModelRegistry()
        registry.register(mapping)
        try registry.validate()
        // The default mapping, built, registered, compiled and validated.
        let automatic = Mapping<Guarded>.automatic()
        try automatic.validate()
        var byType = ModelRegistry()
        byType.register(Guarded.self)
        try byType.validate()
        _ = Guarded.mappableProperties
        // A subclass's table and mapping, and an unnamed rule reported.
        try Mapping<GuardedSub>.automatic().validate()
        #expect(throws: CartographError.self) { try Mapping<Guarded>({ Guarded() }) { Map(\.computed) }.validate() }
        #expect(Guarded.calls == 0)
        // Decoding runs it, as it should.
        let model = try JSONMapper(registry: registry).decode(Guarded.self, from: Array(#"{"email": "x@y", "count": 2}"#.utf8))
        #expect(model.email == "x@y" && model.count == 2 && Guarded.calls > 0)
        let calls = Guarded.calls
        _ = try JSONMapper(registry: byType).decode(Guarded.self, from: Array(#"{"count": 3}"#.utf8))
        #expect(Guarded.calls > calls)
    }
}
