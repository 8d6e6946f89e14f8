import CCartographTape
import Foundation
import Testing

@testable import Cartograph

/// Long strings are given to yajl as `""` and read from the input by the C
/// callbacks, which decode their escapes themselves
/// (`cartograph_scan_strings`, `cartograph_copy_lexable`). The reference is
/// the same yajl given the text as it is, through the Swift callbacks:
/// every tape entry (string bytes and source offsets above all) and every
/// error (kind, message, offset) must be the same.
@Suite struct LongStringLexingTests {
    /// Pieces of string text: words, other scripts, every escape yajl
    /// knows, surrogate pairs, an escaped NUL, and `/`.
    static let pieces = [
        "plain words ", "é", "日本語", "😀", #"\n"#, #"\""#, #"\\"#, #"\/"#, "/", #"\b\f\r\t"#, #"\u00e9"#, #"\u0000"#,
        #"\uD83D\uDE00"#, #"\u2028"#, #"\uFFFF"#, "x", "ő "
    ]

    static func body(bytes: Int, using generator: inout SeededGenerator) -> String {
        var text = ""
        while text.utf8.count < bytes { text += pieces.randomElement(using: &generator)! }
        return text
    }

    /// An array of records with string fields from empty to a few hundred
    /// bytes, some keys long too, and a nested array of strings.
    static func document(records: Int, using generator: inout SeededGenerator) -> String {
        let items = (0..<records).map { index -> String in
            // Long enough on average for the scan to go on (it stops when
            // the strings it leaves out average under 32 bytes).
            let length = [0, 5, 23, 24, 25, 40, 400, 800, 1_500].randomElement(using: &generator)!
            let key = Bool.random(using: &generator) ? "title" : "a key of more than twenty-four bytes \(index % 7)"
            let list = (0..<Int.random(in: 0...4, using: &generator)).map { _ in
                "\"\(body(bytes: Int.random(in: 0...80, using: &generator), using: &generator))\""
            }
            return
                "{\"id\":\(index),\"\(key)\":\"\(body(bytes: length, using: &generator))\",\"n\":-1.5e3,\"list\":[\(list.joined(separator: ","))],\"ok\":true}"
        }
        return "[" + items.joined(separator: ",") + "]"
    }

    /// The number of strings the C callbacks read from the input in a parse
    /// of `bytes` (it must be more than none for these tests to mean anything).
    static func stringsLeftOut(_ bytes: [UInt8], options: ParseOptions = ParseOptions(), chunk: Int = .max) -> Int {
        parsed(bytes, options: options, chunk: chunk).stringsLeftOut
    }

    /// The parser after feeding it `bytes` in chunks of `chunk` bytes.
    static func parsed(_ bytes: [UInt8], options: ParseOptions = ParseOptions(), chunk: Int = .max) -> YajlParser {
        let engine = YajlParser(options: options, expectedInputBytes: bytes.count)
        var offset = 0
        while offset < bytes.count {
            let end = offset + min(chunk, bytes.count - offset)
            if engine.feed(bytes.span.extracting(offset..<end)) != nil { return engine }
            offset = end
        }
        _ = engine.finish()
        return engine
    }

    @Test func aStreamOfShortChunksIsScannedOnlyAtItsStart() throws {
        // Chunks under 1 KB go to yajl as they are; the scan follows them
        // through the first 32 KB only, so that larger chunks after them
        // can still leave strings out, and gives up after that.
        var generator = SeededGenerator(seed: 0x5712_0008)
        let bytes = Array(Self.document(records: 300, using: &generator).utf8)
        #expect(bytes.count > 100_000)
        // (A long string unfinished at a chunk's end holds the chunks back
        // until it ends: those make larger chunks now and then.)
        let whole = Self.parsed(bytes)
        let short = Self.parsed(bytes, chunk: 700)
        #expect(whole.stringsLeftOut > 400 && short.stringsLeftOut < 10, "\(short.stringsLeftOut) of \(whole.stringsLeftOut)")
        #expect(!whole.stringScanStopped)
        // Short chunks that are never held together (no long token): the
        // scan gives up after the first 32 KB.
        let records = Array(("[" + (0..<4_000).map { "{\"id\":\($0),\"name\":\"n\($0)\"}" }.joined(separator: ",") + "]").utf8)
        #expect(Self.parsed(Array(records[..<30_000]), chunk: 700).stringScanStopped == false)
        #expect(Self.parsed(records, chunk: 700).stringScanStopped)
        #expect(sameTape(try parseInChunks(bytes, sizes: [700]), try swiftTape(bytes)))
        // Short chunks first, then large ones.
        let engine = YajlParser(options: ParseOptions(), expectedInputBytes: bytes.count)
        for range in [0..<700, 700..<1_400, 1_400..<bytes.count] {
            #expect(engine.feed(bytes.span.extracting(range)) == nil)
        }
        #expect(engine.finish() == nil)
        #expect(engine.stringsLeftOut > 100)
        #expect(sameTape(try parseInChunks(bytes, sizes: [700, 700, bytes.count]), try swiftTape(bytes)))
    }

