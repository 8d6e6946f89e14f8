import Foundation
import Testing

@testable import Cartograph

/// Strings are made from tape text without a second UTF-8 check
/// (``TapeString``), which is only sound if no reader ever puts invalid
/// UTF-8 on a tape. These tests hold every reader to that, and check that
/// the strings made are the strings `String(decoding:as:)` would make.
@Suite struct TapeStringTests {
    /// Ill-formed sequences (Unicode table 3-7): a lone continuation,
    /// overlong forms, an encoded surrogate, beyond U+10FFFF, truncations, bytes never valid.
    static let illFormed: [[UInt8]] = [
        [0x80], [0xBF], [0xC0, 0x80], [0xC1, 0xBF], [0xE0, 0x80, 0x80], [0xED, 0xA0, 0x80], [0xED, 0xBF, 0xBF],
        [0xF0, 0x80, 0x80, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xC3], [0xE2, 0x82], [0xF0, 0x9F, 0x98], [0xFE], [0xFF],
        [0xF8, 0x88, 0x80, 0x80, 0x80]
    ]

    /// The bytes at each place text is kept: a string value and a key, short and past the vector width.
    static func placements(_ bad: [UInt8]) -> [(String, [UInt8])] {
        let long = Array(repeating: UInt8(ascii: "a"), count: 40)
        return [
            ("value", Array(#"{"k":""#.utf8) + bad + Array(#""}"#.utf8)),
            ("long value", Array(#"["#.utf8) + [0x22] + long + bad + long + [0x22] + Array("]".utf8)),
            ("key", Array(#"{""#.utf8) + bad + Array(#"":1}"#.utf8)),
            ("long key", [0x7B, 0x22] + long + bad + [0x22] + Array(":1}".utf8))
        ]
    }

    @Test func jsonReadersRefuseInvalidUTF8Whole() {
        for bad in Self.illFormed {
            for (place, bytes) in Self.placements(bad) {
                let error = #expect(throws: CartographError.self, "\(bad) in a \(place)") { try Document(parsing: bytes) }
                #expect(error?.kind == .invalidUTF8, "\(bad) in a \(place): \(String(describing: error))")
            }
        }
    }

    @Test func jsonReadersRefuseInvalidUTF8InChunks() {
        for bad in Self.illFormed {
            for (place, bytes) in Self.placements(bad) {
                let error = #expect(throws: CartographError.self, "\(bad) in a \(place)") { try parseInChunks(bytes, sizes: [1]) }
                #expect(error?.kind == .invalidUTF8, "\(bad) in a \(place)")
            }
        }
    }

    @Test func json5ReaderRefusesInvalidUTF8() {
        var options = ParseOptions()
        options.allowsJSON5 = true
        for bad in Self.illFormed {
            for (place, bytes) in Self.placements(bad) {
                #expect(throws: CartographError.self, "\(bad) in a \(place)") { try Document(parsing: bytes, options: options) }
            }
            // Unquoted JSON5 keys too.
            #expect(throws: CartographError.self, "\(bad) in an unquoted key") {
                try Document(parsing: Array("{a".utf8) + bad + Array(":1}".utf8), options: options)
            }
        }
    }

    /// Cartograph's own readers and libplist's.
    static let plistMappers = [PropertyListMapper(), PropertyListMapper(options: PropertyListOptions { $0.reader = .libplist })]

    @Test func plistReadersRefuseInvalidUTF8InXML() {
        for bad in Self.illFormed {
            for (element, rest) in [("string", ""), ("key", "<integer>1</integer>")] {
                let bytes =
                    Array("<plist><dict><key>k</key><string>x</string><\(element)>".utf8) + bad
                    + Array("</\(element)>\(rest)</dict></plist>".utf8)
                for mapper in Self.plistMappers {
                    #expect(throws: CartographError.self, "\(bad) in a <\(element)>") { try mapper.document(from: bytes) }
                }
            }
        }
    }

    @Test func plistReadersRefuseInvalidUTF8InBinaryASCIIStrings() {
        // An "ASCII" string object (0x5n) holding bytes that are not UTF-8.
        for bad in Self.illFormed {
            let bytes = PropertyListHostileTests.binaryPlist(objects: [[0x50 | UInt8(bad.count)] + bad])
            for mapper in Self.plistMappers {
                #expect(throws: CartographError.self, "\(bad)") { try mapper.document(from: bytes) }
            }
        }
    }

    /// Text of every kind: ASCII, two-, three- and four-byte sequences,
    /// combining marks, escapes and their surrogate pairs, long and short.
    static func randomText(_ generator: inout SeededGenerator) -> String {
        let pieces = ["a", "Z", "0", " ", "é", "e\u{301}", "ß", "Ω", "日本", "한", "😀", "👩‍👩‍👧", "\u{FFFD}", "\u{10FFFF}", "\t", "\"", "\\", "/"]
        let count = Int.random(in: 0...60, using: &generator)
        return (0..<count).map { _ in pieces.randomElement(using: &generator)! }.joined()
    }

    @Test func tapeStringsAreTheStringsOfTheirBytes() throws {
        var generator = SeededGenerator(seed: 0x5EED_7A9E)
        for _ in 0..<2_000 {
            let text = Self.randomText(&generator)
            let json = try JSONValue.string(text).encoded()
            let read = try Document(parsing: json).root.string()
            let decoded = String(decoding: Array(text.utf8), as: UTF8.self)
            #expect(read == text && read == decoded)
            #expect(Array(read.utf8) == Array(text.utf8))
            // A string wrongly marked ASCII would count bytes as characters.
            #expect(read.count == text.count && read.unicodeScalars.elementsEqual(text.unicodeScalars))
            #expect(read.hashValue == text.hashValue && Set([text]).contains(read))
        }
    }

    @Test func tapeStringsCompareByCanonicalEquivalence() throws {
        // Precomposed é and e + combining acute are equal Swift strings, whichever side came from a tape.
        let values = try Document(parsing: Array(#"["caf\u00e9", "cafe\u0301", "café", "cafe"]"#.utf8)).root.array().map { try $0.string() }
        #expect(values[0] == values[1] && values[1] == values[2] && values[0] == "cafe\u{301}")
        #expect(values[3] != values[0] && values[3] == "cafe")
        #expect(Set(values).count == 2)
    }

    @Test func everyDecodePathReadsTheSameStrings() throws {
        struct Box: Codable, Equatable {
            var text: String
            var list: [String]
        }
        var generator = SeededGenerator(seed: 42)
        for _ in 0..<300 {
            let box = Box(text: Self.randomText(&generator), list: [Self.randomText(&generator), Self.randomText(&generator)])
            let data = try JSONEncoder().encode(box)
            #expect(try JSONMapper().decode(Box.self, from: Array(data)) == box)
            #expect(try JSONDecoder().decode(Box.self, from: data) == box)
            let value = try JSONMapper().decode(JSONValue.self, from: Array(data))
            #expect(value == .object(["text": .string(box.text), "list": .array(box.list.map { .string($0) })]))
        }
    }
}
