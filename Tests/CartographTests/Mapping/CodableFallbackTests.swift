import Foundation
import Testing

@testable import Cartograph

/// Plain `Codable` values inside mapped models (types the registry does not
/// know), which a mapping decode reads with one `Codable` decoder per
/// decode, moved from value to value: every value read as Foundation's
/// `JSONDecoder` reads it, a failure in one leaving the next ones intact,
/// and a registered model inside such a value holding `Codable` values in turn.
@Suite struct CodableFallbackTests {
    /// Not registered: read through `init(from:)`.
    struct Point: Codable, Equatable {
        var x: Double
        var y: Double
        var label: String?
    }

    enum Cargo: Codable, Equatable {
        case parcel(weight: Int)
        case letter
    }

    /// Registered, and held inside a plain `Codable` value (``Leg``).
    struct Carrier: Codable, Equatable {
        var name = ""
        var depot = Point(x: 0, y: 0)
        static let mapping = Mapping<Carrier>({ Carrier() }) {
            Map(\.name, "name")
            Map(\.depot, "depot")
        }
    }

    /// Not registered; holds a registered model.
    struct Leg: Codable, Equatable {
        var carrier: Carrier
        var to: Point
    }

    struct Shipment: Codable, Equatable {
        var id = 0
        var origin = Point(x: 0, y: 0)
        var stops: [Point] = []
        var cargo: Cargo?
        var legs: [Leg] = []
        static let mapping = Mapping<Shipment>({ Shipment() }) {
            Map(\.id, "id")
            Map(\.origin, "origin")
            Map(\.stops, "stops")
            Map(\.cargo, "cargo")
            Map(\.legs, "legs")
        }
    }

    /// Not `Codable`: decoded by its mapping alone (a lossy decode skips
    /// each failing shipment and keeps its error).
    struct Manifest {
        var shipments: [Shipment] = []
        static let mapping = Mapping<Manifest>({ Manifest() }) { Map(\.shipments, "shipments") }
    }

    static func mapper() -> JSONMapper {
        var registry = ModelRegistry()
        registry.register(Manifest.mapping)
        registry.register(Shipment.mapping)
        registry.register(Carrier.mapping)
        return JSONMapper(registry: registry)
    }

    static func shipments(_ count: Int) -> [Shipment] {
        (0..<count).map { index in
            Shipment(
                id: index, origin: Point(x: Double(index), y: -1.5, label: index % 3 == 0 ? nil : "o\(index)"),
                stops: (0..<index % 4).map { Point(x: Double($0), y: 0.25, label: "s\($0)") },
                cargo: index % 5 == 0 ? nil : (index % 2 == 0 ? .letter : .parcel(weight: index)),
                legs: (0..<index % 3).map { Leg(carrier: Carrier(name: "c\($0)", depot: Point(x: 1, y: Double($0))), to: Point(x: 2, y: 3)) })
        }
    }

    @Test func manyValuesInOneDecodeReadAsFoundationReadsThem() throws {
        let json = try JSONEncoder().encode(Self.shipments(40))
        let foundation = try JSONDecoder().decode([Shipment].self, from: json)
        #expect(try Self.mapper().decode([Shipment].self, from: json) == foundation)
        #expect(foundation == Self.shipments(40))
    }

    /// A failing value among others: its error names its own path, and in
    /// a lossy decode the values after it are read as before.
    @Test func aFailureLeavesTheNextValuesIntact() throws {
        var objects = try JSONSerialization.jsonObject(with: JSONEncoder().encode(Self.shipments(12))) as! [[String: Any]]
        objects[3]["origin"] = ["x": "east", "y": 1]
        var legs = objects[8]["legs"] as! [[String: Any]]
        legs[1]["to"] = ["x": 1]
        objects[8]["legs"] = legs
        let json = try JSONSerialization.data(withJSONObject: objects)
        // Through `Codable` (an array of registered models): the model's
        // place, then the path inside it, and the failing value's offset.
        let thrown = try #require(throws: DecodingError.self) { try Self.mapper().decode([Shipment].self, from: json) }
        let error = try #require(DecodingErrors.cartographError(thrown))
        #expect(error.path == "$[3].origin.x", "\(error)")
        let offset = try #require(error.offset)
        #expect(String(decoding: json[offset..<offset + 6], as: UTF8.self) == #""east""#)
        // Through the mapping (a lossy decode): each issue at its own path,
        // and the shipments after each failure read as before.
        let manifest = try JSONSerialization.data(withJSONObject: ["shipments": objects])
        let lossy = try Self.mapper().decodeLossy(Manifest.self, from: manifest)
        #expect(lossy.issues.map(\.path) == ["$.shipments[3].origin.x", "$.shipments[8].legs[1].to.y"], "\(lossy.issues)")
        // The innermost array element that failed is the one left out: the
        // leg of shipment 8, and shipment 3 itself.
        var expected = Self.shipments(12)
        expected[8].legs.remove(at: 1)
        expected.remove(at: 3)
        #expect(lossy.value.shipments == expected)
    }
}
