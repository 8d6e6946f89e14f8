import Foundation
import Testing

@testable import Cartograph

/// What a stream holds at once is bounded: one element, the envelope,
/// lossy mode's issues; whitespace is not kept; a path that names nothing
/// is an error, not an empty success.
@Suite struct StreamLimitTests {
    private struct Item: Codable, Equatable { var id: Int }

    private func mapper(_ configure: (inout ParseOptions) -> Void) -> JSONMapper {
        var mapper = JSONMapper()
        configure(&mapper.parseOptions)
        return mapper
    }

    @Test func anElementPastMaxElementBytesIsRefusedWhileArriving() throws {
        let stream = ModelStream(JSONValue.self, mapper: mapper { $0.maxElementBytes = 1 << 20 })
        #expect(try stream.feed(Array(#"[{"id":1},["#.utf8)).count == 1)
        let chunk = Array(String(repeating: "1,", count: 32 << 10).utf8) // 64 KiB, 32,768 values
        var fed = 0
        let error = try #require(throws: CartographError.self) {
            for _ in 0..<1_000 {
                _ = try stream.feed(chunk)
                fed += chunk.count
            }
        }
        #expect(error.kind == .inputTooLarge && error.message.contains("maxElementBytes"))
        #expect(error.elementIndex == 1)
        // 1 MiB of tape is about 40,000 values: refused within the first megabyte of input.
        #expect(fed < 1 << 20, "\(fed)")
        // The stream stays failed.
        #expect(throws: CartographError.self) { try stream.feed(Array("1]".utf8)) }
    }

    @Test func oneHugeChunkIsCheckedAsItIsRead() throws {
        let stream = ModelStream(JSONValue.self, mapper: mapper { $0.maxElementBytes = 1 << 20 })
        let input = Array(("[[" + String(repeating: "1,", count: 4 << 20) + "1]]").utf8)
        let error = try #require(throws: CartographError.self) { _ = try stream.feed(input) }
        #expect(error.kind == .inputTooLarge)
    }

    @Test func aPathThatNeverMatchesIsBoundedByTheEnvelopeLimit() throws {
        let stream = ModelStream(Item.self, mapper: mapper { $0.maxEnvelopeBytes = 1 << 20 }, path: "$.data.items")
        _ = try stream.feed(Array(#"{"other":["#.utf8))
        let chunk = Array(String(repeating: #"{"id":1},"#, count: 8 << 10).utf8)
        let error = try #require(throws: CartographError.self) {
            for _ in 0..<1_000 { _ = try stream.feed(chunk) }
        }
        #expect(error.kind == .inputTooLarge && error.message.contains("maxEnvelopeBytes"))
        #expect(error.message.contains("has not matched"))
    }

    @Test func aPathThatMatchesNothingIsAnErrorNotZeroModels() throws {
        let input = Array(#"{"data": {"list": [{"id": 1}]}, "meta": {"n": 1}}"#.utf8)
        let missing = ModelStream(Item.self, path: "$.data.items")
        _ = try missing.feed(input)
        let error = try #require(throws: CartographError.self) { _ = try missing.finish() }
        #expect(error.kind == .pathNotFound)
        #expect(error.path == "$.data.items")
        let notArray = ModelStream(Item.self, path: "$.meta")
        _ = try notArray.feed(input)
        let mismatch = try #require(throws: CartographError.self) { _ = try notArray.finish() }
        #expect(mismatch.kind == .typeMismatch && mismatch.message.contains("not an array"))
        let rootNotArray = ModelStream(Item.self)
        _ = try rootNotArray.feed(input)
        #expect(throws: CartographError.self) { _ = try rootNotArray.finish() }
        // An empty array is a match with no elements.
        let empty = ModelStream(Item.self, path: "$.data.list")
        _ = try empty.feed(Array(#"{"data": {"list": []}}"#.utf8))
        #expect(try empty.finish().isEmpty)
        // NDJSON has no path: an empty input is zero models.
        #expect(try ModelStream(Item.self, path: .values).finish().isEmpty)
    }

    @Test func lossyModeKeepsAtMostMaxStreamIssues() throws {
        let stream = ModelStream(Item.self, mapper: mapper { $0.maxStreamIssues = 100 }, lossy: true)
        _ = try stream.feed(Array("[".utf8))
        let bad = Array(String(repeating: #"{"id":"x"},"#, count: 1_000).utf8)
        let error = try #require(throws: CartographError.self) { _ = try stream.feed(bad) }
        #expect(error.kind == .tooManyIssues)
        #expect(stream.issues.count == 100)
    }

    @Test func whitespaceBetweenElementsIsNotKept() throws {
        let stream = ModelStream(Item.self, path: .values)
        var models = try stream.feed(Array(#"{"id":1}"#.utf8))
        let blank = [UInt8](repeating: 0x0A, count: 1 << 16)
        for _ in 0..<160 { models += try stream.feed(blank) } // 10 MiB of newlines
        models += try stream.feed(Array(#"{"id":2}"#.utf8))
        models += try stream.finish()
        #expect(models == [Item(id: 1), Item(id: 2)])
        #expect(stream.retainedBytes < 1 << 17)
    }

    /// A selecting path (`.matches`) does not keep the values around its
    /// selections: 16 MiB of envelope under a 1 MiB limit streams through,
    /// while what is not kept is still checked (UTF-8, depth).
    @Test func aSelectingPathKeepsNoEnvelope() throws {
        let stream = ModelStream(Int.self, mapper: mapper { $0.maxEnvelopeBytes = 1 << 20 }, path: try StreamPath(parsing: "$.rows[*].id"))
        var ids: [Int] = []
        try stream.feed(Array(#"{"rows":["#.utf8)) { ids.append($0) }
        let chunk = Array(String(repeating: #"{"id":7,"pad":"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"},"#, count: 2_000).utf8)
        for _ in 0..<120 { try stream.feed(chunk) { ids.append($0) } }
        try stream.feed(Array(#"{"id":8}]}"#.utf8)) { ids.append($0) }
        try stream.finish { ids.append($0) }
        #expect(ids.count == 240_001 && ids.last == 8)
        #expect(stream.envelope == nil)

        let badUTF8 = ModelStream(Int.self, path: try StreamPath(parsing: "$[*].id"))
        #expect(throws: CartographError.self) {
            try badUTF8.feed(Array(#"[{"id":1,"s":""#.utf8) + [0xFF] + Array(#""}]"#.utf8)) { _ in }
            try badUTF8.finish { _ in }
        }
        let deep = ModelStream(Int.self, mapper: mapper { $0.maxDepth = 64 }, path: try StreamPath(parsing: "$.a[*]"))
        let error = try #require(throws: CartographError.self) {
            try deep.feed(Array((String(repeating: "[", count: 100) + String(repeating: "]", count: 100)).utf8)) { _ in }
            try deep.finish { _ in }
        }
        #expect(error.kind == .depthLimitExceeded)
    }
}
