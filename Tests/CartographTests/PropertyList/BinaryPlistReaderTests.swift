import Foundation
import Testing

@testable import Cartograph

/// Cartograph's own binary plist reader: the same Documents as libplist's
/// reader where libplist can read the file, and the cases libplist 2.2
/// cannot (dates beyond 1932–2069, keys holding NUL, 128-bit integers).
@Suite struct BinaryPlistReaderTests {
    let native = PropertyListMapper()
    let libplist = PropertyListMapper(options: PropertyListOptions { $0.reader = .libplist })

    /// Hand-made objects; see ``PropertyListHostileTests/binaryPlist(objects:top:)``.
    func objects(_ objects: [[UInt8]]) -> [UInt8] { PropertyListHostileTests.binaryPlist(objects: objects) }

    @Test func corpusFilesReadTheSameAsWithLibplist() throws {
        for name in ["twitter.bin.plist", "canada.bin.plist"] {
            let bytes = try Fixtures.bytes(name)
            #expect(try native.document(from: bytes).root.jsonValue() == libplist.document(from: bytes).root.jsonValue(), "\(name)")
        }
    }

    @Test func foundationAndCartographWritersReadTheSameAsWithLibplist() throws {
        let encoder = PropertyListEncoder()
        encoder.outputFormat = .binary
        var settings = PropertyListTests.settings
        settings.name = "emoji 😀 and ✓ and é"
        settings.ratio = -1.5e-300
        let files = [
            try Array(encoder.encode(settings)), try native.encode(settings, format: .binary),
            Array(try NSKeyedArchiver.archivedData(withRootObject: ["k": "v", "n": 3] as NSDictionary, requiringSecureCoding: false))
        ]
        for bytes in files {
            let ours = try native.document(from: bytes).root.jsonValue()
            #expect(ours == (try libplist.document(from: bytes).root.jsonValue()))
        }
        #expect(try native.decode(PropertyListTests.Settings.self, from: files[0]) == settings)
    }

    @Test func datesBeyondLibplistsRangeReadExactly() throws {
        struct Event: Codable, Equatable { var at: Date }
        for seconds in [-3_000_000_000.5, -62_000_000_000, 2_500_000_000.125, 250_000_000_000] {
            let event = Event(at: Date(timeIntervalSinceReferenceDate: seconds))
            let bytes = try native.encode(event, format: .binary)
            #expect(try native.decode(Event.self, from: bytes) == event, "\(seconds)")
            let refused = try #require(throws: CartographError.self) { try libplist.document(from: bytes) }
            #expect(refused.kind == .numberOutOfRange)
        }
        // The writer refuses what the reader would refuse (issue: what a writer writes, its reader reads back).
        #expect(throws: EncodingError.self) { try native.encode(Event(at: Date(timeIntervalSinceReferenceDate: 260_000_000_000)), format: .binary) }
        let year10000 = objects([[0x33] + withUnsafeBytes(of: Double(260_000_000_000).bitPattern.bigEndian) { Array($0) }])
        let error = try #require(throws: CartographError.self) { try native.document(from: year10000) }
        #expect(error.kind == .numberOutOfRange && error.message.contains("years 0 to 9999"))
        // A NaN date (0x33 then the bits of NaN).
        let nan = objects([[0x33] + withUnsafeBytes(of: Double.nan.bitPattern.bigEndian) { Array($0) }])
        #expect((try? native.document(from: nan)) == nil)
    }

    @Test func utf16StringsNeedPairedSurrogates() throws {
        // 😀 as a UTF-16 surrogate pair, then a lone high and a lone low surrogate.
        let pair = objects([[0x62, 0xD8, 0x3D, 0xDE, 0x00]])
        #expect(try native.document(from: pair).root.string() == "😀")
        for units in [[0xD8, 0x3D, 0x00, 0x41], [0xDE, 0x00, 0x00, 0x41]] as [[UInt8]] {
            let error = try #require(throws: CartographError.self) { try native.document(from: objects([[0x62] + units])) }
            #expect(error.kind == .invalidUTF8 && error.message.contains("surrogate"))
            #expect(error.offset == 9)
        }
    }

    @Test func integersOfEveryWidth() throws {
        let cases: [([UInt8], String)] = [
            ([0x10, 0xFF], "255"), ([0x11, 0x01, 0x00], "256"), ([0x12, 0xFF, 0xFF, 0xFF, 0xFF], "4294967295"),
            ([0x13, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF], "-1"),
            ([0x14] + [UInt8](repeating: 0, count: 8) + [UInt8](repeating: 0xFF, count: 8), "18446744073709551615"),
            ([0x14] + [UInt8](repeating: 0xFF, count: 8) + [0x80] + [UInt8](repeating: 0, count: 7), "-9223372036854775808")
        ]
        for (object, text) in cases {
            #expect(try native.document(from: objects([object])).root.numberText() == text)
        }
        let wide = objects([[0x14, 1] + [UInt8](repeating: 0, count: 15)])
        #expect(throws: CartographError.self) { try native.document(from: wide) }
        let float = objects([[0x22] + withUnsafeBytes(of: Float(0.5).bitPattern.bigEndian) { Array($0) }])
        #expect(try native.document(from: float).root.double() == 0.5)
    }

    @Test func keysMayHoldNULAndSetsReadAsArraysAndNullAsNull() throws {
        // {"a\0b": set(null, true)}: libplist 2.2 aborts on the key; Cartograph keeps it.
        let bytes = objects([[0xD1, 1, 2], [0x53, 0x61, 0x00, 0x62], [0xC2, 3, 4], [0x00], [0x09]])
        #expect(try native.document(from: bytes).root.jsonValue() == ["a\u{0}b": [nil, true]])
        let refused = try #require(throws: CartographError.self) { try libplist.document(from: bytes) }
        #expect(refused.message.contains("NUL") && refused.offset == 11)
        let keyNotString = objects([[0xD1, 1, 1], [0x10, 0x01]])
        let error = try #require(throws: CartographError.self) { try native.document(from: keyNotString) }
        #expect(error.message.contains("not a string") && error.offset == 11)
    }

    @Test func errorsNameTheObjectsOffset() throws {
        // The array's second element (object 2, at offset 13) is a real of 2 bytes.
        let bytes = objects([[0xA2, 1, 2], [0x10, 0x01], [0x21, 0x00, 0x00]])
        let error = try #require(throws: CartographError.self) { try native.document(from: bytes) }
        #expect(error.kind == .syntax && error.offset == 13 && error.message.contains("4 or 8 bytes"))
    }
}
