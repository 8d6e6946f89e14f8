import Foundation

/// Comparing a key's bytes with a key on the tape, for the lookups of the
/// cursor and the `Codable` decoder.
enum KeyBytes {
    /// Whether `count` (at least 1) bytes at `a` and `b` are equal: keys
    /// up to 16 bytes (nearly all) by two overlapping loads from each side,
    /// up to 32 by four, longer ones by `memcmp`: for the short keys most
    /// lookups compare, the call to `memcmp` cost more than the comparison.
    @inline(__always)
    static func equal(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer, count: Int) -> Bool {
        switch count {
        case 17...32:
            return unsafe a.loadUnaligned(as: UInt64.self) == b.loadUnaligned(as: UInt64.self)
                && a.loadUnaligned(fromByteOffset: 8, as: UInt64.self) == b.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
                && a.loadUnaligned(fromByteOffset: count - 16, as: UInt64.self) == b.loadUnaligned(fromByteOffset: count - 16, as: UInt64.self)
                && a.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self) == b.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
        case 8...16:
            return unsafe a.loadUnaligned(as: UInt64.self) == b.loadUnaligned(as: UInt64.self)
                && a.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self) == b.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
        case 4..<8:
            return unsafe a.loadUnaligned(as: UInt32.self) == b.loadUnaligned(as: UInt32.self)
                && a.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self) == b.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)
        case 1..<4:
            // Positions 0, count/2 and count-1 cover every byte of 1 to 3.
            return unsafe a.load(as: UInt8.self) == b.load(as: UInt8.self)
                && a.load(fromByteOffset: count / 2, as: UInt8.self) == b.load(fromByteOffset: count / 2, as: UInt8.self)
                && a.load(fromByteOffset: count - 1, as: UInt8.self) == b.load(fromByteOffset: count - 1, as: UInt8.self)
        default:
            return unsafe memcmp(a, b, count) == 0
        }
    }
}
