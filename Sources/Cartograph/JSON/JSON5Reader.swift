import Foundation

/// Reads JSON5 (json5.org) held whole in memory into a ``DocumentBuilder``:
/// the reader behind ``ParseOptions/allowsJSON5`` (and so behind
/// `CartographJSONDecoder.allowsJSON5`). yajl reads JSON only; JSON5 input
/// is rare and small (configuration files), so this reader is plain Swift
/// over the bytes, iterative (a nesting depth costs no stack) and whole-input
/// only.
///
/// What it takes, as JSON5 defines it: comments, unquoted (identifier) and
/// single-quoted keys, single-quoted strings, trailing commas, hexadecimal
/// numbers, leading and trailing decimal points, a plus sign, `Infinity` and
/// `NaN`, and JSON5's whitespace (also U+00A0, U+FEFF, U+2028, U+2029 and
/// the other space separators). Where Foundation's JSON5 reader departs from
/// the specification, this reader follows Foundation, so that a
/// `CartographJSONDecoder` reads what `JSONDecoder` reads: an escaped line
/// break keeps the line break, and `\0`, `\v`, `\x00`, `\u0000` and escapes
/// of other characters are refused.
///
/// Numbers reach the tape as JSON number text (`+0x1F` is stored as `31`,
/// `.5` as `0.5`, `1.` as `1`), so every number reader takes them unchanged;
/// `Infinity` and `NaN` are stored as that text with ``TapeFlags/nonFinite``.
///
/// The reader keeps its input as a `Span` (it is `~Escapable`: it cannot
/// outlive the bytes), so every byte it reads is bounds-checked.
struct JSON5Reader: ~Escapable {
    /// The input and one zero byte after it (see ``parse(_:options:)``).
    private let bytes: Span<UInt8>
    /// The input's length: where the text ends, one before the span does.
    private let end: Int
    private var at = 0
    private let builder: DocumentBuilder
    /// Decoded string, key or number text (reused).
    private var scratch: [UInt8] = []

    @_lifetime(copy bytes)
    private init(bytes: Span<UInt8>, count: Int, builder: DocumentBuilder) {
        self.bytes = bytes
        end = count
        self.builder = builder
    }

    /// Parses `input` whole; errors carry their offset, line and column.
    /// `assumesTopLevelObject`: the input may be an object's members
    /// without their braces (Foundation's `assumesTopLevelDictionary`).
    static func parse(_ input: Span<UInt8>, options: ParseOptions) throws -> Document {
        let options = options.bounded(streamed: false)
        guard input.count <= options.maxInputBytes else {
            throw CartographError(.inputTooLarge, "input larger than maxInputBytes (\(options.maxInputBytes))", offset: options.maxInputBytes)
        }
        let builder = DocumentBuilder(options: options, expectedInputBytes: input.count)
        // A copy with one byte more, so that a one-byte lookahead past the
        // end (the reader's `bytes[at + 1]`) reads a zero.
        var padded: [UInt8] = []
        padded.reserveCapacity(input.count + 1)
        input.append(to: &padded)
        padded.append(0)
        var reader = JSON5Reader(bytes: padded.span, count: input.count, builder: builder)
        do throws(CartographError) {
            try reader.read(options: options)
        } catch {
            throw (builder.failure ?? error).locating(in: input)
        }
        return builder.makeDocument()
    }

    // MARK: Structure

    private enum State { case value, elementOrClose, keyOrClose, afterValue }

