import CCartographTape
import Foundation
import Testing

@testable import Cartograph

/// The block a thread's last JSON output was written into, kept for its
/// next output (`output_block.c`): reused while outputs keep their size,
/// never over 4 MB, given back after eight small outputs in a row when it
/// is over 256 KB, and never showing an earlier output's bytes.
@Suite struct OutputBlockTests {
    /// `count` strings of `length` letters: about `count * (length + 3)` bytes of JSON.
    static func strings(_ count: Int, length: Int, letter: Character = "x") -> [String] {
        (0..<count).map { String(repeating: letter, count: length - String($0).count) + String($0) }
    }

    /// `value` encoded through `withEncodedBytes`, which always writes in
    /// the thread's block (`encode` may write an output the size of the
    /// last one straight into its array instead: OutputLeaseTests).
    static func blockEncode<T: Encodable>(_ mapper: JSONMapper, _ value: T) throws -> [UInt8] {
        try mapper.withEncodedBytes(value) { Array($0) }
    }

    /// The JSON text `JSONSerialization` writes for an array of strings without escapes.
    static func expectedJSON(_ strings: [String]) -> String {
        "[" + strings.map { "\"\($0)\"" }.joined(separator: ",") + "]"
    }

    @Test func aWritersBlockIsKeptForTheThreadsNextOutput() {
        let numbers = onNewThread {
            var numbers = [cartograph_output_block_kept_bytes()]
            let mapper = JSONMapper()
            // About 100 KB: the buffer grows from 4 KB to 128 KB.
            for _ in 0..<2 {
                let strings = Self.strings(1_000, length: 97)
                let bytes = try! mapper.encode(strings)
                numbers.append(String(decoding: bytes, as: UTF8.self) == Self.expectedJSON(strings) ? 1 : 0)
                numbers.append(cartograph_output_block_kept_bytes())
            }
            _ = try! mapper.encode(["small"])
            numbers.append(cartograph_output_block_kept_bytes())
            return numbers
        }
        // Fresh thread: nothing kept; the 128 KB block is kept, used again
        // by the second output (which needs no more) and by the small one
        // (a block up to 256 KB is never given back).
        #expect(numbers == [0, 1, 131_072, 1, 131_072, 131_072])
    }

    @Test func aBlockOverFourMegabytesIsNotKept() {
        let numbers = onNewThread {
            let mapper = JSONMapper()
            _ = try! Self.blockEncode(mapper, Self.strings(1_000, length: 97))
            var numbers = [cartograph_output_block_kept_bytes()]
            // About 5 MB: the kept 128 KB block grows to 8 MB, then is freed.
            let strings = Self.strings(50_000, length: 97)
            let bytes = try! Self.blockEncode(mapper, strings)
            numbers.append(bytes.count)
            numbers.append(cartograph_output_block_kept_bytes())
            _ = try! Self.blockEncode(mapper, [1, 2, 3])
            numbers.append(cartograph_output_block_kept_bytes())
            return numbers
        }
        #expect(numbers == [131_072, 5_000_001, 0, 4_096])
    }

    @Test func aLargeBlockIsGivenBackAfterEightSmallOutputsInARow() {
        let numbers = onNewThread {
            let mapper = JSONMapper()
            let large = Self.strings(6_000, length: 97)
            var numbers: [Int] = []
            // About 600 KB: a 1 MB block.
            _ = try! Self.blockEncode(mapper, large)
            numbers.append(cartograph_output_block_kept_bytes())
            // Seven small outputs, then a large one: the count starts again.
            for _ in 0..<7 { _ = try! Self.blockEncode(mapper, [1]) }
            numbers.append(cartograph_output_block_kept_bytes())
            _ = try! Self.blockEncode(mapper, large)
            for _ in 0..<7 { _ = try! Self.blockEncode(mapper, [1]) }
            numbers.append(cartograph_output_block_kept_bytes())
            // The eighth small one in a row gives the block back; the next
            // output starts in a block of its own size.
            _ = try! Self.blockEncode(mapper, [1])
            numbers.append(cartograph_output_block_kept_bytes())
            _ = try! Self.blockEncode(mapper, [1])
            numbers.append(cartograph_output_block_kept_bytes())
            return numbers
        }
        #expect(numbers == [1_048_576, 1_048_576, 1_048_576, 0, 4_096])
    }

