import Foundation

/// Reads an XML property list straight into a ``Document``, through the
/// same ``DocumentBuilder`` JSON uses, without recursion.
///
/// Why Cartograph has its own XML reader rather than only libplist's (still
/// available as ``PropertyListOptions/Reader/libplist``): libplist 2.2's
/// parse alone took longer than the whole budget for reading at twice
/// Foundation's speed, it recurses without a
/// depth limit, and it hands dates out as 32-bit seconds. This reader
/// passes string contents without escapes straight from the input to the
/// tape.
///
/// What it accepts is what Apple's and libplist's writers produce and XML
/// allows around it: an optional BOM, XML declaration, processing
/// instructions, comments and a DOCTYPE (without an internal subset, which
/// Foundation refuses too and no plist writer produces); a
/// `<plist>` root with attributes (or a bare value as the root); the
/// elements `dict`, `array`, `key`, `string`, `integer` (decimal or `0x`
/// hex), `real`, `true`, `false`, `date` (ISO 8601), `data` (base64 with
/// whitespace), each also as an empty element where that means something;
/// the five predefined entities and character references; CDATA sections
/// and comments inside text; `<dict><key>CF$UID</key><integer>…</integer></dict>`
/// as a UID (what libplist and Foundation write for one). Line ends are
/// kept as they are, carriage returns included: XML would normalise them,
/// but Foundation and libplist do not (and Foundation writes `\r` raw), so
/// normalising would change strings on a round trip. Everything else —
/// another element, text between elements, a key without a value,
/// unbalanced tags, content after the root, a NUL byte, an encoding other
/// than UTF-8 — is a ``CartographError`` with the byte offset, line and
/// column.
///
/// The reader keeps its input as a `Span` (it is `~Escapable`: it cannot
/// outlive the bytes it reads), so every byte it reads is bounds-checked.
struct XMLPlistReader: ~Escapable {
    private let bytes: Span<UInt8>
    /// The span's own count, so that a loop bounded by it needs no second check per byte.
    private var count: Int { bytes.count }
    private let options: PropertyListOptions
    private let builder: DocumentBuilder
    private var position = 0
    /// Decoded text when it holds escapes, CDATA or comments.
    private var scratch: [UInt8] = []
    /// Open containers, innermost last.
    private var containers: [Container] = []
    /// The input was converted to UTF-8 from the encoding it declares.
    private var converted = false

    private enum Element {
        case plist, dict, array, key, string, integer, real, date, data, `true`, `false`
    }

    /// A start or end tag.
    private struct Tag {
        var element: Element
        var isEnd: Bool
        /// `<name/>`.
        var isEmpty: Bool
        /// Offset of the `<`.
        var offset: Int
    }

    private struct Container {
        var isDict: Bool
        /// In a dict: the next thing must be a key (or the end of the dict).
        var expectsKey = true
        /// Whether the dict spells a UID: 0 before its first key, 1 after a
        /// first key `CF$UID`, 2 once that key has an integer; 3 when it is
        /// not a UID (another first key, another value, a second key).
        var uidState = 0
    }

    /// Reads the whole plist.
    /// `converted`: the bytes are a UTF-16/32 plist's UTF-8 conversion, so
    /// the encoding its declaration names is not UTF-8 and is not checked.
    static func document(_ bytes: Span<UInt8>, options: PropertyListOptions, parse: ParseOptions, converted: Bool = false) throws
        -> Document
    {
        let builder = DocumentBuilder(options: parse, expectedInputBytes: bytes.count)
        var reader = XMLPlistReader(bytes, options: options, builder: builder)
        reader.converted = converted
        do {
            try reader.run()
        } catch let error as CartographError {
            throw error.locating(in: bytes)
        }
        return builder.makeDocument()
    }

    @_lifetime(copy bytes)
    private init(_ bytes: Span<UInt8>, options: PropertyListOptions, builder: DocumentBuilder) {
        self.bytes = bytes
        self.options = options
        self.builder = builder
    }

    // MARK: Structure

    private func fail(_ message: String, at offset: Int) -> CartographError {
        CartographError(.syntax, "invalid XML plist: \(message)", offset: offset)
    }

    private func cutOff(_ what: String) -> CartographError {
        CartographError(.unexpectedEnd, "the XML plist ends inside \(what)", offset: count)
    }

    @inline(__always)
    private func accept(_ accepted: Bool) throws {
        try PlistScalars.accept(accepted, builder)
    }

