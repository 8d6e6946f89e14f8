import CCartographTape
import CJansson
import Foundation
import Testing

@testable import Cartograph

/// The per-thread arena jansson's DOMs are built in (`dom_arena.c`): a
/// scope's allocations are bumps in the thread's blocks, kept for its next
/// scope (past the first 4 MB, only while scopes keep needing them); past
/// 64 MB they are `malloc`'s again; outside a scope, and for pointers
/// `malloc` gave, the functions are `malloc` and `free`.
@Suite struct DOMArenaTests {
    @Test func janssonAllocatesThroughTheArenaOnceAWriterHasRun() throws {
        #expect(try JSONValue.array([1, "a", ["b": nil]]).encodedString() == #"[1,"a",{"b":null}]"#)
        var currentMalloc: json_malloc_t?
        var currentFree: json_free_t?
        json_get_alloc_funcs(&currentMalloc, &currentFree)
        #expect(cartograph_dom_arena_is_installed(currentMalloc, currentFree) != 0)
    }

    @Test func aScopeBumpsInItsBlocksAndKeepsThemForTheNextScope() {
        let numbers = onNewThread {
            var numbers: [Int] = []
            numbers.append(cartograph_dom_arena_kept_bytes())
            for _ in 0..<2 {
                _ = cartograph_dom_arena_begin()
                var pointers: [UnsafeMutableRawPointer] = []
                for size in 1...1000 {
                    guard let pointer = cartograph_dom_arena_malloc(size % 200 + 1) else { break }
                    pointer.storeBytes(of: UInt8(truncatingIfNeeded: size), as: UInt8.self)
                    pointers.append(pointer)
                }
                let addresses = pointers.map { Int(bitPattern: $0) }
                numbers.append(pointers.count)
                numbers.append(Set(addresses).count)
                numbers.append(addresses.filter { $0 % 16 != 0 }.count)
                numbers.append(Int(cartograph_dom_arena_overflowed()))
                for pointer in pointers { cartograph_dom_arena_free(pointer) }
                cartograph_dom_arena_end()
                numbers.append(cartograph_dom_arena_kept_bytes())
            }
            return numbers
        }
        // Fresh thread: nothing kept. 1,000 allocations of 16 to 208 bytes
        // (about 112 KB) fill a 64 KB block and part of a 128 KB one, kept
        // for the next scope, which allocates no more.
        #expect(numbers == [0, 1000, 1000, 0, 0, 196_608, 1000, 1000, 0, 0, 196_608])
    }

    @Test func pastItsLimitAScopeOverflowsToMalloc() {
        let numbers = onNewThread {
            var numbers: [Int] = []
            _ = cartograph_dom_arena_begin()
            var pointers: [UnsafeMutableRawPointer] = []
            for _ in 0..<70_000 {
                guard let pointer = cartograph_dom_arena_malloc(1000) else { break }
                pointers.append(pointer)
            }
            numbers.append(pointers.count)
            numbers.append(Int(cartograph_dom_arena_overflowed()))
            numbers.append(cartograph_dom_arena_kept_bytes())
            // Those past the blocks came from malloc: freed for real (a
            // wrong answer either way shows under scripts/leak-check or as a crash).
            for pointer in pointers { cartograph_dom_arena_free(pointer) }
            cartograph_dom_arena_end()
            numbers.append(Int(cartograph_dom_arena_overflowed()))
            numbers.append(cartograph_dom_arena_kept_bytes())
            return numbers
        }
        // 70 MB asked for; the blocks stop at 64 MB less the 64 KB the
        // next doubling would pass (64 KB + … + 16 MB + 32 MB).
        #expect(numbers == [70_000, 1, 67_043_328, 0, 67_043_328])
    }

    /// Runs a scope on this thread that allocates `bytes` in 1 KB pieces;
    /// returns the bytes kept after it.
    static func scope(allocating bytes: Int) -> Int {
        _ = cartograph_dom_arena_begin()
        for _ in 0..<(bytes / 1024) { _ = cartograph_dom_arena_malloc(1024) }
        cartograph_dom_arena_end()
        return cartograph_dom_arena_kept_bytes()
    }

