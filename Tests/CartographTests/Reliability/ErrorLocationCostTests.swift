import Foundation
import Testing

@testable import Cartograph

/// Errors are located only when they leave Cartograph, many at once in one
/// pass, and correctly when they point back into earlier chunks.
@Suite struct ErrorLocationCostTests {
    private struct Feed: Codable {
        struct Item: Codable, Equatable { var id: Int }
        @LossyArray var items: [Item]
    }

    @Test func lossyIssuesAreLocatedOnTheirOwnLines() throws {
        // 5,000 elements, one per line, every other one bad.
        let lines = (0..<5_000).map { $0 % 2 == 0 ? #"{"id": \#($0)}"# : #"{"id": "bad"}"# }
        let text = "{\"items\": [\n" + lines.joined(separator: ",\n") + "\n]}"
        let result = try JSONMapper().decodeLossy(Feed.self, from: Array(text.utf8))
        #expect(result.value.items.count == 2_500)
        #expect(result.issues.count == 2_500)
        for (position, issue) in result.issues.enumerated() {
            let element = 2 * position + 1
            #expect(issue.line == element + 2, "\(issue)")
            #expect(issue.column == 8)
            guard issue.line == element + 2 else { break }
        }
    }

    @Test func anErrorThatLeavesTheDecodeIsLocated() throws {
        struct Pair: Decodable { var a: Int; var b: String }
        let text = "{\n  \"a\": 1,\n  \"b\": 2\n}"
        let error = try #require(throws: DecodingError.self) { try JSONMapper().decode(Pair.self, from: Array(text.utf8)) }
        let inner = try #require(DecodingErrors.cartographError(error))
        #expect(inner.line == 3 && inner.column == 8)
        guard case .typeMismatch(_, let context) = error else { Issue.record("\(error)"); return }
        #expect(context.debugDescription.contains("3:8"), "\(context.debugDescription)")
        #expect(context.codingPath.map(\.stringValue) == ["b"])
    }

    /// Whole and chunked parses give the same error, line and column.
    private func sameErrorWholeAndChunked(_ text: String, sizes: [Int], options: ParseOptions = ParseOptions()) throws {
        let bytes = Array(text.utf8)
        let whole = try #require(throws: CartographError.self) { try Document(parsing: bytes, options: options) }
        for size in sizes {
            let chunked = try #require(throws: CartographError.self) { try parseInChunks(bytes, sizes: [size], options: options) }
            #expect(chunked.kind == whole.kind, "\(size)")
            #expect(chunked.offset == whole.offset, "\(size)")
            #expect(chunked.line == whole.line && chunked.column == whole.column, "\(size): \(chunked) vs \(whole)")
        }
    }

    @Test func anErrorAfterALongStringInAChunkIsPlacedRight() throws {
        try sameErrorWholeAndChunked("[\n\"" + String(repeating: "a", count: 5_000) + "\",\n\n  x]", sizes: [1, 7, 4_096, 6_000, 100_000])
    }

    @Test func anErrorPointingBackIntoEarlierChunksIsPlacedRight() throws {
        // An unpaired surrogate at the end of a long multi-line string, found once it closes.
        try sameErrorWholeAndChunked("[1,\n  \"" + String(repeating: "é\\n", count: 2_000) + "\\uD800\"]", sizes: [1, 16, 4_096])
        // A bad literal split across chunks: the error is at its start.
        try sameErrorWholeAndChunked("[true,\n\n     trux]", sizes: [1, 2, 3, 14])
        // A string past its limit, refused while still arriving, at its opening quote on line 2.
        let options = ParseOptions { $0.maxStringBytes = 100 }
        let bytes = Array(("[\n  \"" + String(repeating: "z", count: 5_000)).utf8)
        for size in [1, 10, 64] {
            let error = try #require(throws: CartographError.self) { try parseInChunks(bytes, sizes: [size], options: options) }
            #expect(error.kind == .stringTooLong)
            #expect(error.line == 2 && error.column == 3, "\(size): \(error)")
        }
    }

    /// Counts `text` in chunks of `size` (remembering an anchor one byte
    /// into each when asked) and checks the line and column against a scan
    /// of the whole text after every chunk.
    private func checkLineCounter(_ text: [UInt8], size: Int, anchors: Bool) {
        let whole = text.span
        var counter = LineCounter()
        var offset = 0
        while offset < text.count {
            let end = min(text.count, offset + size)
            counter.advance(over: whole.extracting(offset..<end), anchor: anchors ? offset + 1 : nil)
            offset = end
            let expected = SourceLocation(offset: offset, in: whole)
            #expect(counter.line == expected.line && counter.column + 1 == expected.column, "\(size) at \(offset)")
        }
    }

    @Test func theLineCounterAgreesWithAWholeScanInEveryChunking() {
        // Newlines, multi-byte scalars and runs longer than a word, at every split.
        let parts: [String] = ["ab\né😀\n\n", String(repeating: "x", count: 19), "\nçç\n", String(repeating: "\n", count: 9), "tail é"]
        let text = Array(parts.joined().utf8)
        for size in [1, 3, 7, 8, 9, 16, text.count] { checkLineCounter(text, size: size, anchors: true) }
    }

    /// About 2,000 bytes of breaks, runs of them, two- to four-byte
    /// scalars and plain runs longer than a 32-byte block, mixed.
    private static let mixedText: [UInt8] = {
        let pieces = ["a", "\n", "é", "€", "😀", "\n\n", "xyz", String(repeating: "q", count: 40)]
        var text: [UInt8] = []
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        while text.count < 2_000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            text += Array(pieces[Int(state >> 33) % pieces.count].utf8)
        }
        return text
    }()

    @Test func theLineCounterAgreesWithAWholeScanInBlocksOfThirtyTwo() {
        // Long chunks take the vectorised count: breaks and scalars at
        // every position of a 32-byte block, and blocks with no break.
        for size in [31, 32, 33, 64, 95, 500, Self.mixedText.count] { checkLineCounter(Self.mixedText, size: size, anchors: false) }
    }

    /// The 32-byte loop and the 8-byte one (what a processor without AVX2
    /// runs) count as a byte loop does, at every length up to 70 and from
    /// every offset of a word.
    @Test func bothLineCountLoopsAgreeWithAByteLoop() {
        let whole = Self.mixedText.span
        for start in 0..<8 {
            for length in Array(0...70) + [200, 1_000, Self.mixedText.count - start] {
                let bytes = whole.extracting(start..<(start + length))
                var newlines = 0
                var last: Int?
                var scalars = 0
                for index in 0..<bytes.count {
                    if bytes[index] == 0x0A {
                        newlines += 1
                        last = index
                        scalars = 0
                    } else if bytes[index] & 0xC0 != 0x80 {
                        scalars += 1
                    }
                }
                for vectorised in [true, false] {
                    let counts = CText.lineCounts(in: bytes, vectorised: vectorised)
                    #expect(
                        counts.newlines == newlines && counts.lastNewline == last && counts.scalarsAfter == scalars,
                        "\(start)+\(length) vectorised: \(vectorised)")
                }
            }
        }
    }

    @Test func excerptsShowTabsAsSpaces() throws {
        let error = try #require(throws: CartographError.self) { try Document(parsing: "{\t\"a\":\tx}") }
        #expect(error.excerpt?.hasPrefix("{ \"a\": x}") == true, "\(error.excerpt ?? "")")
    }
}
