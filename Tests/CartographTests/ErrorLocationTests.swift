import Testing

@testable import Cartograph

/// Errors say where: offset, line, column, and an excerpt with a caret.
@Suite struct ErrorLocationTests {
    @Test func syntaxErrorHasLineColumnAndExcerpt() throws {
        let text = "{\n  \"a\": 1,\n  \"b\": tru\n}"
        let error = try #require(throws: CartographError.self) { try Document(parsing: text) }
        #expect(error.kind == .syntax)
        #expect(error.line == 3)
        #expect(error.column == 8)
        #expect(error.offset == 19)
        #expect(error.message == "invalid literal (expected true, false or null)")
        let excerpt = try #require(error.excerpt)
        #expect(excerpt.contains("\"b\": tru"))
        #expect(excerpt.hasSuffix("^"))
        #expect(error.description.hasPrefix("3:"))
    }

    @Test func columnsCountScalarsNotBytes() throws {
        let error = try #require(throws: CartographError.self) { try Document(parsing: "[\"é€\", \u{0B}1]") }
        #expect(error.kind == .invalidWhitespace)
        #expect(error.line == 1)
        #expect(error.column == 8)
        #expect(error.offset == 10)
    }

    @Test func chunkedErrorsAreLocatedAcrossChunks() throws {
        let text = Array("[1,\n2,\n3,\n\"é\", x]".utf8)
        let whole = try #require(throws: CartographError.self) { try Document(parsing: text) }
        let chunked = try #require(throws: CartographError.self) { try parseInChunks(text, sizes: [3]) }
        #expect(whole.line == 4)
        #expect(whole.line == chunked.line && whole.column == chunked.column && whole.offset == chunked.offset)
    }

    @Test func grammarErrorsPointAtTheOffendingToken() throws {
        for (text, offset) in [("[1,,2]", 3), ("{\"a\":1,}", 8), ("[1 2]", 3), ("[1] x", 4)] {
            let error = try #require(throws: CartographError.self) { try Document(parsing: text) }
            #expect(error.offset == offset, "\(text)")
            let chunked = try #require(throws: CartographError.self) { try parseInChunks(Array(text.utf8), sizes: [1]) }
            #expect(chunked.offset == offset, "\(text) fed byte by byte")
        }
    }

    @Test func typeMismatchNamesBothKinds() throws {
        let document = try Document(parsing: #"{"id": "42"}"#)
        let error = try #require(throws: CartographError.self) { try document.root.object()["id"]?.int() }
        #expect(error.kind == .typeMismatch)
        #expect(error.expected == "number")
        #expect(error.found == "string")
        #expect(error.offset == 7)
    }
}

/// Syntax errors speak about the JSON text, not yajl's parser states.
@Suite struct SyntaxMessageTests {
    @Test(arguments: [
        (#"{"a": 1 "b": 2}"#, "expected ',' or '}' after an object member"),
        ("[1 2]", "expected ',' or ']' after an array element"),
        (#"{"a" 1}"#, "expected ':' after an object key"),
        ("[1,]", "unexpected token (a value, ']' or '}' is not allowed here)"),
        ("{1: 2}", "an object key must be a string"),
        (#"["\q"]"#, "invalid escape sequence in a string"),
        (#"["\u12x4"]"#, "invalid \\u escape (four hex digits expected)"),
        ("[1e]", "invalid number (a digit must follow the exponent)"),
        ("[1.]", "invalid number (a digit must follow the decimal point)"),
        ("[-]", "invalid number (a digit must follow the minus sign)"),
        ("[1, // note\n 2]", "comments are not allowed (ParseOptions.allowComments)"),
        ("[tru]", "invalid literal (expected true, false or null)"),
        ("[1] 2", "unexpected text after the value")
    ])
    func messagesAreInPlainWords(_ input: String, _ expected: String) throws {
        let error = try #require(throws: CartographError.self) { try Document(parsing: input) }
        #expect(error.message == expected)
        for word in ["I expect", "inside map", "JSON text", "lexical error", "parse error"] {
            #expect(!error.description.contains(word), "\(input): \(error.description)")
        }
    }

    @Test func aControlCharacterInAStringIsNamed() throws {
        let error = try #require(throws: CartographError.self) { try Document(parsing: "[\"a\u{1}b\"]") }
        #expect(error.message == "control character in a string (it must be escaped)")
    }
}
