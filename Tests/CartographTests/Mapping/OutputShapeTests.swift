import Foundation
import Testing

@testable import Cartograph

/// Shapes on output (MAXJsonAdapter and JAGPropertyConverter): index paths
/// make arrays, a model can be written as an array, several properties on one
/// key accumulate in order, and key paths may reach into nested references.
@Suite struct OutputShapeTests {
    @Mappable
    final class Pair {
        var first = "a"
        var second = "b"
        static let asArray = Mapping<Pair>({ Pair() }) {
            Map(\.first, "0")
            Map(\.second, "1")
        }
        static let nested = Mapping<Pair>({ Pair() }) {
            Map(\.first, "names.0")
            Map(\.second, "names.1")
        }
    }

    @Mappable
    final class Phones {
        var home = "h"
        var work = "w"
        var mobile = "m"
        static let mapping = Mapping<Phones>({ Phones() }) {
            Map(\.home, "phones")
            Map(\.work, "phones")
            Map(\.mobile, "phones")
        }
    }

    final class Tenant {
        var name = "Acme"
    }

    @Mappable
    final class Lease {
        var tenant = Tenant()
        var rent = 1
        static let mapping = Mapping<Lease>({ Lease() }) {
            Map(\.tenant.name, "tenantName")
            Map(\.rent)
        }
    }

    private func json<Model>(_ mapping: Mapping<Model>, _ model: Model) throws -> String {
        var registry = ModelRegistry()
        registry.register(mapping)
        return String(decoding: try JSONMapper(registry: registry).encode(model), as: UTF8.self)
    }

    @Test func indexPathsWriteArrays() throws {
        #expect(try json(Pair.asArray, Pair()) == #"["a","b"]"#)
        #expect(try json(Pair.nested, Pair()) == #"{"names":["a","b"]}"#)
    }

    @Test func propertiesOnOneKeyAccumulateInOrder() throws {
        #expect(try json(Phones.mapping, Phones()) == #"{"phones":["h","w","m"]}"#)
    }

    @Test func keyPathsReachIntoNestedReferences() throws {
        #expect(try json(Lease.mapping, Lease()) == #"{"tenantName":"Acme","rent":1}"#)
        var registry = ModelRegistry()
        registry.register(Lease.mapping)
        let lease = try JSONMapper(registry: registry).decode(Lease.self, from: #"{"tenantName": "Initech", "rent": 2}"#)
        #expect(lease.tenant.name == "Initech" && lease.rent == 2)
    }
}

/// JSACollection's discovery: identifying keys through the naming strategy,
/// and the mode that stops at a match.
@Suite struct CollectTests {
    @Mappable
    final class Person {
        var firstName = ""
        var lastName = ""
        var friend: Person?
        static let mapping = Mapping<Person>({ Person() }) {
            Map(\.firstName)
            Map(\.lastName)
            Map(\.friend)
        }
    }

