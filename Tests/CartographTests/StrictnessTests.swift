import Testing

@testable import Cartograph

/// What yajl accepts and JSON does not, rejected on Cartograph's side.
@Suite struct StrictnessTests {
    private func kind(of bytes: [UInt8], _ options: ParseOptions = ParseOptions()) -> CartographError.Kind? {
        do {
            _ = try Document(parsing: bytes, options: options)
            return nil
        } catch let error as CartographError {
            return error.kind
        } catch {
            return .syntax
        }
    }

    private func quoted(_ inner: [UInt8]) -> [UInt8] { [UInt8(ascii: "["), UInt8(ascii: "\"")] + inner + [UInt8(ascii: "\""), UInt8(ascii: "]")] }

    /// yajl, after a complete top-level value, takes an unfinished string
    /// or block comment at the end of input for a token still to come, and
    /// `yajl_complete_parse` succeeds: `9"abc` was accepted as `9`. The
    /// same error whole (the one-call path and the general one), in chunks
    /// and through the Swift callbacks.
    @Test(arguments: [
        ("9\"abc", ParseOptions(), CartographError.Kind.syntax, 1),
        ("[1] \"abc", ParseOptions(), .syntax, 4),
        ("{\"a\": 1}\"", ParseOptions(), .syntax, 8),
        ("true \"\\u00e9", ParseOptions(), .syntax, 5),
        ("[1] /* note", ParseOptions { $0.allowComments = true }, .syntax, 4),
        ("1 \"abc", ParseOptions { $0.allowMultipleValues = true }, .unexpectedEnd, 6)
    ])
    func rejectsAnUnterminatedStringOrCommentAfterAValue(_ text: String, _ options: ParseOptions, _ kind: CartographError.Kind, _ offset: Int) throws
    {
        let bytes = Array(text.utf8)
        let whole = try #require(throws: CartographError.self) { try Document(parsing: bytes, options: options) }
        #expect(whole.kind == kind && whole.offset == offset, "\(text): \(whole)")
        for size in [1, 3] {
            let chunked = try #require(throws: CartographError.self) { try parseInChunks(bytes, sizes: [size], options: options) }
            #expect(chunked.kind == kind && chunked.offset == offset, "\(text) in chunks of \(size): \(chunked)")
        }
        let swift = try #require(throws: CartographError.self) { try swiftTape(bytes, options: options) }
        #expect(swift.kind == kind && swift.offset == offset, "\(text), Swift callbacks: \(swift)")
        // Finished, the same tails are refused by yajl itself, at the same place.
        if options.allowMultipleValues == false, !options.allowComments {
            let closed = try #require(throws: CartographError.self) { try Document(parsing: Array((text + "\"").utf8), options: options) }
            #expect(closed.kind == .syntax && closed.offset == offset, "\(text)\": \(closed)")
        }
    }

    @Test func rejectsOverlongUTF8() {
        #expect(kind(of: quoted([0xC0, 0x80])) == .invalidUTF8)
        #expect(kind(of: quoted([0xE0, 0x80, 0xAF])) == .invalidUTF8)
        #expect(kind(of: quoted([0xF0, 0x80, 0x80, 0xAF])) == .invalidUTF8)
    }

    @Test func rejectsEncodedSurrogates() {
        #expect(kind(of: quoted([0xED, 0xA0, 0x80])) == .invalidUTF8)
        #expect(kind(of: quoted([0xED, 0xBF, 0xBF])) == .invalidUTF8)
    }

    @Test func rejectsCodePointsAboveU10FFFF() {
        #expect(kind(of: quoted([0xF4, 0x90, 0x80, 0x80])) == .invalidUTF8)
        #expect(kind(of: quoted([0xF5, 0x80, 0x80, 0x80])) == .invalidUTF8)
    }

    @Test func rejectsTruncatedSequencesAndStrayContinuationBytes() {
        #expect(kind(of: quoted([0xE2, 0x82])) == .invalidUTF8)
        #expect(kind(of: quoted([0x80])) == .invalidUTF8)
    }

    @Test func rejectsInvalidUTF8InKeys() {
        #expect(kind(of: Array("{\"".utf8) + [0xC0, 0x80] + Array("\":1}".utf8)) == .invalidUTF8)
    }

    @Test func acceptsValidMultibyteText() throws {
        let document = try Document(parsing: quoted(Array("é€😀".utf8)))
        #expect(try document.root.array()[0]?.string() == "é€😀")
    }

