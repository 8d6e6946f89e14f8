import Foundation

/// Writes the XML format as the walker goes, in the layout Apple's tools
/// write (tab indentation, `<dict/>` for an empty dict, dates in whole
/// seconds, which is all the format holds).
struct XMLPlistSink: PlistSink {
    private var output: [UInt8]
    private var depth = 0

    init(capacity: Int = 4096) {
        output = []
        output.reserveCapacity(capacity)
        output.append(contentsOf: """
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

    private mutating func open(_ tag: StaticString, empty: StaticString, count: Int) {
        indent()
        if count == 0 {
            append(empty)
        } else {
            append(tag)
            depth += 1
        }
    }

    private mutating func close(_ tag: StaticString, count: Int) {
        guard count > 0 else { return }
        depth -= 1
        indent()
        append(tag)
    }

    @inline(__always)
    private mutating func append(_ text: StaticString) {
        output.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    mutating func beginArray(count: Int) throws { open("<array>\n", empty: "<array/>\n", count: count) }
    mutating func endArray(count: Int) throws { close("</array>\n", count: count) }
    mutating func beginDict(count: Int) throws { open("<dict>\n", empty: "<dict/>\n", count: count) }
    mutating func endDict(count: Int) throws { close("</dict>\n", count: count) }

    mutating func key(_ key: String) throws { element("<key>", escaping: key, "</key>\n") }

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

    mutating func real(_ value: Double) throws {
        indent()
        append("<real>")
        output.append(contentsOf: DoubleFormatting.shortest(value).utf8)
        append("</real>\n")
    }

    mutating func string(_ value: String) throws { element("<string>", escaping: value, "</string>\n") }

    mutating func date(_ value: Date) throws {
        indent()
        append("<date>")
        output.append(contentsOf: DateFormats.iso8601String(value, fractional: false).utf8)
        append("</date>\n")
    }

    mutating func data(_ value: Data) throws {
        indent()
        append("<data>")
        output.append(contentsOf: value.base64EncodedString().utf8)
        append("</data>\n")
    }

    private mutating func appendDecimal(_ magnitude: UInt64, negative: Bool) {
        DecimalText.withDigits(magnitude, negative: negative) { output.append(contentsOf: $0) }
    }

    /// `<tag>text</tag>` with `&`, `<` and `>` escaped, runs without them copied whole.
    private mutating func element(_ open: StaticString, escaping text: String, _ close: StaticString) {
        indent()
        append(open)
        var text = text
        text.withUTF8 { bytes in
            var runStart = 0
            for index in 0..<bytes.count {
                let byte = bytes[index]
                guard byte == UInt8(ascii: "&") || byte == UInt8(ascii: "<") || byte == UInt8(ascii: ">") else { continue }
                output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
                switch byte {
                case UInt8(ascii: "&"): append("&amp;")
                case UInt8(ascii: "<"): append("&lt;")
                default: append("&gt;")
                }
                runStart = index + 1
            }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart...]))
        }
        append(close)
    }
}
