internal import CCartographTape

/// Strict UTF-8 validation (Unicode 15, table 3-7): no overlong forms, no
/// encoded surrogates (`ED A0 80`…`ED BF BF`), nothing above U+10FFFF, no
/// truncated sequences.
///
/// yajl's own check accepts all of those, so Cartograph turns it off and
/// validates here. The code is C (`CModules/CCartographTape/utf8_validation.c`:
/// 32 bytes at a step with AVX2, else a scalar loop with an eight-byte ASCII
/// step), shared with the parse's C tape builder, so there is one
/// validator; the ASCII check is a `static inline` function that Swift
/// inlines.
enum UTF8Validation {
    /// The offset of the first byte that starts an invalid sequence, or nil when all is valid.
    @inline(__always)
    static func firstInvalid(_ base: UnsafeRawPointer, count: Int) -> Int? {
        // From 32 bytes the C validator's vector path checks ASCII as fast.
        if count < 32, unsafe isASCII(base, count: count) { return nil }
        let bad = unsafe cartograph_utf8_first_invalid(base.assumingMemoryBound(to: UInt8.self), count)
        return bad < 0 ? nil : bad
    }

    /// The offset of the first byte of `text` that starts an invalid sequence, or nil when all is valid.
    @inline(__always)
    static func firstInvalid(_ text: Span<UInt8>) -> Int? {
        guard !text.isEmpty else { return nil }
        return unsafe text.withUnsafeBufferPointer { unsafe firstInvalid(UnsafeRawPointer($0.baseAddress!), count: $0.count) }
    }

    /// Whether every byte of `text` is below 0x80.
    @inline(__always)
    static func isASCII(_ text: Span<UInt8>) -> Bool {
        guard !text.isEmpty else { return true }
        return unsafe text.withUnsafeBufferPointer { unsafe isASCII(UnsafeRawPointer($0.baseAddress!), count: $0.count) }
    }

    /// Whether every byte is below 0x80: whole words, then one overlapping
    /// word (or two overlapping half-words) for the tail, never byte by byte;
    /// over 32 bytes, 32 at a step, stopping at the first non-ASCII step.
    @inline(__always)
    static func isASCII(_ base: UnsafeRawPointer, count: Int) -> Bool {
        let bytes = unsafe base.assumingMemoryBound(to: UInt8.self)
        return unsafe (count > 32 ? cartograph_utf8_long_is_ascii(bytes, count) : cartograph_utf8_is_ascii(bytes, count)) != 0
    }
}
