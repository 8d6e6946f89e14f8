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

    /// The four bytes from `offset` as one integer in the machine's byte
    /// order; traps when they do not all lie inside the span.
    @inline(__always)
    func word32(at offset: Int) -> UInt32 {
        unsafe bytes.unsafeLoadUnaligned(fromByteOffset: offset, as: UInt32.self)
    }

    /// The big-endian unsigned integer of `width` bytes (1 to 8) from
    /// `offset`, as binary plists store their offsets and references, in
    /// one load for 1, 2, 4 and 8 bytes; traps when the bytes do not all
    /// lie inside the span.
    @inline(__always)
    func bigEndianInteger(at offset: Int, width: Int) -> UInt64 {
        switch width {
        case 1: return UInt64(self[offset])
        case 2: return UInt64(UInt16(bigEndian: unsafe bytes.unsafeLoadUnaligned(fromByteOffset: offset, as: UInt16.self)))
        case 4: return UInt64(UInt32(bigEndian: unsafe bytes.unsafeLoadUnaligned(fromByteOffset: offset, as: UInt32.self)))
        case 8: return UInt64(bigEndian: word(at: offset))
        default:
            precondition(width > 0 && width < 8, "Cartograph: an integer of \(width) bytes")
            var value: UInt64 = 0
            for index in offset..<offset + width { value = value << 8 | UInt64(self[index]) }
            return value
        }
    }
}

/// Big-endian stores into a byte `MutableSpan`. The raw view of a byte
/// span is marked unsafe because it could store any type; integers are
/// valid as any bytes, and each store is bounds-checked.
extension MutableSpan where Element == UInt8 {
    /// Stores the low `width` bytes (1, 2, 4 or 8) of `value` big-endian
    /// at `offset`: the write of a binary plist's references and offsets.
    /// Traps when the bytes do not all lie inside the span.
    @inline(__always)
    mutating func storeBigEndian(_ value: Int, width: Int, at offset: Int) {
        var bytes = unsafe mutableBytes
        switch width {
        case 1: bytes.storeBytes(of: UInt8(truncatingIfNeeded: value), toByteOffset: offset, as: UInt8.self)
        case 2: bytes.storeBytes(of: UInt16(truncatingIfNeeded: value).bigEndian, toByteOffset: offset, as: UInt16.self)
        case 4: bytes.storeBytes(of: UInt32(truncatingIfNeeded: value).bigEndian, toByteOffset: offset, as: UInt32.self)
        default:
            precondition(width == 8, "Cartograph: a big-endian store of \(width) bytes")
            bytes.storeBytes(of: UInt64(truncatingIfNeeded: value).bigEndian, toByteOffset: offset, as: UInt64.self)
        }
    }
}
