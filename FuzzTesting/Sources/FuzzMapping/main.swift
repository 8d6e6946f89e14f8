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
    JSONMapper(options: CodableOptions { $0.dates = .iso8601(fractionalSeconds: true) })
]
let writers: [JSONMapper] = [
    JSONMapper(options: CodableOptions { $0.dates = .iso8601(fractionalSeconds: false) }),
    JSONMapper(options: CodableOptions { $0.dates = .iso8601(fractionalSeconds: true) })
]

struct Tag: Mappable {
    var label = ""
    var weight = 0
    static let mapping = Mapping<Tag>({ Tag() }, keys: ["label"]) {
        Map(\.label, "label", required: true)
        Map(\.weight, "meta.weight", lenient: true)
    }
}

/// Struct models read in place by the rule loop (nested models, arrays of
/// them, their optionals, scalar arrays), and a class twin that always
/// takes the rules' general path: the two must agree on any input.
struct Shelf: Mappable {
    var id = 0
    var tag = Tag()
    var spare: Tag?
    var tags: [Tag] = []
    var more: [Tag]? = []
    var grid: [[Double]] = []
    var shelves: [Shelf] = []
    static let mapping = Mapping<Shelf>({ Shelf() }) {
        Map(\.id, "id")
        Map(\.tag, "tag")
        Map(\.spare, "spare")
        Map(\.tags, "tags")
        Map(\.more, "more")
        Map(\.grid, "grid")
        Map(\.shelves, "shelves")
    }
}

final class ShelfTwin: Mappable {
    var id = 0
    var tag = Tag()
    var spare: Tag?
    var tags: [Tag] = []
    var more: [Tag]? = []
    var grid: [[Double]] = []
    var shelves: [ShelfTwin] = []
    static let mapping = Mapping<ShelfTwin>({ ShelfTwin() }) {
        Map(\.id, "id")
        Map(\.tag, "tag")
        Map(\.spare, "spare")
        Map(\.tags, "tags")
        Map(\.more, "more")
        Map(\.grid, "grid")
        Map(\.shelves, "shelves")
    }
}

/// A shelf's fields as text, the same for a struct and its twin.
func summary(_ tag: Tag) -> String { "\(tag.label)/\(tag.weight)" }
func summary(_ id: Int, _ tag: Tag, _ spare: Tag?, _ tags: [Tag], _ more: [Tag]?, _ grid: [[Double]], _ shelves: [String]) -> String {
    "\(id) \(summary(tag)) \(spare.map(summary) ?? "nil") \(tags.map(summary)) \(more.map { $0.map(summary) } as Any) \(grid) \(shelves)"
}
func summary(_ s: Shelf) -> String { summary(s.id, s.tag, s.spare, s.tags, s.more, s.grid, s.shelves.map(summary)) }
func summary(_ s: ShelfTwin) -> String { summary(s.id, s.tag, s.spare, s.tags, s.more, s.grid, s.shelves.map(summary)) }

let mapper: JSONMapper = {
    var registry = ModelRegistry()
    registry.register(Tag.self)
    registry.register(Shelf.self)
    registry.register(ShelfTwin.self)
    return JSONMapper(registry: registry)
}()

/// What `encode` streams is what the mapping's tree, as a `JSONValue`, writes.
func expectStreamedAsTheTree<Model>(_ model: Model, _ mapper: JSONMapper) {
    for options in [
        WriteOptions(),
        WriteOptions {
            $0.sortedKeys = true; $0.formatting = .prettyLikeFoundation
        }
    ] {
        var writer = mapper
        writer.writeOptions = options
        let streamed = try? writer.encode(model)
        let throughTree = try? writer.encodeValue(model).encoded(options: options)
        if streamed != throughTree { FuzzInput.fail("the mapping stream and its tree wrote different bytes") }
    }
}

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
    // The in-place slots against the general path: the same fields or the same error.
    let inPlace = Result { try local.decode(Shelf.self, from: input.bytes) }
    let general = Result { try local.decode(ShelfTwin.self, from: input.bytes) }
    switch (inPlace, general) {
    case (.success(let a), .success(let b)):
        if summary(a) != summary(b) {
            FuzzInput.fail("a struct read in place differs from its class twin")
        }
    case (.failure(let a as CartographError), .failure(let b as CartographError)):
        if a.kind != b.kind || a.path != b.path { FuzzInput.fail("in place: \(a); general path: \(b)") }
    case (.failure, .failure):
        break
    default:
        FuzzInput.fail("one of a struct and its class twin decoded, the other threw")
    }
    // The mapping stream against the tree it replaces (read back through
    // its JSONValue): the same bytes, or both refuse.
    if case .success(let shelf) = inPlace { expectStreamedAsTheTree(shelf, local) }
    if case .success(let twin) = general { expectStreamedAsTheTree(twin, local) }
    _ = try? local.decodeLossy([Shelf].self, from: input.bytes)
    for reader in dateMappers {
        guard let dated = try? reader.decode(Dated.self, from: input.bytes) else { continue }
        for writer in writers { _ = try? writer.encode(dated) }
        for format in PropertyListFormat.allCases {
            if let plist = try? PropertyListMapper().encode(dated, format: format), (try? PropertyListMapper().decode(Dated.self, from: plist)) == nil
            {
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
