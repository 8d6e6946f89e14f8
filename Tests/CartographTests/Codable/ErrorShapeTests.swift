import Foundation
import Testing

@testable import Cartograph

/// Error cases, types and coding paths as Foundation's coders report them.
@Suite struct ErrorShapeTests {
    private struct Measure: Codable { var ratio: Float }

    @Test func aFloatMismatchNamesFloat() throws {
        let json = #"{"ratio":"x"}"#
        let ours = try #require(throws: DecodingError.self) { try JSONMapper().decode(Measure.self, from: json) }
        let theirs = try #require(throws: DecodingError.self) { try JSONDecoder().decode(Measure.self, from: Data(json.utf8)) }
        guard case .typeMismatch(let ourType, let ourContext) = ours, case .typeMismatch(let theirType, let theirContext) = theirs else {
            Issue.record("\(ours) / \(theirs)")
            return
        }
        #expect("\(ourType)" == "Float" && "\(theirType)" == "Float")
        #expect(ourContext.codingPath.map(\.stringValue) == theirContext.codingPath.map(\.stringValue))
        let null = #"{"ratio":null}"#
        let missing = try #require(throws: DecodingError.self) { try JSONMapper().decode(Measure.self, from: null) }
        guard case .valueNotFound(let type, _) = missing else { Issue.record("\(missing)"); return }
        #expect("\(type)" == "Float")
    }

    /// A value that wraps another through a single-value container.
    struct Wrapped: Encodable {
        struct Inner: Encodable {
            func encode(to encoder: any Encoder) throws {
                throw EncodingError.invalidValue(1, EncodingError.Context(codingPath: encoder.codingPath, debugDescription: "inner"))
            }
        }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(Inner())
        }
    }

    struct Holder: Encodable { var value = Wrapped() }

    @Test func aSingleValueContainerDoesNotRepeatItsKeyInPaths() throws {
        func path(_ error: any Error) -> [String] {
            guard case .invalidValue(_, let context)? = error as? EncodingError else { return ["?"] }
            return context.codingPath.map(\.stringValue)
        }
        let ours = try #require(throws: (any Error).self) { try JSONMapper().encode(Holder()) }
        let theirs = try #require(throws: (any Error).self) { try JSONEncoder().encode(Holder()) }
        #expect(path(ours) == path(theirs))
        #expect(path(ours) == ["value"])
    }

    struct Nothing: Encodable {
        func encode(to encoder: any Encoder) throws {}
    }

    struct HoldsNothing: Encodable { var inner = Nothing() }

    @Test func aTopLevelValueThatEncodesNothingThrowsAsInFoundation() throws {
        #expect(throws: EncodingError.self) { try JSONEncoder().encode(Nothing()) }
        let ours = try #require(throws: EncodingError.self) { try JSONMapper().encode(Nothing()) }
        #expect("\(ours)".contains("did not encode any values"))
        #expect(throws: EncodingError.self) { try PropertyListMapper().encode(Nothing(), format: .binary) }
        // Nested, it is an empty object, as in Foundation.
        #expect(try JSONMapper().encodeString(HoldsNothing()) == String(decoding: try JSONEncoder().encode(HoldsNothing()), as: UTF8.self))
    }
}
