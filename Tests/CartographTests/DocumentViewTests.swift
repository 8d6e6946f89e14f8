import Foundation
import Testing

@testable import Cartograph

/// Node, ObjectView and ArrayView read the tape without building values.
@Suite struct DocumentViewTests {
    let document: Document

    init() throws {
        document = try Document(parsing: try Fixtures.bytes("twitter.json"))
    }

    @Test func objectLookupAndIteration() throws {
        let root = try document.root.object()
        #expect(root.keys == ["statuses", "search_metadata"])
        let statuses = try #require(root["statuses"]).array()
        #expect(statuses.count == 100)
        let user = try #require(try statuses[3]?.object()["user"]).object()
        #expect(try user["screen_name"]?.string() == "chibu4267")
        let key: ObjectView.Key = "id"
        #expect(try user[key]?.int64() == 392_585_658)
        #expect(root["missing"] == nil)
    }

    /// Short keys and numbers are copied into the tape in word-sized pieces
    /// (lengths 4–16 by two overlapping copies): every length must come back
    /// byte for byte, next to neighbours that would show an overrun.
    @Test func keysAndNumbersOfEveryLengthKeepTheirBytes() throws {
        let letters = Array("abcdefghijklmnopqrstuvwxyz")
        let digits = Array("0123456789")
        let keys: [String] = (0...40).map { length in String((0..<length).map { letters[($0 * 7 + length) % 26] }) }
        let numbers: [String] = (1...40).map { length in "9" + String((1..<length).map { digits[($0 * 3 + length) % 10] }) }
        let members = zip(keys, [0] + numbers).map { key, number in "\"\(key)\": [\(number), \"\(key)\"]" }
        let object = try Document(parsing: "{" + members.joined(separator: ", ") + "}").root.object()
        #expect(object.keys == keys)
        for (key, number) in zip(keys, ["0"] + numbers) {
            let pair = try #require(object[key]).array()
            #expect(try pair[0]?.numberText() == number)
            #expect(try pair[1]?.string() == key)
        }
    }

    /// The cursor's key comparison reads words, not bytes: every length
    /// from 1 to 40 against a copy, and against a copy with one byte changed
    /// at each position (a word comparison that skipped a byte would say equal).
    @Test func keyComparisonSeesEveryByteOfEveryLength() throws {
        for count in 1...40 {
            let key = (0..<count).map { UInt8(ascii: "a") + UInt8($0 % 26) }
            for changed in -1..<count {
                var other = key
                if changed >= 0 { other[changed] ^= 0x20 }
                key.withUnsafeBytes { a in
                    other.withUnsafeBytes { b in
                        #expect(
                            KeyBytes.equal(a.baseAddress!, b.baseAddress!, count: count) == (changed < 0),
                            "length \(count), byte \(changed) changed")
                    }
                }
            }
        }
        // Through lookups: keys of every length that differ only in their last byte are told apart.
        for count in 1...40 {
            let stem = String(repeating: "k", count: count - 1)
            var cursor = try Document(parsing: #"{"\#(stem)a": 1, "\#(stem)b": 2}"#).root.object().cursor()
            #expect(try cursor(ObjectView.Key("\(stem)b"))?.int() == 2)
            #expect(try cursor(ObjectView.Key("\(stem)a"))?.int() == 1)
            #expect(cursor(ObjectView.Key("\(stem)c")) == nil)
        }
    }

    @Test func skippingValuesVisitsEveryStatus() throws {
        var ids: [Int64] = []
        for status in try document.root.object()["statuses"]!.array() {
            ids.append(try status.object()["id"]!.int64())
        }
        #expect(ids.count == 100)
        #expect(ids.first == 505_874_924_095_815_681)
    }

    @Test func documentIsSendableAcrossTasks() async throws {
        let document = self.document
        let counts = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<4 {
                group.addTask { try document.root.object()["statuses"]!.array().count }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(counts == [100, 100, 100, 100])
    }

    /// The byte views a caller can hold (`withUTF8`, keys as bytes) show
    /// exactly the text, an empty string's with a place to point at; the
    /// cursor and the key lookups find keys of every shape, non-ASCII and
    /// canonically equivalent ones included.
    @Test func byteViewsAndKeyLookupsReadTheTapesText() throws {
        let document = try Document(parsing: #"{"": "", "é": "e\u0301", "cafe\u0301": 3, "long key of some length": [1, 2]}"#)
        let object = try document.root.object()
        try #require(object[""]).withUTF8 { text in
            #expect(text.count == 0 && text.baseAddress != nil)
        }
        try #require(object["é"]).withUTF8 { text in #expect(Array(text) == Array("e\u{0301}".utf8)) }
        #expect(try object["café"]?.int() == 3, "a precomposed key finds its decomposed spelling")
        #expect(try Array("long key of some length".utf8).withUnsafeBytes { object.value(forKeyBytes: $0) }?.array().count == 2)
        var cursor = object.cursor()
        #expect(try cursor["long key of some length"]?.array().count == 2)
        #expect(try cursor[""]?.string() == "")
        #expect(try cursor["café"]?.int() == 3)
        #expect(cursor["absent"] == nil)
    }

    /// The span forms read the same text and find the same values as the
    /// buffer forms.
    @Test func spanFormsMatchTheBufferForms() throws {
        let document = try Document(parsing: #"{"": "", "é": "e\u0301", "long key of some length": [1, 2], "n": 1}"#)
        let object = try document.root.object()
        try #require(object[""]).withUTF8Span { #expect($0.count == 0) }
        let decomposed = try #require(object["é"]).withUTF8Span { text in (0..<text.count).map { text[$0] } }
        #expect(decomposed == Array("e\u{0301}".utf8))
        #expect(throws: CartographError.self) { try #require(object["n"]).withUTF8Span { $0.count } }
        let key = Array("long key of some length".utf8)
        #expect(try object.value(forKey: key.span)?.array().count == 2)
        #expect(object.value(forKey: Array("absent".utf8).span) == nil)
        var cursor = object.cursor()
        #expect(try cursor.value(forKey: key.span)?.array().count == 2)
        #expect(try cursor.value(forKey: Array("n".utf8).span)?.int() == 1)
    }
}
