import CCartographTape
import CJansson
import Cartograph
import Foundation

/// `cartograph-bench leakcheck`: every C path, errors and abandoned work
/// included, a few times over, for scripts/leak-check to run under
/// valgrind (zero bytes definitely lost is the pass mark).
enum LeakCheck {
    static func run() throws {
        let twitter = Array(FileManager.default.contents(atPath: "Benchmarks/Data/twitter.json") ?? Data("[]".utf8))
        let plistBytes = Array(FileManager.default.contents(atPath: "Benchmarks/Data/twitter.bin.plist") ?? Data())
        for _ in 0..<3 {
            // yajl: complete parses, errors at every stage, handles dropped mid-input.
            _ = try Document(parsing: twitter)
            for bad in ["[1, 2", "{\"a\": tru}", "[\"\\uD800\"]", "[\u{0B}]", "\"\u{C0}\"", String(repeating: "[", count: 600)] {
                _ = try? Document(parsing: bad)
            }
            // The C tape builder's scratch: wide objects (its key table), a
            // repeated key refused from Swift, an abandoned chunked parse.
            var rejecting = ParseOptions()
            rejecting.duplicateKeys = .reject
            let wide = "{" + (0..<40).map { "\"k\($0)\": [\($0)]" }.joined(separator: ",") + "}"
            _ = try Document(parsing: wide)
            _ = try? Document(parsing: "[" + wide + ", {\"a\": 1, \"a\": 2}]", options: rejecting)
            let abandoned = JSONParser()
            try abandoned.feed(twitter.prefix(1000))
            _ = abandoned
            let failed = JSONParser()
            _ = try? failed.feed(Array("[1, x".utf8))
            // jansson: written documents, and DOMs abandoned by an error half-way.
            _ = try Document(parsing: twitter).encoded(options: .pretty)
            let poisoned: JSONValue = ["a": [1, 2, ["b": .number(JSONNumber(Double.nan))]], "c": "d"]
            _ = try? poisoned.encoded()
            var deep: JSONValue = 1
            for _ in 0..<600 { deep = [deep] }
            _ = try? deep.encoded()
            // The DOM arena (dom_arena.c): a DOM of tens of megabytes (in
            // blocks past the first 4 MB, freed after eight small writes),
            // one larger than its 64 MB (part in the blocks, part malloc's,
            // released by json_decref), a DOM made outside a scope and
            // released inside one, and threads that write and exit (their
            // blocks freed as they end).
            let large = JSONValue.array((0..<60_000).map { ["id": .number(JSONNumber(Int64($0))), "name": .string("n\($0)")] })
            _ = try large.encoded()
            for _ in 0..<8 { _ = try JSONValue.array([1, 2]).encoded() }
            let overflowing = JSONValue.array((0..<250_000).map { ["id": .number(JSONNumber(Int64($0))), "name": .string("n\($0)")] })
            _ = try overflowing.encoded()
            let outside = json_object()
            _ = json_object_set_new(outside, "key", json_stringn("value", 5))
            _ = cartograph_dom_arena_begin()
            cartograph_json_release(outside)
            cartograph_dom_arena_end()
            onThreadsThatExit(3) { _ in
                _ = try? JSONValue.array([["a": 1], "b"]).encoded()
                return nil
            }
            // The kept output block (output_block.c): a thread's last JSON
            // output block kept for its next, one over 4 MB freed at once,
            // two writers alive at once, and threads that write and exit
            // (their blocks freed as they end).
            _ = try JSONMapper().encode((0..<40_000).map { "item \($0)" })
            _ = try JSONMapper().encode([String](repeating: String(repeating: "x", count: 100), count: 50_000))
            _ = try CartographJSONEncoder().encode([EncodesInside(), EncodesInside()])
            onThreadsThatExit(3) { _ in
                _ = try? JSONMapper().encode((0..<20_000).map { "item \($0)" })
                return nil
            }
            // libplist: reads (binary and XML, corrupt and cut short), and its
            // writer (also failing half-way); the same through Cartograph's readers.
            let libplist = PropertyListMapper(
                options: PropertyListOptions {
                    $0.reader = .libplist
                    $0.writer = .libplist
                })
            var corrupted = plistBytes
            for offset in stride(from: 0, to: corrupted.count, by: 4999) { corrupted[offset] ^= 0xFF }
            for plist in [PropertyListMapper(), libplist] {
                _ = try plist.document(from: plistBytes)
                _ = try plist.document(from: try plist.encode(Document(parsing: twitter), format: .xml))
                _ = try? plist.document(from: corrupted)
                _ = try? plist.document(from: Array(plistBytes.prefix(plistBytes.count / 2)))
                _ = try? plist.document(from: Array("<plist><dict><key>a</key>".utf8))
                _ = try? plist.document(from: Array("<plist><array><string>a</string><bogus/></array></plist>".utf8))
            }
            let document = try Document(parsing: twitter)
            _ = try libplist.encode(document, format: .binary)
            _ = try libplist.encode(document, format: .xml)
            _ = try? libplist.encode(["a": ["b": .number(JSONNumber(UInt64.max))]] as JSONValue, format: .binary)
            _ = try? libplist.encode(["a\u{0}b": 1] as JSONValue, format: .xml)
            // Streams dropped mid-element, and failing.
            let stream = ModelStream(JSONValue.self, path: "$.statuses")
            _ = try stream.feed(twitter.prefix(twitter.count / 2))
            let failing = ModelStream(Int.self)
            _ = try? failing.feed(Array("[1, 2, \"x\", 4]".utf8))
            // Threads that parse and exit: each kept a parser state between
            // its parses, freed as the thread ends.
            onThreadsThatExit(4) { _ in
                _ = try? Document(parsing: Array("{\"a\": [1, 2, 3]}".utf8))
                _ = try? Document(parsing: Array("[1, 2".utf8))
                return nil
            }
        }
        print("leakcheck: done")
    }

    /// Runs `body` on `count` threads of its own and waits for them to end.
    static func onThreadsThatExit(_ count: Int, _ body: @escaping @convention(c) (UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer?) {
        var threads: [pthread_t] = []
        for _ in 0..<count {
            var thread = pthread_t()
            if pthread_create(&thread, nil, body, nil) == 0 { threads.append(thread) }
        }
        for thread in threads { pthread_join(thread, nil) }
    }
}

/// A value that encodes another value to JSON inside its own encode: two
/// writers, each with an output block, alive at once.
private struct EncodesInside: Encodable {
    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(String(decoding: try JSONMapper().encode((0..<2_000).map { "inner \($0)" }), as: UTF8.self))
    }
}
