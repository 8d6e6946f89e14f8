import Foundation
import Testing

@testable import Cartograph

/// Class models with subclasses, as the seeds use them: a subclass mapping
/// inherits and overrides its parent's rules; a property declared as a base
/// class decodes to the subclass class inference picks; inference never
/// overrides a property of another declared type.
@Suite struct ClassHierarchyTests {
    @Mappable
    class Address {
        var street = ""
        var city = ""
        required init() {}
        static let mapping = Mapping<Address>({ Address() }) {
            Map(\.street)
            Map(\.city)
        }
    }

    @Mappable
    final class GeoAddress: Address {
        var lat = 0.0
        static let geoMapping = Mapping<GeoAddress>(inheriting: Address.mapping, { GeoAddress() }) {
            Map(\.lat)
            Map(\.street, "newCustomProperty")
        }
    }

    struct Point: Codable, Equatable {
        var x = 0
        var y = 0
    }

    @Mappable
    final class Customer {
        var name = ""
        var address: Address?
        var addresses: [Address] = []
        var spot = Point()
        static let mapping = Mapping<Customer>({ Customer() }) {
            Map(\.name)
            Map(\.address)
            Map(\.addresses)
            Map(\.spot)
        }
    }

    private func mapper(_ configure: (inout ModelRegistry) -> Void = { _ in }) -> JSONMapper {
        var registry = ModelRegistry()
        registry.register(Address.mapping)
        registry.register(GeoAddress.geoMapping)
        registry.register(Customer.mapping)
        configure(&registry)
        return JSONMapper(registry: registry)
    }

