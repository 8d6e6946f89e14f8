import Foundation

/// Reads OpenStep ("old-style") property lists, as Foundation's
/// `PropertyListDecoder` and `PropertyListSerialization` read them:
///
/// ```
/// // a comment
/// { "test key" = value;            /* an unquoted string */
///   testData = <feed face>;        // data, in hex
///   "nested array" = (a, b, c,); }
/// ```
///
/// and the strings-file form, a dictionary's members without the braces
/// (`string1 = "Good morning";`). The values are dictionaries, arrays,
/// strings (quoted with `"` or `'`, or unquoted from the letters, digits
/// and `_$/:.-`) and data; there are no numbers, booleans or dates.
/// Quoted strings take the escapes `\a \b \n \r \t`, `\f` and `\v` (as
/// U+0012 and U+0011: Foundation's reading, kept so files read alike), any
/// other character after `\` as itself, up to three octal digits (a byte,
/// truncated to 8 bits as Foundation does; above 127 a NeXTSTEP character)
/// and `\U` with up to four hex digits (a UTF-16 unit, none meaning U+0000;
/// a surrogate is refused), all as Foundation reads them. A key followed by
/// `;` alone has itself as its value, and a text of only space and comments
/// is an empty dictionary. Reading only: OpenStep is not written, by
/// Foundation either.
///
/// The input is UTF-8 (the caller converts UTF-16 and UTF-32). Errors are
/// ``CartographError``s placed at the byte where reading stopped.
///
/// The reader keeps its input as a `Span` (it is `~Escapable`), so every
/// byte it reads is bounds-checked.
struct OpenStepPlistReader: ~Escapable {
    private let input: Span<UInt8>
    private let count: Int
    private var position = 0
    private let builder: DocumentBuilder

    /// Whether a plist that is not binary is OpenStep: its first character
    /// that is not space or a comment is not `<` (XML, or OpenStep data at
    /// the top, which Foundation also reads as XML first).
    static func looksLikeOpenStep(_ bytes: Span<UInt8>) -> Bool {
        guard !bytes.isEmpty else { return false }
        let start = bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF ? 3 : 0
        // A comment that never ends is OpenStep's (XML has none of that form): its reader says so.
        guard let first = afterSpaceAndComments(bytes, from: start) else { return true }
        // Only space and comments: an empty strings file, `{}` as Foundation reads it.
        guard first < bytes.count else { return bytes.count > 0 }
        return bytes[first] != UInt8(ascii: "<")
    }

    static func document(_ bytes: Span<UInt8>, parse: ParseOptions) throws -> Document {
        let builder = DocumentBuilder(options: parse, expectedInputBytes: bytes.count)
        var reader = OpenStepPlistReader(bytes, builder: builder)
        do {
            try reader.run()
        } catch let error as CartographError {
            throw error.locating(in: bytes)
        }
        return builder.makeDocument()
    }

    @_lifetime(copy input)
    private init(_ input: Span<UInt8>, builder: DocumentBuilder) {
        self.input = input
        self.count = input.count
        self.builder = builder
    }

    private func fail(_ message: String, at offset: Int? = nil) -> CartographError {
        CartographError(.syntax, "invalid OpenStep plist: \(message)", offset: offset ?? position)
    }

    private func accept(_ accepted: Bool) throws {
        try PlistScalars.accept(accepted, builder)
    }

    private mutating func run() throws {
        if count >= 3, input[0] == 0xEF, input[1] == 0xBB, input[2] == 0xBF { position = 3 }
        try skipSpaceAndComments()
        guard position < count else {
            // Nothing but space and comments: an empty strings file.
            try accept(builder.begin(object: true, at: 0))
            try accept(builder.end())
            return
        }
        let start = position
        // A string followed by `=` or `;` starts the strings-file form: members without braces.
        if input[position] != UInt8(ascii: "{"), input[position] != UInt8(ascii: "("), input[position] != UInt8(ascii: "<") {
            var probe = self
            if (try? probe.skipString()) != nil, (try? probe.skipSpaceAndComments()) != nil, probe.position < count,
                input[probe.position] == UInt8(ascii: "=") || input[probe.position] == UInt8(ascii: ";")
            {
                try accept(builder.begin(object: true, at: start))
                try members(closedBy: nil)
                try accept(builder.end())
                return
            }
        }
        try value(depth: 0)
        try skipSpaceAndComments()
        guard position == count else { throw fail("junk after the plist's value") }
    }

    // MARK: Values

