import CCartographTape
import Foundation
import Testing

@testable import Cartograph

/// The C tape builder (`CModules/CCartographTape`, yajl's callbacks for a
/// parse that is not streamed) against the Swift ``DocumentBuilder`` that
/// every other reader drives: the same input must give the same tape,
/// entry for entry, and the same errors.
///
/// The Swift side is the same yajl parse with the Swift callbacks, which
/// streamed parses use (``YajlParser``'s `swiftCallbacks`).
@Suite struct NativeTapeTests {
    @Test func cTapeEntryHasTheLayoutOfSwiftsTapeEntry() {
        #expect(MemoryLayout<TapeEntry>.size == MemoryLayout<cartograph_tape_entry>.size)
        #expect(MemoryLayout<TapeEntry>.stride == MemoryLayout<cartograph_tape_entry>.stride)
        #expect(MemoryLayout<TapeEntry>.alignment == MemoryLayout<cartograph_tape_entry>.alignment)
        #expect(MemoryLayout<TapeEntry>.offset(of: \.kind) == MemoryLayout<cartograph_tape_entry>.offset(of: \.kind))
        #expect(MemoryLayout<TapeEntry>.offset(of: \.flags) == MemoryLayout<cartograph_tape_entry>.offset(of: \.flags))
        #expect(MemoryLayout<TapeEntry>.offset(of: \.length) == MemoryLayout<cartograph_tape_entry>.offset(of: \.length))
        #expect(MemoryLayout<TapeEntry>.offset(of: \.storedPayload) == MemoryLayout<cartograph_tape_entry>.offset(of: \.payload))
        #expect(MemoryLayout<TapeEntry>.offset(of: \.sourceLow) == MemoryLayout<cartograph_tape_entry>.offset(of: \.source_low))
        #expect(MemoryLayout<TapeEntry>.offset(of: \.sourceHigh) == MemoryLayout<cartograph_tape_entry>.offset(of: \.source_high))
        #expect(MemoryLayout<TapeEntry>.stride == 16)
        // The C side writes TokenKind's case indexes as numbers.
        let kinds: [TokenKind] = [.null, .false, .true, .number, .string, .key, .array, .object]
        for (index, kind) in kinds.enumerated() {
            var entry = TapeEntry(kind: kind, flags: 0, length: 0, payload: 0, source: 0)
            let stored = withUnsafeBytes(of: &entry) { $0.load(as: cartograph_tape_entry.self).kind }
            #expect(Int(stored) == index)
        }
    }

    @Test func cBuilderWritesTheSwiftBuildersTapeOnTheCorpora() throws {
        for name in ["twitter.json", "canada.json"] {
            try expectSameTapes(Fixtures.bytes(name), name)
        }
        var compared = 0
        for name in Fixtures.testSuiteCases("y_") {
            let bytes = try Fixtures.testSuiteBytes(name)
            try expectSameTapes(bytes, name)
            compared += 1
        }
        #expect(compared > 90)
        for name in Fixtures.testSuiteCases("n_") + Fixtures.testSuiteCases("i_") {
            try expectSameTapes(Fixtures.testSuiteBytes(name), name)
        }
    }

    @Test func cBuilderWritesTheSwiftBuildersTapeOnRandomDocuments() throws {
        var generator = SeededGenerator(seed: 0x7A9E_0001)
        for round in 0..<600 {
            let text = RandomJSON.value(depth: 0, using: &generator)
            try expectSameTapes(Array(text.utf8), "round \(round): \(text.prefix(200))")
        }
    }

    @Test func repeatedKeysResolveAlikeUnderEveryPolicy() throws {
        var generator = SeededGenerator(seed: 0x7A9E_0002)
        for policy in [DuplicateKeyPolicy.lastWins, .firstWins, .reject] {
            var options = ParseOptions()
            options.duplicateKeys = policy
            for size in [2, 3, 8, 16, 17, 40, 300] {
                for _ in 0..<20 {
                    // Distinct keys, then one of them again at a random place;
                    // a non-ASCII spelling now and then (canonical equivalence).
                    var keys = (0..<size).map { "key\($0)_\(Int.random(in: 0...9, using: &generator))" }
                    let repeated = keys[Int.random(in: 0..<size, using: &generator)]
                    keys.insert(Bool.random(using: &generator) ? repeated : "K\u{212A}\(size)", at: Int.random(in: 0...size, using: &generator))
                    let text = "{" + keys.enumerated().map { "\"\($1)\":\($0)" }.joined(separator: ",") + "}"
                    try expectSameTapes(Array(text.utf8), "\(policy) \(size): \(text.prefix(120))", options: options)
                }
            }
        }
    }