    @Test func aSubclassRuleOverridesTheInheritedOne() throws {
        let address = GeoAddress()
        address.street = "Rue"
        address.city = "Paris"
        address.lat = 48.8
        let written = try JSONSerialization.jsonObject(with: Data(mapper().encode(address))) as? [String: Any]
        #expect(Set(written?.keys.map { $0 } ?? []) == ["newCustomProperty", "city", "lat"])
        let read = try mapper().decode(GeoAddress.self, from: Array(#"{"newCustomProperty": "Main", "street": "no", "city": "X", "lat": 1}"#.utf8))
        #expect(read.street == "Main" && read.city == "X" && read.lat == 1)
        // The parent's mapping is unchanged.
        let base = try mapper().decode(Address.self, from: Array(#"{"street": "S", "city": "C"}"#.utf8))
        #expect(base.street == "S" && type(of: base) == Address.self)
    }

    @Test func aBaseClassPropertyDecodesToTheSubclassTheKeysPick() throws {
        let json = Array(
            """
            {"name": "Ada", "address": {"newCustomProperty": "N", "city": "C", "lat": 2.5},
             "addresses": [{"street": "S", "city": "C"}, {"newCustomProperty": "N", "city": "C", "lat": 1}]}
            """.utf8)
        let customer = try mapper().decode(Customer.self, from: json)
        #expect(customer.address is GeoAddress)
        #expect((customer.address as? GeoAddress)?.lat == 2.5)
        #expect(customer.address?.street == "N")
        #expect(customer.addresses.map { "\(type(of: $0))" } == ["Address", "GeoAddress"])
        // Written back with the subclass's own mapping.
        let back = try JSONSerialization.jsonObject(with: Data(mapper().encode(customer))) as? [String: Any]
        #expect((back?["address"] as? [String: Any])?["lat"] as? Double == 2.5)
    }

    @Test func identifyRulesAndDiscriminatorsPickSubclassesOfADeclaredBase() throws {
        let byRule = mapper { $0.identify { object, _ in object.contains("lat") ? GeoAddress.self : nil } }
        let json = Array(#"{"address": {"street": "ignored", "city": "C", "lat": 3}}"#.utf8)
        #expect(try byRule.decode(Customer.self, from: json).address is GeoAddress)
        let byKind = mapper { $0.discriminator(key: "kind", ["geo": GeoAddress.self, "plain": Address.self]) }
        let kinds = Array(#"{"addresses": [{"kind": "plain", "street": "a"}, {"kind": "geo", "lat": 4}]}"#.utf8)
        #expect(try byKind.decode(Customer.self, from: kinds).addresses.map { "\(type(of: $0))" } == ["Address", "GeoAddress"])
    }

    /// A property's codec remembers how it resolved its model per registry:
    /// a registry changed in place (uniquely held, so not copied) must be
    /// resolved again, or the subclass registered later would never be picked.
    @Test func aSubclassRegisteredAfterADecodeIsPicked() throws {
        var registry = ModelRegistry()
        registry.register(Address.mapping)
        registry.register(Customer.mapping)
        let json = Array(#"{"address": {"newCustomProperty": "N", "city": "C", "lat": 2.5}}"#.utf8)
        let before = try JSONMapper(registry: registry).decode(Customer.self, from: json).address
        #expect(before.map { type(of: $0) == Address.self } == true)
        let identity = registry.identity
        registry.register(GeoAddress.geoMapping)
        #expect(registry.identity != identity)
        #expect(try JSONMapper(registry: registry).decode(Customer.self, from: json).address is GeoAddress)
        registry.identify { _, _ in Address.self }
        #expect(type(of: try #require(try JSONMapper(registry: registry).decode(Customer.self, from: json).address)) == Address.self)
    }

    @Test func aBroadIdentifyRuleDoesNotBreakPropertiesOfOtherTypes() throws {
        // The rule answers Address for any object with "x": the Point
        // property, declared as a Codable struct, keeps its type.
        let broad = mapper { $0.identify { object, _ in object.contains("x") || object.contains("city") ? Address.self : nil } }
        let customer = try broad.decode(Customer.self, from: Array(#"{"spot": {"x": 1, "y": 2}, "address": {"city": "C"}}"#.utf8))
        #expect(customer.spot == Point(x: 1, y: 2))
        #expect(customer.address?.city == "C")
    }

    @Test func aDecodeThroughASubclassMetatypeMakesTheSubclass() throws {
        let type: Address.Type = GeoAddress.self
        let decoded = try mapper().decode(type, from: Array(#"{"newCustomProperty": "N", "city": "C", "lat": 7}"#.utf8))
        #expect(decoded is GeoAddress)
        #expect((decoded as? GeoAddress)?.lat == 7)
    }

    /// A base class with loose properties and a subclass that inherits its
    /// rules: a Foundation dictionary (through `JSONValue(any:)`) decodes
    /// into the subclass, its `Any` and `JSONValue` properties keep their
    /// values, and they write back the same.
    @Mappable
    class Envelope {
        var meta: Any = NSNull()
        var raw: JSONValue = nil
        required init() {}
        static let mapping = Mapping<Envelope>({ Envelope() }) {
            Map(\.meta)
            Map(\.raw)
        }
    }

    @Mappable
    final class SignedEnvelope: Envelope {
        var signature = ""
        static let signedMapping = Mapping<SignedEnvelope>(inheriting: Envelope.mapping, { SignedEnvelope() }) {
            Map(\.signature)
        }
    }

    @Test func aSubclassCarriesLoosePropertiesFromAFoundationDictionary() throws {
        var registry = ModelRegistry()
        registry.register(Envelope.mapping)
        registry.register(SignedEnvelope.signedMapping)
        let mapper = JSONMapper(registry: registry)
        let input: [String: Any] = [
            "meta": ["tags": ["a", NSNull(), 2] as [Any], "n": NSNumber(value: 1.5)] as [String: Any],
            "raw": [["deep": [true]]],
            "signature": "s"
        ]
        let decoded = try mapper.decode(SignedEnvelope.self, fromAny: input)
        #expect(decoded.signature == "s")
        #expect(decoded.raw == [["deep": [true]]])
        let meta = try #require(decoded.meta as? [String: Any])
        #expect((meta["tags"] as? [Any])?.count == 3)
        #expect((meta["tags"] as? [Any])?[1] is NSNull)
        #expect(try mapper.encodeValue(decoded) == ["meta": ["n": 1.5, "tags": ["a", nil, 2]], "raw": [["deep": [true]]], "signature": "s"])
    }
}
