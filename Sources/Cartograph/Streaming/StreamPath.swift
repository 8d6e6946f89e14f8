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
                return plain ? ".\(key)" : "[\"\(Self.escaped(key))\"]"
            case .index(let index): return "[\(index)]"
            case .any: return "[*]"
            }
        }
        /// A key written between double quotes as `steps(parsing:)` reads it
        /// back: `"` and `\` escaped, control characters as `\u00XX` (so a
        /// key from the input never puts one in a message).
        static func escaped(_ key: String) -> String {
            var text = ""
            for scalar in key.unicodeScalars {
                switch scalar {
                case "\"": text += "\\\""
                case "\\": text += "\\\\"
                case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                    text += "\\u00" + String(scalar.value >> 4, radix: 16, uppercase: true) + String(scalar.value & 0xF, radix: 16, uppercase: true)
                default: text.unicodeScalars.append(scalar)
                }
            }
            return text
        }
    }

    /// A path from text, leniently (never fails; see ``init(parsing:)`` for
    /// the grammar): `$` is the top-level array, `$.a.b` the array under
    /// keys `a` then `b`; text that does not parse is taken as dot-separated keys.
    public init(_ text: String) {
        self = (try? StreamPath(parsing: text)) ?? StreamPath.keys(text)
    }

    /// A path from text: `$` (optional) then steps `.key`, `["quoted key"]`
    /// (or single quotes; JSON's escapes, `\uXXXX` included, and `\'`),
    /// `[index]`, `[*]` or `.*`.
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
        /// A key in the quotes at `index`, the quotes consumed. Escapes are
        /// JSON's (jq's string literals are JSON strings): `\"`, `\\`, `\/`,
        /// `\b`, `\f`, `\n`, `\r`, `\t`, `\uXXXX` (a surrogate pair for one
        /// code point), and `\'` for single-quoted keys. Any other escape,
        /// or a lone surrogate, is refused: read as the bare character, it
        /// named a key the user did not write (`\u0000` became `u0000`).
        func readQuotedKey() throws -> String {
            let quote = bytes[index]
            index += 1
            var key: [UInt8] = []
            while index < bytes.count, bytes[index] != quote {
                guard bytes[index] == UInt8(ascii: "\\") else {
                    key.append(bytes[index])
                    index += 1
                    continue
                }
                index += 1
                guard index < bytes.count else { break }
                switch bytes[index] {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "'"): key.append(bytes[index])
                case UInt8(ascii: "b"): key.append(0x08)
                case UInt8(ascii: "f"): key.append(0x0C)
                case UInt8(ascii: "n"): key.append(0x0A)
                case UInt8(ascii: "r"): key.append(0x0D)
                case UInt8(ascii: "t"): key.append(0x09)
                case UInt8(ascii: "u"):
                    index -= 1
                    guard let scalar = readEscapedScalar() else {
                        throw fail("a \\u escape that is not a code point (four hex digits; a surrogate needs its pair)")
                    }
                    key.append(contentsOf: String(Character(scalar)).utf8)
                    continue
                default:
                    index -= 1
                    throw fail("an unknown escape in a quoted key (JSON's escapes, and \\' in single quotes)")
                }
                index += 1
            }
            guard index < bytes.count else { throw fail("an unterminated quoted key") }
            index += 1
            return String(decoding: key, as: UTF8.self)
        }
        /// The code point of the `\uXXXX` escape at `index` (and of the low
        /// surrogate's escape after a high one), `index` moved past them; nil
        /// when the digits are not hex or a surrogate is alone.
        func readEscapedScalar() -> Unicode.Scalar? {
            /// The four hex digits of a `\u` escape at `offset`, or nil.
            func unit(at offset: Int) -> UInt32? {
                guard offset + 6 <= bytes.count, bytes[offset] == UInt8(ascii: "\\"), bytes[offset + 1] == UInt8(ascii: "u") else { return nil }
                var value: UInt32 = 0
                for byte in bytes[offset + 2..<offset + 6] {
                    guard let digit = HexDigits.value(byte) else { return nil }
                    value = value << 4 | UInt32(digit)
                }
                return value
            }
            guard let high = unit(at: index) else { return nil }
            if high < 0xD800 || high > 0xDFFF {
                index += 6
                return Unicode.Scalar(high)
            }
            guard high < 0xDC00, let low = unit(at: index + 6), low >= 0xDC00, low <= 0xDFFF else { return nil }
            index += 12
            return Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))
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