    private mutating func value(depth: Int) throws {
        guard StackGuard.hasRoom else { throw StackGuard.exhausted(offset: position) }
        try skipSpaceAndComments()
        guard position < count else { throw CartographError(.unexpectedEnd, "the OpenStep plist ends where a value belongs", offset: count) }
        let start = position
        switch input[position] {
        case UInt8(ascii: "{"):
            position += 1
            try accept(builder.begin(object: true, at: start))
            try members(closedBy: UInt8(ascii: "}"), depth: depth)
            try accept(builder.end())
        case UInt8(ascii: "("):
            position += 1
            try accept(builder.begin(object: false, at: start))
            try elements(depth: depth)
            try accept(builder.end())
        case UInt8(ascii: "<"):
            try data()
        default:
            let text = try string()
            try accept(builder.string(text.span, at: start))
        }
    }

    /// `key = value;` pairs up to `closer` (nil: the end of the input).
    private mutating func members(closedBy closer: UInt8?, depth: Int = 0) throws {
        while true {
            try skipSpaceAndComments()
            if let closer {
                guard position < count else { throw CartographError(.unexpectedEnd, "the OpenStep plist ends inside a dictionary", offset: count) }
                if input[position] == closer {
                    position += 1
                    return
                }
            } else if position == count {
                return
            }
            let keyStart = position
            let key = try string()
            try accept(builder.key(key.span, at: keyStart))
            try skipSpaceAndComments()
            if position < count, input[position] == UInt8(ascii: ";") {
                // `key;` is `key = key;`, as Foundation reads it.
                try accept(builder.string(key.span, at: keyStart))
                position += 1
                continue
            }
            guard position < count, input[position] == UInt8(ascii: "=") else { throw fail("a dictionary key without `=`") }
            position += 1
            try value(depth: depth + 1)
            try skipSpaceAndComments()
            guard position < count, input[position] == UInt8(ascii: ";") else { throw fail("a dictionary value without `;`") }
            position += 1
        }
    }

    /// Values separated by commas (one after the last allowed) up to `)`.
    private mutating func elements(depth: Int) throws {
        try skipSpaceAndComments()
        if position < count, input[position] == UInt8(ascii: ")") {
            position += 1
            return
        }
        while true {
            try value(depth: depth + 1)
            try skipSpaceAndComments()
            guard position < count else { throw CartographError(.unexpectedEnd, "the OpenStep plist ends inside an array", offset: count) }
            switch input[position] {
            case UInt8(ascii: ")"):
                position += 1
                return
            case UInt8(ascii: ","):
                position += 1
                try skipSpaceAndComments()
                if position < count, input[position] == UInt8(ascii: ")") {
                    position += 1
                    return
                }
            default:
                throw fail("array elements without `,` between them")
            }
        }
    }

    /// `<` hex digits, spaces between them, `>`.
    private mutating func data() throws {
        let start = position
        position += 1
        var bytes: [UInt8] = []
        var high: UInt8?
        while position < count, input[position] != UInt8(ascii: ">") {
            let byte = input[position]
            if Self.isSpace(byte) {
                position += 1
                continue
            }
            guard let nibble = HexDigits.value(byte) else { throw fail("data holds a byte that is not a hex digit") }
            if let first = high {
                bytes.append(first << 4 | nibble)
                high = nil
            } else {
                high = nibble
            }
            position += 1
        }
        guard position < count else { throw CartographError(.unexpectedEnd, "the OpenStep plist ends inside data", offset: count) }
        guard high == nil else { throw fail("data with an odd number of hex digits") }
        position += 1
        try PlistScalars.data(bytes.span, at: start, into: builder)
    }

    // MARK: Strings

    /// A quoted or unquoted string, as UTF-8.
    private mutating func string() throws -> [UInt8] {
        guard position < count else { throw CartographError(.unexpectedEnd, "the OpenStep plist ends where a string belongs", offset: count) }
        let quote = input[position]
        guard quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else {
            let start = position
            while position < count, Self.isUnquoted(input[position]) { position += 1 }
            guard position > start else { throw fail("an unexpected character where a value belongs") }
            return input.extracting(start..<position).copiedBytes
        }
        let start = position
        position += 1
        var text: [UInt8] = []
        while true {
            guard position < count else { throw CartographError(.unexpectedEnd, "the OpenStep plist ends inside a string", offset: start) }
            let byte = input[position]
            position += 1
            if byte == quote { return text }
            if byte == UInt8(ascii: "\\") {
                try escape(into: &text)
            } else {
                text.append(byte)
            }
        }
    }

