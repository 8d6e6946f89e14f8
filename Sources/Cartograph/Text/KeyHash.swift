/// A fast, seeded hash of key bytes, used only to find duplicate keys.
///
/// Every byte is mixed in (eight at a time), and the seed is random per
/// process, so inputs crafted to collide in a fixed hash cannot force the
/// quadratic path; equal hashes are always confirmed by comparing bytes.
enum KeyHash {
    /// Random per process.
    static let seed = UInt64.random(in: 1...UInt64.max)

    @inline(__always)
    static func hash(_ base: UnsafeRawPointer?, count: Int, seed: UInt64) -> UInt64 {
        var state = seed ^ (UInt64(truncatingIfNeeded: count) &* 0x9E37_79B9_7F4A_7C15)
        guard let base else { return mix(state) }
        var index = 0
        while index + 8 <= count {
            state = mix(state ^ base.loadUnaligned(fromByteOffset: index, as: UInt64.self))
            index += 8
        }
        var tail: UInt64 = 0
        var shift: UInt64 = 0
        while index < count {
            tail |= UInt64(base.load(fromByteOffset: index, as: UInt8.self)) << shift
            shift += 8
            index += 1
        }
        return mix(state ^ tail)
    }

    @inline(__always)
    private static func mix(_ value: UInt64) -> UInt64 {
        var x = value &* 0xBF58_476D_1CE4_E5B9
        x ^= x >> 31
        x = x &* 0x94D0_49BB_1331_11EB
        return x ^ (x >> 29)
    }
}
