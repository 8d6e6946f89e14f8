import Foundation
import Testing

@testable import Cartograph

/// ``ParseOptions/allowsTrailingCommas``: a comma after the last element
/// or member is read, nothing else changes, and errors stay where they are.
@Suite struct TrailingCommaTests {
    static let relaxed = ParseOptions { $0.allowsTrailingCommas = true }

    /// Each input read with the option equals its comma-less spelling read strictly.
    @Test(arguments: [
        ("[1,]", "[1]"), (#"{"a":1,}"#, #"{"a":1}"#), ("[ 1 , \n\t] ", "[1]"), ("[[1,],[2,],]", "[[1],[2]]"),
        (#"{"a":[{"b":true,},],}"#, #"{"a":[{"b":true}]}"#), (#"["a,]",]"#, #"["a,]"]"#), (#"["\",]",]"#, #"["\",]"]"#),
        (#"["\\",]"#, #"["\\"]"#), ("[1,2,3,]", "[1,2,3]"), ("[]", "[]"), ("[null,]", "[null]"), (#"[{},]"#, #"[{}]"#)
    ])
    func aTrailingCommaReadsAsItsAbsence(_ input: String, _ expected: String) throws {
        let read = try Document(parsing: input, options: Self.relaxed)
        #expect(try read.root.jsonValue() == (try Document(parsing: expected).root.jsonValue()), "\(input)")
        #expect(throws: CartographError.self, "strict by default: \(input)") {
            if input != expected { _ = try Document(parsing: input) } else { throw CartographError(.syntax, "same text") }
        }
    }

    /// A comma with no value before it stays an error, at the same place as without the option.
    @Test(arguments: ["[,]", "[1,,]", "{,}", #"{"a":,}"#, #"{"a":1,,}"#, "[1,}", #"{"a":1,]"#, "1,", "[1,", ",", "[,1]", #"{"a" 1,}"#])
    func aCommaWithoutAValueIsStillAnErrorInTheSamePlace(_ input: String) {
        let strict = Result { try Document(parsing: input) }
        let relaxed = Result { try Document(parsing: input, options: Self.relaxed) }
        guard case .failure(let a as CartographError) = strict, case .failure(let b as CartographError) = relaxed else {
            Issue.record("\(input) was read")
            return
        }
        #expect(a.kind == b.kind && a.offset == b.offset && a.line == b.line && a.column == b.column, "\(input): \(a) vs \(b)")
    }

    /// Comments are skipped when they are allowed, and their quotes do not start strings.
    @Test func commentsBetweenTheCommaAndTheBracket() throws {
        var options = Self.relaxed
        options.allowComments = true
        let read = try Document(parsing: "[\"x\", 1 /* \" , ] */ , // \"\n]", options: options)
        #expect(try read.root.jsonValue() == .array([.string("x"), .number(JSONNumber(Int64(1)))]))
    }

    /// The drop-in takes them (as `JSONDecoder`); `JSONMapper` only when asked.
    @Test func theDropInDecoderTakesThemAndTheMapperWhenAsked() throws {
        #expect(try CartographJSONDecoder().decode([String: [Int]].self, from: Data(#"{"a": [1, 2,],}"#.utf8)) == ["a": [1, 2]])
        #expect(throws: DecodingError.self) { try JSONMapper().decode([Int].self, from: "[1,]") }
        #expect(try JSONMapper(parseOptions: Self.relaxed).decode([Int].self, from: "[1,]") == [1])
    }

    /// Many trailing commas are blanked in one pass (an input that failed is scanned once, not once per comma).
    @Test func manyTrailingCommasInOneInput() throws {
        let input = "[" + String(repeating: "[1,],", count: 50_000) + "]"
        let read = try Document(parsing: input, options: Self.relaxed)
        #expect(try read.root.array().count == 50_000)
    }
}
