import Cartograph
import CorpusModels
import Foundation

/// `Codable` contenders on every file with a root model (``CorpusRoots``:
/// twitter.json, canada.json and six generated files): Cartograph's
/// Decoder/Encoder against Foundation's, each set up for the file's keys and
/// dates (``CorpusWire``).
enum CodableContenders {
    static let all: [Contender] = [decode, encode, foundationEncoder, dropInDecode, dropInEncode, nullEncode]

    /// The drop-in subclasses typed as Foundation's classes, their settings
    /// read from Foundation's properties on every call, against the same
    /// engine called directly: what being a `JSONDecoder` costs.
    static let dropInDecode = Contender(id: "cartograph-dropin-decode", peer: "cartograph-codable-decode") { file, bytes in
        let type = try root(file)
        let decoder: JSONDecoder = type.wire.jsonDecoder(CartographJSONDecoder())
        let data = Data(bytes)
        return decoding(type) { type in { try decoder.decode(type, from: data).elementCount } }
    }

    static let dropInEncode = Contender(id: "cartograph-dropin-encode", peer: "cartograph-codable-encode") { file, bytes in
        let type = try root(file)
        let encoder: JSONEncoder = type.wire.jsonEncoder(CartographJSONEncoder())
        // The same bytes as its peer's: Foundation's default `\/` would add the cost of escaping every URL's slashes.
        encoder.outputFormatting = .withoutEscapingSlashes
        return try encoding(type, bytes) { value in { try encoder.encode(value).count } }
    }

    static let decode = Contender(id: "cartograph-codable-decode", peer: "foundation-jsondecoder") { file, bytes in
        let type = try root(file)
        let mapper = type.wire.mapper()
        return decoding(type) { type in { try mapper.decode(type, from: bytes).elementCount } }
    }

    static let encode = Contender(id: "cartograph-codable-encode", peer: "foundation-jsonencoder") { file, bytes in
        let type = try root(file)
        let mapper = type.wire.mapper()
        return try encoding(type, bytes) { value in { try mapper.encode(value).count } }
    }

    /// The floor under any `Codable` encoder (NullEncoder.swift): the
    /// models' `encode(to:)` run through an encoder that writes nothing,
    /// against Cartograph's encode of the same value.
    static let nullEncode = Contender(id: "swift-codable-null-encode", peer: "cartograph-codable-encode") { file, bytes in
        let type = try root(file)
        let encoder = NullEncoder()
        return try encoding(type, bytes) { value in
            {
                try value.encode(to: encoder)
                return 1
            }
        }
    }

    static let foundationEncoder = Contender(id: "foundation-jsonencoder", peer: nil) { file, bytes in
        let type = try root(file)
        let encoder = type.wire.jsonEncoder()
        return try encoding(type, bytes) { value in { try encoder.encode(value).count } }
    }

    /// The file's root model, or the contender does not apply.
    static func root(_ file: String) throws -> any CorpusRoot.Type {
        guard let type = CorpusRoots.type(for: file) else { throw ModelContenders.NotApplicable() }
        return type
    }

    /// The run closure `make` builds for the root type (opened from the existential).
    static func decoding<Root: CorpusRoot>(_ type: Root.Type, _ make: (Root.Type) -> () throws -> Int) -> () throws -> Int {
        make(type)
    }

    /// The run closure `make` builds for the file's value, decoded once by Foundation.
    static func encoding<Root: CorpusRoot>(_ type: Root.Type, _ bytes: [UInt8], _ make: (Root) -> () throws -> Int) throws -> () throws -> Int {
        make(try type.wire.jsonDecoder().decode(type, from: Data(bytes)))
    }
}