    private mutating func run() throws {
        if let nul = bytes.firstIndex(of: 0) {
            throw fail(nul < 2 ? "only UTF-8 XML plists are read (this looks like UTF-16)" : "a NUL byte", at: nul)
        }
        if count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { position = 3 }
        try skipMisc()
        guard position < count else { throw CartographError(.unexpectedEnd, "the XML plist holds no value", offset: count) }
        var tag = try startTag()
        let wrapped = tag.element == .plist
        if wrapped {
            guard !tag.isEmpty else { throw fail("<plist/> holds no value", at: tag.offset) }
            try skipMisc()
            guard position < count else { throw cutOff("<plist>") }
            tag = try startTag()
        }
        try value(tag)
        try readContainers()
        try skipMisc()
        if wrapped {
            guard position < count else { throw cutOff("<plist>") }
            let end = try self.tag()
            guard end.isEnd, end.element == .plist else { throw fail("<plist> holds more than one value", at: end.offset) }
            try skipMisc()
        }
        guard position == count else { throw fail("content after the plist's root element", at: position) }
    }

    /// Until every open container is closed.
    private mutating func readContainers() throws {
        while let last = containers.indices.last {
            try skipMisc()
            guard position < count else { throw cutOff(containers[last].isDict ? "a <dict>" : "an <array>") }
            let tag = try self.tag()
            if tag.isEnd {
                try close(tag, last)
            } else if containers[last].isDict, containers[last].expectsKey {
                guard tag.element == .key else { throw fail("a <dict> holds a value where a <key> belongs", at: tag.offset) }
                try key(tag, last)
            } else {
                if containers[last].isDict {
                    containers[last].expectsKey = true
                    if containers[last].uidState == 1 { containers[last].uidState = tag.element == .integer ? 2 : 3 }
                }
                try value(tag)
            }
        }
    }

    private mutating func close(_ tag: Tag, _ last: Int) throws {
        let container = containers[last]
        guard tag.element == (container.isDict ? .dict : .array) else {
            throw fail("</\(tag.element)> closes \(container.isDict ? "a <dict>" : "an <array>")", at: tag.offset)
        }
        guard container.expectsKey || !container.isDict else { throw fail("the last <key> of the <dict> has no value", at: tag.offset) }
        containers.removeLast()
        try accept(builder.end())
        if container.isDict, container.uidState == 2 {
            // {CF$UID: n} is how XML plists write a UID.
            guard options.uids == .integer else {
                throw CartographError(
                    .typeMismatch, "the plist holds a UID, which these options reject", offset: tag.offset,
                    expected: "a property-list value", found: "UID")
            }
            builder.collapseLastObjectToItsValue()
        }
    }

    private mutating func key(_ tag: Tag, _ last: Int) throws {
        let source = tag.offset
        containers[last].expectsKey = false
        var isUID = false
        try text(of: tag) { [builder] text in
            isUID = text.count == 6 && text.matches("CF$UID", at: 0)
            return builder.key(text, at: source)
        }
        containers[last].uidState = containers[last].uidState == 0 && isUID ? 1 : 3
    }

    /// One value from its start tag: scalars are read whole, containers opened.
    private mutating func value(_ tag: Tag) throws {
        guard !tag.isEnd else { throw fail("</\(tag.element)> where a value belongs", at: tag.offset) }
        let source = tag.offset
        switch tag.element {
        case .dict, .array:
            let isDict = tag.element == .dict
            try accept(builder.begin(object: isDict, at: source))
            if tag.isEmpty {
                try accept(builder.end())
            } else {
                containers.append(Container(isDict: isDict))
            }
        case .string:
            try text(of: tag) { [builder] text in builder.string(text, at: source) }
        case .true, .false:
            try text(of: tag) { text in Self.isBlank(text) }
            try accept(builder.literal(tag.element == .true ? .true : .false, at: source))
        case .integer:
            try integer(tag)
        case .real:
            try real(tag)
        case .date:
            try date(tag)
        case .data:
            try data(tag)
        case .key:
            throw fail("a <key> outside a <dict>", at: source)
        case .plist:
            throw fail("a <plist> inside the plist", at: source)
        }
    }

    // MARK: Scalars

    /// The element's text, trimmed of XML whitespace, as a String (scalars are short).
    /// The element's text without leading whitespace, and without trailing
    /// whitespace unless `keepingTrailingSpace`.
    private mutating func trimmedText(of tag: Tag, keepingTrailingSpace: Bool = false) throws -> String {
        var result = ""
        try text(of: tag) { text in
            var start = 0
            var end = text.count
            while start < end, Self.isSpace(text[start]) { start += 1 }
            while !keepingTrailingSpace, end > start, Self.isSpace(text[end - 1]) { end -= 1 }
            result = text.decodedString(start..<end)
            return true
        }
        return result
    }

