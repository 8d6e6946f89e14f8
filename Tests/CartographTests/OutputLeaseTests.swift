import Foundation
import Testing

@testable import Cartograph

/// An `encode` that returns an array writes straight into the array's own
/// storage when the thread's last output says how large to make it
/// (`OutputLease`): the bytes are those of an encode with no lease, on
/// every path (the `Codable` stream, the stream abandoned for the tree,
/// the tree from the start, the mapping stream), whether the output fits
/// the array, outgrows it or fills too little of it; and nothing written
/// after the encode lands in the array.
@Suite struct OutputLeaseTests {
    /// Strings of about 100 bytes each, `count` of them.
    static func strings(_ count: Int, from first: Int = 0) -> [String] {
        (first..<first + count).map { "item \($0) " + String(repeating: "w", count: 90) }
    }

    @Test func anOutputTheSizeOfTheLastIsWrittenInTheArraysOwnStorage() {
        let results = onNewThread { () -> [Bool] in
            let strings = Self.strings(1_000)
            // The thread's first output: no size to go by, so no lease.
            _ = try! JSONMapper().encode(strings)
            var leased = false
            var written = false
            var leaseAddress = 0
            let bytes = OutputLease.array { lease, finish in
                leased = lease != nil
                leaseAddress = lease.map { Int(bitPattern: $0.base) } ?? -1
                var writer = NativeJSONWriter(options: WriteOptions(), lease: lease)
                try! writer.write(JSONValue.array(strings.map { .string($0) }))
                written = writer.sink.writesInLease
                finish(writer.sink)
            }
            let arrayAddress = bytes.withUnsafeBufferPointer { Int(bitPattern: $0.baseAddress) }
            let expected = try! JSONSerialization.data(withJSONObject: strings)
            return [leased, written, arrayAddress == leaseAddress, bytes == Array(expected)]
        }
        #expect(results == [true, true, true, true])
    }

    @Test func aSmallOutputAfterALargeOneIsNotReturnedInALargeArray() {
        let capacity = onNewThread { () -> Int in
            let mapper = JSONMapper()
            _ = try! mapper.encode(Self.strings(3_000))
            let bytes = try! mapper.encode([1, 2, 3])
            return String(decoding: bytes, as: UTF8.self) == "[1,2,3]" ? bytes.capacity : -1
        }
        #expect(capacity >= 7 && capacity < 1_024)
    }

    /// After an output over 4 MB no array is made on its size: the next
    /// output is written in a block and copied, as without a lease.
    @Test func noArrayIsMadeOnTheSizeOfAHugeOutput() {
        let leased = onNewThread { () -> [Bool] in
            _ = try! JSONMapper().encode(Self.strings(50_000))
            var huge = true
            _ = OutputLease.array { lease, finish in
                huge = lease != nil
                finish(OutputBuffer(capacity: 16))
            }
            _ = try! JSONMapper().encode(Self.strings(1_000))
            var sized = false
            _ = OutputLease.array { lease, finish in
                sized = lease != nil
                finish(OutputBuffer(capacity: 16))
            }
            return [huge, sized]
        }
        #expect(leased == [false, true])
    }

    @Test func aBufferHeldPastItsLeaseWritesIntoMemoryOfItsOwn() {
        let outcome = onNewThread { () -> [Int] in
            _ = try! JSONMapper().encode(Self.strings(1_000))
            nonisolated(unsafe) var kept: OutputBuffer?
            let bytes = OutputLease.array { lease, finish in
                let buffer = OutputBuffer(capacity: 16, reusingBlock: true, lease: lease)
                for _ in 0..<100_000 { buffer.append(UInt8(ascii: "x")) }
                kept = buffer
                finish(buffer)
            }
            // Written after the array was returned: into the buffer's own block.
            for _ in 0..<150_000 { kept!.append(UInt8(ascii: "y")) }
            return [bytes.count, bytes.allSatisfy { $0 == UInt8(ascii: "x") } ? 1 : 0, kept!.count, kept!.writesInLease ? 1 : 0]
        }
        #expect(outcome == [100_000, 1, 150_000, 0])
    }

    /// Records with a key order that differs from Foundation's own on
    /// Linux: compared through `JSONSerialization`, or byte for byte where
    /// keys are sorted.
    struct Record: Codable, Equatable {
        var name: String
        var id: Int
        var tags: [String]
    }

    static func records(_ count: Int) -> [Record] {
        (0..<count).map { Record(name: "record \($0)", id: $0, tags: strings(2, from: $0)) }
    }

    /// The same value read back by `JSONSerialization` from both texts.
    static func sameJSON(_ left: [UInt8], _ right: [UInt8]) -> Bool {
        guard let a = try? JSONSerialization.jsonObject(with: Data(left)) as? NSObject,
            let b = try? JSONSerialization.jsonObject(with: Data(right)) as? NSObject
        else { return false }
        return a.isEqual(b)
    }

    /// Outputs of every size after one another on a thread (each sized
    /// array fits, is outgrown, or is filled less than half), through each
    /// path, against the same encode through `withEncodedBytes` (no lease)
    /// and against Foundation's `JSONEncoder`.
    @Test func everyOutputAfterAnotherIsWhatAnEncodeWithoutALeaseWrites() {
        let failures = onNewThread { () -> [String] in
            var registry = ModelRegistry()
            registry.register(LeaseBatch.self)
            let mapper = JSONMapper(registry: registry)
            let sorted = JSONMapper(writeOptions: WriteOptions { $0.sortedKeys = true })
            let foundation = JSONEncoder()
            foundation.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            var failures: [String] = []
            for count in [3, 300, 300, 3_000, 30, 400, 3_000, 2_500, 1, 0, 2_000] {
                let records = Self.records(count)
                // The Codable stream.
                let streamed = try! mapper.encode(records)
                let unleased = try! mapper.withEncodedBytes(records) { Array($0) }
                if streamed != unleased || !Self.sameJSON(streamed, try! foundation.encode(records).map { $0 }) {
                    failures.append("stream \(count)")
                }
                // The tree from the start (sorted keys): Foundation's bytes.
                if try! sorted.encode(records) != Array(try! foundation.encode(records)) { failures.append("tree \(count)") }
                // The stream abandoned for the tree (a key written twice).
                let repeated = Array(repeating: StreamingEncoderTests.RepeatedKey(), count: count)
                let text = "[" + Array(repeating: #"{"a":"again","b":[1,2]}"#, count: count).joined(separator: ",") + "]"
                if String(decoding: try! mapper.encode(repeated), as: UTF8.self) != text { failures.append("abandoned \(count)") }
                // The mapping stream of a registered model.
                let batch = LeaseBatch(id: count, names: Self.strings(count))
                let expected =
                    #"{"id":\#(count),"names":"# + String(decoding: try! JSONSerialization.data(withJSONObject: batch.names), as: UTF8.self) + "}"
                if String(decoding: try! mapper.encode(batch), as: UTF8.self) != expected { failures.append("mapping \(count)") }
            }
            return failures
        }
        #expect(failures == [])
    }
}

/// A registered model that is not `Codable`: `encode` writes it through
/// its mapping's stream.
@Mappable
struct LeaseBatch {
    var id = 0
    var names: [String] = []
}
