import Cartograph
import CorpusModels
import Foundation

/// Contenders that decode twitter.json and canada.json into model types
/// (every field): Cartograph Mappings, hand-written factories, and
/// Foundation's JSONDecoder into Codable structs of the same shape. They run
/// only on those two files.
enum ModelContenders {
    static let all: [Contender] = [mapping, factory, foundationDecoder]

    struct NotApplicable: Error, CustomStringConvertible {
        var description: String { "needs twitter.json or canada.json" }
    }

    static let registry = ModelRegistry.corpusMappings()

    static let mapping = Contender(id: "cartograph-mapping-decode", peer: "foundation-jsondecoder") { file, bytes in
        let mapper = JSONMapper(registry: registry)
        switch file {
        case "twitter.json": return { try mapper.decode(TwitterResponse.self, from: bytes).statuses.count }
        case "canada.json": return { try mapper.decode(FeatureCollection.self, from: bytes).features.count }
        default: throw NotApplicable()
        }
    }

    static let factory = Contender(id: "cartograph-factory-decode", peer: "foundation-jsondecoder") { file, bytes in
        var registry = ModelRegistry()
        registry.register(TwitterResponseFactory())
        registry.register(FeatureCollectionFactory())
        let mapper = JSONMapper(registry: registry)
        switch file {
        case "twitter.json": return { try mapper.decode(TwitterResponse.self, from: bytes).statuses.count }
        case "canada.json": return { try mapper.decode(FeatureCollection.self, from: bytes).features.count }
        default: throw NotApplicable()
        }
    }

    static let foundationDecoder = Contender(id: "foundation-jsondecoder", peer: nil) { file, bytes in
        let data = Data(bytes)
        let decoder = JSONDecoder()
        switch file {
        case "twitter.json": return { try decoder.decode(TwitterResponse.self, from: data).statuses.count }
        case "canada.json": return { try decoder.decode(FeatureCollection.self, from: data).features.count }
        default: throw NotApplicable()
        }
    }
}