    @Test(arguments: [
        #"["\uD800"]"#, #"["\uDC00"]"#, #"["\uDC00\uD800"]"#, #"["\uD800\uD800"]"#, #"["\uD800\u0041"]"#, #"["\uD800x"]"#, #"{"\uD800":1}"#
    ])
    func rejectsUnpairedSurrogateEscapes(_ text: String) {
        #expect(kind(of: Array(text.utf8)) == .invalidEscape || kind(of: Array(text.utf8)) == .invalidUTF8)
    }

    @Test func acceptsPairedSurrogatesAndALiteralQuestionMark() throws {
        let document = try Document(parsing: #"["\uD83D\uDE00", "?", "a\\uD800"]"#)
        let values = try document.root.array().map { try $0.string() }
        #expect(values == ["😀", "?", "a\\uD800"])
    }

    @Test func surrogateCheckPointsAtTheEscape() throws {
        let error = try #require(throws: CartographError.self) { try Document(parsing: #"["ab\uD800"]"#) }
        #expect(error.kind == .invalidEscape)
        #expect(error.offset == 4)
    }

    /// Text written ASCII-only, as Python's, PHP's and many Java encoders
    /// write it by default (every non-ASCII character a `\u` escape, one
    /// beyond U+FFFF a surrogate pair, hex digits in either case): read back
    /// as written, whatever the length (the search for `\uD` runs 32 bytes
    /// at a step); a lone surrogate put between any two characters is
    /// reported at its own escape.
    @Test func asciiOnlyTextReadsBackAndALoneSurrogateIsFoundAnywhere() throws {
        var generator = SeededGenerator(seed: 0xA5C1_1001)
        let pieces: [String] = ["a", "plain ", "é", "中", "한", "\u{D7FF}", "\u{E000}", "😀", "𝄞", "\"", "\\", "\n", "/", "?"]
        func escaped(_ piece: String) -> String {
            var out = ""
            for unit in piece.utf16 {
                switch unit {
                case 0x22: out += "\\\""
                case 0x5C: out += "\\\\"
                case 0x0A: out += "\\n"
                case 0x20..<0x7F: out.unicodeScalars.append(Unicode.Scalar(unit)!)
                default:
                    let hex = String(unit, radix: 16)
                    let padded = String(repeating: "0", count: 4 - hex.count) + hex
                    out += "\\u" + (Bool.random(using: &generator) ? padded.uppercased() : padded)
                }
            }
            return out
        }
        for _ in 0..<400 {
            let chosen = (0..<Int.random(in: 0...40, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }
            let written = chosen.map(escaped)
            let document = try Document(parsing: Array(("[\"" + written.joined() + "\"]").utf8))
            #expect(try document.root.array()[0]?.string() == chosen.joined(), "\(written.joined())")
            // Between two characters: after a whole pair, before a high
            // surrogate, never between the two halves of one.
            let cut = Int.random(in: 0...written.count, using: &generator)
            let lone = Bool.random(using: &generator) ? "\\uD83D" : "\\udc00"
            let prefix = "[\"" + written[..<cut].joined()
            let broken = prefix + lone + written[cut...].joined() + "\"]"
            let error = try #require(throws: CartographError.self, "\(broken)") { try Document(parsing: Array(broken.utf8)) }
            #expect(error.kind == .invalidEscape, "\(broken)")
            #expect(error.offset == prefix.utf8.count, "\(broken)")
        }
    }

    @Test func rejectsVerticalTabAndFormFeedAsWhitespace() {
        #expect(kind(of: [0x5B, 0x0B, 0x31, 0x5D]) == .invalidWhitespace)
        #expect(kind(of: [0x5B, 0x31, 0x0C, 0x5D]) == .invalidWhitespace)
        #expect(kind(of: Array("[1]".utf8) + [0x0C]) == .invalidWhitespace)
    }

    /// The search runs 32 bytes at a step: a vertical tab or form feed at
    /// every position of texts up to 100 bytes (inside a 32-byte block, at
    /// its edges, in the tail) is found there, the first one of two wins,
    /// and line feeds and carriage returns beside them are not taken for them.
    @Test func findsVerticalSpaceAtEveryPosition() throws {
        for length in [3, 31, 32, 33, 64, 65, 100] {
            var text = [UInt8](repeating: 0x20, count: length)
            text[0] = UInt8(ascii: "[")
            text[length - 2] = UInt8(ascii: "1")
            text[length - 1] = UInt8(ascii: "]")
            // Neighbouring bytes in their own strings' stead: whitespace that JSON allows.
            if length > 4 { text[1] = 0x0A; text[2] = 0x0D }
            #expect(throws: Never.self) { try Document(parsing: text) }
            for position in 1..<(length - 2) where text[position] == 0x20 {
                for byte: UInt8 in [0x0B, 0x0C] {
                    var bad = text
                    bad[position] = byte
                    if position + 1 < length - 2 { bad[length - 3] = 0x0B }
                    let error = try #require(throws: CartographError.self) { try Document(parsing: bad) }
                    #expect(
                        error.kind == .invalidWhitespace && error.offset == position, "length \(length), 0x\(String(byte, radix: 16)) at \(position)")
                }
            }
        }
    }

    @Test func keepsNulInStringsAndKeys() throws {
        let document = try Document(parsing: #"{"a\u0000b": "x\u0000y"}"#)
        var iterator = try document.root.object().makeIterator()
        let pair = iterator.next()
        let (key, value) = try #require(pair)
        #expect(Array(key.utf8) == [0x61, 0, 0x62])
        #expect(Array(try value.string().utf8) == [0x78, 0, 0x79])
        #expect(try document.root.object()["a\u{0}b"]?.string() == "x\u{0}y")
    }

    @Test func alwaysCompletesTheParse() {
        #expect(kind(of: Array("[1, 2".utf8)) == .unexpectedEnd)
        #expect(kind(of: Array("{\"a\":".utf8)) == .unexpectedEnd)
        #expect(kind(of: Array("".utf8)) == .unexpectedEnd)
        #expect(kind(of: Array("   ".utf8)) == .unexpectedEnd)
        #expect(kind(of: Array("12".utf8)) == nil)
    }

    @Test func rejectsTrailingGarbageAndSecondValuesByDefault() {
        #expect(kind(of: Array("[1] x".utf8)) == .syntax)
        #expect(kind(of: Array("[1] [2]".utf8)) == .syntax)
    }

    @Test func acceptsMultipleValuesWhenAsked() throws {
        let options = ParseOptions { $0.allowMultipleValues = true }
        let document = try Document(parsing: "{\"a\":1}\n\n[2]\n3", options: options)
        #expect(document.values.map(\.kind) == [.object, .array, .number])
        #expect(try Document(parsing: "  \n", options: options).values.isEmpty)
    }

    @Test func commentsAreRejectedByDefaultAndAcceptedWhenAsked() throws {
        let text = "[1, // one\n /* two */ 2]"
        #expect(kind(of: Array(text.utf8)) == .syntax)
        let document = try Document(parsing: text, options: ParseOptions { $0.allowComments = true })
        #expect(try document.root.array().map { try $0.int() } == [1, 2])
    }

    @Test func byteOrderMarkIsSkippedByDefaultAndRejectedWhenAsked() throws {
        let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("[1]".utf8)
        let document = try Document(parsing: bytes)
        #expect(try document.root.array()[0]?.int() == 1)
        #expect(document.root.sourceOffset == 3)
        #expect(kind(of: bytes, ParseOptions { $0.byteOrderMark = .reject }) == .syntax)
        #expect(kind(of: [0xEF, 0xBB]) != nil)
    }

    @Test func duplicateKeysFollowThePolicy() throws {
        let text = #"{"a": 1, "b": 2, "a": 3}"#
        let last = try Document(parsing: text)
        #expect(try last.root.object()["a"]?.int() == 3)
        #expect(try last.root.object().keys == ["b", "a"])
        #expect(try last.root.object().count == 2)
        let first = try Document(parsing: text, options: ParseOptions { $0.duplicateKeys = .firstWins })
        #expect(try first.root.object()["a"]?.int() == 1)
        #expect(try first.root.object().keys == ["a", "b"])
        let error = try #require(throws: CartographError.self) {
            try Document(parsing: text, options: ParseOptions { $0.duplicateKeys = .reject })
        }
        #expect(error.kind == .duplicateKey)
        #expect(error.offset == 17)
    }

    @Test func duplicateKeysInLargeObjectsAreFound() throws {
        var text = "{"
        for index in 0..<100 { text += "\"k\(index)\": \(index), " }
        text += "\"k42\": \"again\"}"
        let document = try Document(parsing: text)
        #expect(try document.root.object().count == 100)
        #expect(try document.root.object()["k42"]?.string() == "again")
        #expect(try JSONValue(parsing: text)["k42"] == "again")
    }
}