    @Test func blocksPastTheFirstFourMegabytesAreFreedAfterEightSmallScopesInARow() {
        let numbers = onNewThread {
            var numbers: [Int] = []
            // 10 MB: blocks of 64 KB to 8 MB are kept.
            numbers.append(Self.scope(allocating: 10 << 20))
            // Seven small scopes, then a large one: the count starts again.
            for _ in 0..<7 { numbers.append(Self.scope(allocating: 1 << 20)) }
            numbers.append(Self.scope(allocating: 6 << 20))
            // Eight small ones in a row: back to the first 4 MB of blocks.
            for _ in 0..<8 { numbers.append(Self.scope(allocating: 1 << 20)) }
            // A scope after the trim bumps in what is left, and grows again.
            numbers.append(Self.scope(allocating: 3 << 20))
            numbers.append(Self.scope(allocating: 5 << 20))
            return numbers
        }
        let large = 16_711_680 // 64 KB + … + 8 MB
        let kept = 4_128_768 // 64 KB + … + 2 MB
        #expect(numbers == [large] + Array(repeating: large, count: 8) + Array(repeating: large, count: 7) + [kept, kept, 8_323_072])
    }

    @Test func aScopeInsideAnotherIsRefused() {
        let numbers = onNewThread {
            var numbers: [Int] = []
            numbers.append(Int(cartograph_dom_arena_begin()))
            numbers.append(Int(cartograph_dom_arena_begin()))
            cartograph_dom_arena_end()
            numbers.append(Int(cartograph_dom_arena_begin()))
            cartograph_dom_arena_end()
            return numbers
        }
        #expect(numbers == [1, 0, 1])
    }

    @Test func aDOMMadeOutsideAScopeIsFreedInsideOne() throws {
        _ = try JSONValue.array([]).encoded() // the arena's functions are jansson's
        let numbers = onNewThread {
            var numbers: [Int] = []
            // Made outside any scope: malloc's memory, freed through free.
            let object = json_object()
            _ = json_object_set_new(object, "key", json_stringn("value", 5))
            _ = cartograph_dom_arena_begin()
            // Made inside: bumps, whose frees do nothing.
            let inner = json_array()
            _ = json_array_append_new(inner, json_stringn("x", 1))
            cartograph_json_release(object)
            cartograph_json_release(inner)
            numbers.append(Int(cartograph_dom_arena_overflowed()))
            cartograph_dom_arena_end()
            numbers.append(cartograph_dom_arena_kept_bytes())
            return numbers
        }
        #expect(numbers == [0, 65_536])
    }

    /// Documents whose DOM fits the first 4 MB of blocks (twitter.json)
    /// and needs more (canada.json, about 16 MB as jansson values) are
    /// written as the native writer writes them (`WriterTests` checks more options).
    @Test(arguments: ["twitter.json", "canada.json"])
    func documentsInTheArenaAreWrittenAsTheNativeWriterWrites(_ name: String) throws {
        let bytes = try Fixtures.bytes(name)
        let value = try JSONValue(parsing: bytes)
        var native = NativeJSONWriter(options: WriteOptions())
        try native.write(value)
        #expect(try value.encoded() == native.output)
        // A document's numbers keep their text, as its compact line writes them.
        let document = try Document(parsing: bytes)
        #expect(try document.encoded() == document.compactLine())
    }

    @Test func aDOMPastTheArenaIsWrittenAsTheNativeWriterWrites() throws {
        let value = JSONValue.array((0..<250_000).map { ["id": .number(JSONNumber(Int64($0))), "name": .string("n\($0)")] })
        var native = NativeJSONWriter(options: WriteOptions())
        try native.write(value)
        let expected = native.output
        let numbers = onNewThread {
            // All ten blocks made (the DOM passed them), and the same bytes.
            let written = (try? value.encoded()) ?? []
            return [written == expected ? 1 : 0, cartograph_dom_arena_kept_bytes()]
        }
        #expect(numbers == [1, 67_043_328])
    }

    @Test func writersOnManyThreadsAtOnceAgree() throws {
        let values: [JSONValue] = (0..<8).map { seed in
            .array(
                (0..<2000).map { index in ["id": .number(JSONNumber(Int64(seed * 10_000 + index))), "name": .string("n\(index)"), "tags": ["a", "b"]]
                })
        }
        let expected = try values.map { value in
            var native = NativeJSONWriter(options: WriteOptions())
            try native.write(value)
            return native.output
        }
        let results = LockedBox<[Int]>([])
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            var matches = 0
            for round in 0..<20 {
                let index = (thread + round) % values.count
                if (try? values[index].encoded()) == expected[index] { matches += 1 }
            }
            results.update { $0.append(matches) }
        }
        #expect(results.value == Array(repeating: 20, count: 8))
    }
}
