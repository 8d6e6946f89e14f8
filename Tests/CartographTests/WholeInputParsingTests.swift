import CCartographTape
import Foundation
import Testing

@testable import Cartograph

/// `Document(parsing:)`'s one call into C for a whole input, with no
/// parser object (``WholeInputParse``, `cartograph_yajl_tape_parse_whole`),
/// against the path chunks take (``YajlParser/feedWhole(_:)`` and
/// ``YajlParser/finish()``, the same C tape builder): a valid input gives
/// the same tape; anything else is answered by the general path. And the
/// parser struct each thread keeps between parses.
@Suite struct WholeInputParsingTests {
    /// The general path's Document, or its error.
    private func generalParse(_ bytes: [UInt8], options: ParseOptions = ParseOptions()) -> Result<Document, CartographError> {
        let engine = YajlParser(options: options, expectedInputBytes: bytes.count)
        if let error = engine.feedWhole(bytes.span) ?? engine.finish() {
            return .failure(error.locating(in: bytes.span))
        }
        return .success(engine.builder.makeDocument())
    }

    /// The one call's Document, or nil where it leaves the input to the general path.
    private func oneCall(_ bytes: [UInt8], options: ParseOptions = ParseOptions()) -> Document? {
        WholeInputParse.parts(of: bytes.span, options: options).map { Document(tape: $0.tape, roots: $0.roots) }
    }

    private static let validInputs: [String] = [
        "0",
        "  -12.5e3  ",
        "{\"a\": 1, \"b\": [1, 2, 3], \"c\": \"hello\", \"d\": {\"e\": true, \"f\": null}}",
        "[\"\\u00e9\\n\", \"\\uD83D\\uDE00\", \"caf\u{E9}\", \"\(String(repeating: "long text ", count: 20))\"]",
        "{\"id\": 1, \"x\": 2, \"yz\": 3, \"\u{E9}\": 4, \"a\": 5, \"a\": 6}",
        "[" + (0..<300).map { "{\n    \"key\(String($0))\": [\n        \($0).5,\n        \"v\(String($0))\"\n    ]\n}" }.joined(separator: ",\n")
            + "]",
        String(repeating: "[", count: 100) + "7" + String(repeating: "]", count: 100),
        // More entries than the tape is first sized for (one per four
        // bytes); text filling its room to the last byte (the input and a
        // byte: a top-level number and its NUL), and nearly so (a string
        // loses its quotes and gains a NUL).
        "[" + String(repeating: "0,", count: 3000) + "0]",
        String(repeating: "7", count: 500),
        "\"" + String(repeating: "text", count: 40) + "\"",
        "{\"k\": \"" + String(repeating: "\\n", count: 100) + "\"}",
        // A repeated key and non-ASCII keys in an object past the pairwise comparison.
        "{" + (0..<40).map { "\"k\($0)\u{E9}\": \($0)" }.joined(separator: ", ") + ", \"k3\u{E9}\": 0}",
        // Canonically equal keys (precomposed and decomposed é): the last wins.
        "{\"caf\u{E9}\": 1, \"cafe\u{301}\": 2, \"x\": [\"\\u00e9\"]}"
    ]

    @Test(arguments: validInputs)
    func aValidInputIsParsedInOneCallToTheGeneralPathsTape(_ text: String) throws {
        let bytes = Array(text.utf8)
        let general = try generalParse(bytes).get()
        let parsed = try #require(oneCall(bytes))
        #expect(sameTape(parsed, general), "\(tapeDifference(parsed, general) ?? "")")
        // And the Swift callbacks' builder, made with its parser (the C
        // builder's parse makes one late, for repeated keys, or none).
        let swift = try swiftTape(bytes)
        #expect(sameTape(parsed, swift), "\(tapeDifference(parsed, swift) ?? "")")
    }

    @Test func theCorporaAreParsedInOneCallToTheGeneralPathsTape() throws {
        for name in ["twitter.json", "canada.json"] {
            let bytes = try Fixtures.bytes(name)
            let general = try generalParse(bytes).get()
            let parsed = try #require(oneCall(bytes), "\(name)")
            #expect(sameTape(parsed, general), "\(name): \(tapeDifference(parsed, general) ?? "")")
        }
    }

