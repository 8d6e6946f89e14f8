import Cartograph
import CorpusModels
import Foundation

/// Contenders that decode files into model types (every field): Cartograph
/// Mappings and Foundation's JSONDecoder on every file with a root model
/// (``CorpusRoots``); hand-written factories and `@Mappable` default
/// mappings on twitter.json and canada.json. Encoding the same models: the
/// hand-written mappings and the `@Mappable` ones (factories only read).
enum ModelContenders {
    static let all: [Contender] = [
        mapping, factory, macroDecode, foundationDecoder, mappingEncode, macroEncode, classDecode, classHandDecode, subclassDecode, classEncode,
        fallbackDecode
    ]

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

    static let macroRegistry = ModelRegistry.corpusMacroMappings()

    /// The `@Mappable` models' default mappings, beside the hand-written factories.
    static let macroDecode = Contender(id: "cartograph-macro-decode", peer: "cartograph-factory-decode") { file, bytes in
        let mapper = JSONMapper(registry: macroRegistry)
        switch file {
        case "twitter.json": return { try mapper.decode(TwitterResponse.self, from: bytes).statuses.count }
        case "canada.json": return { try mapper.decode(FeatureCollection.self, from: bytes).features.count }
        default: throw NotApplicable()
        }
    }

    /// The hand-written mappings writing the models decoded from the file.
    static let mappingEncode = Contender(id: "cartograph-mapping-encode", peer: "foundation-jsonencoder") { file, bytes in
        try encoding(file, bytes, JSONMapper(registry: registry), includesRecords: true)
    }

    /// The `@Mappable` default mappings writing the same models, beside the hand-written mappings.
    static let macroEncode = Contender(id: "cartograph-macro-encode", peer: "cartograph-mapping-encode") { file, bytes in
        try encoding(file, bytes, JSONMapper(registry: macroRegistry))
    }

    /// records.json's structs (their hand-written mappings) only where
    /// `includesRecords`: the peer of the class models' encode.
    private static func encoding(_ file: String, _ bytes: [UInt8], _ mapper: JSONMapper, includesRecords: Bool = false) throws -> () throws -> Int {
        switch file {
        case "records.json" where includesRecords:
            let model = try mapper.decode([EventRecord].self, from: bytes)
            return { try mapper.encode(model).count }
        case "twitter.json":
            let model = try mapper.decode(TwitterResponse.self, from: bytes)
            return { try mapper.encode(model).count }
        case "canada.json":
            let model = try mapper.decode(FeatureCollection.self, from: bytes)
            return { try mapper.encode(model).count }
        default: throw NotApplicable()
        }
    }

    static let classRegistry = ModelRegistry.corpusClassMappings()

    /// records.json's records as non-final `@Mappable` class models
    /// (``EventEntry``), beside the same records as structs.
    static let classDecode = Contender(id: "cartograph-class-decode", peer: "cartograph-mapping-decode") { file, bytes in
        guard file == "records.json" else { throw NotApplicable() }
        let mapper = JSONMapper(registry: classRegistry)
        return { try mapper.decode([EventEntry].self, from: Document(parsing: bytes).root).count }
    }

    static let handClassRegistry = ModelRegistry.corpusHandClassMappings()

    /// records.json through a mapping whose `kind` is a plain `Codable` type
    /// the registry does not know (``KindedEvent``): each record's kind read
    /// through the `Codable` decoder inside the mapping decode.
    static let fallbackDecode = Contender(id: "cartograph-fallback-decode", peer: "cartograph-mapping-decode") { file, bytes in
        guard file == "records.json" else { throw NotApplicable() }
        var registry = ModelRegistry()
        registry.register(KindedEvent.mapping)
        let mapper = JSONMapper(registry: registry)
        return { try mapper.decode([KindedEvent].self, from: Document(parsing: bytes).root).count }
    }

    /// The same class with a hand-written `Mapping`, beside its `@Mappable` default mapping.
    static let classHandDecode = Contender(id: "cartograph-class-mapping-decode", peer: "cartograph-class-decode") { file, bytes in
        guard file == "records.json" else { throw NotApplicable() }
        let mapper = JSONMapper(registry: handClassRegistry)
        return { try mapper.decode([EventEntry].self, from: Document(parsing: bytes).root).count }
    }

    /// The same class models written back, beside the struct models.
    static let classEncode = Contender(id: "cartograph-class-encode", peer: "cartograph-mapping-encode") { file, bytes in
        guard file == "records.json" else { throw NotApplicable() }
        let mapper = JSONMapper(registry: classRegistry)
        let models = try mapper.decode([EventEntry].self, from: bytes)
        return { try mapper.encode(models).count }
    }

    static let subclassRegistry = ModelRegistry.corpusSubclassMappings()

    /// The same records as a subclass whose hand-written mapping inherits
    /// its superclass's (``AuditedEventEntry``), beside the superclass.
    static let subclassDecode = Contender(id: "cartograph-class-subclass-decode", peer: "cartograph-class-mapping-decode") { file, bytes in
        guard file == "records.json" else { throw NotApplicable() }
        let mapper = JSONMapper(registry: subclassRegistry)
        return { try mapper.decode([AuditedEventEntry].self, from: Document(parsing: bytes).root).count }
    }

    static let foundationDecoder = Contender(id: "foundation-jsondecoder", peer: nil) { file, bytes in
        let data = Data(bytes)
        let type = try CodableContenders.root(file)
        let decoder = type.wire.jsonDecoder()
        return CodableContenders.decoding(type) { type in { try decoder.decode(type, from: data).elementCount } }
    }
}
