import Foundation
import Testing

@testable import Cartograph

/// The streaming encoder uses a member's encoder again for a later member
/// once nothing holds it (not its kept container, not an encoder below
/// it, not the value): what a value keeps, an encoder or a container,
/// keeps its own coding path, and every path an error or a value reads is
/// the one Foundation's encoder gives.
@Suite struct EncoderReuseTests {
    /// Collects what the values keep while they encode.
    final class Keeper: @unchecked Sendable {
        var encoders: [any Encoder] = []
        var containers: [KeyedEncodingContainer<Leaf.CodingKeys>] = []
        /// The coding path each value saw, as it encoded.
        var paths: [[String]] = []

        /// Lets go of what was kept: the encoders hold this keeper in
        /// their `userInfo`, a cycle the test breaks when it is done.
        func release() {
            encoders = []
            containers = []
        }
        static let key = CodingUserInfoKey(rawValue: "cartograph.tests.encoder-reuse")!
    }

    static func spelled(_ path: [any CodingKey]) -> [String] { path.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue } }

    /// A leaf that, every third time, keeps its encoder or its container.
    struct Leaf: Encodable {
        var number: Int

        enum CodingKeys: String, CodingKey { case number, note }

        func encode(to encoder: any Encoder) throws {
            let keeper = encoder.userInfo[Keeper.key] as? Keeper
            keeper?.paths.append(EncoderReuseTests.spelled(encoder.codingPath))
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(number, forKey: .number)
            if number % 3 == 0 { keeper?.encoders.append(encoder) }
            if number % 3 == 1 { keeper?.containers.append(container) }
        }
    }

    struct Branch: Encodable {
        var name: String
        var leaves: [Leaf]
        var first: Leaf
    }

    static func branches(_ count: Int) -> [Branch] {
        (0..<count).map { index in
            Branch(name: "b\(index)", leaves: (0..<(index % 4)).map { Leaf(number: index * 10 + $0) }, first: Leaf(number: index * 10 + 7))
        }
    }

    /// The paths a run of encoders saw (most of them reused) are
    /// Foundation's, in Foundation's order, and what the values kept still
    /// answers with its own path after the encode.
    @Test func keptEncodersAndContainersKeepTheirOwnPaths() throws {
        let value = Self.branches(60)
        let ours = Keeper()
        var options = CodableOptions()
        options.userInfo[Keeper.key] = ours
        var mapper = JSONMapper()
        mapper.codableOptions = options
        let bytes = try mapper.encode(value)

        let theirs = Keeper()
        defer {
            ours.release()
            theirs.release()
        }
        let foundation = JSONEncoder()
        foundation.userInfo[Keeper.key] = theirs
        let expected = try foundation.encode(value)

        #expect(try JSONSerialization.jsonObject(with: Data(bytes)) as? NSArray == JSONSerialization.jsonObject(with: expected) as? NSArray)
        #expect(ours.paths == theirs.paths)
        #expect(ours.encoders.count == theirs.encoders.count && !ours.encoders.isEmpty)
        #expect(ours.encoders.map { Self.spelled($0.codingPath) } == theirs.encoders.map { Self.spelled($0.codingPath) })
        #expect(ours.containers.count == theirs.containers.count && !ours.containers.isEmpty)
        #expect(ours.containers.map { Self.spelled($0.codingPath) } == theirs.containers.map { Self.spelled($0.codingPath) })
        // Each kept encoder is its own object: none was handed to another member.
        #expect(Set(ours.encoders.map { ObjectIdentifier($0 as AnyObject) }).count == ours.encoders.count)
    }

    /// A leaf that fails at one number, deep in the value.
    struct Failing: Encodable {
        var number: Int
        var failsAt: Int

        enum CodingKeys: String, CodingKey { case number, inner }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(number, forKey: .number)
            // A member, not a nested container: Foundation's nested
            // containers leave their key out of the path (FoundationDifferences).
            if number == failsAt { try container.encode(Double.nan, forKey: .inner) }
        }
    }

    struct Holder: Encodable {
        var items: [Failing]
        var tail: Failing
    }

    /// The error from a value met after many reused encoders names
    /// Foundation's path, wherever it is thrown.
    @Test func anErrorAfterReusedEncodersNamesFoundationsPath() throws {
        func path(_ body: () throws -> Void) -> [String]? {
            do {
                try body()
            } catch EncodingError.invalidValue(_, let context) {
                return Self.spelled(context.codingPath)
            } catch {
                return ["unexpected: \(error)"]
            }
            return nil
        }
        for failsAt in [0, 5, 37, 1000] {
            let value = (0..<8).map { group in
                Holder(
                    items: (0..<6).map { Failing(number: group * 6 + $0, failsAt: failsAt) }, tail: Failing(number: 1000 + group, failsAt: failsAt))
            }
            let ours = path { _ = try JSONMapper().encode(value) }
            let theirs = path { _ = try JSONEncoder().encode(value) }
            #expect(ours != nil && ours == theirs, "fails at \(failsAt): \(String(describing: ours)) vs \(String(describing: theirs))")
        }
    }

    /// A value that catches a member's error and writes on: the encoders
    /// used after it write what the tree writes.
    struct Forgiving: Encodable {
        var items: [Failing]

        enum CodingKeys: String, CodingKey { case good, bad, after }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            for item in items {
                if item.number == item.failsAt {
                    try? container.encode(item, forKey: .bad)
                } else {
                    try container.encode(item, forKey: .good)
                }
            }
            try container.encode(items.count, forKey: .after)
        }
    }

    @Test func encodersUsedAfterACaughtErrorWriteAsTheTreeWrites() throws {
        let value = (0..<20).map { group in
            Forgiving(items: [Failing(number: group, failsAt: group % 2 == 0 ? group : -1)])
        }
        let ours = try JSONMapper().encode(value)
        // Sorted keys are written by the tree encoder alone (StreamRun.streams).
        let tree = try JSONMapper(options: CodableOptions(), writeOptions: WriteOptions { $0.sortedKeys = true }).encode(value)
        let written = try JSONSerialization.jsonObject(with: Data(ours)) as? NSArray
        let expected = try JSONSerialization.jsonObject(with: Data(tree)) as? NSArray
        #expect(written != nil && written == expected)
        // Half the values wrote their failing item under "bad": none of it is left.
        #expect(!String(decoding: ours, as: UTF8.self).contains("bad"))
    }
}
