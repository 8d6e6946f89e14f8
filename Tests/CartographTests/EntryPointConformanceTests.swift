import Foundation
import Testing

@testable import Cartograph

/// JSONTestSuite's `test_parsing` cases through every way in that takes
/// JSON bytes, against `JSONValue(parsing:)` (the Document parse, which
/// ``ConformanceTests`` holds to the suite): the same value or a refusal,
/// and nothing else. The few differences are the entry points' documented
/// ones, listed by name, so a new one fails here.
@Suite struct EntryPointConformanceTests {
    static let cases = Fixtures.testSuiteCases("y_") + Fixtures.testSuiteCases("i_") + Fixtures.testSuiteCases("n_")

    /// Input in UTF-16, which the decoders detect as `JSONDecoder` does (``InputEncoding``)
    /// and the Document parse, which takes UTF-8 only, refuses.
    static let utf16 = ["i_string_UTF-16LE_with_BOM.json", "i_string_utf16BE_no_BOM.json", "i_string_utf16LE_no_BOM.json"]
    /// Trailing commas, which `JSONDecoder` accepts and so the drop-in decoder does.
    static let trailingCommas = ["n_array_extra_comma.json", "n_array_number_and_comma.json", "n_object_trailing_comma.json"]
    /// A repeated key: `JSONDecoder` keeps the first value, the Document parse's default the last.
    static let repeatedKey = "y_object_duplicated_key.json"
    /// Refused as one document, read as zero or several by a stream of values.
    static let severalValues = [
        "n_single_space.json": 0, "n_structure_UTF8_BOM_no_data.json": 0, "n_structure_no_data.json": 0,
        "n_structure_double_array.json": 2, "n_structure_object_with_trailing_garbage.json": 2
    ]

    /// The two outcomes agree: equal values, or both refused.
    static func agree<T: Equatable>(_ a: Result<T, any Error>, _ b: Result<T, any Error>) -> Bool {
        switch (a, b) {
        case (.success(let x), .success(let y)): return x == y
        case (.failure, .failure): return true
        default: return false
        }
    }

    static func streamed(_ bytes: [UInt8], chunk: Int, path: StreamPath = .topLevelArray) -> Result<[JSONValue], any Error> {
        Result {
            let stream = ModelStream(JSONValue.self, path: path)
            var values: [JSONValue] = []
            for start in stride(from: 0, to: bytes.count, by: chunk) {
                try stream.feed(bytes[start..<min(bytes.count, start + chunk)]) { values.append($0) }
            }
            try stream.finish { values.append($0) }
            return values
        }
    }

    @Test(arguments: cases)
    func theDecodersAgreeWithTheDocumentParse(_ name: String) throws {
        let bytes = try Fixtures.testSuiteBytes(name)
        let reference = Result { try JSONValue(parsing: bytes) }
        let mapped = Result { try JSONMapper().decode(JSONValue.self, from: bytes) }
        let dropIn = Result { try CartographJSONDecoder().decode(JSONValue.self, from: Data(bytes)) }
        if Self.utf16.contains(name) {
            #expect(throws: CartographError.self) { try reference.get() }
            #expect(try mapped.get() == ["é"])
            #expect(try dropIn.get() == ["é"])
            return
        }
        #expect(Self.agree(reference, mapped), "\(name): JSONMapper")
        if Self.trailingCommas.contains(name) {
            #expect(throws: CartographError.self) { try reference.get() }
            #expect(throws: Never.self) { try dropIn.get() }
        } else if name == Self.repeatedKey {
            #expect(try reference.get() == ["a": "c"])
            #expect(try dropIn.get() == ["a": "b"])
        } else {
            #expect(Self.agree(reference, dropIn), "\(name): CartographJSONDecoder")
        }
    }

    @Test(arguments: cases)
    func aStreamReadsWhatTheDocumentParseReads(_ name: String) throws {
        let bytes = try Fixtures.testSuiteBytes(name)
        guard !Self.utf16.contains(name) else { return }
        let reference = Result { try JSONValue(parsing: bytes) }
        // The top-level array's elements, whole or a byte at a time; a
        // document that is not an array, or not JSON, is refused.
        let elements: Result<[JSONValue], any Error> =
            switch reference {
            case .success(.array(let elements)): .success(elements)
            case .success: .failure(CartographError(.typeMismatch, "not an array", offset: nil))
            case .failure(let error): .failure(error)
            }
        for chunk in [bytes.count + 1, 1, 3] {
            #expect(Self.agree(elements, Self.streamed(bytes, chunk: chunk)), "\(name) in chunks of \(chunk)")
        }
        let values = Self.streamed(bytes, chunk: 2, path: .values)
        if let count = Self.severalValues[name] {
            #expect(throws: CartographError.self) { try reference.get() }
            #expect(try values.get().count == count, "\(name)")
        } else {
            #expect(Self.agree(reference.map { [$0] }, values), "\(name) as a stream of values")
        }
    }
}
