import Foundation
import Testing

@testable import Cartograph

/// No character from the input that could forge a log line, drive a
/// terminal or reorder text (C0 and C1 controls, DEL, line separators,
/// bidirectional controls) reaches a message as itself: error messages,
/// paths, excerpts and `DecodingError` descriptions, on every decoder.
@Suite struct MessageEscapingTests {
    /// What an attacker puts in a key or a string.
    static let hostile = "x\r\nINFO forged\u{1B}[2J\u{9B}\u{7F}\u{202E}gnp\u{2028}\u{2066}"

    /// JSON string text for `hostile`, with its controls as escapes.
    static var hostileJSON: String {
        hostile.unicodeScalars.map {
            $0.value < 0x20 || $0.value == 0x7F || (0x80...0x9F).contains($0.value)
                ? String(format: "\\u%04x", $0.value) : String($0)
        }.joined()
    }

    static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0..<0x20, 0x7F...0x9F, 0x061C, 0x200E, 0x200F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }

    /// Every line of `text` free of unsafe characters (excerpts keep their one line break).
    static func expectClean(_ text: String, _ label: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            #expect(!line.unicodeScalars.contains(where: isUnsafe), "\(label): \(text.debugDescription)", sourceLocation: sourceLocation)
        }
    }

    /// The texts an error of Cartograph's offers a logger. Not Swift's own
    /// description of a `DecodingError`: it prints the coding path's keys
    /// as they are (they are the input's keys, as in Foundation's errors;
    /// Tests/README.md says so), and Cartograph does not write it.
    static func texts(of error: any Error) -> [String] {
        var texts: [String] = []
        if let error = error as? CartographError {
            texts += [error.description, error.message, error.path ?? "", error.excerpt ?? "", error.found ?? "", error.expected ?? ""]
        }
        if let error = error as? DecodingError {
            switch error {
            case .typeMismatch(_, let context), .valueNotFound(_, let context), .keyNotFound(_, let context), .dataCorrupted(let context):
                texts.append(context.debugDescription)
                if let underlying = context.underlyingError { texts += Self.texts(of: underlying) }
            @unknown default: break
            }
        }
        return texts
    }

    struct Tagged: Decodable { var tags: [String: Int] }
    struct Mapped: Mappable {
        var count = 0
        static let mapping = Mapping<Mapped>({ Mapped() }) { Map(\.count, "count") }
    }

    /// Each way an input's text can reach an error, on each decoder.
    static var attacks: [(String, () throws -> Void)] {
        let key = hostileJSON
        var registry = ModelRegistry()
        registry.register(Mapped.self)
        let mapped = JSONMapper(registry: registry)
        let rejecting = JSONMapper(parseOptions: ParseOptions { $0.duplicateKeys = .reject })
        let plist =
            #"<?xml version="1.0"?><plist version="1.0"><dict><key>tags</key><dict><key>\#(hostile)</key><string>no</string></dict></dict></plist>"#
        return [
            ("a mistyped member's path", { _ = try JSONMapper().decode(Tagged.self, from: Array(#"{"tags": {"\#(key)": "no"}}"#.utf8)) }),
            (
                "a duplicate key's message",
                {
                    _ = try Document(parsing: Array(#"{"\#(key)": 1, "\#(key)": 2}"#.utf8), options: ParseOptions { $0.duplicateKeys = .reject })
                }
            ),
            ("a syntax error's excerpt", { _ = try Document(parsing: Array("[\"\(hostile.filter { $0 != "\r" && $0 != "\n" })\", tru]".utf8)) }),
            (
                "a bad date's message",
                {
                    _ = try JSONMapper(options: CodableOptions { $0.dates = .iso8601(fractionalSeconds: false) })
                        .decode([Date].self, from: Array(#"["\#(key)"]"#.utf8))
                }
            ),
            ("a mapping's path", { _ = try mapped.decode([String: Mapped].self, from: Array(#"{"\#(key)": {"count": "no"}}"#.utf8)) }),
            ("the drop-in decoder", { _ = try CartographJSONDecoder().decode(Tagged.self, from: Data(#"{"tags": {"\#(key)": "no"}}"#.utf8)) }),
            ("a plist key's path", { _ = try PropertyListMapper().decode(Tagged.self, from: Array(plist.utf8)) }),
            ("a plist <real>", { _ = try PropertyListMapper().document(from: Array("<plist><real>1\(hostile)</real></plist>".utf8)) }),
            (
                "a stream's duplicate key",
                {
                    let stream = ModelStream(Int.self, mapper: rejecting, path: "$.*")
                    try stream.feed(Array(#"{"\#(key)": 1, "\#(key)": 2}"#.utf8)) { _ in }
                    try stream.finish { _ in }
                }
            ),
            (
                "a stream element's path",
                {
                    let stream = ModelStream(Tagged.self, mapper: JSONMapper(), path: "$.list")
                    try stream.feed(Array(#"{"list": [{"tags": {"\#(key)": "no"}}]}"#.utf8)) { _ in }
                    try stream.finish { _ in }
                }
            )
        ]
    }

    @Test func noMessageCarriesAControlOrBidirectionalCharacter() {
        for (label, attack) in Self.attacks {
            do {
                try attack()
                Issue.record("\(label): no error")
            } catch {
                for text in Self.texts(of: error) { Self.expectClean(text, label) }
            }
        }
    }

    /// The key is still there to read, escaped, so the message says where.
    @Test func escapedKeysStillNameThePlace() throws {
        let error = try #require(throws: DecodingError.self) {
            try JSONMapper().decode(Tagged.self, from: Array(#"{"tags": {"\#(Self.hostileJSON)": "no"}}"#.utf8))
        }
        let description = Self.texts(of: error).joined(separator: "\n")
        #expect(description.contains(#"$.tags["x\u{D}\u{A}INFO forged\u{1B}[2J\u{9B}\u{7F}\u{202E}gnp\u{2028}\u{2066}"]"#), "\(description)")
    }

    /// An excerpt keeps its caret under the offending byte: each escaped
    /// character is shown as one U+FFFD.
    @Test func excerptsKeepTheirCaretAligned() throws {
        // A C1 control and an override are allowed raw in a JSON string.
        let error = try #require(throws: CartographError.self) { try Document(parsing: Array("[\"a\u{9B}\u{202E}b\", tru]".utf8)) }
        let lines = try #require(error.excerpt).split(separator: "\n").map(String.init)
        #expect(lines.count == 2)
        #expect(lines[0] == "[\"a\u{FFFD}\u{FFFD}b\", tru]")
        #expect(lines[1].count == lines[0].distance(from: lines[0].startIndex, to: lines[0].firstIndex(of: "t")!) + 1)
    }

    /// Errors a user makes: their text is escaped too, and `printable`
    /// does the same for text of the user's own.
    @Test func everyErrorIsEscapedOnceMade() {
        let error = CartographError(.syntax, "bad \u{1B}[31m", path: "$[\"\u{A}\"]", found: "\u{202E}")
        #expect(error.message == #"bad \u{1B}[31m"#)
        #expect(error.path == #"$["\u{A}"]"#)
        #expect(error.found == #"\u{202E}"#)
        #expect(CartographError.printable("file\nname.json") == #"file\u{A}name.json"#)
        #expect(CartographError.printable("plain café") == "plain café")
    }
}
