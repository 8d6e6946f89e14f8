import Foundation
internal import CCartographTape

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
    /// nil. It goes from backslash to backslash with `memchr`, so a long
    /// string with few escapes — text with emoji, which always takes this
    /// check — costs a scan, not a loop per byte (a byte loop was a fifth of
    /// parsing such text).
    ///
    /// The walk starts at the first `\u` (found 32 byte pairs at a step in
    /// C), or rather at the start of the run of backslashes that holds it:
    /// a backslash after anything but a backslash always starts an escape,
    /// so the walk reads escapes from there as from the start, and no
    /// surrogate can be pending before the first `\u`.
    static func firstUnpaired(in raw: UnsafeBufferPointer<UInt8>) -> Int? {
        guard let base = raw.baseAddress else { return nil }
        let candidate = cartograph_find_unicode_escape(base, raw.count)
        guard candidate >= 0 else { return nil }
        var index = candidate
        while index > 0, raw[index - 1] == UInt8(ascii: "\\") { index -= 1 }
        var pendingHigh: Int?
        while index < raw.count {
            guard let found = memchr(base + index, 0x5C, raw.count - index) else { return pendingHigh }
            let backslash = UnsafeRawPointer(found) - UnsafeRawPointer(base)
            // Text between escapes: a high surrogate before it is unpaired.
            if backslash > index, let pendingHigh { return pendingHigh }
            index = backslash
            guard index + 1 < raw.count, raw[index + 1] == UInt8(ascii: "u"), index + 6 <= raw.count,
                let unit = HexDigits.value(of: raw[(index + 2)..<(index + 6)])
            else {
                if let pendingHigh { return pendingHigh }
                index += 2
                continue
            }
            switch unit {
            case 0xD800...0xDBFF:
                if let pendingHigh { return pendingHigh }
                pendingHigh = index
            case 0xDC00...0xDFFF:
                if pendingHigh == nil { return index }
                pendingHigh = nil
            default:
                if let pendingHigh { return pendingHigh }
            }
            index += 6
        }
        return pendingHigh
    }

    /// Whether decoded string bytes could hide an unpaired surrogate: they
    /// hold `?` (yajl's stand-in for a lone high surrogate) or a byte of 0xED
    /// and above (an encoded surrogate, or a 4-byte sequence yajl may have
    /// combined from a mismatched pair). Eight bytes at a time, whatever the
    /// text (a byte loop after the first non-ASCII byte was 9% of parsing
    /// text in other scripts).
    static func needsRawCheck(_ base: UnsafeRawPointer, count: Int) -> Bool {
        @inline(__always) func suspicious(_ word: UInt64) -> Bool {
            let questionMarks = word ^ 0x3F3F_3F3F_3F3F_3F3F
            let hasQuestionMark = (questionMarks &- 0x0101_0101_0101_0101) & ~questionMarks & 0x8080_8080_8080_8080
            // A byte >= 0xED: its high bit set and its low seven bits >= 0x6D
            // (adding 0x13 to them carries into bit 7, never past the byte).
            let high = ((word & 0x7F7F_7F7F_7F7F_7F7F) &+ 0x1313_1313_1313_1313) & word & 0x8080_8080_8080_8080
            return hasQuestionMark | high != 0
        }
        var index = 0
        while index + 8 <= count {
            if suspicious(base.loadUnaligned(fromByteOffset: index, as: UInt64.self)) { return true }
            index += 8
        }
        let bytes = base.assumingMemoryBound(to: UInt8.self)
        while index < count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "?") || byte >= 0xED { return true }
            index += 1
        }
        return false
    }
}