    @Test func severalValuesAreParsedInOneCallWhenAllowed() throws {
        let options = ParseOptions { $0.allowMultipleValues = true }
        // The second: a builder made at the first value's repeated key
        // takes the roots found so far, and those after it.
        for text in ["1 2", "{\"a\": 1, \"a\": 2} {\"b\": [3]} 4", "{\"a\": [1]}\n{\"b\": 2}\n", "[1] 23"] {
            let bytes = Array(text.utf8)
            let general = try generalParse(bytes, options: options).get()
            let parsed = try #require(oneCall(bytes, options: options), "\(text)")
            #expect(parsed.roots.count >= 2 && sameTape(parsed, general), "\(text): \(tapeDifference(parsed, general) ?? "")")
            let swift = try swiftTape(bytes, options: options)
            #expect(sameTape(parsed, swift), "\(text): \(tapeDifference(parsed, swift) ?? "")")
        }
    }

    /// With comments allowed, a comment may hold a quote: the opening quote
    /// of a string yajl decoded is found from its closing one, backwards.
    @Test func aDecodedStringAfterACommentHoldingAQuoteStartsAtItsOwnQuote() throws {
        let options = ParseOptions { $0.allowComments = true }
        for text in ["[/* \" */ \"a\\nb\"]", "{\"k\": // \"\n \"\\\"x\\\\\"}", "[1, /* \\\" */ \"\\u00e9\"]"] {
            let bytes = Array(text.utf8)
            let general = try generalParse(bytes, options: options).get()
            let parsed = try #require(oneCall(bytes, options: options), "\(text)")
            #expect(sameTape(parsed, general), "\(text): \(tapeDifference(parsed, general) ?? "")")
            let swift = try swiftTape(bytes, options: options)
            #expect(sameTape(parsed, swift), "\(text): \(tapeDifference(parsed, swift) ?? "")")
        }
    }

    @Test func aByteOrderMarkIsLeftToTheGeneralPath() throws {
        let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("[1, 2]".utf8)
        #expect(oneCall(bytes) == nil)
        #expect(try Document(parsing: bytes).root.array()[1]?.int() == 2)
        let rejecting = ParseOptions { $0.byteOrderMark = .reject }
        #expect(throws: CartographError.self) { try Document(parsing: bytes, options: rejecting) }
    }

    private static let refusedInputs: [(String, ParseOptions)] = [
        ("[1, 2", ParseOptions()),
        ("{\"a\" 1}", ParseOptions()),
        ("[1]\u{0B}", ParseOptions()),
        ("\u{0C}[1]", ParseOptions()),
        ("   ", ParseOptions()),
        ("[1] [2]", ParseOptions()),
        ("[1] x", ParseOptions { $0.allowMultipleValues = true }),
        ("   ", ParseOptions { $0.allowMultipleValues = true }),
        ("{\"a\": 1, \"a\": 2}", ParseOptions { $0.duplicateKeys = .reject }),
        ("[\"\\uD800\"]", ParseOptions()),
        ("[1234567]", ParseOptions { $0.maxNumberDigits = 5 }),
        ("123456", ParseOptions { $0.maxNumberDigits = 5 }),
        ("[\"abcdef\"]", ParseOptions { $0.maxStringBytes = 5 }),
        ("[[[[1]]]]", ParseOptions { $0.maxDepth = 3 }),
        ("[1, 2, 3]", ParseOptions { $0.maxInputBytes = 4 }),
        ("{\"caf\u{E9}\": 1, \"cafe\u{301}\": 2}", ParseOptions { $0.duplicateKeys = .reject }),
        ("{" + (0..<40).map { "\"k\($0)\": \($0)" }.joined(separator: ", ") + ", \"k7\": 0}", ParseOptions { $0.duplicateKeys = .reject }),
        ("[\"a\", \"\\uDC00 low\"]", ParseOptions()),
        ("[\"\\n\", \"\\uD83D\\u0041\"]", ParseOptions()),
        ("{\"a\": 1, \"b\": 2, \"c\": {\"d\": [1, 2]}, \"e\": 3", ParseOptions()),
        ("[1] /* open", ParseOptions { $0.allowComments = true }),
        ("{\"a\": [1, 2]}]", ParseOptions())
    ]

    /// `["\xC0"]`: a byte that never appears in UTF-8.
    private static let invalidUTF8: [UInt8] = [0x5B, 0x22, 0xC0, 0x22, 0x5D]