    @Test func aShortWholeDocumentIsNotScanned() throws {
        // A whole input under 1 KB goes to yajl as it is and nothing comes
        // after it: the scan does not follow it (a chunk of a longer input
        // is followed, as the test above shows).
        let bytes = Array(#"{"name": "a string longer than twenty-four bytes", "tags": ["x", "y"], "n": 1}"#.utf8)
        let whole = YajlParser(options: ParseOptions(), expectedInputBytes: bytes.count)
        #expect(whole.feedWhole(bytes.span) == nil)
        #expect(whole.stringScanStopped)
        #expect(whole.finish() == nil)
        #expect(sameTape(whole.builder.makeDocument(), try swiftTape(bytes)))
        let chunk = YajlParser(options: ParseOptions(), expectedInputBytes: bytes.count)
        #expect(chunk.feed(bytes.span) == nil)
        #expect(!chunk.stringScanStopped)
    }

    @Test func longStringsGiveTheTapeOfTheTextAsItIs() throws {
        var generator = SeededGenerator(seed: 0x5712_0001)
        for round in 0..<4 {
            let compact = Self.document(records: 400, using: &generator)
            let text = round % 2 == 0 ? compact : UnindentedLexingTests.pretty(compact, indent: "  ", lineEnd: "\n")
            let bytes = Array(text.utf8)
            #expect(bytes.count > 100_000)
            let reference = try swiftTape(bytes)
            let native = try Document(parsing: bytes)
            #expect(sameTape(native, reference), "round \(round): \(tapeDifference(native, reference) ?? "")")
            #expect(Self.stringsLeftOut(bytes) > 400, "round \(round)")
            // Fed in chunks of 1 to 40 KB, and in chunks of a few bytes to
            // 3 KB (strings across chunk ends, short chunks that go to yajl
            // as they are): blocks end at chunk ends too.
            for (low, high) in [(1_000, 40_000), (1, 3_000)] {
                var chunkGenerator = SeededGenerator(seed: UInt64(bytes.count + low))
                let sizes = (0..<2_000).map { _ in Int.random(in: low...high, using: &chunkGenerator) }
                let chunked = try parseInChunks(bytes, sizes: sizes)
                #expect(sameTape(chunked, reference), "round \(round), chunks \(low)-\(high): \(tapeDifference(chunked, reference) ?? "")")
            }
        }
    }

    @Test func theScanStopsWhereStringsAreShort() throws {
        // Short keys and values, a long string now and then: after the
        // first block the scan gives up, and the rest goes to yajl whole.
        let long = String(repeating: "a long value ", count: 4)
        let records = (0..<3_000).map { index in
            "{\"id\":\(index),\"name\":\"n\(index)\",\"kind\":\"k\",\"note\":\"\(index % 10 == 0 ? long : "short")\"}"
        }
        let bytes = Array(("[" + records.joined(separator: ",") + "]").utf8)
        #expect(bytes.count > 120_000)
        #expect(sameTape(try Document(parsing: bytes), try swiftTape(bytes)))
        let leftOut = Self.stringsLeftOut(bytes)
        #expect(leftOut > 0 && leftOut < 100, "\(leftOut) of 300 long strings left out")
    }

    @Test func aByteOrderMarkOrLeftOutBracesChangeNothing() throws {
        // Both start the parse somewhere other than at byte 0 (after the
        // mark; at -1 for the `{` the parser adds).
        var generator = SeededGenerator(seed: 0x5712_0007)
        let members = (0..<200).map { "\"m\($0)\": \"\(Self.body(bytes: 60, using: &generator))\"" }.joined(separator: ",")
        let marked = [0xEF, 0xBB, 0xBF] + Array(("{" + members + "}").utf8)
        let braceless = Array(members.utf8)
        #expect(try expectSameOutcome(marked, "byte order mark")?.get().root.object().count == 200)
        #expect(Self.stringsLeftOut(marked) > 190)
        // Braces left out (JSONParser adds them): the values of the text
        // with its braces.
        var options = ParseOptions()
        options.assumesTopLevelObject = true
        let braced = try Document(parsing: Array(("{" + members + "}").utf8)).root.object()
        for bytes in [braceless, [0xEF, 0xBB, 0xBF] + braceless] {
            let object = try Document(parsing: bytes, options: options).root.object()
            #expect(object.count == 200)
            for index in [0, 1, 99, 199] {
                #expect(try object["m\(index)"]?.string() == braced["m\(index)"]?.string())
            }
        }
    }

    @Test func decodedStringsAreTheTextFoundationReads() throws {
        var generator = SeededGenerator(seed: 0x5712_0002)
        let bodies = (0..<300).map { _ in Self.body(bytes: Int.random(in: 24...200, using: &generator), using: &generator) }
        // Strings that end within 96 bytes of the text's end go to yajl whole.
        // A string in the first three bytes neither (they go on their own,
        // while a byte order mark is looked for).
        let bytes = Array(("[0, " + bodies.map { "\"\($0)\"" }.joined(separator: ",") + String(repeating: " ", count: 96) + "]").utf8)
        #expect(Self.stringsLeftOut(bytes) == 300)
        let expected = try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [Any])
        let values = try Document(parsing: bytes).root.array()
        for index in 0..<300 {
            #expect(try values[index + 1]?.string() == expected[index + 1] as? String, "string \(index)")
        }
    }

