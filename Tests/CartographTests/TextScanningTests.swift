import Foundation
import Testing

@testable import Cartograph

/// The fast paths of the parser's text checks against plain references, on
/// seeded random text built from the pieces that matter (escapes,
/// surrogate halves, multi-byte characters, ASCII runs, invalid bytes).
@Suite struct TextScanningTests {
    static let surrogatePieces = [
        #"\uD83D"#, #"\uDE00"#, #"\udbff"#, #"\uDC00"#, #"\u0041"#, #"\u00e9"#, #"\uD7FF"#, #"\ud00"#, #"\n"#, #"\\"#, #"\""#, #"\u12"#,
        "a", "plain text ", "é", "😀", "?", "\\"
    ]

    @Test func surrogateCheckJumpsBetweenEscapesAsTheByteLoopReads() {
        var generator = SeededGenerator(seed: 0x5044_0001)
        for _ in 0..<20_000 {
            let text = (0..<Int.random(in: 0...12, using: &generator)).map { _ in Self.surrogatePieces.randomElement(using: &generator)! }.joined()
            let raw = Array(text.utf8)
            let fast = SurrogateCheck.firstUnpaired(in: raw.span)
            let reference = Self.firstUnpairedReference(raw)
            #expect(fast == reference, "\(text.debugDescription)")
            if fast != reference { return }
        }
        #expect(SurrogateCheck.firstUnpaired(in: Array(#"\uD83D\uDE00 \uD83D"#.utf8).span) == 13)
        #expect(SurrogateCheck.firstUnpaired(in: Array(#"\uD83Dx\uDE00"#.utf8).span) == 0)
    }

