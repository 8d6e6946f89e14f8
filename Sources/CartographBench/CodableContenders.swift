import Cartograph
import CorpusModels
import Foundation

/// `Codable` contenders on twitter.json and canada.json with the full
/// models: Cartograph's Decoder/Encoder against Foundation's.
enum CodableContenders {
    static let all: [Contender] = [decode, encode, foundationEncoder]

    static let decode = Contender(id: "cartograph-codable-decode", peer: "foundation-jsondecoder") { file, bytes in
        let mapper = JSONMapper()
        switch file {
        case "twitter.json": return { try mapper.decode(TwitterResponse.self, from: bytes).statuses.count }
        case "canada.json": return { try mapper.decode(FeatureCollection.self, from: bytes).features.count }
        default: throw ModelContenders.NotApplicable()
        }
    }

    static let encode = Contender(id: "cartograph-codable-encode", peer: "foundation-jsonencoder") { file, bytes in
        let mapper = JSONMapper()
        switch file {
        case "twitter.json":
            let value = try JSONDecoder().decode(TwitterResponse.self, from: Data(bytes))
            return { try mapper.encode(value).count }
        case "canada.json":
            let value = try JSONDecoder().decode(FeatureCollection.self, from: Data(bytes))
            return { try mapper.encode(value).count }
        default: throw ModelContenders.NotApplicable()
        }
    }

    static let foundationEncoder = Contender(id: "foundation-jsonencoder", peer: nil) { file, bytes in
        let encoder = JSONEncoder()
        switch file {
        case "twitter.json":
            let value = try JSONDecoder().decode(TwitterResponse.self, from: Data(bytes))
            return { try encoder.encode(value).count }
        case "canada.json":
            let value = try JSONDecoder().decode(FeatureCollection.self, from: Data(bytes))
            return { try encoder.encode(value).count }
        default: throw ModelContenders.NotApplicable()
        }
    }
}
