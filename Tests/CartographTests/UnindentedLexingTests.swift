import CCartographTape
import Foundation
import Testing

@testable import Cartograph

/// Pretty-printed text is given to yajl in blocks copied without the
/// indentation after each line feed (`cartograph_yajl_tape_parse`). The
/// reference is the same yajl given the text as it is, through the Swift
/// callbacks: every tape entry (its source offset above all) and every
/// error (kind, message, offset) must be the same.
@Suite struct UnindentedLexingTests {
    /// Indentation styles and line ends that pretty printers write.
    static let styles: [(indent: String, lineEnd: String)] = [("  ", "\n"), ("    ", "\n"), ("\t", "\n"), ("  ", "\r\n"), (" \t ", "\n")]

    @Test func prettyTextGivesTheTapeOfTheTextAsItIs() throws {
        var generator = SeededGenerator(seed: 0x1D3E_0001)
        for (indent, lineEnd) in Self.styles {
            // A few hundred values: several 32 KB blocks, so that runs of
            // indentation, strings with escapes and numbers fall across them.
            let values = (0..<300).map { _ in RandomJSON.value(depth: 0, using: &generator) }
            let text = Self.pretty("[" + values.joined(separator: ",") + "]", indent: indent, lineEnd: lineEnd)
            let bytes = Array(text.utf8)
            #expect(bytes.count > 100_000)
            let native = try Document(parsing: bytes)
            let reference = try swiftTape(bytes)
            #expect(sameTape(native, reference), "\(indent.debugDescription): \(tapeDifference(native, reference) ?? "")")
            // Fed in chunks of 1 to 40 KB: blocks end at chunk ends too.
            var chunkGenerator = SeededGenerator(seed: UInt64(bytes.count))
            let sizes = (0..<400).map { _ in Int.random(in: 1_000...40_000, using: &chunkGenerator) }
            let chunked = try parseInChunks(bytes, sizes: sizes)
            #expect(sameTape(chunked, reference), "\(indent.debugDescription) chunked: \(tapeDifference(chunked, reference) ?? "")")
        }
    }

    @Test func theCorporaPrettyPrintedGiveTheSameTapes() throws {
        for name in ["twitter.json", "canada.json"] {
            let compact = try Fixtures.bytes(name)
            for (indent, lineEnd) in [("    ", "\n"), ("\t", "\r\n")] {
                let bytes = Array(Self.pretty(String(decoding: compact, as: UTF8.self), indent: indent, lineEnd: lineEnd).utf8)
                let native = try Document(parsing: bytes)
                #expect(sameTape(native, try swiftTape(bytes)), "\(name) \(indent.debugDescription)")
                #expect(native.tokenCount == (try Document(parsing: compact)).tokenCount)
            }
        }
    }

    @Test func errorsInPrettyTextAreReportedWhereTheyAre() throws {
        var generator = SeededGenerator(seed: 0x1D3E_0002)
        let values = (0..<40).map { _ in RandomJSON.value(depth: 0, using: &generator) }
        let valid = Array(Self.pretty("[" + values.joined(separator: ",") + "]", indent: "    ", lineEnd: "\n").utf8)
        #expect(valid.count > 4_000)
        // Bytes that break the text in each way yajl reports: a bad
        // character, a control character, an unbalanced quote or bracket,
        // a stray separator, a line feed where one is not allowed.
        let breakers: [[UInt8]] = [[0x78], [0x01], [0x22], [0x2C], [0x5D], [0x7D], [0x0A], [0x0A, 0x20, 0x20], [0x5C], [0x0B]]
        let failures = expectSameOutcomesWhenBroken(valid, breakers: breakers, rounds: 400, using: &generator)
        #expect(failures > 300)
    }

