internal import CCartographTape

/// Strict UTF-8 validation (Unicode 15, table 3-7): no overlong forms, no
/// encoded surrogates (`ED A0 80`…`ED BF BF`), nothing above U+10FFFF, no
/// truncated sequences.
///
/// yajl's own check accepts all of those, so Cartograph turns it off and
/// validates here, with an eight-bytes-at-a-time path for ASCII runs. The
/// code is C (`cartograph_tape.h`), shared with the parse's C tape builder,
/// so there is one validator; the ASCII check is a `static inline` function
/// that Swift inlines.
enum UTF8Validation {
    /// The offset of the first byte that starts an invalid sequence, or nil when all is valid.
    @inline(__always)
    static func firstInvalid(_ base: UnsafeRawPointer, count: Int) -> Int? {
        if isASCII(base, count: count) { return nil }
        let bad = cartograph_utf8_first_invalid(base.assumingMemoryBound(to: UInt8.self), count)
        return bad < 0 ? nil : bad
    }

    /// Whether every byte is below 0x80: whole words, then one overlapping
    /// word (or two overlapping half-words) for the tail, never byte by byte.
    @inline(__always)
    static func isASCII(_ base: UnsafeRawPointer, count: Int) -> Bool {
        cartograph_utf8_is_ascii(base.assumingMemoryBound(to: UInt8.self), count) != 0
    }
}