    @Test func identifyingKeysFollowAScanningNamingStrategy() throws {
        var registry = ModelRegistry(options: MappingOptions { $0.naming = .fuzzy })
        // Identified by every rule's key: both names.
        registry.register(
            Mapping<Person>({ Person() }) {
                Map(\.firstName)
                Map(\.lastName)
            })
        let json = Array(#"{"data": [{"First_Name": "Ada", "LAST_NAME": "L", "other": 1}, {"first_name": "B", "lastname": "C"}, {"nope": 1}]}"#.utf8)
        let people = try JSONMapper(registry: registry).collect(Person.self, from: json)
        #expect(people.map(\.firstName) == ["Ada", "B"])
        #expect(people.map(\.lastName) == ["L", "C"])
    }

    @Test func stoppingAtAMatchLeavesNestedMatchesInside() throws {
        var registry = ModelRegistry()
        registry.register(Person.mapping)
        let mapper = JSONMapper(registry: registry)
        let json = Array(#"[{"firstName": "A", "lastName": "1", "friend": {"firstName": "B", "lastName": "2", "friend": null}}]"#.utf8)
        #expect(try mapper.collect(Person.self, from: json).map(\.firstName) == ["A", "B"])
        let outer = try mapper.collect(Person.self, from: json, nested: false)
        #expect(outer.map(\.firstName) == ["A"])
        #expect(outer.first?.friend?.firstName == "B")
    }
}

/// Transforms apply to each element of an array property.
@Suite struct ElementTransformTests {
    @Mappable
    final class Schedule {
        var days: [Date] = []
        static let mapping = Mapping<Schedule>({ Schedule() }) {
            Map(\.days, transform: .iso8601)
        }
    }

    @Test func aTransformAppliesToEveryElement() throws {
        var registry = ModelRegistry()
        registry.register(Schedule.mapping)
        let mapper = JSONMapper(registry: registry)
        let schedule = try mapper.decode(Schedule.self, from: #"{"days": ["2026-01-01T00:00:00Z", "2026-01-02T00:00:00Z"]}"#)
        #expect(schedule.days == [Date(timeIntervalSince1970: 1_767_225_600), Date(timeIntervalSince1970: 1_767_312_000)])
        #expect(String(decoding: try mapper.encode(schedule), as: UTF8.self) == #"{"days":["2026-01-01T00:00:00Z","2026-01-02T00:00:00Z"]}"#)
        let error = try #require(throws: CartographError.self) { try mapper.decode(Schedule.self, from: #"{"days": ["2026-01-01T00:00:00Z", 5]}"#) }
        #expect(error.path == "$.days[1]")
    }
}

/// Setters named by property find their key through the naming strategy.
@Suite struct NamedSetterTests {
    @Mappable
    final class Person {
        var first = ""
        var last = ""
        static let mapping = Mapping<Person>({ Person() }) {
            Setter(property: "fullName") { person, node, _ in
                let parts = try node.string().split(separator: " ")
                person.first = parts.first.map(String.init) ?? ""
                person.last = parts.dropFirst().joined(separator: " ")
            }
        }
    }

    @Test(arguments: [
        ("snake", NamingStrategy.snakeCase, "full_name"), ("kebab", .kebabCase, "full-name"), ("fuzzy", .fuzzy, "FULL_NAME"),
        ("exact", .exact, "fullName")
    ])
    func aSetterReadsTheKeyItsPropertyNameGives(_ label: String, _ naming: NamingStrategy, _ key: String) throws {
        var registry = ModelRegistry(options: MappingOptions { $0.naming = naming })
        registry.register(Person.mapping)
        let person = try JSONMapper(registry: registry).decode(Person.self, from: #"{"\#(key)": "Ada King"}"#)
        #expect(person.first == "Ada" && person.last == "King", "\(label)")
    }
}

/// Transforms that opt in see null, and may leave a key out when encoding.
@Suite struct NullableTransformTests {
    @Mappable
    final class Item {
        var price: Decimal? = 1
        var name = ""
        static let price = Transform<Decimal?>(
            nullable: { node in
                if node.isNull || (try? node.string()) == "N/A" { return nil }
                return try node.decimal()
            }, encode: { value in value.map { .number(JSONNumber($0)) } })
        static let mapping = Mapping<Item>({ Item() }) {
            Map(\.price, "price", transform: Item.price)
            Map(\.name)
        }
    }

    private var mapper: JSONMapper {
        var registry = ModelRegistry(options: MappingOptions { $0.nilEncoding = .null })
        registry.register(Item.mapping)
        return JSONMapper(registry: registry)
    }

    @Test func theTransformSeesNullAndOmitsWhatItReturnsNilFor() throws {
        #expect(try mapper.decode(Item.self, from: #"{"price": null}"#).price == nil)
        #expect(try mapper.decode(Item.self, from: #"{"price": "N/A"}"#).price == nil)
        #expect(try mapper.decode(Item.self, from: #"{"price": 2.5}"#).price == Decimal(string: "2.5"))
        let item = Item()
        item.price = nil
        // Left out even though the registry writes nil as null.
        #expect(String(decoding: try mapper.encode(item), as: UTF8.self) == #"{"name":""}"#)
        item.price = 3
        #expect(String(decoding: try mapper.encode(item), as: UTF8.self) == #"{"price":3,"name":""}"#)
    }
}

/// Under a scanning strategy (JSACollection's rules are case-insensitive),
/// explicit keys match without regard to case too.
@Suite struct CaseInsensitiveKeyTests {
    @Mappable
    final class Home {
        var street = ""
        static let mapping = Mapping<Home>({ Home() }) { Map(\.street, "StreetName") }
    }

    @Test func explicitKeysIgnoreCaseUnderFuzzyNaming() throws {
        for (naming, expected) in [(NamingStrategy.fuzzy, "Main"), (.caseInsensitive, "Main"), (.exact, "")] {
            var registry = ModelRegistry(options: MappingOptions { $0.naming = naming })
            registry.register(Home.mapping)
            #expect(try JSONMapper(registry: registry).decode(Home.self, from: #"{"streetname": "Main"}"#).street == expected)
        }
    }
}