    private mutating func read(options: ParseOptions) throws(CartographError) {
        if end >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
            if options.byteOrderMark == .reject { throw CartographError(.syntax, "a byte order mark before the JSON5 text", offset: 0) }
            at = 3
        }
        // Open containers, innermost last: true for an object.
        var open: [Bool] = []
        var state = State.value
        skipWhitespace()
        // The members of a top-level object whose braces are left out end at
        // the end of the input instead of at a `}`.
        let implicitObject = options.assumesTopLevelObject && !(at < end && bytes[at] == UInt8(ascii: "{"))
        if implicitObject {
            try check(builder.begin(object: true, at: at))
            open.append(true)
            state = .keyOrClose
        }
        while true {
            switch state {
            case .value:
                try skipWhitespaceBeforeMore()
                switch bytes[at] {
                case UInt8(ascii: "{"):
                    try check(builder.begin(object: true, at: at))
                    at += 1
                    open.append(true)
                    state = .keyOrClose
                case UInt8(ascii: "["):
                    try check(builder.begin(object: false, at: at))
                    at += 1
                    open.append(false)
                    state = .elementOrClose
                default:
                    try readScalar()
                    state = .afterValue
                }
            case .elementOrClose:
                try skipWhitespaceBeforeMore()
                if bytes[at] == UInt8(ascii: "]") {
                    try close(&open)
                    state = .afterValue
                } else {
                    state = .value
                }
            case .keyOrClose:
                skipWhitespace()
                if at == end, implicitObject, open.count == 1 {
                    try check(builder.end())
                    return try finish()
                }
                try needMore()
                if bytes[at] == UInt8(ascii: "}"), !(implicitObject && open.count == 1) {
                    try close(&open)
                    state = .afterValue
                    continue
                }
                try readKey()
                try skipWhitespaceBeforeMore()
                guard bytes[at] == UInt8(ascii: ":") else { throw unexpected("':' after an object key") }
                at += 1
                state = .value
            case .afterValue:
                guard let isObject = open.last else { return try finish() }
                skipWhitespace()
                if at == end, implicitObject, open.count == 1 {
                    try check(builder.end())
                    return try finish()
                }
                try needMore()
                switch bytes[at] {
                case UInt8(ascii: ","):
                    at += 1
                    state = isObject ? .keyOrClose : .elementOrClose
                case UInt8(ascii: "}") where isObject && !(implicitObject && open.count == 1),
                    UInt8(ascii: "]") where !isObject:
                    try close(&open)
                default:
                    throw unexpected(isObject ? "',' or '}' after an object member" : "',' or ']' after an array element")
                }
            }
        }
    }

    private mutating func close(_ open: inout [Bool]) throws(CartographError) {
        try check(builder.end())
        open.removeLast()
        at += 1
    }

    /// Only whitespace and comments may follow the value.
    private mutating func finish() throws(CartographError) {
        skipWhitespace()
        if at < end { throw unexpected("the end of the input after the value") }
    }

    private func check(_ accepted: Bool) throws(CartographError) {
        if !accepted { throw builder.failure ?? CartographError(.syntax, "the JSON5 text was refused", offset: at) }
    }

    private func needMore() throws(CartographError) {
        if at >= end { throw CartographError(.unexpectedEnd, "the JSON5 text ends inside a value", offset: end) }
    }

    private mutating func skipWhitespaceBeforeMore() throws(CartographError) {
        skipWhitespace()
        try needMore()
    }

    private func unexpected(_ expected: String) -> CartographError {
        if at >= end { return CartographError(.unexpectedEnd, "the JSON5 text ends where \(expected) should be", offset: end) }
        let byte = bytes[at]
        let shown = byte >= 0x20 && byte < 0x7F ? "'\(Character(UnicodeScalar(byte)))'" : "byte 0x\(String(byte, radix: 16, uppercase: true))"
        return CartographError(.syntax, "expected \(expected), found \(shown)", offset: at)
    }

    // MARK: Whitespace and comments

    /// Skips whitespace and comments. An unterminated block comment is left
    /// in place (the next read reports it).
    private mutating func skipWhitespace() {
        while at < end {
            let byte = bytes[at]
            switch byte {
            case 0x20, 0x09, 0x0A, 0x0B, 0x0C, 0x0D:
                at += 1
            case UInt8(ascii: "/"):
                if bytes[at + 1] == UInt8(ascii: "/") {
                    at += 2
                    while at < end, bytes[at] != 0x0A, bytes[at] != 0x0D, unicodeLineBreakLength(at) == 0 { at += 1 }
                } else if bytes[at + 1] == UInt8(ascii: "*") {
                    var probe = at + 2
                    while probe + 1 < end, !(bytes[probe] == UInt8(ascii: "*") && bytes[probe + 1] == UInt8(ascii: "/")) { probe += 1 }
                    guard probe + 1 < end else { return }
                    at = probe + 2
                } else {
                    return
                }
            case 0x80...:
                let length = unicodeSpaceLength(at)
                guard length > 0 else { return }
                at += length
            default:
                return
            }
        }
    }

    /// The UTF-8 length of a non-ASCII JSON5 whitespace character at `index` (0: none).
    private func unicodeSpaceLength(_ index: Int) -> Int {
        let first = bytes[index]
        guard index + 1 < end else { return 0 }
        let second = bytes[index + 1]
        if first == 0xC2 { return second == 0xA0 ? 2 : 0 } // U+00A0
        guard index + 2 < end else { return 0 }
        let third = bytes[index + 2]
        switch (first, second) {
        case (0xEF, 0xBB): return third == 0xBF ? 3 : 0 // U+FEFF
        case (0xE1, 0x9A): return third == 0x80 ? 3 : 0 // U+1680
        case (0xE2, 0x80): // U+2000–200A, 2028, 2029, 202F
            return (0x80...0x8A).contains(third) || third == 0xA8 || third == 0xA9 || third == 0xAF ? 3 : 0
        case (0xE2, 0x81): return third == 0x9F ? 3 : 0 // U+205F
        case (0xE3, 0x80): return third == 0x80 ? 3 : 0 // U+3000
        default: return 0
        }
    }

    /// The UTF-8 length of U+2028 or U+2029 at `index` (0: neither).
    private func unicodeLineBreakLength(_ index: Int) -> Int {
        index + 2 < end && bytes[index] == 0xE2 && bytes[index + 1] == 0x80 && (bytes[index + 2] == 0xA8 || bytes[index + 2] == 0xA9) ? 3 : 0
    }

    // MARK: Scalars

    private mutating func readScalar() throws(CartographError) {
        let start = at
        switch bytes[at] {
        case UInt8(ascii: "\""), UInt8(ascii: "'"):
            try readString()
            try check(builder.string(scratch.span, at: start))
        case UInt8(ascii: "n"):
            try expectWord("null")
            try check(builder.literal(.null, at: start))
        case UInt8(ascii: "t"):
            try expectWord("true")
            try check(builder.literal(.true, at: start))
        case UInt8(ascii: "f"):
            try expectWord("false")
            try check(builder.literal(.false, at: start))
        case UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "I"), UInt8(ascii: "N"):
            let flags = try readNumber()
            try check(builder.number(scratch.span, at: start, flags: flags))
        default:
            throw unexpected("a value")
        }
    }

    private mutating func expectWord(_ word: StaticString) throws(CartographError) {
        let start = at
        let count = word.utf8CodeUnitCount
        guard end - at >= count, bytes.matches(word, at: at) else {
            throw CartographError(at + count > end ? .unexpectedEnd : .syntax, "expected '\(word)'", offset: start)
        }
        at += count
        if at < end, isIdentifierPart(at) { throw CartographError(.syntax, "expected '\(word)'", offset: start) }
    }

    /// Reads a number into `scratch` as JSON number text; returns its tape flags.
    private mutating func readNumber() throws(CartographError) -> UInt8 {
        let start = at
        scratch.removeAll(keepingCapacity: true)
        var negative = false
        if bytes[at] == UInt8(ascii: "+") || bytes[at] == UInt8(ascii: "-") {
            negative = bytes[at] == UInt8(ascii: "-")
            at += 1
        }
        if negative { scratch.append(UInt8(ascii: "-")) }
        func invalid(_ what: String) -> CartographError { CartographError(.syntax, "invalid number: \(what)", offset: start) }
        switch bytes[at] {
        case UInt8(ascii: "I"), UInt8(ascii: "N"):
            let infinity = bytes[at] == UInt8(ascii: "I")
            try expectWord(infinity ? "Infinity" : "NaN")
            scratch.append(contentsOf: (infinity ? "Infinity" : "NaN").utf8)
            return TapeFlags.nonFinite
        case UInt8(ascii: "0") where bytes[at + 1] | 0x20 == UInt8(ascii: "x"):
            at += 2
            var value: UInt64 = 0
            var digits = 0
            while at < end, let digit = HexDigits.value(bytes[at]) {
                let (shifted, overflow) = value.multipliedReportingOverflow(by: 16)
                guard !overflow else { throw CartographError(.numberOutOfRange, "hexadecimal number larger than 64 bits", offset: start) }
                value = shifted | UInt64(digit)
                digits += 1
                at += 1
            }
            guard digits > 0 else { throw invalid("no digits after 0x") }
            // A hexadecimal number is an integer: -0x0 is 0, as Foundation reads it.
            if value == 0 { scratch.removeAll(keepingCapacity: true) }
            scratch.append(contentsOf: String(value).utf8)
        default:
            let integerStart = at
            if bytes[at] == UInt8(ascii: "0"), at + 1 < end, NumberText.isDigit(bytes[at + 1]) { throw invalid("a leading zero") }
            while at < end, NumberText.isDigit(bytes[at]) { at += 1 }
            let integerDigits = at - integerStart
            var fractionStart = at
            var fractionDigits = 0
            if at < end, bytes[at] == UInt8(ascii: ".") {
                at += 1
                fractionStart = at
                while at < end, NumberText.isDigit(bytes[at]) { at += 1 }
                fractionDigits = at - fractionStart
            }
            guard integerDigits + fractionDigits > 0 else { throw invalid("no digits") }
            if integerDigits > 0 {
                bytes.extracting(integerStart..<integerStart + integerDigits).append(to: &scratch)
            } else {
                scratch.append(UInt8(ascii: "0"))
            }
            if fractionDigits > 0 {
                scratch.append(UInt8(ascii: "."))
                bytes.extracting(fractionStart..<fractionStart + fractionDigits).append(to: &scratch)
            }
            if at < end, bytes[at] | 0x20 == UInt8(ascii: "e") {
                scratch.append(UInt8(ascii: "e"))
                at += 1
                if at < end, bytes[at] == UInt8(ascii: "+") || bytes[at] == UInt8(ascii: "-") {
                    scratch.append(bytes[at])
                    at += 1
                }
                let exponentStart = at
                while at < end, NumberText.isDigit(bytes[at]) { at += 1 }
                guard at > exponentStart else { throw invalid("no digits in the exponent") }
                bytes.extracting(exponentStart..<at).append(to: &scratch)
            }
        }
        if at < end, isIdentifierPart(at) || bytes[at] == UInt8(ascii: ".") { throw invalid("unexpected character after it") }
        return 0
    }

    // MARK: Strings and keys

    /// Reads a quoted string (either quote) into `scratch`, unescaped.
    private mutating func readString() throws(CartographError) {
        let quote = bytes[at]
        let start = at
        at += 1
        scratch.removeAll(keepingCapacity: true)
        while true {
            guard at < end else { throw CartographError(.unexpectedEnd, "unterminated string", offset: start) }
            let byte = bytes[at]
            if byte == quote {
                at += 1
                return
            }
            switch byte {
            case UInt8(ascii: "\\"):
                try readEscape()
            case 0x0A, 0x0D:
                throw CartographError(.syntax, "a line break inside a string (escape it as \\n)", offset: at)
            case 0x00..<0x20:
                throw CartographError(.syntax, "a control character (0x\(String(byte, radix: 16, uppercase: true))) inside a string", offset: at)
            default:
                scratch.append(byte)
                at += 1
            }
        }
    }

    /// Reads the escape at `at` (a backslash) into `scratch`.
    private mutating func readEscape() throws(CartographError) {
        let start = at
        at += 1
        guard at < end else { throw CartographError(.unexpectedEnd, "unterminated escape", offset: start) }
        let letter = bytes[at]
        at += 1
        switch letter {
        case UInt8(ascii: "\""), UInt8(ascii: "'"), UInt8(ascii: "\\"), UInt8(ascii: "/"): scratch.append(letter)
        case UInt8(ascii: "b"): scratch.append(0x08)
        case UInt8(ascii: "f"): scratch.append(0x0C)
        case UInt8(ascii: "n"): scratch.append(0x0A)
        case UInt8(ascii: "r"): scratch.append(0x0D)
        case UInt8(ascii: "t"): scratch.append(0x09)
        case 0x0A: scratch.append(0x0A)
        case 0x0D:
            scratch.append(0x0D)
            if at < end, bytes[at] == 0x0A {
                scratch.append(0x0A)
                at += 1
            }
        case UInt8(ascii: "x"):
            guard end - at >= 2, let high = HexDigits.value(bytes[at]), let low = HexDigits.value(bytes[at + 1]) else {
                throw CartographError(.invalidEscape, "\\x needs two hexadecimal digits", offset: start)
            }
            at += 2
            let value = high << 4 | low
            guard value != 0 else { throw CartographError(.invalidEscape, "\\x00 (a NUL) is not allowed in JSON5 strings", offset: start) }
            appendScalar(UInt32(value))
        case UInt8(ascii: "u"):
            appendScalar(try readUnicodeEscape(start: start))
        default:
            throw CartographError(.invalidEscape, "unknown escape '\\\(Character(UnicodeScalar(letter)))'", offset: start)
        }
    }

    /// Reads the four hex digits after `\u` (and a low surrogate's escape
    /// after a high one); returns the scalar.
    private mutating func readUnicodeEscape(start: Int) throws(CartographError) -> UInt32 {
        let high = try readHex4(start: start)
        guard (0xD800..<0xE000).contains(high) else {
            guard high != 0 else { throw CartographError(.invalidEscape, "\\u0000 (a NUL) is not allowed in JSON5 strings", offset: start) }
            return high
        }
        guard high < 0xDC00, end - at >= 2, bytes[at] == UInt8(ascii: "\\"), bytes[at + 1] == UInt8(ascii: "u") else {
            throw CartographError(.invalidEscape, "a lone surrogate in a \\u escape", offset: start)
        }
        at += 2
        let low = try readHex4(start: start)
        guard (0xDC00..<0xE000).contains(low) else {
            throw CartographError(.invalidEscape, "a high surrogate not followed by a low one", offset: start)
        }
        return 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)
    }

    private mutating func readHex4(start: Int) throws(CartographError) -> UInt32 {
        guard end - at >= 4, let value = HexDigits.value(of: bytes.extracting(at..<at + 4)) else {
            throw CartographError(.invalidEscape, "\\u needs four hexadecimal digits", offset: start)
        }
        at += 4
        return value
    }

    /// Appends a scalar's UTF-8 (callers pass valid scalars: surrogates are paired first).
    private mutating func appendScalar(_ value: UInt32) {
        UTF8.encode(UnicodeScalar(value) ?? "\u{FFFD}") { scratch.append($0) }
    }

    /// Reads a key: a quoted string or an ECMAScript identifier name.
    private mutating func readKey() throws(CartographError) {
        let start = at
        if bytes[at] == UInt8(ascii: "\"") || bytes[at] == UInt8(ascii: "'") {
            try readString()
        } else {
            scratch.removeAll(keepingCapacity: true)
            var first = true
            while at < end {
                if bytes[at] == UInt8(ascii: "\\") {
                    let escape = at
                    guard end - at >= 2, bytes[at + 1] == UInt8(ascii: "u") else {
                        throw CartographError(.invalidEscape, "only \\u escapes are allowed in an unquoted key", offset: escape)
                    }
                    at += 2
                    let value = try readUnicodeEscape(start: escape)
                    guard let scalar = UnicodeScalar(value), Self.isIdentifier(scalar, first: first) else {
                        throw CartographError(.syntax, "an escaped character that cannot be part of an unquoted key", offset: escape)
                    }
                    appendScalar(value)
                } else {
                    guard let (scalar, length) = try decodeScalar(at), Self.isIdentifier(scalar, first: first) else { break }
                    bytes.extracting(at..<at + length).append(to: &scratch)
                    at += length
                }
                first = false
            }
            if first { throw unexpected("an object key") }
        }
        try check(builder.key(scratch.span, at: start))
    }

    private func isIdentifierPart(_ index: Int) -> Bool {
        if bytes[index] == UInt8(ascii: "\\") { return true }
        guard let decoded = try? decodeScalar(index) else { return false }
        return Self.isIdentifier(decoded.0, first: false)
    }

    /// The scalar whose UTF-8 starts at `index` and its length; invalid UTF-8 throws.
    private func decodeScalar(_ index: Int) throws(CartographError) -> (UnicodeScalar, Int)? {
        let first = bytes[index]
        if first < 0x80 { return (UnicodeScalar(first), 1) }
        let length = first >= 0xF0 ? 4 : first >= 0xE0 ? 3 : first >= 0xC0 ? 2 : 0
        guard length > 0, index + length <= end,
            let text = String(validating: bytes.extracting(index..<index + length).copiedBytes, as: UTF8.self),
            let scalar = text.unicodeScalars.first, text.unicodeScalars.count == 1
        else {
            throw CartographError(.invalidUTF8, "invalid UTF-8 (byte 0x\(String(first, radix: 16, uppercase: true)))", offset: index)
        }
        return (scalar, length)
    }

    /// ECMAScript 5.1's IdentifierStart / IdentifierPart.
    private static func isIdentifier(_ scalar: UnicodeScalar, first: Bool) -> Bool {
        switch scalar {
        case "$", "_": return true
        case "\u{200C}", "\u{200D}": return !first
        default: break
        }
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter, .letterNumber: return true
        case .nonspacingMark, .spacingMark, .decimalNumber, .connectorPunctuation: return !first
        default: return false
        }
    }
}
