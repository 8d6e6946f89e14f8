import Cartograph
import FuzzSupport

struct Item: Codable {
    var id: Int
    var name: String?
    var tags: [String]?
    var nested: [String: Double]?
}

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
    return 0
}