    @Test(arguments: 0...refusedInputs.count)
    func anInputTheOneCallRefusesIsReportedByTheGeneralPath(_ index: Int) throws {
        let (text, options) = index < Self.refusedInputs.count ? Self.refusedInputs[index] : ("[\"\\xC0\"]", ParseOptions())
        let bytes = index == Self.refusedInputs.count ? Self.invalidUTF8 : Array(text.utf8)
        #expect(oneCall(bytes, options: options) == nil, "\(text)")
        let whole = Result { try Document(parsing: bytes, options: options) }
        switch (whole, generalParse(bytes, options: options)) {
        case (.failure(let a as CartographError), .failure(let b)):
            #expect(a.kind == b.kind && a.message == b.message && a.offset == b.offset, "\(text): \(a) / \(b)")
        case (.success(let a), .success(let b)):
            #expect(sameTape(a, b), "\(text)")
        case (let a, let b):
            Issue.record("\(text): \(a) / \(b)")
        }
    }

    @Test func aParseLeavesItsStateToTheThreadsNextParse() throws {
        _ = try Document(parsing: "[1]")
        #expect(cartograph_yajl_tape_has_spare() != 0)
        // Two parses at once on one thread: the parser takes the spare, the
        // one call makes its own struct; as they end, one is kept and one freed.
        let first = YajlParser(options: ParseOptions(), expectedInputBytes: 3)
        #expect(cartograph_yajl_tape_has_spare() == 0)
        #expect(try oneCall(Array("[2]".utf8))?.root.array()[0]?.int() == 2)
        #expect(cartograph_yajl_tape_has_spare() != 0)
        #expect(first.feedWhole(Array("[1]".utf8).span) == nil && first.finish() == nil)
        #expect(try first.builder.makeDocument().root.array()[0]?.int() == 1)
        withExtendedLifetime(first) {}
        #expect(try Document(parsing: "{\"a\": [true]}").root.object()["a"]?.array()[0]?.bool() == true)
    }

    /// A parser made on one thread and ended on another (an incremental
    /// parse handed between threads) is kept or freed there, once; each
    /// thread's parses go on using its own spare. A struct owned twice
    /// would be freed twice (glibc aborts) or shared by two parses.
    @Test func aParserEndedOnAnotherThreadIsOwnedOnce() throws {
        let twitter = try Fixtures.bytes("twitter.json")
        var expected: [Int] = []
        for round in 0..<20 {
            // Only the box holds the parser, so it ends on the other thread.
            let handed = LockedBox<JSONParser?>(JSONParser())
            try handed.value?.feed(Array("[\(round), ".utf8))
            let done = DispatchSemaphore(value: 0)
            let outcome = LockedBox<[Int]>([])
            let thread = Thread {
                var counts: [Int] = []
                if let parser = handed.value, (try? parser.feed(Array("\"x\"]".utf8))) != nil, let document = try? parser.finish() {
                    counts.append((try? document.root.array().count) ?? -1)
                }
                handed.value = nil
                counts.append((try? Document(parsing: twitter).tokenCount) ?? -1)
                outcome.value = counts
                done.signal()
            }
            thread.start()
            done.wait()
            expected.append(outcome.value.first ?? -1)
            #expect(outcome.value.count == 2 && outcome.value[1] > 0)
            #expect(try Document(parsing: "[\(round)]").root.array()[0]?.int() == round)
        }
        #expect(expected == Array(repeating: 2, count: 20))
    }
}

extension WholeInputParsingTests {
    /// A thread's spare is freed when the thread ends (threads of a batch
    /// job come and go; each would otherwise leave its 6 KB behind).
    @Test func aThreadsSpareIsFreedWhenTheThreadEnds() {
        let before = cartograph_yajl_tape_spares_freed_at_exit()
        var threads: [pthread_t] = []
        for _ in 0..<3 {
            var thread = pthread_t()
            let made = pthread_create(
                &thread, nil,
                { _ in
                    _ = try? Document(parsing: Array("{\"a\": [1, 2, 3]}".utf8))
                    return nil
                }, nil)
            #expect(made == 0)
            if made == 0 { threads.append(thread) }
        }
        for thread in threads { pthread_join(thread, nil) }
        // Other tests' threads may end meanwhile too: at least these three.
        #expect(cartograph_yajl_tape_spares_freed_at_exit() - before >= 3)
    }
}
