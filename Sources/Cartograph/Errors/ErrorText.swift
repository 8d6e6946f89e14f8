/// Text taken from the input, made safe to put in a message.
///
/// Error messages, paths and excerpts end up in logs, HTTP error bodies and
/// terminals. A key or string holding CR, LF or ESC would let a client
/// forge log lines or drive a terminal, and bidirectional overrides would
/// let it reorder what a reader sees, so every such character is written
/// as an escape (`\u{1B}`) wherever input-derived text reaches a message:
/// ``CartographError`` applies this to everything it holds, and
/// ``PathTrail``'s spelling to every key it spells.
enum ErrorText {
    /// Whether `scalar` must not appear in a message as itself: C0 and C1
    /// controls, DEL, the line and paragraph separators, and the Unicode
    /// bidirectional marks, embeddings, overrides and isolates.
    @inline(__always)
    static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0..<0x20, 0x7F...0x9F: return true
        case 0x061C, 0x200E, 0x200F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }

    /// `text` with each unsafe scalar written as `\u{XX}`; text that has
    /// none (nearly all) is returned as it is.
    static func escaped(_ text: String) -> String {
        guard needsEscaping(text) else { return text }
        var result = ""
        result.unicodeScalars.reserveCapacity(text.unicodeScalars.count + 8)
        for scalar in text.unicodeScalars { append(scalar, to: &result) }
        return result
    }

    /// `text` in double quotes, with `"` and `\` escaped as well (so the
    /// quoted text cannot be confused with an escape the quoting added).
    static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            default: append(scalar, to: &result)
            }
        }
        return result + "\""
    }

    /// Appends `scalar` as itself, or as `\u{XX}` when it is unsafe.
    @inline(__always)
    private static func append(_ scalar: Unicode.Scalar, to result: inout String) {
        if isUnsafe(scalar) {
            result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
        } else {
            result.unicodeScalars.append(scalar)
        }
    }

    /// Whether any scalar of `text` is unsafe: a byte scan, since only
    /// bytes below 0x20, DEL and a few multi-byte leads can start one.
    private static func needsEscaping(_ text: String) -> Bool {
        for byte in text.utf8 where byte < 0x20 || byte == 0x7F || byte == 0xC2 || byte == 0xD8 || byte == 0xE2 {
            return text.unicodeScalars.contains(where: isUnsafe)
        }
        return false
    }
}

extension CartographError {
    /// `text` as it may appear in a message, a log line or a terminal:
    /// control characters, line separators and bidirectional overrides
    /// written as `\u{XX}` escapes. Every text a ``CartographError`` holds
    /// is already in this form; use this for text of your own that comes
    /// from a request (a file name, a header) before logging it.
    public static func printable(_ text: String) -> String {
        ErrorText.escaped(text)
    }
}
