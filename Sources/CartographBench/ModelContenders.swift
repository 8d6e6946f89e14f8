import Cartograph
import CorpusModels
import Foundation

/// Contenders that decode files into model types (every field): Cartograph
/// Mappings and Foundation's JSONDecoder on every file with a root model
/// (``CorpusRoots``), hand-written factories on twitter.json and canada.json.
enum ModelContenders {
    static let all: [Contender] = [mapping, factory, foundationDecoder]

    struct NotApplicable: Error, CustomStringConvertible {
        var description: String { "needs a file with models (CorpusRoots)" }
    }

    static let registry = ModelRegistry.corpusMappings()

    static let mapping = Contender(id: "cartograph-mapping-decode", peer: "foundation-jsondecoder") { file, bytes in
        guard CorpusRoots.hasMappings(file) else { throw NotApplicable() }
        let mapper = JSONMapper(registry: registry)
        return try mappingDecode(CodableContenders.root(file), mapper, bytes)
    }

    /// Through the mapping layer's entry point (from the parsed root), not
    /// the `Codable` decoder, as `decode(_:from:)` with a concrete model type does.
    private static func mappingDecode<Root: CorpusRoot>(_ type: Root.Type, _ mapper: JSONMapper, _ bytes: [UInt8]) -> () throws -> Int {
        { try mapper.decode(type, from: Document(parsing: bytes).root).elementCount }
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
        let type = try CodableContenders.root(file)
        let decoder = type.wire.jsonDecoder()
        return CodableContenders.decoding(type) { type in { try decoder.decode(type, from: data).elementCount } }
    }
}
