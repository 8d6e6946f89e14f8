/// Which values of the input a stream delivers, one model each.
public enum StreamPath: Sendable, Hashable, ExpressibleByStringLiteral {
    /// Each element of the top-level array.
    case topLevelArray
    /// Each top-level value: NDJSON (blank lines allowed, last newline
    /// optional) and concatenated JSON.
    case values
    /// Each element of the array at a key path inside objects, such as
    /// `$.data.items` (written `"$.data.items"`, `"data.items"` or as keys).
    case array(at: [String])
    /// Each element of the array at a path of keys and indexes
    /// (`$.batches[0].items`): an array, as ``array(at:)`` requires.
    case arrayElements(at: [PathStep])
    /// Each value the path selects, as JSONPath selects them: `[*]` (or
    /// `.*`) stands for every element of an array or member of an object, so
    /// `$.data[*].id` delivers each element's `id`, `$.batches[*].items[*]`
    /// every item of every batch.
    case matches([PathStep])

    /// One step of a path.
    public enum PathStep: Sendable, Hashable, CustomStringConvertible {
        /// The member with this key (`.name` or `["any key"]`).
        case key(String)
        /// The array element at this index, from 0 (`[3]`).
        case index(Int)
        /// Every element or member (`[*]`, `.*`).
        case any

