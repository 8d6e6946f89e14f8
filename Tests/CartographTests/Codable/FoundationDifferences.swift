import Foundation
import Testing

@testable import Cartograph

/// Every way the drop-in coders differ from Foundation's on purpose: one
/// case per row of the table in the Foundation compatibility article, which
/// is written from this list (``FoundationDifferencesArticleTests``). A
/// differential row that asserts a difference names it
/// (`Case(name:differences:)`); a difference no row asserts, or a row of
/// the article not in this list, fails the article test.
enum FoundationDifference: String, CaseIterable, Sendable {
    case numberPathEndsWithKey
    case int128WithZeroFraction
    case nestedValuePaths
    case isoDatesOutOfRange
    case plistFloatOverflow
    case binaryPlistInexactFloat
    case json5EscapedUnquotedKey
    case utf32LittleEndianMark
    case damagedPlistsAreDataCorrupted
    case plistDatesOutOfRange
    case nulInXMLPlists
    case json5CapitalizedNull
    case integersFromFractions
    case zeroWithExponent

    /// The article's columns: what, Foundation, Cartograph, why.
    var row: (what: String, foundation: String, cartograph: String, why: String) {
        switch self {
        case .numberPathEndsWithKey:
            (
                "a number that does not fit the type (`300` as `Int8`, `1.5` as `Int`)",
                "`dataCorrupted` whose coding path stops at the container, without the key",
                "`dataCorrupted` whose path ends with the key",
                "the key is where the problem is"
            )
        case .int128WithZeroFraction:
            (
                "a whole number with a zero fraction that `Double` cannot hold exactly (`9223372036854775807.0` as `Int64`, `18446744073709551616.0` as `Int128`)",
                "throws (its own test calls the 128-bit case \"should work but doesn't yet\")",
                "read exactly",
                "the value is exact"
            )
        case .nestedValuePaths:
            (
                "the `codingPath` of a value encoded inside a nested container, or a super encoder taken from one",
                "starts at the nested container: `[two]`",
                "the whole path: `[a, one, two]`; containers' own paths agree",
                "the `Codable` contract; errors say where"
            )
        case .isoDatesOutOfRange:
            (
                "a date outside the years 1 to 9999, or infinite, written as ISO 8601 JSON",
                "written (an infinite date as text of year 506713)",
                "refused (`numberOutOfRange`)",
                "what is written must read back; ISO 8601 readers take four-digit years"
            )
        case .plistFloatOverflow:
            (
                "a real too large for `Float` in a property list (`<real>1e39</real>`)",
                "infinity",
                "`dataCorrupted`: does not fit in `Float`",
                "what does not fit is an error, as both do in JSON"
            )
        case .binaryPlistInexactFloat:
            (
                "an 8-byte real in a binary property list that no `Float` holds exactly (`0.1`), read as `Float`",
                "`dataCorrupted`: does not fit in `Float`",
                "the nearest `Float`",
                "the number reads alike from every format: both read `<real>0.1</real>` in XML, and `0.1` in JSON, as the nearest `Float`"
            )
        case .json5EscapedUnquotedKey:
            (
                "a JSON5 unquoted key with a `\\u` escape (`sig\\u03A3ma`)",
                "the six characters kept",
                "decoded: `sigΣma`",
                "the JSON5 specification; Foundation's own test lists the file under \"todo\""
            )
        case .damagedPlistsAreDataCorrupted:
            (
                "a damaged property list (`<integer>42q</integer>`, a value missing from a dictionary, an object offset inside the header)",
                "`typeMismatch` where its reader meets the damage while decoding a value, or an error that is not a `DecodingError`",
                "`dataCorrupted`, with the byte offset",
                "the input is damaged, not of another type; callers catch `DecodingError`"
            )
        case .plistDatesOutOfRange:
            (
                "a property-list date outside the years 0 to 9999 (proleptic Gregorian): year 33658, or Foundation's \"all-zero\" date `0000-01-02` (Julian)",
                "written and read back (in XML a year of five digits; a date before the year −4712 reads back wrong)",
                "refused when written or read (`numberOutOfRange`); inside that range dates are written and read as Foundation does, "
                    + "`Date.distantPast` included",
                "a plist date is kept as fixed-width ISO 8601 text that the JSON views see; what is written must read back"
            )
        case .nulInXMLPlists:
            (
                "a NUL character in an XML property list's string or key",
                "written as a raw NUL byte, and read",
                "refused when written (`EncodingError`) and read (`dataCorrupted`); binary plists hold it",
                "XML 1.0 has no NUL character: other XML readers refuse such a file"
            )
        case .json5CapitalizedNull:
            (
                "`Null` (capitalised) as a JSON5 value",
                "parsed as some value that is not null; the type's `init(from:)` then throws its own error",
                "refused while parsing (`dataCorrupted`)",
                "JSON5 has `null` only"
            )
        case .integersFromFractions:
            (
                "a number that is not whole read as an integer type (`1e-400`, `1.0000000000000000000000000000000000000001`)",
                "read through its nearest `Double`: `0`, `1`",
                "`dataCorrupted`: not a whole number",
                "the value is not an integer; whole numbers with a fraction or exponent (`9007199254740993.0`) are read exactly by both"
            )
        case .zeroWithExponent:
            (
                "a zero with an unsigned exponent (`0e5`, `0E7`) as a number type",
                "refused: \"not valid JSON\"",
                "read as zero",
                "RFC 8259's grammar has it (`int exp`); every other JSON reader here takes it"
            )
        case .utf32LittleEndianMark:
            (
                "UTF-32 little endian after its byte order mark (`FF FE 00 00`), JSON or XML plist",
                "read as UTF-16LE after a mark, and refused",
                "read as UTF-32LE (and `FE FF 00 00`, which Foundation takes for that mark, too)",
                "that is the UTF-32LE mark"
            )
        }
    }