    @Test func brokenLongStringsAreReportedWhereTheyAre() throws {
        var generator = SeededGenerator(seed: 0x5712_0003)
        let valid = Array(Self.document(records: 60, using: &generator).utf8)
        #expect(valid.count > 4_000)
        // Each way a string can be wrong: control characters, escapes yajl
        // rejects, surrogates that do not pair, invalid UTF-8, a stray
        // quote or backslash, a comment's opening.
        let breakers: [[UInt8]] = [
            [0x01], [0x0A], [0x1F], Array(#"\x"#.utf8), Array(#"\u12G4"#.utf8), Array(#"\uD800"#.utf8),
            Array(#"\uDC00"#.utf8), Array(#"\uD800\u0041"#.utf8), Array(#"\uDBFF\uDBFF"#.utf8), Array(#"\uD83D"#.utf8) + [0x22],
            [0xFF], [0xE2, 0x82], [0xC3], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0x22], [0x5C], Array("/*".utf8)
        ]
        let failures = expectSameOutcomesWhenBroken(valid, breakers: breakers, rounds: 500, using: &generator)
        #expect(failures > 350)
    }

    @Test func longKeysFollowTheDuplicatePolicy() throws {
        let key = "a key long enough to be left out é"
        let escaped = #"a key long enough to be left out \u00e9"#
        // (The first three bytes go to yajl on their own, while a byte
        // order mark is looked for: a string that starts there is whole.)
        let text = "{\"id\": 0, \"\(key)\": 1, \"other key, also long enough to be left out\": 2, \"\(escaped)\": 3}"
        let bytes = Array((text + String(repeating: " ", count: 1_200)).utf8)
        #expect(Self.stringsLeftOut(bytes) == 3)
        var options = ParseOptions()
        for policy in [DuplicateKeyPolicy.lastWins, .firstWins, .reject] {
            options.duplicateKeys = policy
            let outcome = expectSameOutcome(bytes, "\(policy)", options: options)
            if policy == .reject {
                guard case .failure = outcome else {
                    Issue.record("a repeated long key should be rejected")
                    continue
                }
            } else {
                let value = try #require(try? outcome?.get()).root.object()[key]?.int()
                #expect(value == (policy == .lastWins ? 3 : 1))
            }
        }
    }

    @Test func commentsStopTheScanAndReadAsTheyAre() throws {
        // A quote inside a comment would turn the scan's idea of what is a
        // string inside out: it stops at the first `/` between tokens.
        let long = String(repeating: "text of a long string ", count: 4)
        let members =
            ["\"first\": \"\(long)\""]
            + (0..<200).map { index in
                "\"k\(index)\": \"\(long)\", /* an odd quote \" in a comment */ \"v\(index)\": \"\(long)\""
            }
        let bytes = Array(("{" + members.joined(separator: ",\n") + "\n}").utf8)
        let options = {
            var options = ParseOptions(); options.allowComments = true; return options
        }()
        let native = try Document(parsing: bytes, options: options)
        #expect(sameTape(native, try swiftTape(bytes, options: options)))
        #expect(try native.root.object()["v199"]?.string() == long)
        // The strings before the first `/` are left out; none after it.
        #expect(Self.stringsLeftOut(bytes, options: options) == 2)
    }

    @Test func stringsOverTheLimitAreRejectedAsBefore() throws {
        var options = ParseOptions()
        options.maxStringBytes = 100
        for length in [99, 100, 101, 400] {
            let bytes = Array(
                ("[" + Array(repeating: "\"" + String(repeating: "y", count: length) + "\"", count: 60).joined(separator: ",") + "]").utf8)
            let outcome = expectSameOutcome(bytes, "length \(length)", options: options)
            if length > 100 {
                guard case .failure(let error) = outcome else {
                    Issue.record("\(length) bytes should be over the limit")
                    continue
                }
                #expect(error.kind == .stringTooLong)
            }
        }
    }

    @Test func theScanFindsExactlyTheLongStringsYajlWouldAccept() {
        // Random text dense in quotes, backslashes, escapes, control
        // characters and slashes, against a plain reference.
        var generator = SeededGenerator(seed: 0x5712_0004)
        let alphabet: [[UInt8]] = [
            "\"", "\\", "a", "b", " ", ",", "/", "\n", "\u{01}", "é", #"\n"#, #"\u0041"#, #"\uD83D\uDE00"#, #"\uDE00"#,
            #"\uD83D"#, #"\u00G0"#, String(repeating: "long ", count: 8)
        ].map { Array($0.utf8) }
        for round in 0..<3_000 {
            var bytes: [UInt8] = []
            let pieces = Int.random(in: 0...120, using: &generator)
            for _ in 0..<pieces {
                let piece = alphabet.randomElement(using: &generator)!
                // Mostly text and quotes, the rest now and then.
                if piece.count == 1, ![0x22, 0x61, 0x20].contains(piece[0]), Int.random(in: 0..<6, using: &generator) > 0 { continue }
                bytes += piece
            }
            let minimum = [1, 8, 24].randomElement(using: &generator)!
            let maxString = round % 4 == 0 ? 30 : 1 << 20
            let expected = Self.referenceStrings(bytes, minimum: minimum, maxString: maxString)
            let found = Self.scan(bytes, chunks: [bytes.count], minimum: minimum, maxString: maxString)
            #expect(
                found.map { [$0.start, $0.end, $0.escaped] } == expected.map { [$0.start, $0.end, $0.escaped] },
                "round \(round): \(String(decoding: bytes, as: UTF8.self).debugDescription)")
        }
    }

