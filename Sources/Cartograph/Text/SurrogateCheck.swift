import Foundation

/// Checks the `\u` escapes of one raw JSON string for UTF-16 surrogates that
/// do not pair up.
///
/// yajl turns a lone high surrogate into `?` and combines a high surrogate
/// with whatever `\u` follows it, so the decoded text cannot tell; this check
/// reads the raw text between the quotes. It runs only for strings whose
/// decoded form could hide such a case (one holding `?`, a 4-byte sequence,
/// or the `ED` lead byte of an encoded lone low surrogate).
enum SurrogateCheck {
    /// The offset (within `raw`) of the first escape that breaks pairing, or
    /// nil.
    ///
    /// Only `\uD…` escapes can hold a surrogate, so the check goes from one
    /// of them to the next (found 32 byte triples at a step in C), never
    /// through the escapes between: a high surrogate must be followed right
    /// away by a `\u` escape of a low one, which ends the pair; a low one
    /// found on its own is unpaired. A candidate is an escape when the run
    /// of backslashes before its own is even (a backslash after anything
    /// but a backslash always starts an escape). Walking from backslash to
    /// backslash with `memchr` stopped at every escape: 17% of parsing text
    /// from an ASCII-only encoder (`\u00e9`, `\n`, emoji as pairs).
    static func firstUnpaired(in raw: Span<UInt8>) -> Int? {
        // Where the search resumes: never right after a backslash (always
        // after a `u` or a hex digit), so the run before a later candidate
        // starts at or after it.
        var from = 0
        while from < raw.count {
            let found = CText.findSurrogateEscape(in: raw, from: from)
            guard found >= 0 else { return nil }
            let candidate = from + found
            var run = candidate
            while run > from, raw[run - 1] == UInt8(ascii: "\\") { run -= 1 }
            guard (candidate - run) % 2 == 0, let unit = unit(in: raw, at: candidate) else {
                // An escaped backslash and the text "uD…", or no four hex digits.
                from = candidate + 2
                continue
            }
            switch unit {
            case 0xD800...0xDBFF:
                let next = candidate + 6
                guard let low = self.unit(in: raw, at: next), (0xDC00...0xDFFF).contains(low) else { return candidate }
                from = next + 6
            case 0xDC00...0xDFFF:
                return candidate
            default:
                from = candidate + 6
            }
        }
        return nil
    }

    /// The code unit of a `\u` escape of four hex digits starting at
    /// `index`, or nil when there is none there.
    @inline(__always)
    private static func unit(in raw: Span<UInt8>, at index: Int) -> UInt32? {
        guard index + 6 <= raw.count, raw[index] == UInt8(ascii: "\\"), raw[index + 1] == UInt8(ascii: "u") else { return nil }
        return HexDigits.value(of: raw.extracting(index + 2..<index + 6))
    }

    /// Whether decoded string bytes could hide an unpaired surrogate: they
    /// hold `?` (yajl's stand-in for a lone high surrogate) or a byte of 0xED
    /// and above (an encoded surrogate, or a 4-byte sequence yajl may have
    /// combined from a mismatched pair). Eight bytes at a time, whatever the
    /// text (a byte loop after the first non-ASCII byte was 9% of parsing
    /// text in other scripts).
    static func needsRawCheck(_ bytes: Span<UInt8>) -> Bool {
        @inline(__always) func suspicious(_ word: UInt64) -> Bool {
            let questionMarks = word ^ 0x3F3F_3F3F_3F3F_3F3F
            let hasQuestionMark = (questionMarks &- 0x0101_0101_0101_0101) & ~questionMarks & 0x8080_8080_8080_8080
            // A byte >= 0xED: its high bit set and its low seven bits >= 0x6D
            // (adding 0x13 to them carries into bit 7, never past the byte).
            let high = ((word & 0x7F7F_7F7F_7F7F_7F7F) &+ 0x1313_1313_1313_1313) & word & 0x8080_8080_8080_8080
            return hasQuestionMark | high != 0
        }
        let count = bytes.count
        var index = 0
        while index + 8 <= count {
            if suspicious(bytes.word(at: index)) { return true }
            index += 8
        }
        while index < count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "?") || byte >= 0xED { return true }
            index += 1
        }
        return false
    }
}
