import Cartograph
import Foundation
import FuzzSupport

struct Item: Codable {
    var id: Int
    var name: String?
    var tags: [String]?
    var nested: [String: Double]?
}

/// Dates from any JSON, written back by every writer: each encodes or throws,
/// never traps (a date of 1e20 seconds once did).
struct Dated: Codable {
    var when: Date?
    var list: [Date]?
}

let dateMappers: [JSONMapper] = [
    JSONMapper(options: CodableOptions { $0.dates = .deferredToDate }),
    JSONMapper(options: CodableOptions { $0.dates = .secondsSince1970 }),
    JSONMapper(options: CodableOptions { $0.dates = .millisecondsSince1970 }),
    JSONMapper(options: CodableOptions { $0.dates = .iso8601(fractionalSeconds: true) }),
]
let writers: [JSONMapper] = [
    JSONMapper(options: CodableOptions { $0.dates = .iso8601(fractionalSeconds: false) }),
    JSONMapper(options: CodableOptions { $0.dates = .iso8601(fractionalSeconds: true) }),
]

struct Tag: Mappable {
    var label = ""
    var weight = 0
    static let mapping = Mapping<Tag>({ Tag() }, keys: ["label"]) {
        Map(\.label, "label", required: true)
        Map(\.weight, "meta.weight", lenient: true)
    }
}

let mapper: JSONMapper = {
    var registry = ModelRegistry()
    registry.register(Tag.self)
    return JSONMapper(registry: registry)
}()

/// decodeAny and a Codable model from any JSON: a value or a typed error.
@_cdecl("FuzzMapping_main")
func fuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv) { start, count in testOneInput(UnsafeRawPointer(start!), count) }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let input = FuzzInput(start, count)
    var local = mapper
    local.parseOptions = input.options
    _ = try? local.decodeAny(from: input.bytes)
    _ = try? local.decode([Item].self, from: input.bytes)
    _ = try? local.decode(Item.self, from: input.bytes)
    _ = try? local.collect(Tag.self, from: input.bytes)
    _ = try? local.decodeLossy([Tag].self, from: input.bytes)
    for reader in dateMappers {
        guard let dated = try? reader.decode(Dated.self, from: input.bytes) else { continue }
        for writer in writers { _ = try? writer.encode(dated) }
        for format in PropertyListFormat.allCases {
            if let plist = try? PropertyListMapper().encode(dated, format: format), (try? PropertyListMapper().decode(Dated.self, from: plist)) == nil {
                FuzzInput.fail("a plist Cartograph wrote could not be read back")
            }
        }
    }
    // Duplicate keys: a Swift dictionary sees exactly the keys the Document keeps visible.
    if let document = try? Document(parsing: input.bytes, options: input.options), let object = try? document.root.object(),
        let dictionary = try? local.decode([String: JSONValue].self, from: document.root), dictionary.count != object.count
    {
        FuzzInput.fail("a dictionary has \(dictionary.count) keys, the Document \(object.count) visible ones")
    }
    return 0
}
