internal import CCartographShims
internal import CCartographTape

/// The C text routines that the pure-Swift layers call, in one place, so
/// that C is imported only in `Unsafe/C/`.
///
/// Each is a thin pass-through: the tape builder's short-copy and surrogate
/// scanner are `static inline` or vectorised C shared with the C side of
/// the parse (one implementation for both), and `strtod_l` needs a GNU
/// extension Swift's Glibc module does not expose.
enum CText {
    /// Copies `count` bytes from `source` to `target` with two overlapping
    /// word copies for short runs (the tape builder's `cartograph_copy_text`).
    @inline(__always)
    static func copy(_ target: UnsafeMutablePointer<UInt8>, from source: UnsafePointer<UInt8>, count: Int) {
        unsafe cartograph_copy_text(target, source, count)
    }

    /// The offset of the next `\uD` escape candidate in `bytes` from
    /// `offset` on (counted from `offset`), or a negative number when there
    /// is none (32 byte triples at a step).
    @inline(__always)
    static func findSurrogateEscape(in bytes: Span<UInt8>, from offset: Int) -> Int {
        let rest = bytes.extracting(offset...)
        return unsafe rest.withUnsafeBufferPointer { unsafe cartograph_find_surrogate_escape($0.baseAddress, $0.count) }
    }

    /// The `\n` bytes in `bytes`, the offset of the last one (nil: none),
    /// and the Unicode scalars after it (or in all of `bytes`, without one);
    /// one pass (``LineCounter``): 32 bytes at a step with AVX2 unless
    /// `vectorised` is false (for tests: the 8-byte loop other processors take).
    static func lineCounts(in bytes: Span<UInt8>, vectorised: Bool = true) -> (newlines: Int, lastNewline: Int?, scalarsAfter: Int) {
        var counts = cartograph_line_counts()
        unsafe bytes.withUnsafeBufferPointer { unsafe cartograph_count_lines($0.baseAddress, $0.count, vectorised ? 1 : 0, &counts) }
        return (counts.newlines, counts.last_newline >= 0 ? counts.last_newline : nil, counts.scalars_after)
    }

    /// The nearest `Double` to number text whose last byte is the NUL that
    /// ends it, read in the C locale whatever the process locale is; traps
    /// when that byte is not a NUL (`strtod` would read past the span).
    static func strtodCLocale(terminated text: Span<UInt8>) -> Double {
        precondition(text.count > 0 && text[text.count - 1] == 0, "Cartograph: number text without its NUL")
        return unsafe text.withUnsafeBufferPointer { buffer in
            unsafe UnsafeRawPointer(buffer.baseAddress!).withMemoryRebound(to: CChar.self, capacity: buffer.count) {
                unsafe cartograph_strtod_c_locale($0)
            }
        }
    }

    /// The nearest `Double` to number text, copied with a NUL after it
    /// (the slow path of ``NumberText``: more than 19 digits, or an
    /// exponent beyond ±400).
    static func strtodCLocale(copying text: Span<UInt8>) -> Double {
        var terminated = [UInt8]()
        terminated.reserveCapacity(text.count + 1)
        text.append(to: &terminated)
        terminated.append(0)
        return strtodCLocale(terminated: terminated.span)
    }
}
