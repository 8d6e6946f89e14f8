// Models for canada.json (a GeoJSON feature collection, ~110k doubles in
// nested arrays), every field mapped; decoded through Codable, Mappings
// (Mappable conformances below) and factories (CanadaFactories.swift).
import Cartograph

@Mappable
public struct FeatureCollection: Codable, Equatable, Sendable {
    public var type = ""
    public var features: [Feature] = []

    public init() {}
}

@Mappable
public struct Feature: Codable, Equatable, Sendable {
    public var type = ""
    public var properties: [String: String] = [:]
    public var geometry = Geometry()

    public init() {}
}

@Mappable
public struct Geometry: Codable, Equatable, Sendable {
    public var type = ""
    public var coordinates: [[[Double]]] = []

    public init() {}
}

extension FeatureCollection: Mappable {
    public static let mapping = Mapping<FeatureCollection>({ FeatureCollection() }) {
        Map(\.type, "type")
        Map(\.features, "features")
    }
}

extension Feature: Mappable {
    public static let mapping = Mapping<Feature>({ Feature() }) {
        Map(\.type, "type")
        Map(\.properties, "properties")
        Map(\.geometry, "geometry")
    }
}

extension Geometry: Mappable {
    public static let mapping = Mapping<Geometry>({ Geometry() }) {
        Map(\.type, "type")
        Map(\.coordinates, "coordinates")
    }
}