    @Test func theScanGoesOnAcrossChunks() throws {
        // Valid text cut anywhere (inside strings and escapes too): the scan
        // finds the strings each chunk holds whole, 96 bytes before its end.
        var generator = SeededGenerator(seed: 0x5712_0005)
        for round in 0..<200 {
            let bytes = Array(Self.document(records: 12, using: &generator).utf8)
            var cuts: [Int] = []
            var at = 0
            while at < bytes.count {
                let size = Int.random(in: 1...600, using: &generator)
                cuts.append(min(size, bytes.count - at))
                at += size
            }
            var ends: [Int] = []
            for size in cuts { ends.append((ends.last ?? 0) + size) }
            let whole = Self.referenceStrings(bytes, minimum: 24, maxString: 1 << 20)
            let expected = whole.filter { string in
                let chunkEnd = ends.first { $0 > string.start - 1 }!
                return string.end + 96 <= chunkEnd && ends.allSatisfy { $0 <= string.start - 1 || $0 > string.end }
            }
            let found = Self.scan(bytes, chunks: cuts, minimum: 24, maxString: 1 << 20)
            #expect(found.map { [$0.start, $0.end, $0.escaped] } == expected.map { [$0.start, $0.end, $0.escaped] }, "round \(round)")
        }
    }

    @Test func theCopyNeverCutsALeftOutStringInTwo() {
        // Text dense in line feeds and blanks with strings left out of it,
        // few records a block: what the copy writes is the text read so far
        // without indentation and without the strings' bodies, every byte
        // written maps back to its own offset, no block ends inside a
        // left-out string, and nothing is written past the copy's room.
        var generator = SeededGenerator(seed: 0x5712_0006)
        let alphabet: [UInt8] = Array("\n\n   \t\"a:,{}[]1\r".utf8)
        for round in 0..<3_000 {
            let count = Int.random(in: 0...900, using: &generator)
            var bytes = (0..<count).map { _ in alphabet.randomElement(using: &generator)! }
            // Strings: a quote, a body without line feeds, a quote; each
            // ends 96 bytes before the text does.
            var strings: [cartograph_elided_string] = []
            var at = Int.random(in: 0...40, using: &generator)
            while at + 2 + 24 + 96 <= count {
                let length = Int.random(in: 1...120, using: &generator)
                guard at + 1 + length + 96 <= count else { break }
                bytes[at] = 0x22
                for index in (at + 1)..<(at + 1 + length) where bytes[index] == 0x0A { bytes[index] = 0x78 }
                bytes[at + 1 + length] = 0x22
                strings.append(cartograph_elided_string(start: at + 1, end: at + 1 + length, escaped: 0))
                at += 2 + length + Int.random(in: 0...60, using: &generator)
            }
            let limit = round % 3 == 0 ? Int.random(in: 0...count, using: &generator) : count
            let capacity = round % 4 == 0 ? Int.random(in: 1...40, using: &generator) : 1_000
            let origin = Int.random(in: 0...1_000_000, using: &generator)
            let absolute = strings.map { cartograph_elided_string(start: $0.start + origin, end: $0.end + origin, escaped: 0) }
            var target = [UInt8](repeating: 0, count: limit + 128) + [UInt8](repeating: 0xA5, count: 64)
            var shifts = [cartograph_lexed_shift](repeating: cartograph_lexed_shift(), count: capacity)
            var recorded = 0, read = 0
            let written = bytes.withUnsafeBufferPointer { input in
                absolute.withUnsafeBufferPointer { list in
                    cartograph_copy_lexable(
                        &target, input.baseAddress, count, limit, origin, &shifts, capacity, &recorded, &read,
                        list.baseAddress, list.count)
                }
            }
            let label = "round \(round) (\(count) bytes, limit \(limit), capacity \(capacity), \(strings.count) strings)"
            #expect(read <= count && recorded <= capacity, "\(label)")
            #expect(!strings.contains { $0.start <= read && read <= $0.end }, "\(label): stopped at \(read), inside a string")
            // A block ends at its limit, or where its records are nearly
            // full, or right before a string it would otherwise cut.
            #expect(
                read >= limit || recorded > capacity - 32 || strings.contains { $0.start > read && $0.start <= read + 32 },
                "\(label): stopped at \(read)")
            if capacity >= 40 { #expect(read > 0 || limit == 0, "\(label): nothing read") }
            #expect(target[(limit + 128)...].allSatisfy { $0 == 0xA5 }, "\(label): wrote past its room")
            let (expected, places) = Self.lexable(Array(bytes[..<min(read, count)]), leaving: strings)
            expectCopy(target, written: written, shifts: shifts, recorded: recorded, origin: origin, expected: expected, places: places, label)
        }
    }

