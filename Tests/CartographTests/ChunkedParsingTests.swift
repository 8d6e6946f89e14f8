import Testing

@testable import Cartograph

/// Whole, byte-at-a-time and random-chunk feeding must build the same tape,
/// and fail with the same error at the same place.
@Suite struct ChunkedParsingTests {
    static let validCases = Fixtures.testSuiteCases("y_") + Fixtures.testSuiteCases("i_")

    private func expectSameOutcome(_ bytes: [UInt8], _ label: String, options: ParseOptions = ParseOptions()) {
        let whole = Result { try Document(parsing: bytes, options: options) }
        for (mode, sizes) in [("one byte", [1]), ("random", randomChunkSizes(seed: UInt64(bytes.count)))] {
            let chunked = Result { try parseInChunks(bytes, sizes: sizes, options: options) }
            switch (whole, chunked) {
            case (.success(let a), .success(let b)):
                #expect(sameTape(a, b), "\(label) \(mode): tapes differ")
            case (.failure(let a as CartographError), .failure(let b as CartographError)):
                #expect(a.kind == b.kind, "\(label) \(mode): \(a.kind) vs \(b.kind)")
                #expect(a.offset == b.offset, "\(label) \(mode): offset \(a.offset ?? -1) vs \(b.offset ?? -1)")
                #expect(
                    a.line == b.line && a.column == b.column, "\(label) \(mode): \(a.line ?? 0):\(a.column ?? 0) vs \(b.line ?? 0):\(b.column ?? 0)")
            default:
                Issue.record("\(label) \(mode): whole \(whole) vs chunked \(chunked)")
            }
        }
    }

    @Test(arguments: Fixtures.testSuiteCases("y_") + Fixtures.testSuiteCases("i_") + Fixtures.testSuiteCases("n_"))
    func testSuiteCaseGivesTheSameOutcomeInAnyChunking(_ name: String) throws {
        expectSameOutcome(try Fixtures.testSuiteBytes(name), name)
    }

    @Test(arguments: Fixtures.testSuiteCases("n_"))
    func withCommentsAllowedAnErrorStaysPutInAnyChunking(_ name: String) throws {
        expectSameOutcome(try Fixtures.testSuiteBytes(name), name, options: ParseOptions { $0.allowComments = true })
    }

    /// Found by the FuzzChunked fuzzer: with comments allowed, a grammar
    /// error was placed wherever yajl stopped, which depends on the chunking.
    @Test func withCommentsAGrammarErrorIsReportedAtTheBadToken() throws {
        let text = "{\"id\": 5 /* a \"quote\" */ // line\n  , /**/ \"next\" \"x\": 1}"
        let bytes = Array(text.utf8)
        let options = ParseOptions { $0.allowComments = true }
        let bad = try #require(text.range(of: "\"x\"")).lowerBound.utf16Offset(in: text)
        for size in [Int.max, 1, 2, 3, 5, 7] {
            let error = try #require(throws: CartographError.self) { try parseInChunks(bytes, sizes: [size], options: options) }
            #expect(error.kind == .syntax && error.offset == bad, "chunks of \(size): \(error)")
        }
        expectSameOutcome(bytes, "comments", options: options)
    }

    @Test(arguments: ["twitter.json", "canada.json"])
    func largeFixtureGivesTheSameTapeInAnyChunking(_ name: String) throws {
        let bytes = try Fixtures.bytes(name)
        let whole = try Document(parsing: bytes)
        let random = try parseInChunks(bytes, sizes: randomChunkSizes(seed: 7))
        #expect(sameTape(whole, random))
        let oneByte = try parseInChunks(bytes, sizes: [1])
        #expect(sameTape(whole, oneByte))
    }

    @Test func escapedStringSplitAcrossChunksKeepsItsSourceOffset() throws {
        let bytes = Array(#"  ["ab\u00e9\n", {"k\"ey": "v"}]"#.utf8)
        let whole = try Document(parsing: bytes)
        let oneByte = try parseInChunks(bytes, sizes: [1])
        #expect(sameTape(whole, oneByte))
        let first = try #require(try whole.root.array()[0])
        #expect(first.sourceOffset == 3)
        #expect(try first.string() == "abé\n")
    }
}