    /// Long text, where the search for `\u` runs 32 byte pairs at a step:
    /// the pieces after every length of filler, so each falls at every
    /// place of a block and across block ends, runs of backslashes included.
    @Test func surrogateCheckFindsEscapesAtEveryOffsetOfLongText() {
        var generator = SeededGenerator(seed: 0x5044_0002)
        let runs = [#"\\uD83D"#, #"\\\uD83D"#, #"\\\\uDE00"#, #"\\\\\uDE00"#, #"\\u"#]
        for filler in 0..<100 {
            for _ in 0..<40 {
                let pieces = (0..<Int.random(in: 1...6, using: &generator)).map { _ in
                    (Self.surrogatePieces + runs).randomElement(using: &generator)!
                }
                let text =
                    String(repeating: "x", count: filler) + pieces.joined() + String(repeating: "y", count: Int.random(in: 0...40, using: &generator))
                let raw = Array(text.utf8)
                let fast = SurrogateCheck.firstUnpaired(in: raw.span)
                #expect(fast == Self.firstUnpairedReference(raw), "\(text.debugDescription)")
                if fast != Self.firstUnpairedReference(raw) { return }
            }
        }
        // An escaped backslash before `u` is no escape; an odd run is.
        let long = String(repeating: "z", count: 50)
        #expect(SurrogateCheck.firstUnpaired(in: Array((long + #"\\uD83D"#).utf8).span) == nil)
        #expect(SurrogateCheck.firstUnpaired(in: Array((long + #"\\\uD83D"#).utf8).span) == 52)
    }

    /// A plain reference of another shape: the raw text read into a list of
    /// `\u` code units and other pieces, then each high surrogate must have
    /// a low one right after it and each low one a high one right before.
    static func firstUnpairedReference(_ raw: [UInt8]) -> Int? {
        var pieces: [(offset: Int, unit: UInt32?)] = []
        var index = 0
        while index < raw.count {
            let text = String(decoding: raw[index..<min(index + 6, raw.count)], as: UTF8.self)
            if text.count == 6, text.hasPrefix("\\u"), text.dropFirst(2).allSatisfy(\.isHexDigit), let unit = UInt32(text.dropFirst(2), radix: 16) {
                pieces.append((index, unit))
                index += 6
            } else {
                pieces.append((index, nil))
                index += raw[index] == UInt8(ascii: "\\") ? 2 : 1
            }
        }
        let isHigh = { (unit: UInt32?) in unit.map { (0xD800...0xDBFF).contains($0) } ?? false }
        let isLow = { (unit: UInt32?) in unit.map { (0xDC00...0xDFFF).contains($0) } ?? false }
        for (position, piece) in pieces.enumerated() {
            if isHigh(piece.unit), position + 1 == pieces.count || !isLow(pieces[position + 1].unit) { return piece.offset }
            if isLow(piece.unit), position == 0 || !isHigh(pieces[position - 1].unit) { return piece.offset }
        }
        return nil
    }

    @Test func rawCheckFilterFlagsWhatAByteLoopFlags() {
        var generator = SeededGenerator(seed: 0x5044_0003)
        let pieces: [[UInt8]] = [
            Array("plain ascii ".utf8), Array("?".utf8), Array("é".utf8), Array("日本".utf8), Array("한국".utf8),
            Array("😀".utf8), [0xEC, 0xBF], [0xED, 0x9F, 0xBF], [0xEE], [0xFF], Array("x".utf8)
        ]
        for _ in 0..<20_000 {
            let bytes = (0..<Int.random(in: 0...12, using: &generator)).flatMap { _ in pieces.randomElement(using: &generator)! }
            let fast = SurrogateCheck.needsRawCheck(bytes.span)
            let reference = bytes.contains { $0 == UInt8(ascii: "?") || $0 >= 0xED }
            #expect(fast == reference, "\(bytes)")
            if fast != reference { return }
        }
    }

    @Test func utf8ValidationFindsAFaultAtEveryPlaceOfLongText() {
        // Long text goes through the 32-byte vector path (where the machine
        // has one): a fault at every offset, across block boundaries, and
        // sequences cut off at the end, each located exactly.
        let text = Array(String(repeating: "aé日😀", count: 12).utf8)
        expectFaultsLocated(in: text, at: 0...text.count)
    }

    @Test func utf8ValidationFindsFaultsInTheOverlappingLastBlockAtEveryLength() {
        // The vector path reads the text's last 32 bytes as its last block,
        // overlapping the block before by anything from 1 to 31 bytes (or
        // the first block, from 35 bytes): every length from 30 to 100, a
        // fault at each of the last 40 places, and each kind of cut-off end.
        let text = Array(String(repeating: "aé日😀xy", count: 12).utf8)
        for length in 30...100 {
            var prefix = Array(text[..<length])
            while let last = prefix.last, String(validating: prefix, as: UTF8.self) == nil || last & 0xC0 == 0x80 { prefix.removeLast() }
            expectFaultsLocated(in: prefix, at: max(0, prefix.count - 40)...prefix.count)
        }
    }

    /// Valid `text` is valid; each kind of fault inserted at each character
    /// boundary among `places`, and each kind of cut-off end, is located at
    /// its first byte.
    private func expectFaultsLocated(in text: [UInt8], at places: ClosedRange<Int>) {
        func firstInvalid(_ bytes: [UInt8]) -> Int? {
            bytes.withUnsafeBytes { UTF8Validation.firstInvalid($0.baseAddress!, count: $0.count) }
        }
        #expect(firstInvalid(text) == nil, "\(text.count) bytes")
        let faults: [[UInt8]] = [[0x80], [0xC0, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xE0, 0x9F, 0xBF], [0xFF]]
        for fault in faults {
            // Keep the fault at a character boundary of the text before it.
            for place in places where place == text.count || text[place] & 0xC0 != 0x80 {
                let found = firstInvalid(Array(text[..<place]) + fault + Array(text[place...]))
                #expect(found == place, "\(fault) at \(place) of \(text.count + fault.count): \(String(describing: found))")
            }
        }
        for cut in [[0xC3], [0xE6, 0x97], [0xF0, 0x9F, 0x98]] as [[UInt8]] {
            #expect(firstInvalid(text + cut) == text.count, "\(cut) after \(text.count)")
        }
    }

    @Test func asciiCheckSeesAHighByteAtEveryPlaceOfEveryLength() {
        // Words, half-words, bytes and (over 32 bytes) 32-byte steps with an
        // overlapping last step: one byte at 0x80 or above anywhere is seen.
        for length in 0...130 {
            let ascii = (0..<length).map { UInt8(0x20 + $0 % 90) }
            #expect(ascii.withUnsafeBytes { UTF8Validation.isASCII($0.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!, count: length) }, "\(length)")
            for place in 0..<length {
                for high: UInt8 in [0x80, 0xC3, 0xFF] {
                    var bytes = ascii
                    bytes[place] = high
                    #expect(!bytes.withUnsafeBytes { UTF8Validation.isASCII($0.baseAddress!, count: length) }, "\(high) at \(place) of \(length)")
                }
            }
        }
    }

    @Test func utf8ValidationAgreesWithTheStandardLibrary() {
        var generator = SeededGenerator(seed: 0x5544_0002)
        let pieces: [[UInt8]] = [
            Array("ascii run of text ".utf8), Array("é".utf8), Array("日本".utf8), Array("😀".utf8), [0xC0, 0x80], [0xED, 0xA0, 0x80],
            [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x82], [0x80], [0xFF], Array("x".utf8)
        ]
        for _ in 0..<20_000 {
            let bytes = (0..<Int.random(in: 0...24, using: &generator)).flatMap { _ in pieces.randomElement(using: &generator)! }
            let found = bytes.withUnsafeBytes { UTF8Validation.firstInvalid($0.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!, count: $0.count) }
            let valid = String(validating: bytes, as: UTF8.self) != nil
            #expect((found == nil) == valid, "\(bytes)")
            if let found {
                // Everything before the reported byte is valid, and it starts an invalid sequence.
                #expect(String(validating: bytes[..<found], as: UTF8.self) != nil, "\(bytes) at \(found)")
            }
        }
    }
}
