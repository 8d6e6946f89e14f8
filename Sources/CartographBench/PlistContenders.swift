import CPlist
import Cartograph
import CorpusModels
import Foundation

/// Property-list contenders on the twitter and canada plists (read from
/// beside the JSON files): Cartograph into the same Codable models as the
/// JSON benchmarks, Foundation's PropertyListDecoder/Encoder, and libplist
/// alone (parse and free: the ceiling).
enum PlistContenders {
    static var all: [Contender] {
        var contenders: [Contender] = []
        for format in [PropertyListFormat.binary, .xml] {
            let suffix = format == .binary ? "binary" : "xml"
            contenders.append(decode(format, id: "cartograph-plist-decode-\(suffix)", peer: "foundation-plistdecoder-\(suffix)"))
            contenders.append(foundationDecode(format, id: "foundation-plistdecoder-\(suffix)"))
            contenders.append(encode(format, id: "cartograph-plist-encode-\(suffix)", peer: "foundation-plistencoder-\(suffix)"))
            contenders.append(foundationEncode(format, id: "foundation-plistencoder-\(suffix)"))
        }
        contenders.append(libplist(.binary, id: "libplist-from-bin"))
        contenders.append(libplist(.xml, id: "libplist-from-xml"))
        return contenders
    }

    /// The plist beside a JSON benchmark file.
    static func plistBytes(_ file: String, _ format: PropertyListFormat) throws -> [UInt8] {
        guard file == "twitter.json" || file == "canada.json" else { throw ModelContenders.NotApplicable() }
        let name = file.replacingOccurrences(of: ".json", with: format == .binary ? ".bin.plist" : ".xml.plist")
        guard let data = FileManager.default.contents(atPath: "Benchmarks/Data/\(name)") else { throw BenchmarkError("missing Benchmarks/Data/\(name)") }
        return Array(data)
    }

    static func decode(_ format: PropertyListFormat, id: String, peer: String) -> Contender {
        Contender(id: id, peer: peer) { file, _ in
            let bytes = try plistBytes(file, format)
            let mapper = PropertyListMapper()
            if file == "twitter.json" { return { try mapper.decode(TwitterResponse.self, from: bytes).statuses.count } }
            return { try mapper.decode(FeatureCollection.self, from: bytes).features.count }
        }
    }

    static func foundationDecode(_ format: PropertyListFormat, id: String) -> Contender {
        Contender(id: id, peer: nil) { file, _ in
            let data = Data(try plistBytes(file, format))
            let decoder = PropertyListDecoder()
            if file == "twitter.json" { return { try decoder.decode(TwitterResponse.self, from: data).statuses.count } }
            return { try decoder.decode(FeatureCollection.self, from: data).features.count }
        }
    }

    static func encode(_ format: PropertyListFormat, id: String, peer: String) -> Contender {
        Contender(id: id, peer: peer) { file, _ in
            let data = Data(try plistBytes(file, format))
            let mapper = PropertyListMapper()
            if file == "twitter.json" {
                let value = try PropertyListDecoder().decode(TwitterResponse.self, from: data)
                return { try mapper.encode(value, format: format).count }
            }
            let value = try PropertyListDecoder().decode(FeatureCollection.self, from: data)
            return { try mapper.encode(value, format: format).count }
        }
    }

    static func foundationEncode(_ format: PropertyListFormat, id: String) -> Contender {
        Contender(id: id, peer: nil) { file, _ in
            let data = Data(try plistBytes(file, format))
            let encoder = PropertyListEncoder()
            encoder.outputFormat = format == .binary ? .binary : .xml
            if file == "twitter.json" {
                let value = try PropertyListDecoder().decode(TwitterResponse.self, from: data)
                return { try encoder.encode(value).count }
            }
            let value = try PropertyListDecoder().decode(FeatureCollection.self, from: data)
            return { try encoder.encode(value).count }
        }
    }

    static func libplist(_ format: PropertyListFormat, id: String) -> Contender {
        Contender(id: id, peer: nil) { file, _ in
            let bytes = try plistBytes(file, format)
            return {
                var root: plist_t?
                bytes.withUnsafeBufferPointer { buffer in
                    buffer.withMemoryRebound(to: CChar.self) {
                        if format == .binary {
                            plist_from_bin($0.baseAddress, UInt32($0.count), &root)
                        } else {
                            plist_from_xml($0.baseAddress, UInt32($0.count), &root)
                        }
                    }
                }
                guard let root else { throw BenchmarkError("libplist rejected the input") }
                plist_free(root)
                return 1
            }
        }
    }
}