        /// The step as path text: `.name`, `["other key"]`, `[3]` or `[*]`.
        public var description: String {
            switch self {
            case .key(let key):
                let plain =
                    !key.isEmpty
                    && key.utf8.allSatisfy {
                        $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-") || ($0 >= 0x30 && $0 <= 0x39)
                            || ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x7A) || $0 >= 0x80
                    }
                return plain ? ".\(key)" : "[\"\(key.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\""))\"]"
            case .index(let index): return "[\(index)]"
            case .any: return "[*]"
            }
        }
    }

    /// A path from text, leniently (never fails; see ``init(parsing:)`` for
    /// the grammar): `$` is the top-level array, `$.a.b` the array under
    /// keys `a` then `b`; text that does not parse is taken as dot-separated keys.
    public init(_ text: String) {
        self = (try? StreamPath(parsing: text)) ?? StreamPath.keys(text)
    }

    /// A path from text: `$` (optional) then steps `.key`, `["quoted key"]`
    /// (or single quotes; `\"` and `\\` escape), `[index]`, `[*]` or `.*`.
    /// jq's spellings of the same steps are read too: `.` alone for the
    /// root, a leading `.` before `[` (`.[0]`, `.["a b"]`), `[]` for `[*]`,
    /// a quoted key after a dot (`."a b"`) and spaces between steps
    /// (`.a .b`). An unquoted key holds no spaces and none of the
    /// punctuation jq and JSONPath give a meaning (`?`, `|`, `,`, `(`,
    /// `]`, `*`…): such a path is refused, by name where it is one of
    /// jq's operators, rather than read as a key no input has.
    /// Without a wildcard the path names one array and the stream delivers its
    /// elements (``topLevelArray``, ``array(at:)``, ``arrayElements(at:)``);
    /// with one it delivers each value the path selects (``matches(_:)``).
    /// - Throws: ``CartographError/Kind/syntax`` with the offset in the text.
    public init(parsing text: String) throws {
        let steps = try Self.steps(parsing: text)
        if steps.contains(.any) {
            self = .matches(steps)
        } else if steps.isEmpty {
            self = .topLevelArray
        } else if steps.allSatisfy({ if case .key = $0 { true } else { false } }) {
            self = .array(at: steps.map { if case .key(let key) = $0 { key } else { "" } })
        } else {
            self = .arrayElements(at: steps)
        }
    }

    /// A path from text (see ``init(_:)``).
    public init(stringLiteral value: String) { self.init(value) }

    private static func keys(_ text: String) -> StreamPath {
        var trimmed = Substring(text)
        if trimmed.hasPrefix("$") { trimmed = trimmed.dropFirst() }
        if trimmed.hasPrefix(".") { trimmed = trimmed.dropFirst() }
        return trimmed.isEmpty ? .topLevelArray : .array(at: trimmed.split(separator: ".").map(String.init))
    }

    /// The steps of path text (see ``init(parsing:)``).
    public static func steps(parsing text: String) throws -> [PathStep] {
        // Spaces around the path are not part of it (a shell's quoting
        // leaves them); offsets in errors still count from the text's start.
        let all = Array(text.utf8)
        let first = all.firstIndex { !isSpace($0) } ?? all.count
        let last = all.lastIndex { !isSpace($0) }.map { $0 + 1 } ?? first
        let bytes = Array(all[first..<last])
        var index = 0
        var steps: [PathStep] = []
        func fail(_ message: String) -> CartographError {
            CartographError(.syntax, "invalid path \"\(text)\": \(message)", offset: first + index)
        }
        func readKey() -> String {
            let start = index
            while index < bytes.count, !endsKey(bytes[index]) { index += 1 }
            return String(decoding: bytes[start..<index], as: UTF8.self)
        }
        /// A key in the quotes at `index` (`\` escapes the next byte), the quotes consumed.
        func readQuotedKey() throws -> String {
            let quote = bytes[index]
            index += 1
            var key: [UInt8] = []
            while index < bytes.count, bytes[index] != quote {
                if bytes[index] == UInt8(ascii: "\\"), index + 1 < bytes.count { index += 1 }
                key.append(bytes[index])
                index += 1
            }
            guard index < bytes.count else { throw fail("an unterminated quoted key") }
            index += 1
            return String(decoding: key, as: UTF8.self)
        }
        func isQuote(_ byte: UInt8) -> Bool { byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") }
        if index < bytes.count, bytes[index] == UInt8(ascii: "$") { index += 1 }
        // jq's root: `.` alone, and `.` before a bracket (`.[0]`, `.["a b"]`).
        if index == 0, bytes.first == UInt8(ascii: ".") {
            if bytes.count == 1 { return [] }
            if bytes[1] == UInt8(ascii: "[") { index = 1 }
        }
        // "data.items" (no $) is a key path too.
        if index == 0, index < bytes.count, bytes[index] != UInt8(ascii: "."), bytes[index] != UInt8(ascii: "[") {
            steps.append(.key(readKey()))
        }
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "."):
                index += 1
                if index < bytes.count, bytes[index] == UInt8(ascii: "*") {
                    index += 1
                    steps.append(.any)
                } else if index < bytes.count, isQuote(bytes[index]) {
                    // jq's `."a b"`.
                    steps.append(.key(try readQuotedKey()))
                } else {
                    // jq's and JSONPath's recursive descent: every value at
                    // any depth, which a path of steps cannot name.
                    if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
                        throw fail("recursive descent ('..') is not supported; name each step, or use [*] for every element or member")
                    }
                    if index < bytes.count, isSpace(bytes[index]) {
                        throw fail("a space after '.'; quote a key that starts with one (`[\" key\"]`)")
                    }
                    let key = readKey()
                    guard !key.isEmpty else {
                        if index < bytes.count, let refusal = refusal(bytes[index]) { throw fail(refusal) }
                        throw fail("an empty key after '.'")
                    }
                    steps.append(.key(key))
                }
            case UInt8(ascii: "["):
                index += 1
                guard index < bytes.count else { throw fail("'[' without ']'") }
                let open = bytes[index]
                if open == UInt8(ascii: "*") {
                    index += 1
                    steps.append(.any)
                } else if open == UInt8(ascii: "]") {
                    // jq's `[]`: every element or member, as `[*]`.
                    steps.append(.any)
                } else if isQuote(open) {
                    steps.append(.key(try readQuotedKey()))
                } else {
                    // An index from the end (`[-1]`) would need the array's
                    // length, which a stream learns only at its end.
                    if open == UInt8(ascii: "-") {
                        throw fail("negative indices are not supported: a stream reads an array before it knows its length")
                    }
                    let start = index
                    while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 { index += 1 }
                    guard index > start, let value = Int(String(decoding: bytes[start..<index], as: UTF8.self)) else {
                        throw fail("expected an index, *, or a quoted key after '['")
                    }
                    if index < bytes.count, bytes[index] == UInt8(ascii: ":") {
                        throw fail("slices ('[start:end]') are not supported; select [*] and count, or one index")
                    }
                    steps.append(.index(value))
                }
                guard index < bytes.count, bytes[index] == UInt8(ascii: "]") else { throw fail("expected ']'") }
                index += 1
            case let byte where isSpace(byte):
                // jq's spaces between steps (`.a .b`).
                index += 1
            case let byte:
                throw fail(refusal(byte) ?? "expected '.' or '['")
            }
        }
        return steps
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r")
    }

    /// Whether `byte` ends an unquoted key: the next step, a space, a
    /// control byte or punctuation that jq or JSONPath give a meaning.
    private static func endsKey(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: ".") || byte == UInt8(ascii: "[") || isSpace(byte) || refusal(byte) != nil
    }

    /// Why `byte` cannot follow a step or stand in an unquoted key (nil:
    /// it can stand in a key).
    private static func refusal(_ byte: UInt8) -> String? {
        switch byte {
        case UInt8(ascii: "?"):
            return "jq's optional operator ('?') is not supported; quote a key that holds '?' (`[\"a?\"]`)"
        case UInt8(ascii: "|"):
            return "jq's pipe ('|') is not supported: a path is one chain of steps"
        case UInt8(ascii: ","):
            return "jq's comma (',') is not supported: a path is one chain of steps; quote a key that holds ',' (`[\"a,b\"]`)"
        case UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "]"), UInt8(ascii: "{"), UInt8(ascii: "}"), UInt8(ascii: "*"),
            UInt8(ascii: "="), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "!"), UInt8(ascii: "+"), UInt8(ascii: ";"),
            UInt8(ascii: "\\"), UInt8(ascii: "\""), UInt8(ascii: "'"):
            return "'\(Character(Unicode.Scalar(byte)))' is not part of a path step; quote a key that holds it (`[\"…\"]`)"
        default:
            return byte < 0x20 || byte == 0x7F ? "a control character in the path" : nil
        }
    }

    /// The path as text (`$.data[*].id`).
    var text: String {
        switch self {
        case .topLevelArray, .values: return "$"
        case .array(let keys): return "$" + keys.map { PathStep.key($0).description }.joined()
        case .arrayElements(let steps), .matches(let steps): return "$" + steps.map(\.description).joined()
        }
    }

    var splitterMode: StreamSplitter.Mode {
        switch self {
        case .topLevelArray: return .steps([.any], requiresArray: true)
        case .values: return .values
        case .array(let keys): return .steps(keys.map { .key($0) } + [.any], requiresArray: true)
        case .arrayElements(let steps): return .steps(steps + [.any], requiresArray: true)
        case .matches(let steps): return .steps(steps, requiresArray: false)
        }
    }
}
