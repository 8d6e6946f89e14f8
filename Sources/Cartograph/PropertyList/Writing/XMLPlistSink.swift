import Foundation

/// Writes the XML format as the walker goes, in the layout Apple's tools
/// write (tab indentation, `<dict/>` for an empty dict, dates in whole
/// seconds, which is all the format holds).
struct XMLPlistSink: PlistSink {
    private var output: [UInt8]
    private var depth = 0
    /// The output's length right after the last open tag, until something follows it.
    private var openedAt = -1

    init(capacity: Int = 4096) {
        output = []
        output.reserveCapacity(capacity)
        output.append(
            contentsOf: """
                <?xml version="1.0" encoding="UTF-8"?>
                <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
                <plist version="1.0">

                """.utf8)
    }

    mutating func finish() -> [UInt8] {
        output.append(contentsOf: "</plist>\n".utf8)
        return output
    }

    @inline(__always)
    private mutating func indent() {
        for _ in 0..<depth { output.append(0x09) }
    }

    /// Opens a container; if it closes with nothing in it, ``close(_:)``
    /// turns the open tag into the empty element (`<dict/>`).
    private mutating func open(_ tag: StaticString) {
        indent()
        append(tag)
        depth += 1
        openedAt = output.count
    }

    private mutating func close(_ tag: StaticString) {
        depth -= 1
        if openedAt == output.count {
            output.removeLast(2)
            append("/>\n")
        } else {
            indent()
            append(tag)
        }
        openedAt = -1
    }

    @inline(__always)
    private mutating func append(_ text: StaticString) {
        text.append(to: &output)
    }

    mutating func beginArray() throws { open("<array>\n") }
    mutating func endArray() throws { close("</array>\n") }
    mutating func beginDict() throws { open("<dict>\n") }
    mutating func endDict() throws { close("</dict>\n") }

    mutating func key(_ key: String) throws { try element("<key>", escaping: key, "</key>\n") }

    mutating func bool(_ value: Bool) throws {
        indent()
        append(value ? "<true/>\n" : "<false/>\n")
    }

    mutating func integer(_ value: Int64) throws {
        indent()
        append("<integer>")
        appendDecimal(value.magnitude, negative: value < 0)
        append("</integer>\n")
    }

    mutating func unsigned(_ value: UInt64) throws {
        indent()
        append("<integer>")
        appendDecimal(value, negative: false)
        append("</integer>\n")
    }

    /// Foundation's spelling: the shortest digits, without a `.0` for whole
    /// values (``DoubleFormatting/json(_:)``, as its JSON writer), and
    /// `+infinity`, `-infinity`, `nan`.
    mutating func real(_ value: Double) throws {
        indent()
        append("<real>")
        if value.isNaN {
            append("nan")
        } else if value.isInfinite {
            append(value > 0 ? "+infinity" : "-infinity")
        } else {
            output.append(contentsOf: DoubleFormatting.json(value).utf8)
        }
        append("</real>\n")
    }

    mutating func string(_ value: String) throws { try element("<string>", escaping: value, "</string>\n") }

    mutating func date(_ value: Date) throws {
        indent()
        append("<date>")
        output.append(contentsOf: try PlistDate.xmlText(value).utf8)
        append("</date>\n")
    }

    /// Foundation's layout: the base64 on lines of their own, indented by
    /// the element's depth (at most 8 tabs), each line ending once its
    /// characters and tabs (counted 8 each) reach 76.
    mutating func data(_ value: Data) throws {
        indent()
        append("<data>\n")
        let base64 = Array(value.base64EncodedString().utf8)
        let tabs = min(depth, 8)
        let lineLimit = 76 - 8 * tabs
        var lineStart = 0
        var emitted = 0
        for index in 0..<value.count {
            // Foundation's encoder emits one character for the first and
            // second byte of each three and two for the third; a line is
            // cut after the byte that takes it to the limit.
            emitted += index % 3 == 2 ? 2 : 1
            if emitted - lineStart >= lineLimit {
                line(base64[lineStart..<emitted], tabs: tabs)
                lineStart = emitted
            }
        }
        if lineStart < base64.count { line(base64[lineStart...], tabs: tabs) }
        indent()
        append("</data>\n")
    }

    private mutating func line(_ text: ArraySlice<UInt8>, tabs: Int) {
        for _ in 0..<tabs { output.append(0x09) }
        output.append(contentsOf: text)
        output.append(0x0A)
    }

    private mutating func appendDecimal(_ magnitude: UInt64, negative: Bool) {
        DecimalText.withDigits(magnitude, negative: negative) { $0.append(to: &output) }
    }

    /// `<tag>text</tag>` with `&`, `<` and `>` escaped, runs without them copied whole.
    ///
    /// - Throws: for text holding NUL, which XML cannot hold in any spelling
    ///   (not even `&#0;`), so no XML reader — Cartograph's included — would
    ///   read the file back; the binary format holds it.
    private mutating func element(_ open: StaticString, escaping text: String, _ close: StaticString) throws {
        indent()
        append(open)
        var text = text
        try text.withUTF8Span { bytes in
            var runStart = 0
            for index in bytes.indices {
                let byte = bytes[index]
                guard byte == UInt8(ascii: "&") || byte == UInt8(ascii: "<") || byte == UInt8(ascii: ">") || byte == 0 else { continue }
                if byte == 0 {
                    throw CartographError(
                        .encodingFailed, "a string holding NUL cannot be written in an XML property list (the binary format holds it)",
                        expected: "text without NUL", found: "NUL")
                }
                bytes.extracting(runStart..<index).append(to: &output)
                switch byte {
                case UInt8(ascii: "&"): append("&amp;")
                case UInt8(ascii: "<"): append("&lt;")
                default: append("&gt;")
                }
                runStart = index + 1
            }
            bytes.extracting(runStart...).append(to: &output)
        }
        append(close)
    }
}