    private mutating func integer(_ tag: Tag) throws {
        let text = try trimmedText(of: tag)
        var digits = Substring(text)
        let negative = digits.first == "-"
        // Whitespace may follow the sign (Foundation reads "- 99").
        if negative || digits.first == "+" { digits = digits.dropFirst().drop { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" } }
        var radix = 10
        if digits.hasPrefix("0x") || digits.hasPrefix("0X") {
            radix = 16
            digits = digits.dropFirst(2)
        }
        guard Self.isDigits(digits, radix: radix) else {
            throw CartographError(.syntax, "invalid XML plist: <integer> holds \"\(text)\", which is not an integer", offset: tag.offset)
        }
        guard let magnitude = UInt64(digits, radix: radix), !negative || magnitude <= UInt64(Int64.max) + 1 else {
            throw CartographError(.numberOutOfRange, "the plist holds the integer \(text), which does not fit in 64 bits", offset: tag.offset)
        }
        try PlistScalars.integer(magnitude: magnitude, negative: negative, at: tag.offset, into: builder)
    }

    private mutating func real(_ tag: Tag) throws {
        let text = try trimmedText(of: tag, keepingTrailingSpace: true)
        // As Foundation: leading whitespace is allowed, trailing is not, and
        // hexadecimal (which Swift's Double(String) would take) is not a real.
        let unsigned = text.drop { $0 == "+" || $0 == "-" }
        guard !(text.last?.isWhitespace ?? false), !unsigned.lowercased().hasPrefix("0x") else {
            throw CartographError(.syntax, "invalid XML plist: <real> holds \"\(text)\", which is not a number", offset: tag.offset)
        }
        var value: Double?
        var keepsText = false
        var scanned = text
        scanned.withUTF8Span { bytes in
            if NumberGrammar.isValid(bytes) {
                value = NumberText.double(bytes)
                // A Double halfway between two Floats does not say which
                // side the text was on: the text itself is kept, so that a
                // Float is rounded once from it (``NarrowFloat``).
                keepsText = value.map(NarrowFloat.needsText) ?? false
            }
        }
        if keepsText {
            var kept = text
            try kept.withUTF8Span { try PlistScalars.accept(builder.number($0, at: tag.offset), builder) }
            return
        }
        // Other spellings writers use: "+1.5", "1.", ".5", "1E5", "nan", "inf", "-infinity".
        if value == nil { value = Double(text) ?? (text.lowercased().hasSuffix("infinity") ? Double(text.dropLast(5)) : nil) }
        guard let value else {
            throw CartographError(.syntax, "invalid XML plist: <real> holds \"\(text)\", which is not a number", offset: tag.offset)
        }
        try PlistScalars.real(value, at: tag.offset, into: builder)
    }

    private mutating func date(_ tag: Tag) throws {
        let text = try trimmedText(of: tag)
        // Read as Foundation reads it (PlistDate.xmlDate): lenient fields, Julian before 1582-10-15.
        guard let date = PlistDate.xmlDate(Substring(text)) else {
            throw CartographError(.syntax, "invalid XML plist: <date> holds \"\(text)\", which is not an ISO 8601 date", offset: tag.offset)
        }
        try PlistScalars.date(secondsSince2001: date.timeIntervalSinceReferenceDate, at: tag.offset, into: builder)
    }

    private mutating func data(_ tag: Tag) throws {
        var decoded: [UInt8]?
        try text(of: tag) { text in
            decoded = Base64Text.decode(text)
            return true
        }
        guard let decoded else { throw CartographError(.syntax, "invalid XML plist: <data> is not base64", offset: tag.offset) }
        try PlistScalars.data(decoded.span, at: tag.offset, into: builder)
    }

    /// Whether the text is one or more ASCII digits of the radix (10 or 16)
    /// and nothing else: Swift's integer parsing would also take a sign.
    private static func isDigits(_ digits: Substring, radix: Int) -> Bool {
        !digits.isEmpty && digits.allSatisfy { $0.isASCII && (radix == 16 ? $0.isHexDigit : $0.isNumber) }
    }

    // MARK: Text

    @inline(__always)
    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D
    }

    private static func isBlank(_ text: Span<UInt8>) -> Bool {
        for index in text.indices where !isSpace(text[index]) { return false }
        return true
    }

    /// Hands the decoded text of the element `tag` opened to `body` (a
    /// `false` return is the builder's failure) and moves past its end tag.
    private mutating func text(of tag: Tag, _ body: (Span<UInt8>) -> Bool) throws {
        if tag.isEmpty {
            guard body(bytes.extracting(0..<0)) else { throw textFailure(tag) }
            return
        }
        let start = position
        // The common case: no escape, CDATA or comment before the end tag,
        // so the input's own bytes are the text.
        let index = bytes.firstIndex(from: position) { $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: "&") }
        if index < count, bytes[index] == UInt8(ascii: "<"), index + 1 < count, bytes[index + 1] == UInt8(ascii: "/") {
            position = index
            try endTag(of: tag)
            guard body(bytes.extracting(start..<index)) else { throw textFailure(tag) }
            return
        }
        scratch.removeAll(keepingCapacity: true)
        bytes.extracting(start..<index).append(to: &scratch)
        position = index
        try decodeText(of: tag)
        guard body(scratch.span) else { throw textFailure(tag) }
    }