    /// The article's table, as Markdown.
    static var table: String {
        var lines = ["| case | Foundation | Cartograph | why |", "| --- | --- | --- | --- |"]
        for difference in allCases {
            let row = difference.row
            lines.append("| \(row.what) | \(row.foundation) | \(row.cartograph) | \(row.why) |")
        }
        return lines.joined(separator: "\n")
    }
}

/// The article's table is the list above, row for row, and every row is
/// asserted by a differential case.
@Suite struct FoundationDifferencesArticleTests {
    static let article = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(
            "Sources/Cartograph/Cartograph.docc/FoundationCompatibility.md")
    static let begin = "<!-- differences: written from Tests/CartographTests/Codable/FoundationDifferences.swift -->"
    static let end = "<!-- end of differences -->"

    /// Every differential row of the four Foundation suites and of the scalar spellings.
    static var allCases: [FoundationSuiteTests.Case] {
        FoundationSuiteTests.cases + FoundationCoderSuiteTests.cases + PlistFoundationSuiteTests.cases + CorelibsSuiteTests.cases
            + ScalarDifferentialTests.cases
    }

    /// The article holds the table between its markers. With
    /// `CARTOGRAPH_WRITE_DIFFERENCES=1` the test writes it there instead.
    @Test func theArticleTableIsTheList() throws {
        let text = try String(contentsOf: Self.article, encoding: .utf8)
        let start = try #require(text.range(of: Self.begin), "the article has no differences marker")
        let stop = try #require(text.range(of: Self.end, range: start.upperBound..<text.endIndex))
        let written = "\n" + FoundationDifference.table + "\n"
        if ProcessInfo.processInfo.environment["CARTOGRAPH_WRITE_DIFFERENCES"] == "1" {
            try (text[..<start.upperBound] + written + text[stop.lowerBound...]).write(to: Self.article, atomically: true, encoding: .utf8)
            return
        }
        #expect(
            String(text[start.upperBound..<stop.lowerBound]) == written,
            "the article's table is not the list: run CARTOGRAPH_WRITE_DIFFERENCES=1 swift test --filter FoundationDifferencesArticleTests")
    }

    @Test func everyDifferenceIsAssertedByADifferentialRow() {
        let asserted = Set(Self.allCases.flatMap(\.differences))
        for difference in FoundationDifference.allCases {
            #expect(asserted.contains(difference), "no differential row asserts \(difference)")
        }
    }
}
