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

    /// Properties under `#if`: the table lists those of the active clause,
    /// as the compiler compiles them (the macro cannot tell which it is).
    @Mappable class Probe {
        var id = 0
        #if compiler(>=5.9)
            var build = ""
            #if CARTOGRAPH_NEVER_DEFINED
                var never = 0
            #else
                var lane: Int?
            #endif
        #else
            var old = ""
        #endif
        var name = ""
        required init() {}
    }

    @Mappable final class ProbeSub: Probe {
        #if !CARTOGRAPH_NEVER_DEFINED
            var extra = 0
        #endif
    }

    /// Several bindings in one declaration, a type written once for two of them, and a tuple pattern.
    @Mappable struct Bounds {
        var low, high: Int?
        var (x, y) = (0, 0)
    }

    /// A class's constants: left out, or written and never read.
    @Mappable class Stamp {
        var note = ""
        @MapIgnore let serial = 41
        @Mapped("kind") let kind = "stamp"
        required init() {}
    }

    @Test func aClassConstantMarkedIgnoredOrMappedIsLeftOutOrOnlyWritten() throws {
        #expect(Stamp.mappableProperties.map(\.name) == ["note", "serial", "kind"])
        var registry = ModelRegistry()
        registry.register(Stamp.self)
        let mapper = JSONMapper(registry: registry)
        let stamp = try mapper.decode(Stamp.self, from: Array(#"{"note": "n", "serial": 7, "kind": "other"}"#.utf8))
        #expect(stamp.note == "n" && stamp.serial == 41 && stamp.kind == "stamp")
        #expect(try JSONValue(parsing: mapper.encode(stamp)) == ["note": "n", "kind": "stamp"])
    }

    @Test func propertiesUnderIfConfigAreListedAsCompiled() throws {
        #expect(Probe.mappableProperties.map(\.name) == ["id", "build", "lane", "name"])
        #expect(ProbeSub.mappableProperties.map(\.name) == ["id", "build", "lane", "name", "extra"])
        var registry = ModelRegistry()
        registry.register(ProbeSub.self)
        let mapper = JSONMapper(registry: registry)
        let json = #"{"id": 3, "build": "b", "lane": 2, "name": "n", "extra": 5, "never": 1, "old": "o"}"#
        let probe = try mapper.decode(ProbeSub.self, from: Array(json.utf8))
        #expect(probe.id == 3 && probe.build == "b" && probe.lane == 2 && probe.name == "n" && probe.extra == 5)
        let written = try JSONValue(parsing: mapper.encode(probe))
        #expect(written == ["id": 3, "build": "b", "lane": 2, "name": "n", "extra": 5])
    }

    @Test func everyBindingOfADeclarationIsMapped() throws {
        #expect(Bounds.mappableProperties.map(\.name) == ["low", "high", "x", "y"])
        #expect(Bounds.mappableProperties.map(\.isOptional) == [true, true, false, false])
        var registry = ModelRegistry()
        registry.register(Bounds.self)
        let mapper = JSONMapper(registry: registry)
        let span = try mapper.decode(Bounds.self, from: Array(#"{"low": 1, "high": 9, "x": 4, "y": 5}"#.utf8))
        #expect(span.low == 1 && span.high == 9 && span.x == 4 && span.y == 5)
        #expect(try JSONValue(parsing: mapper.encode(span)) == ["low": 1, "high": 9, "x": 4, "y": 5])
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