    /// Skips a string without keeping it (to look ahead).
    private mutating func skipString() throws {
        _ = try string()
    }

    /// The character after a `\`.
    private mutating func escape(into text: inout [UInt8]) throws {
        guard position < count else { throw CartographError(.unexpectedEnd, "the OpenStep plist ends inside an escape", offset: count) }
        let byte = input[position]
        position += 1
        switch byte {
        case UInt8(ascii: "a"): text.append(0x07)
        case UInt8(ascii: "b"): text.append(0x08)
        // `\f` and `\v` are U+0012 and U+0011 here, not form feed and
        // vertical tab: Foundation reads them so, and its own test
        // (`oldStylePlist_getSlashedChars_literals`) pins it.
        case UInt8(ascii: "f"): text.append(0x12)
        case UInt8(ascii: "n"): text.append(0x0A)
        case UInt8(ascii: "r"): text.append(0x0D)
        case UInt8(ascii: "t"): text.append(0x09)
        case UInt8(ascii: "v"): text.append(0x11)
        case UInt8(ascii: "U"):
            let unit = unicodeUnit()
            // A surrogate, even one of a pair, is refused, as Foundation refuses it.
            guard let scalar = Unicode.Scalar(unit) else {
                throw CartographError(.invalidEscape, "invalid OpenStep plist: a `\\U` escape spells a surrogate", offset: position - 1)
            }
            text.append(contentsOf: String(Character(scalar)).utf8)
        case UInt8(ascii: "0")...UInt8(ascii: "7"):
            var value = byte - UInt8(ascii: "0")
            for _ in 0..<2 {
                guard position < count, (UInt8(ascii: "0")...UInt8(ascii: "7")).contains(input[position]) else { break }
                value = value << 3 &+ (input[position] - UInt8(ascii: "0"))
                position += 1
            }
            text.append(contentsOf: Self.nextStep(value).utf8)
        default:
            text.append(byte)
        }
    }

    /// The zero to four hex digits after `\U` (none is U+0000, as Foundation reads it).
    private mutating func unicodeUnit() -> UInt16 {
        var value: UInt16 = 0
        var digits = 0
        while digits < 4, position < count, let nibble = HexDigits.value(input[position]) {
            value = value << 4 | UInt16(nibble)
            digits += 1
            position += 1
        }
        return value
    }

    /// The NeXTSTEP character set's characters above ASCII, from
    /// Foundation's own conversion (U+FFFD where the set has none).
    private static let nextStepHigh: [String] = (128...255).map { byte in
        String(bytes: [UInt8(byte)], encoding: .nextstep) ?? "\u{FFFD}"
    }

    /// The character of an octal escape's byte.
    private static func nextStep(_ byte: UInt8) -> String {
        byte < 128 ? String(Character(Unicode.Scalar(byte))) : nextStepHigh[Int(byte) - 128]
    }

    // MARK: Space

    private mutating func skipSpaceAndComments() throws {
        guard let next = Self.afterSpaceAndComments(input, from: position) else {
            throw CartographError(.unexpectedEnd, "the OpenStep plist ends inside a comment", offset: position)
        }
        position = next
    }

    /// Where the first byte after `start` that is not space or inside a
    /// comment is (`count` when none is), or nil when a `/*` comment never ends.
    private static func afterSpaceAndComments(_ text: Span<UInt8>, from start: Int) -> Int? {
        let count = text.count
        var position = start
        while position < count {
            let byte = text[position]
            if isSpace(byte) {
                position += 1
            } else if byte == UInt8(ascii: "/"), position + 1 < count, text[position + 1] == UInt8(ascii: "/") {
                while position < count, text[position] != UInt8(ascii: "\n"), text[position] != UInt8(ascii: "\r") { position += 1 }
            } else if byte == UInt8(ascii: "/"), position + 1 < count, text[position + 1] == UInt8(ascii: "*") {
                position += 2
                while position + 1 < count, !(text[position] == UInt8(ascii: "*") && text[position + 1] == UInt8(ascii: "/")) { position += 1 }
                guard position + 1 < count else { return nil }
                position += 2
            } else {
                break
            }
        }
        return position
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == 0x0B || byte == 0x0C
    }

    /// What an unquoted string is made of (CFOldStylePList's set).
    private static func isUnquoted(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): true
        case UInt8(ascii: "_"), UInt8(ascii: "$"), UInt8(ascii: "/"), UInt8(ascii: ":"), UInt8(ascii: "."), UInt8(ascii: "-"): true
        default: false
        }
    }
}
