import Foundation

/// The object a key probably is, by the key's own bits: `Codable` keys are
/// the same few strings over and over, so most keys skip encoding and
/// hashing their bytes. Equal bits usually mean equal text (a small string's
/// bits are its bytes, a large one's point at its storage), but a string
/// freed during the write can leave its address to another with different
/// text, so a hit is only a hint: the sink compares the key with the bytes
/// of the object before using it (``BinaryPlistSink/holds(_:_:)``). A miss
/// goes through the byte table, which shares the object anyway.
struct KeyCache {
    private var entries: [(low: UInt64, high: UInt64, object: Int)]
    private static let usable = LayoutAssumptions.enabled && MemoryLayout<String>.size == 16

    /// A cache of `slotCount` entries: 256 (indexed by a hash's top byte), or
    /// zero for a placeholder that holds nothing.
    init(slotCount: Int = 256) {
        entries = Array(repeating: (0, 0, -1), count: slotCount)
    }

    /// Forgets every entry (object numbers belong to one write).
    mutating func reset() {
        unsafe entries.withUnsafeMutableBufferPointer { entries in
            for index in entries.indices { unsafe entries[index].object = -1 }
        }
    }

    @inline(__always)
    private static func bits(_ key: String) -> (UInt64, UInt64) {
        unsafe unsafeBitCast(key, to: (UInt64, UInt64).self)
    }

    @inline(__always)
    private static func slot(_ bits: (UInt64, UInt64)) -> Int {
        Int(truncatingIfNeeded: ((bits.0 ^ bits.1 &* 0x9E37_79B9_7F4A_7C15) &* 0xBF58_476D_1CE4_E5B9) >> 56)
    }

    func object(for key: String) -> Int? {
        guard Self.usable else { return nil }
        let bits = Self.bits(key)
        let entry = entries[Self.slot(bits)]
        return entry.object >= 0 && entry.low == bits.0 && entry.high == bits.1 ? entry.object : nil
    }

    mutating func remember(_ key: String, _ object: Int) {
        guard Self.usable else { return }
        let bits = Self.bits(key)
        entries[Self.slot(bits)] = (bits.0, bits.1, object)
    }
}
