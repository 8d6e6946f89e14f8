import CCartographTape
import Foundation
import Testing

@testable import Cartograph

/// The native writer's string escaping (`json_escape.c`) against a plain
/// reference written scalar by scalar, and against Foundation's encoder.
@Suite struct JSONEscapingTests {
    /// What each scalar becomes, written from the JSON grammar and the
    /// options' documentation rather than from the C code.
    static func reference(_ text: String, escapeSlashes: Bool, asciiOnly: Bool) -> [UInt8] {
        func unit(_ value: UInt32) -> String { "\\u" + String(repeating: "0", count: 4 - String(value, radix: 16).count) + String(value, radix: 16) }
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "/" where escapeSlashes: out += "\\/"
            case "\u{8}": out += "\\b"
            case "\u{C}": out += "\\f"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20: out += unit(scalar.value)
            case _ where scalar.value >= 0x80 && asciiOnly:
                if scalar.value >= 0x10000 {
                    let value = scalar.value - 0x10000
                    out += unit(0xD800 + (value >> 10)) + unit(0xDC00 + (value & 0x3FF))
                } else {
                    out += unit(scalar.value)
                }
            default: out.unicodeScalars.append(scalar)
            }
        }
        return Array((out + "\"").utf8)
    }

    /// Pieces of every class the escaper tells apart.
    static let pieces: [String] = [
        "a", "Z", "0", " ", "~", "\u{7F}", "\"", "\\", "/", "\u{0}", "\u{1}", "\u{8}", "\u{9}", "\n", "\u{B}", "\u{C}", "\r", "\u{1F}",
        "é", "\u{80}", "\u{7FF}", "日", "\u{800}", "\u{FFFF}", "\u{E000}", "😀", "\u{10000}", "\u{10FFFF}", "abcdefgh", "http://x.y/z"
    ]

    static func randomText(length: Int, plainBias: Int, using generator: inout SeededGenerator) -> String {
        var text = ""
        while text.utf8.count < length {
            // Mostly plain text with escapes scattered in, as real strings are.
            if Int.random(in: 0..<100, using: &generator) < plainBias {
                text += "plain text "
            } else {
                text += pieces.randomElement(using: &generator)!
            }
        }
        return text
    }

    static func escaped(_ text: String, _ escaping: StringEscaping, capacity: Int = 16) -> [UInt8] {
        let buffer = OutputBuffer(capacity: capacity)
        buffer.append(UInt8(ascii: "["))
        buffer.appendJSONString(text, escaping)
        return Array(buffer.bytes.dropFirst())
    }

    /// Where two outputs first differ, with a little of each from there
    /// (nil when they are equal): a failure names the spot, not two long arrays.
    static func firstDifference(_ written: [UInt8], _ expected: [UInt8]) -> String? {
        guard written != expected else { return nil }
        let offset = zip(written, expected).prefix { $0 == $1 }.count
        func excerpt(_ bytes: [UInt8]) -> String { String(decoding: bytes.dropFirst(offset).prefix(24), as: UTF8.self).debugDescription }
        return "offset \(offset): wrote \(excerpt(written)), expected \(excerpt(expected))"
    }

    static let optionSets: [(slashes: Bool, ascii: Bool)] = [(false, false), (true, false), (false, true), (true, true)]

    @Test func everyPieceAloneAndRepeatedMatchesTheReference() {
        for options in Self.optionSets {
            for vector in [true, false] {
                let escaping = StringEscaping(escapeSlashes: options.slashes, asciiOnly: options.ascii, vectorLoop: vector)
                for piece in Self.pieces {
                    for count in [1, 7, 8, 9, 31, 32, 33, 40, 64, 65, 200] {
                        let text = String(repeating: piece, count: count)
                        let expected = Self.reference(text, escapeSlashes: options.slashes, asciiOnly: options.ascii)
                        #expect(
                            Self.firstDifference(Self.escaped(text, escaping), expected) == nil,
                            "\(piece.debugDescription) x\(count) \(options) vector: \(vector)")
                    }
                }
            }
        }
    }

    @Test func randomTextAtEveryLengthAroundTheStepsMatchesTheReference() {
        var generator = SeededGenerator(seed: 0xE5CA_9E)
        for options in Self.optionSets {
            for vector in [true, false] {
                let escaping = StringEscaping(escapeSlashes: options.slashes, asciiOnly: options.ascii, vectorLoop: vector)
                for length in Array(0...70) + [127, 128, 129, 1000, 5000, 70_000] {
                    for bias in [0, 60, 95] {
                        let text = Self.randomText(length: length, plainBias: bias, using: &generator)
                        let expected = Self.reference(text, escapeSlashes: options.slashes, asciiOnly: options.ascii)
                        #expect(
                            Self.firstDifference(Self.escaped(text, escaping), expected) == nil,
                            "\(text.prefix(80).debugDescription) \(options) vector: \(vector)")
                    }
                }
            }
        }
    }

    /// An escape at every offset of a long plain run: the first byte to
    /// escape is found exactly wherever it falls in a 32- or 8-byte step.
    @Test func anEscapeAtEveryOffsetIsFound() {
        for vector in [true, false] {
            let escaping = StringEscaping(escapeSlashes: true, asciiOnly: true, vectorLoop: vector)
            for special in ["\"", "\u{1}", "/", "é", "😀"] {
                for offset in 0..<80 {
                    let text = String(repeating: "x", count: offset) + special + String(repeating: "y", count: 80 - offset)
                    let expected = Self.reference(text, escapeSlashes: true, asciiOnly: true)
                    #expect(Self.firstDifference(Self.escaped(text, escaping), expected) == nil, "\(special.debugDescription) at \(offset)")
                }
            }
        }
    }

    /// Short strings and the last bytes of long ones take their own paths
    /// (a padded word, two overlapping words, the 16 bytes ending the
    /// text with those already written shifted out): an escape at every
    /// offset of every length up to 49, and of lengths around the 32- and
    /// 16-byte steps, is found there, and nothing of the padding is written.
    @Test func anEscapeInAShortStringOrTheLastBytesIsFound() {
        for vector in [true, false] {
            let escaping = StringEscaping(escapeSlashes: true, asciiOnly: true, vectorLoop: vector)
            for special in ["\"", "\u{1}", "/", "é", "😀", "\u{7F}"] {
                for length in Array(1...49) + [63, 64, 65, 79, 80, 81] {
                    for offset in 0..<length {
                        let text = String(repeating: "x", count: offset) + special + String(repeating: "A", count: length - offset - 1)
                        let expected = Self.reference(text, escapeSlashes: true, asciiOnly: true)
                        #expect(
                            Self.firstDifference(Self.escaped(text, escaping), expected) == nil,
                            "\(special.debugDescription) at \(offset) of \(length)")
                    }
                }
            }
        }
    }

    /// The C function never writes past the room it is given, and picks up
    /// where it stopped.
    @Test func theCFunctionStaysInsideItsRoomAndResumes() {
        let text = Array(("ab\"\u{1}日😀/" + String(repeating: "plain-", count: 20) + "\u{1F}\u{1F}\u{1F}é").utf8)
        let expected = Array(Self.reference(String(decoding: text, as: UTF8.self), escapeSlashes: true, asciiOnly: true).dropFirst().dropLast())
        for vector in [true, false] {
            let flags = StringEscaping(escapeSlashes: true, asciiOnly: true, vectorLoop: vector).flags
            for room in 0..<100 {
                var written: [UInt8] = []
                var read = 0
                var calls = 0
                while read < text.count && calls < 1000 {
                    calls += 1
                    var target = [UInt8](repeating: 0xAA, count: room + 64)
                    let count = text.withUnsafeBufferPointer { input in
                        target.withUnsafeMutableBufferPointer { output in
                            cartograph_json_escape(input.baseAddress, input.count, &read, output.baseAddress, room, flags)
                        }
                    }
                    #expect(count <= room, "room \(room)")
                    #expect(target[room...].allSatisfy { $0 == 0xAA }, "wrote past room \(room)")
                    written += target[..<count]
                    if room < 44 { break } // too little for a step: nothing written, the caller grows
                }
                if room < 44 {
                    #expect(read == 0 && written.isEmpty, "room \(room)")
                } else {
                    #expect(read == text.count && written == expected, "room \(room)")
                }
            }
        }
    }

    /// The drop-in encoder writes Foundation's bytes for the same strings,
    /// with and without `.withoutEscapingSlashes`.
    @Test func dropInEncoderWritesFoundationsStrings() throws {
        var generator = SeededGenerator(seed: 0xF0_0D)
        var texts = Self.pieces
        for length in [0, 5, 9, 33, 100, 3000] {
            for bias in [0, 60] { texts.append(Self.randomText(length: length, plainBias: bias, using: &generator)) }
        }
        for formatting: JSONEncoder.OutputFormatting in [[], [.withoutEscapingSlashes]] {
            let foundation = JSONEncoder()
            foundation.outputFormatting = formatting
            let ours = CartographJSONEncoder()
            ours.outputFormatting = formatting
            #expect(try ours.encode(texts) == foundation.encode(texts), "\(formatting)")
        }
    }
}