    @Test func keysBuiltToShareASignatureStillResolve() throws {
        // Same length, same first and last eight bytes: one signature for
        // all, so the table falls back to hashing every byte.
        let keys = (0..<2_000).map { "aaaaaaaa\(String(format: "%04d", $0))zzzzzzzz" }
        for repeated in [nil, 0, 1_999, 700] as [Int?] {
            var members = keys
            if let repeated { members.insert(keys[repeated], at: 1_000) }
            let text = "{" + members.enumerated().map { "\"\($1)\":\($0)" }.joined(separator: ",") + "}"
            for policy in [DuplicateKeyPolicy.lastWins, .reject] {
                var options = ParseOptions()
                options.duplicateKeys = policy
                try expectSameTapes(Array(text.utf8), "\(String(describing: repeated)) \(policy)", options: options)
            }
            let document = try Document(parsing: Array(text.utf8))
            #expect(try document.root.object().count == 2_000)
        }
    }

    @Test func escapedStringsAreLocatedAndCheckedAlike() throws {
        // Strings yajl decodes (escapes), after whitespace, commas and colons,
        // with surrogates paired and not, as values and as keys.
        let strings = [
            #""a\nb""#, #""\uD83D\uDE00 ok""#, #""x \uD83D""#, #""\uDE00 y""#, #""\uD83D\u0041""#, #""?\t""#,
            #""日本\n""#, #""😀\r\uD83D""#, #""\\\"\/""#
        ]
        for string in strings {
            for text in ["[\(string)]", "[1,  \(string)]", "{\(string): 1}", "{\"k\" :\n\t\(string)}", "[\"\\n\", \(string), \"\\t\"]"] {
                let bytes = Array(text.utf8)
                try expectSameTapes(bytes, text)
                // Every chunking agrees with the whole parse, failures included.
                let whole = Result { try Document(parsing: bytes) }
                for size in [1, 2, 3, 7] {
                    let chunked = Result { try parseInChunks(bytes, sizes: [size]) }
                    switch (whole, chunked) {
                    case (.success(let a), .success(let b)): #expect(sameTape(a, b), "\(text) in chunks of \(size)")
                    case (.failure(let a as CartographError), .failure(let b as CartographError)):
                        #expect(a.offset == b.offset && a.kind == b.kind, "\(text) in chunks of \(size): \(a) / \(b)")
                    default: Issue.record("\(text) in chunks of \(size): \(whole) / \(chunked)")
                    }
                }
            }
        }
        // The unpaired escape itself is reported, where it is.
        for (text, offset) in [(#"[1, "x \uD83D"]"#, 7), (#"{"\uDE00 y": 1}"#, 2), (#"["\uD83D\u0041"]"#, 2)] {
            let result = Result { try Document(parsing: text) }
            guard case .failure(let error as CartographError) = result else {
                Issue.record("\(text) should fail")
                continue
            }
            #expect(error.kind == .invalidEscape && error.offset == offset, "\(text): \(error)")
        }
    }

    @Test func failuresAreTheSwiftBuildersFailures() throws {
        var limited = ParseOptions()
        limited.maxDepth = 3
        limited.maxKeysPerObject = 2
        limited.maxStringBytes = 5
        limited.maxNumberDigits = 4
        let cases: [String] = [
            #"[[[[1]]]]"#, #"{"a":1,"b":2,"c":3}"#, #"["abcdef"]"#, #"{"abcdef":1}"#, #"[12345]"#, #"[1.5e10]"#,
            #"["\u0041\u0042\u0043\u0044\u0045\u0046"]"#
        ]
        for text in cases {
            let native = Result { try Document(parsing: Array(text.utf8), options: limited) }
            let swift = Result { try swiftTape(Array(text.utf8), options: limited) }
            guard case .failure(let nativeError as CartographError) = native, case .failure(let swiftError as CartographError) = swift else {
                Issue.record("\(text): both should fail: \(native) / \(swift)")
                continue
            }
            #expect(nativeError.kind == swiftError.kind, "\(text)")
            #expect(nativeError.message == swiftError.message, "\(text)")
            #expect(nativeError.offset == swiftError.offset, "\(text)")
        }
        let invalid: [[UInt8]] = [
            [0x5B, 0x22, 0x61, 0xC0, 0x80, 0x22, 0x5D], [0x7B, 0x22, 0xED, 0xA0, 0x80, 0x22, 0x3A, 0x31, 0x7D],
            [0x5B, 0x22, 0xF4, 0x90, 0x80, 0x80, 0x22, 0x5D], [0x5B, 0x22, 0x78, 0xE2, 0x82, 0x22, 0x5D]
        ]
        for bytes in invalid {
            expectSameFailure(bytes, kind: .invalidUTF8, "\(bytes)")
        }
    }

    @Test func yajl2sCountOfConsumedBytesIsReadInPlace() throws {
        // yajl 2.x keeps it where the C callbacks look (checked on a probe
        // handle at the first parse); the offsets it gives are the library
        // call's: the Swift builder, which calls yajl_get_bytes_consumed,
        // writes the same source offsets (the random-document test above
        // and this one, with containers and literals at every depth).
        _ = try Document(parsing: Array("[true]".utf8))
        if YajlParser.yajlVersion / 10_000 == 2 { #expect(YajlParser.readsBytesConsumedInPlace, "yajl \(YajlParser.yajlVersion)") }
        let text = #"  [null, {"a": [true, false, {}], "b" : [ [ ] , null ]},   {"c":{"d":[false]}} , true ]  "#
        try expectSameTapes(Array(text.utf8), "literals and containers")
        let nested = String(repeating: #"{"k":["#, count: 40) + "null" + String(repeating: "]}", count: 40)
        try expectSameTapes(Array(nested.utf8), "nested")
    }

    @Test func numbersOfEveryLengthLandOnTheTapeWhole() throws {
        // Each length takes one of the copies: bytes, words, two 16-byte
        // moves (17 to 32 bytes), memcpy; the text is read back exactly.
        for length in 1...40 {
            let digits = (0..<length).map { Character(String(($0 * 7 + length) % 10)) }
            let integer = String(digits).replacingOccurrences(of: "^0+(?=.)", with: "", options: .regularExpression)
            let fraction = length > 3 ? "-" + String(digits.prefix(1)) + "." + String(digits.dropFirst(3)) : integer
            for text in [integer, fraction] {
                let bytes = Array(("[" + text + "," + text + "]").utf8)
                try expectSameTapes(bytes, text)
                let elements = Array(try Document(parsing: bytes).root.array())
                #expect(try elements.map { try $0.numberText() } == [text, text], "\(text)")
            }
        }
    }

    @Test func longStringsAreCheckedAsTheyAreCopied() throws {
        // From 32 bytes the C builder checks and copies a string in one pass:
        // valid text lands on the tape whole, a fault anywhere is found at
        // the Swift builder's offset, and the length limit still applies.
        let unit = Array("aé日😀b".utf8)
        for length in 32...90 {
            var text = Array((0..<(length / unit.count + 1)).flatMap { _ in unit }.prefix(length))
            while String(validating: text, as: UTF8.self) == nil { text.removeLast() }
            let valid = [0x5B, 0x22] + text + [0x22, 0x2C, 0x22] + text + [0x22, 0x5D]
            try expectSameTapes(valid, "\(text.count) bytes")
            for place in stride(from: 0, through: text.count, by: 3) {
                let bytes = [0x5B, 0x22] + Array(text[..<place]) + [0xED, 0xA0, 0x80] + Array(text[place...]) + [0x22, 0x5D]
                expectSameFailure(bytes, kind: .invalidUTF8, "fault at \(place) of \(text.count)")
            }
        }
        var limited = ParseOptions()
        limited.maxStringBytes = 40
        let long = Array(("[\"" + String(repeating: "é", count: 21) + "\"]").utf8)
        expectSameFailure(long, kind: .stringTooLong, "42 bytes over a 40-byte limit", options: limited)
    }

    /// Both builders reject `bytes` with the same error: kind, message and offset.
    private func expectSameFailure(_ bytes: [UInt8], kind: CartographError.Kind, _ label: String, options: ParseOptions = ParseOptions()) {
        let native = Result { try Document(parsing: bytes, options: options) }
        let swift = Result { try swiftTape(bytes, options: options) }
        guard case .failure(let nativeError as CartographError) = native, case .failure(let swiftError as CartographError) = swift else {
            Issue.record("\(label): both should fail: \(native) / \(swift)")
            return
        }
        #expect(nativeError.kind == kind, "\(label)")
        #expect(nativeError.message == swiftError.message, "\(label)")
        #expect(nativeError.offset == swiftError.offset, "\(label)")
    }

    /// Keys of every length to 40, ASCII and not, in small objects (compared
    /// pairwise) and large ones (through the signature table), each with a
    /// repeat of one key, and the same texts as string values: the C builder
    /// (whose 4-to-16-byte ASCII keys and strings are checked, copied and,
    /// for keys, signed from two words) writes the Swift builder's tape,
    /// keeps the same value under each policy, and fails alike on a bad byte.
    @Test func keysAndStringsOfEveryLengthAreCheckedCopiedAndComparedAlike() throws {
        for length in 1...40 {
            for script in ["k", "é"] {
                let stem = String(repeating: script, count: length).utf8.prefix(length)
                let name = String(decoding: stem, as: UTF8.self)
                for size in [3, 40] {
                    // Distinct keys of the same length: the index in the key's last bytes.
                    var members = (0..<size).map { index -> String in
                        let suffix = String(index)
                        let base = name.count >= suffix.count ? String(name.dropLast(suffix.count)) : ""
                        return "\"\(base)\(suffix)\": \(index)"
                    }
                    members.append("\"\(name)\": -1")
                    members.append("\"\(name)\": -2")
                    let bytes = Array("{\(members.joined(separator: ","))}".utf8)
                    let label = "length \(length) \(script) size \(size)"
                    try expectSameTapes(bytes, label)
                    let last = try Document(parsing: bytes)
                    #expect(try last.root.object()[name]?.int() == -2, "\(label)")
                    let first = try Document(parsing: bytes, options: ParseOptions { $0.duplicateKeys = .firstWins })
                    #expect(try first.root.object()[name]?.int() == -1, "\(label)")
                    expectSameFailure(bytes, kind: .duplicateKey, label, options: ParseOptions { $0.duplicateKeys = .reject })
                }
            }
            // The same texts as string values (4 to 16 ASCII bytes take the same two-word path).
            for script in ["k", "é"] {
                let text = String(decoding: String(repeating: script, count: length).utf8.prefix(length), as: UTF8.self)
                try expectSameTapes(Array("[\"\(text)\", {\"v\": \"\(text)\"}]".utf8), "string of \(length) \(script)")
                #expect(try Document(parsing: Array("[\"\(text)\"]".utf8)).root.array()[0]?.string() == text)
            }
            // A bad byte at the end of a key, and of a string, of this length.
            var key = Array(repeating: UInt8(ascii: "a"), count: length)
            key[length - 1] = 0xFF
            expectSameFailure(Array(#"{""#.utf8) + key + Array(#"": 1}"#.utf8), kind: .invalidUTF8, "bad key of \(length)")
            expectSameFailure(Array(#"[""#.utf8) + key + Array(#""]"#.utf8), kind: .invalidUTF8, "bad string of \(length)")
        }
    }

    @Test func tapesThatOutgrowTheirFirstBuffersStayWhole() throws {
        // One entry per two bytes: more than the first allocation guesses.
        let text = "[" + Array(repeating: "1", count: 200_000).joined(separator: ",") + "]"
        let document = try Document(parsing: Array(text.utf8))
        #expect(document.tokenCount == 200_001)
        try expectSameTapes(Array(text.utf8), "dense array")
        let long = "[\"" + String(repeating: "é", count: 300_000) + "\"]"
        try expectSameTapes(Array(long.utf8), "long string")
    }

    @Test func scratchThatOutgrowsItsRoomInTheParserMovesWhole() throws {
        // The C builder keeps its first 16 open containers, 32 keys of open
        // objects and 4 roots in the parser itself, then moves them to the
        // heap: each crossed inside an open container that is still read.
        // yajl's own allocations start there too.
        let wideInDeep =
            String(repeating: "{\"outer\": [", count: 20)
            + "{" + (0..<100).map { "\"k\($0)\": \($0)" }.joined(separator: ", ") + ", \"k7\": 0}"
            + String(repeating: "]}", count: 20)
        for policy in [DuplicateKeyPolicy.lastWins, .firstWins] {
            try expectSameTapes(
                Array(wideInDeep.utf8), "100 keys at depth 41, \(policy)",
                options: ParseOptions { $0.duplicateKeys = policy })
        }
        let openKeys = (0..<40).map { "{\"a\($0)\": 1, \"b\($0)\": " }.joined() + "null" + String(repeating: "}", count: 40)
        try expectSameTapes(Array(openKeys.utf8), "keys of 40 open objects")
        let values = (0..<12).map { "{\"n\": \($0), \"m\": [\($0)]}" }.joined(separator: "\n")
        let document = try expectSameTapes(Array(values.utf8), "12 roots", options: ParseOptions { $0.allowMultipleValues = true })
        #expect(try document?.values.map { try $0.object()["n"]?.int() } == (0..<12).map { $0 })
        // yajl's state stack grows by 128 levels at a time: out of the
        // parser's own room and onto the heap (cartograph_yajl_alloc).
        let nested = String(repeating: "[{\"a\":", count: 150) + "0" + String(repeating: "}]", count: 150)
        try expectSameTapes(Array(nested.utf8), "300 levels")
        let deep = try Document(parsing: Array(wideInDeep.utf8))
        var node = deep.root
        for _ in 0..<20 { node = try #require(node.object()["outer"]?.array()[0]) }
        #expect(try node.object()["k99"]?.int() == 99)
        #expect(try node.object()["k7"]?.int() == 0)
    }

    @discardableResult
    private func expectSameTapes(_ bytes: [UInt8], _ label: String, options: ParseOptions = ParseOptions()) throws -> Document? {
        guard case .success(let document) = expectSameOutcome(bytes, label, options: options) else { return nil }
        // Fed in small chunks, strings cross chunks and yajl decodes them.
        let chunked = try parseInChunks(bytes, sizes: randomChunkSizes(seed: UInt64(bytes.count)), options: options)
        #expect(sameTape(chunked, document), "\(label) (chunked): \(tapeDifference(chunked, document) ?? "")")
        return document
    }
}

/// Random JSON text of every shape the tape builder treats apart: escapes,
/// non-ASCII text and keys, repeated keys, objects past the pairwise limit,
/// nesting, numbers of every spelling, literals.
enum RandomJSON {
    static let strings = [
        "", "a", "plain", "with \\\"quote\\\"", "line\\nbreak", "\\u00e9t\\u00e9", "\\uD83D\\uDE00", "日本語", "é", "😀",
        "K\u{212A}", "tab\\tand\\\\slash", String(repeating: "long text ", count: 12)
    ]
    static let numbers = ["0", "-0", "1", "-12", "3.25", "1e10", "-2.5E-3", "12345678901234567890", "0.000001"]

    static func value(depth: Int, using generator: inout SeededGenerator) -> String {
        let choice = depth > 6 ? Int.random(in: 0..<4, using: &generator) : Int.random(in: 0..<7, using: &generator)
        switch choice {
        case 0: return ["null", "true", "false"].randomElement(using: &generator)!
        case 1: return numbers.randomElement(using: &generator)!
        case 2, 3: return "\"\(strings.randomElement(using: &generator)!)\""
        case 4:
            let count = Int.random(in: 0...(depth < 2 ? 5 : 3), using: &generator)
            return "[" + (0..<count).map { _ in value(depth: depth + 1, using: &generator) }.joined(separator: ",") + "]"
        default:
            // Wide objects near the top only, so documents stay small.
            let count = (depth < 2 ? [0, 1, 2, 5, 16, 17, 30] : [0, 1, 2, 3]).randomElement(using: &generator)!
            let pool = strings + (0..<40).map { "k\($0)" }
            let members = (0..<count).map { _ in
                "\"\(pool.randomElement(using: &generator)!)\": \(value(depth: depth + 1, using: &generator))"
            }
            return "{" + members.joined(separator: ", ") + "}"
        }
    }
}
