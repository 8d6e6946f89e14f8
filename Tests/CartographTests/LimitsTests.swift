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
