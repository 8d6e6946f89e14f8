import Foundation
import Testing

@testable import Cartograph

/// UTF-16 and UTF-32 input, with and without a byte order mark, read as
/// Foundation's `JSONDecoder` reads it.
@Suite struct InputEncodingTests {
    struct Greeting: Codable, Equatable {
        var text: String
        var count: Int
    }

    static let encodings: [(String, String.Encoding, [UInt8])] = [
        ("UTF-16BE", .utf16BigEndian, []), ("UTF-16LE", .utf16LittleEndian, []),
        ("UTF-16BE+BOM", .utf16BigEndian, [0xFE, 0xFF]), ("UTF-16LE+BOM", .utf16LittleEndian, [0xFF, 0xFE]),
        ("UTF-32BE", .utf32BigEndian, []), ("UTF-32LE", .utf32LittleEndian, []),
        ("UTF-32BE+BOM", .utf32BigEndian, [0x00, 0x00, 0xFE, 0xFF]), ("UTF-32LE+BOM", .utf32LittleEndian, [0xFF, 0xFE, 0x00, 0x00])
    ]

    @Test func everyUnicodeEncodingDecodesAsFoundationDecodesIt() throws {
        let json = #"{"text": "héllo 😀 \u00e9", "count": 3}"#
        let expected = Greeting(text: "héllo 😀 é", count: 3)
        for (name, encoding, bom) in Self.encodings {
            let bytes = bom + Array(json.data(using: encoding)!)
            let foundation = Result { try JSONDecoder().decode(Greeting.self, from: Data(bytes)) }
            if name == "UTF-32LE+BOM" {
                // Foundation takes FF FE 00 00 for a UTF-16LE BOM and fails;
                // it is UTF-32LE's (the Foundation compatibility article).
                #expect(throws: DecodingError.self) { try foundation.get() }
            } else {
                #expect(try foundation.get() == expected, "\(name)")
            }
            #expect(try JSONMapper().decode(Greeting.self, from: bytes) == expected, "\(name)")
            if case .object(let members) = try JSONMapper().decodeAny(from: bytes) {
                #expect(members.map(\.key) == ["text", "count"], "\(name)")
            } else {
                Issue.record("\(name): decodeAny did not give an object")
            }
            // A Document reads JSON as exchanged: UTF-8 only.
            #expect(throws: CartographError.self, "\(name)") { try Document(parsing: bytes) }
        }
        // FE FF 00 00 is no encoding's mark, but Foundation's decoder (and
        // its own UTF-32LE test) takes it for UTF-32LE's: so does the drop-in.
        let marked = [0xFE, 0xFF, 0x00, 0x00] + Array(json.data(using: .utf32LittleEndian)!)
        #expect(try JSONDecoder().decode(Greeting.self, from: Data(marked)) == expected)
        #expect(try CartographJSONDecoder().decode(Greeting.self, from: Data(marked)) == expected)
        // A two-byte UTF-16 fragment.
        #expect(try JSONMapper().decode(Int.self, from: Array("7".data(using: .utf16LittleEndian)!)) == 7)
    }

    @Test func brokenUTF16IsATypedError() {
        // A lone high surrogate after a BOM.
        let bytes: [UInt8] = [0xFF, 0xFE, 0x22, 0x00, 0x00, 0xD8, 0x22, 0x00]
        #expect(throws: (any Error).self) { try JSONMapper().decode(String.self, from: bytes) }
    }
}
