import Foundation
import Testing

@testable import Cartograph

/// Every limit in ParseOptions and WriteOptions: at the limit works, one past it throws its own kind.
@Suite struct LimitsTests {
    private func nested(_ depth: Int) -> [UInt8] {
        Array(repeating: UInt8(ascii: "["), count: depth) + Array(repeating: UInt8(ascii: "]"), count: depth)
    }

    @Test func depthAtTheLimitParsesAndOnePastThrows() throws {
        _ = try Document(parsing: nested(512))
        let error = try #require(throws: CartographError.self) { try Document(parsing: nested(513)) }
        #expect(error.kind == .depthLimitExceeded)
        #expect(error.offset == 512)
    }

    @Test func aMillionOpeningBracketsThrowsTheDepthError() throws {
        let bytes = Array(repeating: UInt8(ascii: "["), count: 1_000_000)
        let error = try #require(throws: CartographError.self) { try Document(parsing: bytes) }
        #expect(error.kind == .depthLimitExceeded)
        let objects = Array(repeating: Array(#"{"a":"#.utf8), count: 100_000).flatMap { $0 }
        #expect(throws: CartographError.self) { try Document(parsing: objects) }
    }

    @Test func customDepthLimit() throws {
        let options = ParseOptions { $0.maxDepth = 3 }
        _ = try Document(parsing: nested(3), options: options)
        #expect(throws: CartographError.self) { try Document(parsing: nested(4), options: options) }
    }

    @Test func stringLimit() throws {
        let options = ParseOptions { $0.maxStringBytes = 8 }
        _ = try Document(parsing: #"["12345678"]"#, options: options)
        let error = try #require(throws: CartographError.self) { try Document(parsing: #"["123456789"]"#, options: options) }
        #expect(error.kind == .stringTooLong)
        let keyError = try #require(throws: CartographError.self) { try Document(parsing: #"{"123456789": 1}"#, options: options) }
        #expect(keyError.kind == .stringTooLong)
    }

    @Test func numberLimit() throws {
        let options = ParseOptions { $0.maxNumberDigits = 5 }
        _ = try Document(parsing: "[-1234]", options: options)
        let error = try #require(throws: CartographError.self) { try Document(parsing: "[123456]", options: options) }
        #expect(error.kind == .numberTooLong)
    }

    @Test func keysPerObjectLimit() throws {
        let options = ParseOptions { $0.maxKeysPerObject = 2 }
        _ = try Document(parsing: #"{"a":1,"b":2}"#, options: options)
        let error = try #require(throws: CartographError.self) { try Document(parsing: #"{"a":1,"b":2,"c":3}"#, options: options) }
        #expect(error.kind == .tooManyKeys)
    }

    @Test func inputLimitWholeAndChunked() throws {
        let options = ParseOptions { $0.maxInputBytes = 10 }
        _ = try Document(parsing: "[1,2,3,44]", options: options)
        let error = try #require(throws: CartographError.self) { try Document(parsing: "[1,2,3,4,5]", options: options) }
        #expect(error.kind == .inputTooLarge)
        #expect(throws: CartographError.self) { try parseInChunks(Array("[1,2,3,4,5]".utf8), sizes: [1], options: options) }
    }

    @Test func writerDepthLimit() throws {
        var value: JSONValue = 1
        for _ in 0..<600 { value = [value] }
        let error = try #require(throws: CartographError.self) { try value.encoded() }
        #expect(error.kind == .depthLimitExceeded)
        _ = try value.encoded(options: WriteOptions { $0.maxDepth = 600 })
    }
}

/// Input limits above ``Tape/maxDocumentBytes`` (2 GiB) act as it: one
/// document's offsets are 32-bit. The inputs are 2 GiB and a byte of
/// mapped zero pages (never written, so never resident).
@Suite struct DocumentCeilingTests {
    private static let size = Tape.maxDocumentBytes + 1

    private func withHugeInput(_ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        let base = mmap(nil, Self.size, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0)
        try #require(base != MAP_FAILED)
        defer { munmap(base, Self.size) }
        try body(UnsafeRawBufferPointer(start: base, count: Self.size))
    }

    private func expectTooLarge(_ body: () throws -> Void) throws {
        let error = try #require(throws: CartographError.self) { try body() }
        #expect(error.kind == .inputTooLarge, "\(error)")
        #expect(error.message.contains("\(Tape.maxDocumentBytes)"), "\(error.message)")
    }

    @Test func wholeJSONAboveTwoGiBIsTooLargeWhateverTheLimit() throws {
        let options = ParseOptions { $0.maxInputBytes = .max }
        try withHugeInput { input in
            // Typed, so that the bytes are read in place (not copied into an array first).
            try expectTooLarge { _ = try Document(parsing: input.assumingMemoryBound(to: UInt8.self), options: options) }
            try expectTooLarge {
                let parser = JSONParser(options: options)
                try parser.feed(input)
            }
        }
    }

    @Test func json5AboveTwoGiBIsTooLargeWhateverTheLimit() throws {
        let options = ParseOptions {
            $0.maxInputBytes = .max; $0.allowsJSON5 = true
        }
        try withHugeInput { input in
            try expectTooLarge { _ = try Document(parsing: input.assumingMemoryBound(to: UInt8.self), options: options) }
        }
    }

    @Test func plistAboveTwoGiBIsTooLargeWhateverTheLimit() throws {
        var options = PropertyListOptions()
        options.maxInputBytes = .max
        try withHugeInput { input in
            try expectTooLarge { _ = try withByteSpan(input) { try PlistInput.document($0, options: options) } }
        }
    }

    @Test func streamLimitsAboveTwoGiBActAsTwoGiB() {
        let options = ParseOptions {
            $0.maxInputBytes = .max; $0.maxElementBytes = .max; $0.maxEnvelopeBytes = 3 << 31
        }
        let streamed = options.bounded(streamed: true)
        #expect(streamed.maxInputBytes == .max)
        #expect(streamed.maxElementBytes == Tape.maxDocumentBytes)
        #expect(streamed.maxEnvelopeBytes == Tape.maxDocumentBytes)
        #expect(options.bounded(streamed: false).maxInputBytes == Tape.maxDocumentBytes)
        // Limits below the ceiling are kept as set.
        #expect(ParseOptions().bounded(streamed: false) == ParseOptions())
    }
}

extension DocumentCeilingTests {
    @Test func inputTooLargeIsNotLocatedByLine() throws {
        // The offset is where the limit was passed; no line or excerpt is read out of the refused input.
        let options = ParseOptions { $0.maxInputBytes = 10 }
        let whole = try #require(throws: CartographError.self) { try Document(parsing: "[1,\n2,\n3,\n4,\n5]", options: options) }
        #expect(whole.kind == .inputTooLarge)
        #expect(whole.offset == 10)
        #expect(whole.line == nil)
        let parser = JSONParser(options: options)
        let chunked = try #require(throws: CartographError.self) {
            try Array("[1,\n2,\n3,\n4,\n5]".utf8).withUnsafeBytes { try parser.feed($0) }
        }
        #expect(chunked.kind == .inputTooLarge)
        #expect(chunked.line == nil)
    }
}

extension DocumentCeilingTests {
    @Test func aValueOfMoreThanTwoGiBIsTooLargeForADocument() throws {
        // One string of 2 GiB and a byte (2 GiB of memory for a second);
        // without the ceiling, this string limit would let it onto the tape.
        let options = ParseOptions { $0.maxStringBytes = .max }
        let huge = String(unsafeUninitializedCapacity: Self.size) { buffer in
            memset(buffer.baseAddress!, 0x61, Self.size)
            return Self.size
        }
        let error = try #require(throws: CartographError.self) { _ = try Document(value: .array([1, .string(huge)]), options: options) }
        #expect(error.kind == .inputTooLarge)
        #expect(error.message.contains("\(Tape.maxDocumentBytes)"))
        _ = try Document(value: .array([1, "small"]), options: options)
    }
}
