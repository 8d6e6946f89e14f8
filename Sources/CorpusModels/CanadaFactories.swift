// Hand-written factories for the canada.json models.
import Cartograph

private enum K {
    static let type: ObjectView.Key = "type"
    static let features: ObjectView.Key = "features"
    static let properties: ObjectView.Key = "properties"
    static let geometry: ObjectView.Key = "geometry"
    static let coordinates: ObjectView.Key = "coordinates"
}

public struct FeatureCollectionFactory: ModelFactory {
    public init() {}
    public var keys: [String] { ["type", "features"] }
    public func make(from object: ObjectView, context: MappingContext) throws -> FeatureCollection {
        var read = FieldReader(object, context)
        var model = FeatureCollection()
        model.type = try read.string(K.type)
        model.features = try read.models(K.features, FeatureFactory()) ?? []
        return model
    }
}

public struct FeatureFactory: ModelFactory {
    public init() {}
    public var keys: [String] { ["type", "geometry"] }
    public func make(from object: ObjectView, context: MappingContext) throws -> Feature {
        var read = FieldReader(object, context)
        var model = Feature()
        model.type = try read.string(K.type)
        if let properties = read.cursor(K.properties), !properties.isNull {
            for (key, value) in try properties.object() { model.properties[key] = try value.string() }
        }
        model.geometry = try read.model(K.geometry, GeometryFactory()) ?? Geometry()
        return model
    }
}

public struct GeometryFactory: ModelFactory {
    public init() {}
    public var keys: [String] { ["type", "coordinates"] }
    public func make(from object: ObjectView, context: MappingContext) throws -> Geometry {
        var read = FieldReader(object, context)
        var model = Geometry()
        model.type = try read.string(K.type)
        // The rings through the context: one call reads the nested arrays
        // with the mapping layer's scalar-array loops. A loop over the nodes
        // (a `Node` per number, each holding the document) took 14% longer
        // over canada.json (Benchmarks/HISTORY.md).
        model.coordinates = try read.decoded(K.coordinates, as: [[[Double]]].self) ?? []
        return model
    }
}
