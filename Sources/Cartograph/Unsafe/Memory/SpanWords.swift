/// Bytes read eight at a time from a `Span`, for the scanners that look for
/// a byte value a word at a time (newlines, quotes, continuation bytes).
///
/// `RawSpan`'s unaligned load is marked unsafe because it would make any
/// type from any bytes; a `UInt64` is valid for every bit pattern, and the
/// load checks that the eight bytes lie inside the span, so this one is
/// safe to call from the layers above.
extension Span where Element == UInt8 {
    /// The eight bytes from `offset` as one word in the machine's byte
    /// order (the first byte lowest on little-endian machines); traps when
    /// they do not all lie inside the span.
    @inline(__always)
    func word(at offset: Int) -> UInt64 {
        unsafe bytes.unsafeLoadUnaligned(fromByteOffset: offset, as: UInt64.self)
    }
}
