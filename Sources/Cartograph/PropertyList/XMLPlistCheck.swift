/// Checks the nesting depth of an XML plist before libplist parses it
/// (libplist 2.2 has no depth limit): counts `<array>` and `<dict>` tags,
/// skipping comments, CDATA and processing instructions.
enum XMLPlistCheck {
    static func check(_ bytes: UnsafeRawBufferPointer, maxDepth: Int) throws {
        var depth = 0
        var index = 0
        let count = bytes.count
        func starts(_ text: StaticString, at position: Int) -> Bool {
            let length = text.utf8CodeUnitCount
            guard position + length <= count else { return false }
            let pointer = text.utf8Start
            for offset in 0..<length where bytes[position + offset] != pointer[offset] { return false }
            return true
        }
        func skip(past terminator: StaticString, from position: Int) -> Int {
            var position = position
            while position < count, !starts(terminator, at: position) { position += 1 }
            return position + terminator.utf8CodeUnitCount
        }
        while index < count {
            if bytes[index] == 0 {
                throw CartographError(.syntax, "the XML plist holds a NUL byte", offset: index)
            }
            if bytes[index] == UInt8(ascii: "&"), starts("&#", at: index) {
                // A character reference to NUL would reach libplist as a NUL in a key, which it aborts on.
                var position = index + 2
                let hex = position < count && (bytes[position] == UInt8(ascii: "x") || bytes[position] == UInt8(ascii: "X"))
                if hex { position += 1 }
                // Only whether the value is zero matters: no arithmetic, so
                // no overflow however many digits there are.
                var digits = 0
                var nonZero = false
                while position < count, bytes[position] != UInt8(ascii: ";") {
                    let byte = bytes[position]
                    let isDigit = (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                        || (hex && ((UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte)))
                    if !isDigit { break }
                    if byte != UInt8(ascii: "0") { nonZero = true }
                    digits += 1
                    position += 1
                }
                if digits > 0, !nonZero {
                    throw CartographError(.syntax, "the XML plist holds a character reference to NUL", offset: index)
                }
            }
            guard bytes[index] == UInt8(ascii: "<") else {
                index += 1
                continue
            }
            if starts("<!--", at: index) {
                index = skip(past: "-->", from: index + 4)
            } else if starts("<![CDATA[", at: index) {
                index = skip(past: "]]>", from: index + 9)
            } else if starts("<?", at: index) || starts("<!", at: index) {
                index = skip(past: ">", from: index + 2)
            } else if starts("<array", at: index) || starts("<dict", at: index) {
                let end = skip(past: ">", from: index + 1)
                let selfClosing = end >= 2 && end - 2 < count && bytes[end - 2] == UInt8(ascii: "/")
                if !selfClosing {
                    depth += 1
                    if depth > maxDepth {
                        throw CartographError(.depthLimitExceeded, "the plist nests deeper than maxDepth (\(maxDepth))", offset: index)
                    }
                }
                index = end
            } else if starts("</array", at: index) || starts("</dict", at: index) {
                depth = max(0, depth - 1)
                index += 2
            } else {
                index += 1
            }
        }
    }
}
