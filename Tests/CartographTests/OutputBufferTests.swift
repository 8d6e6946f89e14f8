import Testing

@testable import Cartograph

/// The writer's byte buffer keeps every byte, in order, across growth,
/// whichever way the bytes arrive.
@Suite struct OutputBufferTests {
    @Test func keepsEveryByteAcrossGrowth() {
        var generator = SeededGenerator(seed: 0x0B_0F_FE_12)
        let buffer = OutputBuffer(capacity: 1)
        var expected: [UInt8] = []
        for round in 0..<5_000 {
            let length = Int.random(in: 0...40, using: &generator)
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            switch round % 5 {
            case 0: for byte in bytes { buffer.append(byte) }
            case 1: bytes.withUnsafeBytes { buffer.append($0) }
            case 2: bytes.withUnsafeBufferPointer { buffer.append($0) }
            case 3: buffer.append(contentsOf: bytes.lazy.map { $0 }) // no contiguous storage: byte by byte
            default: buffer.append(contentsOf: bytes)
            }
            expected += bytes
        }
        #expect(buffer.count == expected.count)
        #expect(buffer.bytes == expected)
    }

    /// Short runs are copied in overlapping words: every length to 40, from
    /// every offset of a word, onto every offset of the buffer's words.
    @Test func shortCopiesKeepEveryByteAtEveryOffset() {
        let source = (0..<64).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
        for lead in 0..<8 {
            for length in 0...40 {
                for offset in 0..<8 {
                    let buffer = OutputBuffer(capacity: 1)
                    for byte in 0..<lead { buffer.append(UInt8(200 + byte)) }
                    source.withUnsafeBytes { buffer.append(UnsafeRawBufferPointer(rebasing: $0[offset..<(offset + length)])) }
                    buffer.append(0xEE)
                    let expected = (0..<lead).map { UInt8(200 + $0) } + source[offset..<(offset + length)] + [0xEE]
                    #expect(buffer.bytes == expected, "lead \(lead), length \(length), offset \(offset)")
                }
            }
        }
    }

    /// A compact member's start (comma, quoted key, colon) is written in
    /// one step: every key length to 40, first in its object or not, after
    /// every number of bytes already written.
    @Test func memberStartsWriteCommaKeyAndColon() {
        for lead in 0..<9 {
            for length in 0...40 {
                for first in [true, false] {
                    let key = [UInt8(ascii: "\"")] + (0..<length).map { UInt8(ascii: "a") + UInt8($0 % 26) } + [UInt8(ascii: "\"")]
                    let buffer = OutputBuffer(capacity: 1)
                    for byte in 0..<lead { buffer.append(UInt8(ascii: "0") + UInt8(byte)) }
                    key.withUnsafeBufferPointer { buffer.appendMemberStart(quoted: $0.span, first: first) }
                    buffer.append(UInt8(ascii: "1"))
                    let expected = (0..<lead).map { UInt8(ascii: "0") + UInt8($0) } + (first ? [] : [UInt8(ascii: ",")]) + key + Array(":1".utf8)
                    #expect(buffer.bytes == expected, "lead \(lead), length \(length), first \(first)")
                }
            }
        }
    }

    /// A member's start copied from framed key bytes (`,"key":`, padded):
    /// every key length to 40 (past the two words' 32 bytes too), each key
    /// of a frame of several, first in its object or not, after any number
    /// of bytes already written; the bytes the word stores write past the
    /// colon are overwritten by what follows.
    @Test func framedMemberStartsWriteCommaKeyAndColon() {
        for length in 0...40 {
            let keys = [String(repeating: "x", count: length), "id", String(repeating: "y", count: max(0, 38 - length))]
            let (framed, ranges) = CompiledMapping<Int>.quotedKeys(keys)
            for (index, key) in keys.enumerated() {
                for lead in 0..<3 {
                    for first in [true, false] {
                        let buffer = OutputBuffer(capacity: 1)
                        for byte in 0..<lead { buffer.append(UInt8(ascii: "0") + UInt8(byte)) }
                        buffer.appendMemberStart(framed: framed.span, key: ranges[index], first: first)
                        buffer.append(UInt8(ascii: "1"))
                        let expected =
                            (0..<lead).map { UInt8(ascii: "0") + UInt8($0) } + (first ? [] : [UInt8(ascii: ",")]) + Array("\"\(key)\":1".utf8)
                        #expect(buffer.bytes == expected, "length \(length), key \(index), lead \(lead), first \(first)")
                    }
                }
            }
        }
    }

    @Test func literalsHoldTheirBytes() {
        let buffer = OutputBuffer(capacity: 4)
        buffer.append(contentsOf: [0x6E, 0x75, 0x6C, 0x6C] as StaticBytes)
        buffer.append(contentsOf: [] as StaticBytes)
        buffer.append(contentsOf: [0x5C, 0x75] as StaticBytes)
        buffer.append(contentsOf: [1, 2, 3, 4, 5, 6, 7, 8] as StaticBytes)
        #expect(buffer.bytes == [0x6E, 0x75, 0x6C, 0x6C, 0x5C, 0x75, 1, 2, 3, 4, 5, 6, 7, 8])
        // Each literal written over the word store's spare bytes of the one before.
        let words = OutputBuffer(capacity: 1)
        for _ in 0..<100 {
            words.append(contentsOf: .null)
            words.escape(UInt8(ascii: "n"))
            words.append(contentsOf: .true)
            words.append(contentsOf: .false)
        }
        #expect(words.bytes == Array(String(repeating: #"null\ntruefalse"#, count: 100).utf8))
    }
}