    private func textFailure(_ tag: Tag) -> CartographError {
        builder.failure ?? fail("<\(tag.element)> holds text where none is allowed", at: tag.offset)
    }

    /// The slow path of ``text(of:_:)``: decodes into ``scratch`` up to the end tag.
    private mutating func decodeText(of tag: Tag) throws {
        while position < count {
            let byte = bytes[position]
            switch byte {
            case UInt8(ascii: "&"):
                try reference()
            case UInt8(ascii: "<"):
                if starts("<!--") {
                    try skip(past: "-->", what: "a comment")
                } else if starts("<![CDATA[") {
                    let contentStart = position + 9
                    try skip(past: "]]>", what: "a CDATA section")
                    bytes.extracting(contentStart..<position - 3).append(to: &scratch)
                } else if position + 1 < count, bytes[position + 1] == UInt8(ascii: "/") {
                    try endTag(of: tag)
                    return
                } else {
                    throw fail("an element inside <\(tag.element)>", at: position)
                }
            default:
                scratch.append(byte)
                position += 1
            }
        }
        throw cutOff("<\(tag.element)>")
    }

    /// `&name;`, `&#123;` or `&#x1F600;` at `position`, appended as UTF-8.
    private mutating func reference() throws {
        let start = position
        var end = position + 1
        while end < count, end - start < 64, bytes[end] != UInt8(ascii: ";") { end += 1 }
        guard end < count, bytes[end] == UInt8(ascii: ";") else { throw fail("an & that starts no entity or character reference", at: start) }
        let name = bytes.decodedString(start + 1..<end)
        position = end + 1
        switch name {
        case "lt": scratch.append(UInt8(ascii: "<"))
        case "gt": scratch.append(UInt8(ascii: ">"))
        case "amp": scratch.append(UInt8(ascii: "&"))
        case "quot": scratch.append(UInt8(ascii: "\""))
        case "apos": scratch.append(UInt8(ascii: "'"))
        default:
            var digits = Substring(name)
            guard digits.first == "#" else { throw fail("the entity &\(name); is not one of XML's five", at: start) }
            digits = digits.dropFirst()
            var radix = 10
            if digits.first == "x" {
                radix = 16
                digits = digits.dropFirst()
            }
            guard Self.isDigits(digits, radix: radix), let value = UInt32(digits, radix: radix), let scalar = Unicode.Scalar(value)
            else { throw fail("&\(name); is not a character XML allows", at: start) }
            guard value != 0 else { throw fail("a character reference to NUL, which XML does not allow", at: start) }
            scratch.append(contentsOf: UTF8.encode(scalar)!)
        }
    }

    // MARK: Tags

    @inline(__always)
    private func starts(_ literal: StaticString) -> Bool {
        bytes.matches(literal, at: position)
    }

    /// Moves past the next `terminator`.
    private mutating func skip(past terminator: StaticString, what: String) throws {
        let length = terminator.utf8CodeUnitCount
        let first = terminator.firstByte
        var index = position
        while index + length <= count {
            if bytes[index] == first, bytes.matches(terminator, at: index) {
                position = index + length
                return
            }
            index += 1
        }
        throw cutOff(what)
    }

    /// Whitespace, comments, processing instructions and a DOCTYPE: what may stand between elements.
    private mutating func skipMisc() throws {
        while position < count {
            let byte = bytes[position]
            if Self.isSpace(byte) {
                position += 1
            } else if byte != UInt8(ascii: "<") {
                throw fail("text outside an element", at: position)
            } else if starts("<!--") {
                try skip(past: "-->", what: "a comment")
            } else if starts("<?") {
                if !converted, starts("<?xml"), let encoding = declaredEncoding(), encoding != "utf-8", encoding != "utf8" {
                    throw fail("only UTF-8 XML plists are read (this one declares \(encoding))", at: position)
                }
                try skip(past: "?>", what: "a processing instruction")
            } else if starts("<!DOCTYPE") {
                try skipDoctype()
            } else {
                return
            }
        }
    }

