import CPlist
import Cartograph
import CorpusModels
import Foundation

/// Property-list contenders on every file with a root model
/// (``CorpusRoots``): Cartograph into the same Codable models as the JSON
/// benchmarks, Foundation's PropertyListDecoder/Encoder, and libplist
/// alone (parse and free: the ceiling). twitter and canada are read from
/// the plists beside them; the generated files' plists are their models
/// as Foundation's `PropertyListEncoder` writes them, made once per run
/// outside the timed region.
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

    /// The plist for a JSON benchmark file with a root model: the one
    /// beside it for `Benchmarks/Data`'s twitter.json and canada.json
    /// (another file of the same name, such as `small/twitter.json`, is
    /// written from its own models).
    static func plistBytes(_ file: String, _ format: PropertyListFormat, json: [UInt8]) throws -> [UInt8] {
        let root = try CodableContenders.root(file)
        guard file == "twitter.json" || file == "canada.json",
            FileManager.default.contents(atPath: "Benchmarks/Data/\(file)").map(Array.init) == json
        else { return try written(root, json: json, format) }
        let name = file.replacingOccurrences(of: ".json", with: format == .binary ? ".bin.plist" : ".xml.plist")
        guard let data = FileManager.default.contents(atPath: "Benchmarks/Data/\(name)") else {
            throw BenchmarkError("missing Benchmarks/Data/\(name)")
        }
        return Array(data)
    }

    /// The file's models, decoded from its JSON, as Foundation writes them in `format`.
    private static func written<Root: CorpusRoot>(_ type: Root.Type, json: [UInt8], _ format: PropertyListFormat) throws -> [UInt8] {
        let encoder = PropertyListEncoder()
        encoder.outputFormat = format == .binary ? .binary : .xml
        return Array(try encoder.encode(type.wire.jsonDecoder().decode(type, from: Data(json))))
    }

    /// The file's models, read from its plist by Foundation (what the encode contenders write).
    private static func models<Root: CorpusRoot>(_ type: Root.Type, from plist: [UInt8]) throws -> Root {
        try PropertyListDecoder().decode(type, from: Data(plist))
    }

    static func decode(_ format: PropertyListFormat, id: String, peer: String) -> Contender {
        Contender(id: id, peer: peer) { file, json in
            let bytes = try plistBytes(file, format, json: json)
            let mapper = PropertyListMapper()
            return CodableContenders.decoding(try CodableContenders.root(file)) { type in { try mapper.decode(type, from: bytes).elementCount } }
        }
    }

    static func foundationDecode(_ format: PropertyListFormat, id: String) -> Contender {
        Contender(id: id, peer: nil) { file, json in
            let data = Data(try plistBytes(file, format, json: json))
            let decoder = PropertyListDecoder()
            return CodableContenders.decoding(try CodableContenders.root(file)) { type in { try decoder.decode(type, from: data).elementCount } }
        }
    }

    static func encode(_ format: PropertyListFormat, id: String, peer: String) -> Contender {
        Contender(id: id, peer: peer) { file, json in
            let bytes = try plistBytes(file, format, json: json)
            let mapper = PropertyListMapper()
            return try encoding(try CodableContenders.root(file), bytes) { value in { try mapper.encode(value, format: format).count } }
        }
    }

    static func foundationEncode(_ format: PropertyListFormat, id: String) -> Contender {
        Contender(id: id, peer: nil) { file, json in
            let bytes = try plistBytes(file, format, json: json)
            let encoder = PropertyListEncoder()
            encoder.outputFormat = format == .binary ? .binary : .xml
            return try encoding(try CodableContenders.root(file), bytes) { value in { try encoder.encode(value).count } }
        }
    }

    /// The run closure `make` builds for the file's models, read once from its plist.
    private static func encoding<Root: CorpusRoot>(_ type: Root.Type, _ plist: [UInt8], _ make: (Root) -> () throws -> Int) throws -> () throws -> Int
    {
        make(try models(type, from: plist))
    }

    static func libplist(_ format: PropertyListFormat, id: String) -> Contender {
        Contender(id: id, peer: nil) { file, json in
            let bytes = try plistBytes(file, format, json: json)
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