    @Test func aLineFeedInsideAStringIsStillReportedThere() throws {
        // The line feed stays in the copy, and yajl stops at it: the
        // indentation after it (left out of the copy) is never taken for
        // the string's text.
        let head = Self.pretty(#"{"padding": ""# + String(repeating: "x", count: 2_000) + #"", "text": "first"#, indent: "  ", lineEnd: "\n")
        let bytes = Array((head + "\n        second\"}").utf8)
        let lineFeed = head.utf8.count
        let error = #expect(throws: CartographError.self) { try Document(parsing: bytes) }
        #expect(error?.kind == .syntax)
        #expect(error?.message.contains("control character") == true)
        #expect(error?.offset == lineFeed)
    }

    @Test func commentsOverIndentedLinesReadAsTheyAre() throws {
        var options = ParseOptions()
        options.allowComments = true
        let body = (0..<300).map { index in
            "    /* note \(index):\n       \"quoted\" // not a line comment\n     */ \"k\(index)\": [\n        \(index), // \"a\n        \"v\"\n    ]"
        }.joined(separator: ",\n")
        let bytes = Array(("{\n" + body + "\n}").utf8)
        let native = try Document(parsing: bytes, options: options)
        #expect(sameTape(native, try swiftTape(bytes, options: options)))
        #expect(try native.root.object()["k299"]?.array()[0]?.int() == 299)
        // Unterminated: the same error at the same place.
        let open = Array(bytes.dropLast(2)) + Array("/*\n   ".utf8)
        guard case .failure = expectSameOutcome(open, "unterminated comment", options: options) else {
            Issue.record("an unterminated comment should fail")
            return
        }
    }

    @Test func moreIndentedLinesThanABlockRecordsStillReadWhole() throws {
        // Five bytes a line: a 32 KB block holds more runs than it records
        // at once (4,096), so blocks also end there.
        let bytes = Array(("[\n  " + (0..<30_000).map { "\($0 % 10)" }.joined(separator: ",\n  ") + "\n]").utf8)
        let native = try Document(parsing: bytes)
        #expect(sameTape(native, try swiftTape(bytes)))
        let values = try native.root.array().map { try $0.int() }
        #expect(values.count == 30_000 && values.reduce(0, +) == 3_000 * 45)
    }

    @Test func textWithLittleIndentationIsLexedAsItIs() throws {
        // A long compact first block (copying is given up), then pretty
        // text: the rest goes to yajl as it is, offsets unchanged.
        let compact = "[" + (0..<20_000).map { "\($0)" }.joined(separator: ",")
        let text = compact + "," + Self.pretty(#"[{"a": [1, 2, {"b": "c\"d"}]}, "e"]"#, indent: "   ", lineEnd: "\n") + "]"
        let bytes = Array(text.utf8)
        #expect(sameTape(try Document(parsing: bytes), try swiftTape(bytes)))
        var broken = bytes
        broken[broken.count - 10] = UInt8(ascii: "?")
        guard case .failure = expectSameOutcome(broken, "a stray byte after the copying stopped") else {
            Issue.record("the broken text should fail")
            return
        }
    }

    /// Whether copying pays is judged after a parse's first block (4 KB),
    /// so compact text is copied no further than that; pretty text is
    /// copied whole. The tapes are the same either way.
    @Test func compactTextIsCopiedNoFurtherThanTheFirstBlock() throws {
        let note = "Deliver \\\"before noon\\\", ring twice"
        let records = (0..<400).map { index in
            // Short keys and values, and (three records in four) a string long
            // enough for the scan to leave its body out in the first block.
            #"{"id":\#(index),"name":"Customer \#(index) Ölmez","score":\#(Double(index) * 1.375),"#
                + #""address":{"city":"Zürich","location":[47.3769,8.5417]},"tags":["a","b"]"#
                + (index % 4 == 0 ? "}" : #","note":"\#(note)"}"#)
        }
        let compact = Array(("[" + records.joined(separator: ",") + "]").utf8)
        #expect(compact.count > 40_000)
        let pretty = Array(Self.pretty(String(decoding: compact, as: UTF8.self), indent: "  ", lineEnd: "\n").utf8)
        for (bytes, chunk) in [(compact, Int.max), (compact, 2_048), (compact, 16_384)] {
            let parser = LongStringLexingTests.parsed(bytes, chunk: chunk)
            // A block may end a little past its limit (within the copy's 128 spare bytes).
            #expect(
                parser.bytesCopiedForLexing > 0 && parser.bytesCopiedForLexing <= 4_096 + 128, "chunks of \(chunk): \(parser.bytesCopiedForLexing)")
        }
        #expect(LongStringLexingTests.parsed(pretty).bytesCopiedForLexing == pretty.count)
        for bytes in [compact, pretty] { #expect(sameTape(try Document(parsing: bytes), try swiftTape(bytes))) }
    }

    @Test func bothCopiesLeaveOutExactlyTheIndentationAndRecordWhere() {
        // Text dense in line feeds, blanks and tabs, against a plain
        // reference: what each copy writes is the text read so far without
        // the blanks after each line feed, and every byte written maps back
        // to its own offset. Both copies (the vector one runs on text of 64
        // bytes and more), whole texts and blocks with few records.
        var generator = SeededGenerator(seed: 0x1D3E_0003)
        let alphabet: [UInt8] = Array("\n\n   \t\"a:,{}[]1\r".utf8)
        typealias Copy = (
            UnsafeMutablePointer<UInt8>?, UnsafePointer<UInt8>?, Int, Int, Int,
            UnsafeMutablePointer<cartograph_lexed_shift>?, Int, UnsafeMutablePointer<Int>?, UnsafeMutablePointer<Int>?
        ) -> Int
        let copies: [(String, Copy)] = [("dispatched", cartograph_copy_unindented), ("scalar", cartograph_copy_unindented_scalar)]
        for round in 0..<3_000 {
            let count = Int.random(in: 0...700, using: &generator)
            let bytes = (0..<count).map { _ in alphabet.randomElement(using: &generator)! }
            let limit = round % 3 == 0 ? Int.random(in: 0...count, using: &generator) : count
            let capacity = round % 5 == 0 ? Int.random(in: 1...40, using: &generator) : 1_000
            let origin = Int.random(in: 0...1_000_000, using: &generator)
            for (name, copy) in copies {
                // The room the copy may use (limit + 64), then 64 guard bytes it must not touch.
                var target = [UInt8](repeating: 0, count: limit + 64) + [UInt8](repeating: 0xA5, count: 64)
                var shifts = [cartograph_lexed_shift](repeating: cartograph_lexed_shift(), count: capacity)
                var recorded = 0, read = 0
                let written = bytes.withUnsafeBufferPointer { input in
                    copy(&target, input.baseAddress, count, limit, origin, &shifts, capacity, &recorded, &read)
                }
                let label = "\(name) round \(round) (\(count) bytes, limit \(limit), capacity \(capacity))"
                #expect(read >= limit || recorded > capacity - 16, "\(label): stopped at \(read)")
                #expect(read <= count && recorded <= capacity, "\(label)")
                #expect(target[(limit + 64)...].allSatisfy { $0 == 0xA5 }, "\(label): wrote past its room")
                let (expected, places) = LongStringLexingTests.lexable(Array(bytes[..<min(read, count)]), leaving: [])
                expectCopy(target, written: written, shifts: shifts, recorded: recorded, origin: origin, expected: expected, places: places, label)
            }
        }
    }

    /// Compact JSON text pretty-printed: a line end and one `indent` per
    /// level after `[`, `{` and `,` and before `]` and `}`, and a space
    /// after `:`, outside strings (whitespace already there is kept).
    static func pretty(_ text: String, indent: String, lineEnd: String) -> String {
        var output = ""
        var level = 0
        var inString = false
        var escaped = false
        func newLine() { output += lineEnd + String(repeating: indent, count: max(0, level)) }
        for character in text {
            if inString {
                output.append(character)
                if escaped {
                    escaped = false
                } else if character == "\\" {
                    escaped = true
                } else if character == "\"" {
                    inString = false
                }
                continue
            }
            switch character {
            case "\"":
                inString = true
                output.append(character)
            case "[", "{":
                output.append(character)
                level += 1
                newLine()
            case "]", "}":
                level -= 1
                newLine()
                output.append(character)
            case ",":
                output.append(character)
                newLine()
            case ":":
                output += ": "
            case " ":
                break
            default:
                output.append(character)
            }
        }
        return output
    }
}