    // MARK: References

    /// The reference copy: `bytes` without the spaces and tabs after each
    /// line feed and without the strings' bodies, and the offset of each
    /// byte kept.
    static func lexable(_ bytes: [UInt8], leaving strings: [cartograph_elided_string]) -> ([UInt8], [Int]) {
        var left = [Bool](repeating: false, count: bytes.count)
        for string in strings {
            for index in string.start..<max(string.start, min(string.end, bytes.count)) { left[index] = true }
        }
        var kept: [UInt8] = [], places: [Int] = []
        var leaving = false
        for (offset, byte) in bytes.enumerated() {
            if left[offset] { continue }
            if leaving, byte == 0x20 || byte == 0x09 { continue }
            leaving = byte == 0x0A
            kept.append(byte)
            places.append(offset)
        }
        return (kept, places)
    }

    struct Found: Equatable {
        var start: Int
        var end: Int
        var escaped: Int
    }

    /// The reference scan: between tokens a quote opens a string and a `/`
    /// ends the scan; a string is kept when it is closed, valid (no byte
    /// below 0x20, known escapes, surrogates in pairs), of `minimum` to
    /// `maxString` bytes, and ends 96 bytes before the text; an invalid
    /// or unclosed string ends the scan.
    static func referenceStrings(_ bytes: [UInt8], minimum: Int, maxString: Int) -> [Found] {
        func unit(_ at: Int) -> Int? {
            guard at + 6 <= bytes.count, bytes[at] == 0x5C, bytes[at + 1] == 0x75 else { return nil }
            return Int(String(decoding: bytes[(at + 2)..<(at + 6)], as: UTF8.self), radix: 16)
                .flatMap { bytes[(at + 2)..<(at + 6)].allSatisfy { $0 != 0x2B && $0 != 0x2D } ? $0 : nil }
        }
        var found: [Found] = []
        var index = 0
        while index < bytes.count {
            if bytes[index] == 0x2F { break }
            guard bytes[index] == 0x22 else {
                index += 1
                continue
            }
            let body = index + 1
            var at = body
            var escaped = 0
            var closed = false
            scanning: while at < bytes.count {
                switch bytes[at] {
                case 0x22:
                    closed = true
                    break scanning
                case 0x5C:
                    guard at + 1 < bytes.count else { break scanning }
                    if Array("\"\\/bfnrt".utf8).contains(bytes[at + 1]) {
                        at += 2
                    } else if bytes[at + 1] == 0x75, let code = unit(at) {
                        if (0xDC00...0xDFFF).contains(code) { return found }
                        if (0xD800...0xDBFF).contains(code) {
                            guard let low = unit(at + 6), (0xDC00...0xDFFF).contains(low) else { return found }
                            at += 12
                        } else {
                            at += 6
                        }
                    } else {
                        return found
                    }
                    escaped = 1
                case 0x00..<0x20:
                    return found
                default:
                    at += 1
                }
            }
            guard closed else { return found }
            if at - body >= minimum && at - body <= maxString && at + 96 <= bytes.count {
                found.append(Found(start: body, end: at, escaped: escaped))
            }
            index = at + 1
        }
        return found
    }

    /// What `cartograph_scan_strings` finds in `bytes` given in chunks of
    /// the sizes in `chunks`.
    static func scan(_ bytes: [UInt8], chunks: [Int], minimum: Int, maxString: Int) -> [Found] {
        var tape = cartograph_yajl_tape()
        let capacity = bytes.count + 1
        let list = UnsafeMutablePointer<cartograph_elided_string>.allocate(capacity: capacity)
        defer { list.deallocate() }
        tape.elided = list
        tape.elided_capacity = capacity
        tape.max_string = maxString
        var base = 0
        bytes.withUnsafeBufferPointer { input in
            for size in chunks {
                cartograph_scan_strings(&tape, input.baseAddress.map { $0 + base }, size, base, size, minimum)
                base += size
            }
        }
        return (0..<tape.elided_count).map { Found(start: list[$0].start, end: list[$0].end, escaped: list[$0].escaped) }
    }
}
