/// A fast, seeded hash of key bytes, used only to find duplicate keys.
///
/// Every byte is mixed in (eight at a time), and the seed is random per
/// process, so inputs crafted to collide in a fixed hash cannot force the
/// quadratic path; equal hashes are always confirmed by comparing bytes.
enum KeyHash {
    /// Random per process.
    static let seed = UInt64.random(in: 1...UInt64.max)

    /// Hashes every byte: whole words, then one overlapping last word, so
    /// there is no byte-by-byte tail.
    @inline(__always)
    static func hash(_ base: UnsafeRawPointer?, count: Int, seed: UInt64) -> UInt64 {
        var state = seed ^ (UInt64(truncatingIfNeeded: count) &* 0x9E37_79B9_7F4A_7C15)
        guard let base, count > 0 else { return mix(state) }
        if count >= 8 {
            var index = 0
            while index + 8 < count {
                state = mix(state ^ base.loadUnaligned(fromByteOffset: index, as: UInt64.self))
                index += 8
            }
            return mix(state ^ base.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self))
        }
        if count >= 4 {
            let low = UInt64(base.loadUnaligned(fromByteOffset: 0, as: UInt32.self))
            let high = UInt64(base.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self))
            return mix(state ^ (high << 32 | low))
        }
        let bytes = base.assumingMemoryBound(to: UInt8.self)
        return mix(state ^ (UInt64(bytes[0]) << 16 | UInt64(bytes[count / 2]) << 8 | UInt64(bytes[count - 1])))
    }

    @inline(__always)
    private static func mix(_ value: UInt64) -> UInt64 {
        var x = value &* 0xBF58_476D_1CE4_E5B9
        x ^= x >> 31
        x = x &* 0x94D0_49BB_1331_11EB
        return x ^ (x >> 29)
    }
}
