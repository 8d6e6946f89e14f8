import Foundation
import Testing
@testable import Cartograph

/// The fast paths of the parser's text checks against plain references, on
/// seeded random text built from the pieces that matter (escapes,
/// surrogate halves, multi-byte characters, ASCII runs, invalid bytes).
@Suite struct TextScanningTests {
    static let surrogatePieces = [#"\uD83D"#, #"\uDE00"#, #"\udbff"#, #"\uDC00"#, #"\u0041"#, #"\u00e9"#, #"\n"#, #"\\"#, #"\""#, #"\u12"#,
        "a", "plain text ", "é", "😀", "?", "\\"]

    @Test func surrogateCheckJumpsBetweenEscapesAsTheByteLoopReads() {
        var generator = SeededGenerator(seed: 0x5044_0001)
        for _ in 0..<20_000 {
            let text = (0..<Int.random(in: 0...12, using: &generator)).map { _ in Self.surrogatePieces.randomElement(using: &generator)! }.joined()
            let raw = Array(text.utf8)
            let fast = raw.withUnsafeBufferPointer { SurrogateCheck.firstUnpaired(in: $0) }
            let reference = SurrogateCheck.firstUnpairedByteByByte(in: raw)
            #expect(fast == reference, "\(text.debugDescription)")
            if fast != reference { return }
        }
        #expect(Array(#"\uD83D\uDE00 \uD83D"#.utf8).withUnsafeBufferPointer { SurrogateCheck.firstUnpaired(in: $0) } == 13)
        #expect(Array(#"\uD83Dx\uDE00"#.utf8).withUnsafeBufferPointer { SurrogateCheck.firstUnpaired(in: $0) } == 0)
    }

    @Test func utf8ValidationAgreesWithTheStandardLibrary() {
        var generator = SeededGenerator(seed: 0x5544_0002)
        let pieces: [[UInt8]] = [Array("ascii run of text ".utf8), Array("é".utf8), Array("日本".utf8), Array("😀".utf8), [0xC0, 0x80], [0xED, 0xA0, 0x80],
            [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x82], [0x80], [0xFF], Array("x".utf8)]
        for _ in 0..<20_000 {
            let bytes = (0..<Int.random(in: 0...10, using: &generator)).flatMap { _ in pieces.randomElement(using: &generator)! }
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