    /// The `encoding="…"` of the XML declaration at `position`, lowercased.
    private func declaredEncoding() -> String? {
        var end = position
        while end < count, bytes[end] != UInt8(ascii: ">") { end += 1 }
        let declaration = bytes.decodedString(position..<end)
        guard let range = declaration.range(of: "encoding") else { return nil }
        let rest = declaration[range.upperBound...].drop { $0 == " " || $0 == "=" }
        guard let quote = rest.first, quote == "\"" || quote == "'" else { return nil }
        return String(rest.dropFirst().prefix { $0 != quote }).lowercased()
    }

    private mutating func skipDoctype() throws {
        var quote: UInt8 = 0
        var index = position + 9
        while index < count {
            let byte = bytes[index]
            if quote != 0 {
                if byte == quote { quote = 0 }
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                quote = byte
            } else if byte == UInt8(ascii: "[") {
                throw fail("a DOCTYPE with an internal subset (declarations inside [ ]), which plists never have", at: index)
            } else if byte == UInt8(ascii: ">") {
                position = index + 1
                return
            }
            index += 1
        }
        throw cutOff("the DOCTYPE")
    }

    /// A start tag (the caller skipped what may precede it).
    private mutating func startTag() throws -> Tag {
        let tag = try self.tag()
        guard !tag.isEnd else { throw fail("</\(tag.element)> where a value belongs", at: tag.offset) }
        return tag
    }

    /// The end tag of `tag`'s element, at `position`.
    private mutating func endTag(of tag: Tag) throws {
        let end = try self.tag()
        guard end.isEnd, end.element == tag.element else {
            throw fail("</\(end.element)> closes <\(tag.element)>", at: end.offset)
        }
    }

    /// The tag at `position` (which holds `<`), moving past it.
    private mutating func tag() throws -> Tag {
        let offset = position
        var index = position + 1
        let isEnd = index < count && bytes[index] == UInt8(ascii: "/")
        if isEnd { index += 1 }
        let nameStart = index
        index = bytes.firstIndex(from: index) { !Self.isNameByte($0) }
        guard index < count else { throw cutOff("a tag") }
        guard let element = Self.element(bytes.extracting(nameStart..<index)) else {
            let name = bytes.decodedString(nameStart..<index)
            throw fail(name.isEmpty ? "a < that starts no tag" : "<\(name)> is not a property-list element", at: offset)
        }
        var isEmpty = false
        // Attributes (only `<plist version="1.0">` has any in practice) are skipped.
        var quote: UInt8 = 0
        while true {
            guard index < count else { throw cutOff("a tag") }
            let byte = bytes[index]
            index += 1
            if quote != 0 {
                if byte == quote { quote = 0 } else if byte == UInt8(ascii: "<") { throw fail("a < inside an attribute", at: index - 1) }
            } else if byte == UInt8(ascii: ">") {
                break
            } else if byte == UInt8(ascii: "/"), !isEnd, index < count, bytes[index] == UInt8(ascii: ">") {
                isEmpty = true
                index += 1
                break
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                guard !isEnd else { throw fail("an end tag with attributes", at: offset) }
                quote = byte
            } else if byte == UInt8(ascii: "<") || (isEnd && !Self.isSpace(byte)) {
                throw fail("a malformed tag", at: offset)
            }
        }
        position = index
        return Tag(element: element, isEnd: isEnd, isEmpty: isEmpty, offset: offset)
    }

    @inline(__always)
    private static func isNameByte(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
            || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
            || byte == UInt8(ascii: ":") || byte == UInt8(ascii: ".") || byte >= 0x80
    }

    private static func element(_ name: Span<UInt8>) -> Element? {
        func equals(_ literal: StaticString) -> Bool { name.matches(literal, at: 0) }
        switch name.count {
        case 3: return equals("key") ? .key : nil
        case 4:
            return equals("dict") ? .dict : equals("real") ? .real : equals("date") ? .date : equals("data") ? .data : equals("true") ? .true : nil
        case 5: return equals("array") ? .array : equals("plist") ? .plist : equals("false") ? .false : nil
        case 6: return equals("string") ? .string : nil
        case 7: return equals("integer") ? .integer : nil
        default: return nil
        }
    }
}
