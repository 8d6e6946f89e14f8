import Foundation
import Testing

@testable import Cartograph

/// Long tokens fed in small chunks: linear work, limits enforced while the
/// token is still arriving, nothing kept for whitespace, and the same
/// Document as a whole parse.
@Suite struct ChunkedTokenTests {
    /// Feeds `bytes` in chunks of `size`; returns the parser and how many bytes were fed before an error.
    private func feed(_ bytes: [UInt8], size: Int, options: ParseOptions) -> (JSONParser, fed: Int, error: CartographError?) {
        let parser = JSONParser(options: options)
        var offset = 0
        while offset < bytes.count {
            let end = min(bytes.count, offset + size)
            do { try parser.feed(bytes[offset..<end]) } catch { return (parser, end, error as? CartographError) }
            offset = end
        }
        return (parser, offset, nil)
    }

    @Test func aLongNumberInSmallChunksCostsLinearWork() throws {
        let digits = [UInt8](repeating: UInt8(ascii: "7"), count: 256 << 10)
        let input = Array("[1,".utf8) + digits + Array("]".utf8)
        let options = ParseOptions { $0.maxNumberDigits = 1 << 20 }
        let (parser, _, error) = feed(input, size: 64, options: options)
        #expect(error == nil)
        let document = try parser.finish()
        #expect(try document.root.array()[1]?.numberText() == String(decoding: digits, as: UTF8.self))
        // yajl rescans an unfinished token on every call: fed each 64-byte
        // chunk, that was 256 KiB × 4096 / 2 ≈ 537 MB of rescanning.
        #expect(parser.rescannedBytes <= 4 * input.count, "\(parser.rescannedBytes)")
    }

    @Test func aLongStringInSmallChunksCostsLinearWork() throws {
        let text = String(repeating: "ab\\n\\u00e9", count: 40_000)
        let input = Array("{\"k\":\"\(text)\"}".utf8)
        let (parser, _, error) = feed(input, size: 61, options: ParseOptions())
        #expect(error == nil)
        let document = try parser.finish()
        #expect(try document.root.object()["k"]?.string() == String(repeating: "ab\né", count: 40_000))
        #expect(parser.rescannedBytes <= 4 * input.count, "\(parser.rescannedBytes)")
    }

    @Test func aStringPastItsLimitIsRefusedWhileStillArriving() {
        let input = Array("[\"".utf8) + [UInt8](repeating: UInt8(ascii: "a"), count: 100_000)
        let (_, fed, error) = feed(input, size: 64, options: ParseOptions { $0.maxStringBytes = 1_000 })
        #expect(error?.kind == .stringTooLong)
        #expect(error?.offset == 1)
        #expect(fed < 1_200, "refused after \(fed) bytes")
    }

    @Test func aNumberPastItsLimitIsRefusedWhileStillArriving() {
        let input = Array("[-".utf8) + [UInt8](repeating: UInt8(ascii: "9"), count: 100_000)
        let (_, fed, error) = feed(input, size: 64, options: ParseOptions())
        #expect(error?.kind == .numberTooLong)
        #expect(error?.offset == 1)
        #expect(fed < 4_096 + 200, "refused after \(fed) bytes")
    }