    /// Class models registered as the seeds register them (a non-final
    /// class, a subclass chosen by class inference, a back reference left
    /// alone), written into a block that held a larger output: what
    /// `JSONSerialization` reads back is exactly the models' values.
    @Test func classModelsWrittenIntoAKeptBlockReadBackWhole() throws {
        let texts = onNewThread { () -> [String] in
            var registry = ModelRegistry()
            registry.register(BlockPerson.self)
            registry.register(BlockEmployee.self)
            registry.identify { object, _ in object["level"] != nil ? BlockEmployee.self : BlockPerson.self }
            let mapper = JSONMapper(registry: registry)
            let boss = BlockEmployee()
            boss.name = "Ada \u{1F600}"
            boss.level = 3
            let person = BlockPerson()
            person.name = "Grace \"G\""
            person.manager = boss
            var texts: [String] = []
            for _ in 0..<2 {
                _ = try! JSONMapper().encode(Self.strings(3_000, length: 90, letter: "z"))
                texts.append(String(decoding: try! mapper.encode([person, boss] as [BlockPerson]), as: UTF8.self))
            }
            return texts
        }
        for text in texts {
            let read = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]])
            #expect(read.count == 2)
            #expect(read.first?.count == 1)
            #expect(read.first?["name"] as? String == "Grace \"G\"")
            #expect(read.last?.count == 2)
            #expect(read.last?["name"] as? String == "Ada \u{1F600}")
            #expect(read.last?["level"] as? Int == 3)
        }
    }

    /// jansson's dump of a `JSONValue` (or a `Document`) is collected in the
    /// same kept block as the native writers' outputs.
    @Test func aJanssonWriteIsCollectedInTheKeptBlock() {
        let numbers = onNewThread {
            let strings = Self.strings(1_000, length: 97)
            let value = JSONValue.array(strings.map { .string($0) })
            var numbers = [cartograph_output_block_kept_bytes()]
            for _ in 0..<2 {
                let bytes = try! value.encoded()
                numbers.append(String(decoding: bytes, as: UTF8.self) == Self.expectedJSON(strings) ? 1 : 0)
                numbers.append(cartograph_output_block_kept_bytes())
            }
            // A native write after it starts in the same block.
            _ = try! JSONMapper().encode(["small"])
            numbers.append(cartograph_output_block_kept_bytes())
            return numbers
        }
        // The dump grows from 256 bytes to 128 KB, is kept, and the second
        // write and the native one after it start in it.
        #expect(numbers == [0, 1, 131_072, 1, 131_072, 131_072])
    }

    /// Two buffers alive at once (an encode inside an encode): the second
    /// gets a block of its own, and the larger of the two is kept.
    @Test func twoBuffersAtOnceKeepTheLargerBlock() {
        let numbers = onNewThread {
            _ = try! JSONMapper().encode(Self.strings(1_000, length: 97))
            var numbers = [cartograph_output_block_kept_bytes()]
            do {
                let first = OutputBuffer(capacity: 16, reusingBlock: true)
                numbers.append(cartograph_output_block_kept_bytes())
                let second = OutputBuffer(capacity: 16, reusingBlock: true)
                for byte in 0..<200_000 { second.append(UInt8(truncatingIfNeeded: byte)) }
                first.append(1)
                numbers.append(first.count + second.count)
            }
            numbers.append(cartograph_output_block_kept_bytes())
            return numbers
        }
        // The first takes the 128 KB block; the second grows from 16 bytes
        // to 256 KB; both given back, the 256 KB one is kept.
        #expect(numbers == [131_072, 0, 200_001, 262_144])
    }

    /// A block kept from a large output holds that output's bytes: outputs
    /// written into it after (every writer, compact and pretty, members
    /// cut off again by the mapping stream) are exactly what they write
    /// in a fresh block.
    @Test func aKeptBlocksEarlierBytesNeverShowInALaterOutput() throws {
        let accounts = [BlockAccount(id: 1, name: "a", note: nil, tags: []), BlockAccount(id: 2, name: "b\u{1}", note: "n", tags: ["t"])]
        let results = onNewThread { () -> [String] in
            var registry = ModelRegistry()
            registry.register(BlockAccount.self)
            let mapper = JSONMapper(registry: registry)
            let pretty = CartographJSONEncoder()
            pretty.outputFormatting = [.prettyPrinted, .sortedKeys]
            var results: [String] = []
            for _ in 0..<3 {
                // The block is filled with `z` strings before each output.
                _ = try! JSONMapper().encode(Self.strings(3_000, length: 90, letter: "z"))
                results.append(String(decoding: try! mapper.encode(accounts), as: UTF8.self))
                _ = try! JSONMapper().encode(Self.strings(3_000, length: 90, letter: "z"))
                results.append(String(decoding: try! CartographJSONEncoder().encode(accounts), as: UTF8.self))
                _ = try! JSONMapper().encode(Self.strings(3_000, length: 90, letter: "z"))
                results.append(String(decoding: try! pretty.encode(accounts), as: UTF8.self))
            }
            return results
        }
        let compact = #"[{"id":1,"name":"a","tags":[]},{"id":2,"name":"b\u0001","note":"n","tags":["t"]}]"#
        let foundation = JSONEncoder()
        foundation.outputFormatting = [.prettyPrinted, .sortedKeys]
        let pretty = String(decoding: try foundation.encode(accounts), as: UTF8.self)
        #expect(results == [String](repeating: "", count: 3).flatMap { _ in [compact, compact, pretty] })
    }
}

/// A model written by every writer in turn (its nil note is a member the
/// mapping stream begins and cuts off again).
@Mappable
struct BlockAccount: Codable, Sendable {
    var id = 0
    var name = ""
    var note: String?
    var tags: [String] = []
}

/// A non-final class model, as the seeds' are (its manager is a back
/// reference, left out of the mapping).
@Mappable
class BlockPerson {
    var name = ""
    weak var manager: BlockPerson?
    required init() {}
}

/// A subclass, chosen by class inference when its `level` is there.
@Mappable
final class BlockEmployee: BlockPerson {
    var level = 0
}
