import Foundation
import Testing

@testable import Cartograph

/// Corrupted, truncated, looping and deeply nested plists: a typed error (or
/// a correct value), never a crash.
@Suite struct PropertyListHostileTests {
    let plist = PropertyListMapper()
    let viaLibplist = PropertyListMapper(options: PropertyListOptions { $0.reader = .libplist })

    /// Decodes with both readers and reports what happened (the two must
    /// agree, or the answer says how they differ); a crash would end the run.
    func outcome(_ bytes: [UInt8]) -> String {
        func attempt(_ mapper: PropertyListMapper) -> String {
            do {
                _ = try mapper.document(from: bytes).root.jsonValue()
                return "ok"
            } catch let error as CartographError {
                return "\(error.kind)"
            } catch {
                return "untyped \(error)"
            }
        }
        let native = attempt(plist)
        let libplist = attempt(viaLibplist)
        return native == libplist ? native : "native \(native), libplist \(libplist)"
    }

    @Test func everyTruncationOfABinaryFixtureIsATypedError() throws {
        let bytes = try plist.encode(PropertyListTests.settings, format: .binary)
        for length in 0..<bytes.count {
            let result = outcome(Array(bytes.prefix(length)))
            // Up to 7 bytes (`bplist0`) the text is an OpenStep plist's
            // unquoted string, as Foundation reads it too.
            if (1..<8).contains(length) {
                #expect(
                    try PropertyListMapper().document(from: Array(bytes.prefix(length))).root.string()
                        == String(decoding: bytes.prefix(length), as: UTF8.self))
                continue
            }
            #expect(result != "ok" && !result.contains("untyped"), "truncated at \(length): \(result)")
        }
    }

    @Test func flippedBytesNeverCrash() throws {
        let bytes = try plist.encode(PropertyListTests.settings, format: .binary)
        var generator = SeededGenerator(seed: 5)
        for offset in 0..<bytes.count {
            for _ in 0..<4 {
                var corrupted = bytes
                corrupted[offset] ^= UInt8.random(in: 1...255, using: &generator)
                #expect(!outcome(corrupted).contains("untyped"), "flip at \(offset)")
            }
        }
        let twitter = try Fixtures.bytes("twitter.bin.plist")
        for offset in stride(from: 0, to: twitter.count, by: 997) {
            var corrupted = twitter
            corrupted[offset] ^= 0xFF
            #expect(!outcome(corrupted).contains("untyped"), "twitter flip at \(offset)")
        }
    }

    @Test func everyTruncationOfAnXMLFixtureIsATypedError() throws {
        let bytes = try plist.encode(PropertyListTests.settings, format: .xml)
        for length in 0..<bytes.count {
            let result = outcome(Array(bytes.prefix(length)))
            // Cut inside the root's end tag or after it, the value may still be whole.
            #expect(!result.contains("untyped") && (result != "ok" || length >= bytes.count - "</plist>\n".utf8.count), "cut at \(length): \(result)")
        }
    }

    @Test func flippedBytesOfXMLNeverCrash() throws {
        let bytes = try plist.encode(PropertyListTests.settings, format: .xml)
        var generator = SeededGenerator(seed: 7)
        for offset in 0..<bytes.count {
            for _ in 0..<2 {
                var corrupted = bytes
                corrupted[offset] ^= UInt8.random(in: 1...255, using: &generator)
                #expect(!outcome(corrupted).contains("untyped"), "flip at \(offset)")
            }
        }
        let twitter = try Fixtures.bytes("twitter.xml.plist")
        for offset in stride(from: 0, to: twitter.count, by: 4999) {
            var corrupted = twitter
            corrupted[offset] ^= 0x5A
            #expect(!outcome(corrupted).contains("untyped"), "twitter flip at \(offset)")
        }
    }

    /// A binary plist of hand-made objects (object refs and offsets one byte).
    /// A binary plist of these objects, with 1-byte references and offsets of `offsetSize` bytes.
    static func binaryPlist(objects: [[UInt8]], top: Int = 0, offsetSize: Int = 1) -> [UInt8] {
        var bytes = Array("bplist00".utf8)
        var offsets: [Int] = []
        for object in objects {
            offsets.append(bytes.count)
            bytes += object
        }
        let table = bytes.count
        for offset in offsets { bytes += (0..<offsetSize).reversed().map { UInt8((offset >> ($0 * 8)) & 0xFF) } }
        var trailer = [UInt8](repeating: 0, count: 6) + [UInt8(offsetSize), 1]
        for value in [objects.count, top, table] {
            trailer += (0..<8).reversed().map { UInt8((value >> ($0 * 8)) & 0xFF) }
        }
        return bytes + trailer
    }

    @Test func sharedReferencesCannotExpandPastTheByteBudget() throws {
        // A 1 KiB string, an array of 1,000 references to it, and a top-level
        // array of 1,000 references to that array: 3 KB that expand to 1 GB
        // (1,000,000 values, within maxValues).
        let string: [UInt8] = [0x5F, 0x11, 0x04, 0x00] + [UInt8](repeating: UInt8(ascii: "a"), count: 1024)
        let inner: [UInt8] = [0xAF, 0x11, 0x03, 0xE8] + [UInt8](repeating: 0, count: 1000)
        let outer: [UInt8] = [0xAF, 0x11, 0x03, 0xE8] + [UInt8](repeating: 1, count: 1000)
        let bomb = Self.binaryPlist(objects: [string, inner, outer], top: 2, offsetSize: 2)
        #expect(bomb.count < 4_000)
        for reader in [PropertyListOptions.Reader.native, .libplist] {
            let error = try #require(throws: CartographError.self) {
                try PropertyListMapper(options: PropertyListOptions { $0.reader = reader }).document(from: bomb)
            }
            #expect(error.kind == .inputTooLarge && error.message.contains("maxExpansionFactor"), "\(error)")
        }
        // The same shape at a size the budget allows reads in full.
        let small = Self.binaryPlist(objects: [string, inner, [0xA4, 1, 1, 1, 1]], top: 2, offsetSize: 2)
        let document = try PropertyListMapper().document(from: small)
        #expect(try document.root.array().count == 4)
        #expect(try document.root.array()[3]?.array().count == 1000)
        // A larger factor lets the bomb through the budget check (and maxValues stops it instead).
        let lenient = PropertyListOptions {
            $0.maxExpansionFactor = 1 << 20; $0.maxValues = 10_000
        }
        let valuesError = try #require(throws: CartographError.self) { try PropertyListMapper(options: lenient).document(from: bomb) }
        #expect(valuesError.message.contains("maxValues"))
    }

    @Test func foundationsSharedValuesStayWithinTheBudget() throws {
        // Foundation writes one object for equal values: 200,000 references
        // to one string, legitimately a 40-fold expansion.
        let encoder = PropertyListEncoder()
        encoder.outputFormat = .binary
        let values = [String](repeating: "a value written many times", count: 200_000)
        let bytes = try encoder.encode(values)
        #expect(try PropertyListMapper().decode([String].self, from: Array(bytes)) == values)
    }

    private static func xml(_ body: String) -> [UInt8] {
        Array(#"<?xml version="1.0" encoding="UTF-8"?><plist version="1.0">"#.utf8) + Array(body.utf8) + Array("</plist>".utf8)
    }

    @Test func anAttributeHoldingSlashGreaterThanCannotSmuggleDepthToLibplist() {
        // `/>` inside an attribute value does not close the element.
        let deep = Self.xml(String(repeating: #"<array x="/>">"#, count: 300_000))
        for reader in [PropertyListOptions.Reader.native, .libplist] {
            let outcome = Result { try PropertyListMapper(options: PropertyListOptions { $0.reader = reader }).document(from: deep) }
            guard case .failure(let error) = outcome else { Issue.record("\(reader) read it"); continue }
            #expect((error as? CartographError)?.kind == .depthLimitExceeded, "\(reader): \(error)")
        }
    }

    @Test func libplistIsNotGivenMalformedScalarsToGuessAt() throws {
        let libplist = PropertyListMapper(options: PropertyListOptions { $0.reader = .libplist })
        for body in [
            "<integer>99999999999999999999999</integer>", "<integer>12abc</integer>", "<date>not a date</date>",
            "<date>2024-02-3xT00:00:00Z</date>", "<data>!!!not base64!!!</data>", "<real>one</real>"
        ] {
            let bytes = Self.xml("<array>\(body)</array>")
            #expect(throws: CartographError.self, "\(body)") { try libplist.document(from: bytes) }
            #expect(throws: CartographError.self, "\(body)") { try PropertyListMapper().document(from: bytes) }
        }
        // Well-formed scalars still read the same through both.
        let good = Self.xml("<array><integer>-5</integer><date>2024-02-29T12:00:00Z</date><data>AQI=</data><real>1.5</real></array>")
        #expect(try libplist.document(from: good).root.jsonValue() == PropertyListMapper().document(from: good).root.jsonValue())
    }

    @Test func referenceLoopsAreRejected() {
        // Object 0 is an array holding object 1, an array holding object 0.
        let looping = Self.binaryPlist(objects: [[0xA1, 1], [0xA1, 0]])
        #expect(outcome(looping) == "syntax")
        let selfLoop = Self.binaryPlist(objects: [[0xA1, 0]])
        #expect(outcome(selfLoop) == "syntax")
        let outOfRange = Self.binaryPlist(objects: [[0xA1, 9]])
        #expect(outcome(outOfRange) == "syntax")
        // An array that claims 14 elements but the file holds one reference.
        let wrongCount = Self.binaryPlist(objects: [[0xAE, 1], [0x08]])
        #expect(outcome(wrongCount) == "syntax")
        // A string that claims to run past the object area.
        let longString = Self.binaryPlist(objects: [[0x5E, 0x61]])
        #expect(outcome(longString) == "syntax")
    }

    @Test func sharedReferencesThatExpandTooFarAreRejected() {
        // 60 arrays, each holding the next one twice: 2^60 values once copied.
        var objects: [[UInt8]] = (0..<59).map { [0xA2, UInt8($0 + 1), UInt8($0 + 1)] }
        objects.append([0x08])
        #expect(outcome(Self.binaryPlist(objects: objects)) == "inputTooLarge")
    }

    @Test func deepNestingIsRejectedBeforeLibplistSeesIt() throws {
        // 600 nested arrays in binary (needs two-byte references, so built with Foundation)
        var value: Any = [Int]()
        for _ in 0..<600 { value = [value] }
        let binary = try PropertyListSerialization.data(fromPropertyList: value, format: .binary, options: 0)
        #expect(outcome(Array(binary)) == "depthLimitExceeded")
        let xml =
            "<?xml version=\"1.0\"?><plist version=\"1.0\">" + String(repeating: "<array>", count: 100_000)
            + String(repeating: "</array>", count: 100_000) + "</plist>"
        #expect(outcome(Array(xml.utf8)) == "depthLimitExceeded")
        let atLimit = "<plist version=\"1.0\">" + String(repeating: "<array>", count: 512) + String(repeating: "</array>", count: 512) + "</plist>"
        #expect(outcome(Array(atLimit.utf8)) == "ok")
        var million = Array("<plist>".utf8)
        million += Array(repeating: Array("<dict><key>a</key>".utf8), count: 100_000).flatMap { $0 }
        #expect(outcome(million) == "depthLimitExceeded")
    }

    /// Found by FuzzPropertyList: writers share equal values, so an array
    /// may hold more references than the file has objects.
    @Test func arraysOfSharedValuesReadBack() throws {
        let value: JSONValue = .array(Array(repeating: 46.25, count: 40) + Array(repeating: "same", count: 40))
        let mapper = PropertyListMapper()
        let ours = try mapper.encode(value, format: .binary)
        #expect(try mapper.document(from: ours).root.jsonValue() == value)
        let foundation = try PropertyListSerialization.data(fromPropertyList: value.anyValue, format: .binary, options: 0)
        #expect(try mapper.document(from: Array(foundation)).root.jsonValue() == value)
    }

    /// Found by FuzzPropertyList: a character reference with more hex
    /// digits than an Int holds overflowed the NUL check.
    @Test func longCharacterReferencesAreCheckedWithoutOverflow() throws {
        func xml(_ reference: String) -> [UInt8] {
            Array("<?xml version=\"1.0\"?><plist version=\"1.0\"><dict><key>k\(reference)</key><string>v</string></dict></plist>".utf8)
        }
        let long = try #require(throws: CartographError.self) { try plist.document(from: xml("&#x" + String(repeating: "fa", count: 20) + ";")) }
        #expect(long.kind != .syntax || !long.message.contains("NUL"))
        let zeros = try #require(throws: CartographError.self) { try plist.document(from: xml("&#x" + String(repeating: "0", count: 40) + ";")) }
        #expect(zeros.message.contains("NUL"))
        // Leading zeros before a non-zero digit are not NUL (libplist decides the rest).
        if case .failure(let error as CartographError) = Result(catching: {
            try plist.document(from: xml("&#x" + String(repeating: "0", count: 30) + "41;"))
        }) {
            #expect(!error.message.contains("NUL"))
        }
        #expect(try plist.document(from: xml("&#x41;")).root.object().keys == ["kA"])
    }

    @Test func garbageIsATypedError() {
        #expect(outcome([]) == "unexpectedEnd")
        #expect(outcome(Array("not a plist".utf8)) == "syntax")
        #expect(outcome(Array("bplist00".utf8)) == "syntax")
        #expect(!outcome(Array("<plist><string>unterminated".utf8)).contains("untyped"))
    }
}