    @Test func aLongCommentCostsLinearWorkAndIsBoundedInStreams() throws {
        let input = Array("[1, /*".utf8) + [UInt8](repeating: UInt8(ascii: "c"), count: 100_000) + Array("*/ 2]".utf8)
        let options = ParseOptions {
            $0.allowComments = true; $0.maxStringBytes = 1_000
        }
        let (parser, _, error) = feed(input, size: 64, options: options)
        #expect(error == nil)
        #expect(try parser.finish().root.array().count == 2)
        #expect(parser.rescannedBytes <= 4 * input.count)
        // As a whole parse reads it: comments have no limit of their own.
        #expect(try Document(parsing: input, options: options).root.array().count == 2)
        // A stream keeps no more of an unfinished comment than maxElementBytes.
        var mapper = JSONMapper()
        mapper.parseOptions = options
        mapper.parseOptions.maxElementBytes = 10_000
        let stream = ModelStream(Int.self, mapper: mapper)
        let endless = Array("[1, /*".utf8) + [UInt8](repeating: UInt8(ascii: "c"), count: 1 << 20)
        let refused = try #require(throws: CartographError.self) {
            var offset = 0
            while offset < endless.count {
                _ = try stream.feed(endless[offset..<min(endless.count, offset + 4096)])
                offset += 4096
            }
        }
        #expect(refused.kind == .inputTooLarge)
    }

    @Test func escapesAreNotCountedAgainstTheLimitBeforeTheyAreDecoded() throws {
        // 6,000 raw bytes that decode to 1,000: within a 1,000-byte limit.
        let input = Array("[\"\(String(repeating: "\\u0041", count: 1_000))\"]".utf8)
        let options = ParseOptions { $0.maxStringBytes = 1_000 }
        for size in [1, 7, 64, 4096] {
            let (parser, _, error) = feed(input, size: size, options: options)
            #expect(error == nil, "\(size)")
            #expect(try parser.finish().root.array()[0]?.string() == String(repeating: "A", count: 1_000))
        }
        let over = Array("[\"\(String(repeating: "\\u0041", count: 1_001))\"]".utf8)
        for size in [1, 64] {
            let (parser, _, error) = feed(over, size: size, options: options)
            let refused = error ?? Result { try parser.finish() }.failure
            #expect(refused?.kind == .stringTooLong, "\(size)")
            #expect(refused?.offset == 1, "\(size)")
        }
    }

    @Test func whitespaceBetweenValuesIsNotKept() throws {
        let parser = JSONParser(options: ParseOptions { $0.allowMultipleValues = true })
        try parser.feed(Array("[1,".utf8))
        let spaces = [UInt8](repeating: 0x20, count: 1 << 16)
        for _ in 0..<160 { try parser.feed(spaces) } // 10 MiB
        #expect(parser.retainedBytes < 1 << 17, "\(parser.retainedBytes)")
        try parser.feed(Array("2] \n\t {\"a\":".utf8))
        for _ in 0..<16 { try parser.feed(spaces) }
        try parser.feed(Array("  @".utf8).prefix(2))
        #expect(parser.retainedBytes < 1 << 17)
        try parser.feed(Array("true}".utf8))
        let document = try parser.finish()
        #expect(document.values.count == 2)
    }

    @Test func errorsAfterLongWhitespaceAreStillPlacedAtTheBadByte() {
        var input = Array("[1,".utf8) + [UInt8](repeating: 0x20, count: 100_000)
        input += Array("]".utf8)
        let (parser, _, fed) = feed(input, size: 100, options: ParseOptions())
        let error = fed ?? Result { try parser.finish() }.failure
        let whole = Result { try Document(parsing: input) }.failure
        #expect(error?.kind == whole?.kind)
        #expect(error?.offset == whole?.offset)
        #expect(whole?.offset == input.count - 1)
    }

    @Test func longTokensParseTheSameInEveryChunking() throws {
        let inputs = [
            "[\"" + String(repeating: "x\\\"y\\\\", count: 3_000) + "\", 1]",
            "{\"" + String(repeating: "key", count: 2_000) + "\": -" + String(repeating: "1", count: 3_000) + ".5e-7}",
            "[" + String(repeating: " ", count: 5_000) + "true" + String(repeating: "\n", count: 5_000) + "]",
            "[\"\(String(repeating: "😀é", count: 2_000))\"]"
        ]
        for input in inputs {
            let bytes = Array(input.utf8)
            let whole = try Document(parsing: bytes)
            for size in [1, 3, 64, 65, 1000] {
                let chunked = try parseInChunks(bytes, sizes: [size])
                #expect(sameTape(whole, chunked), "\(size)")
            }
        }
    }
}

extension Result {
    /// The error, if this is a failure with a Cartograph error.
    var failure: CartographError? {
        if case .failure(let error) = self { return error as? CartographError }
        return nil
    }
}
