internal import CCartographTape

/// A fast, seeded hash of key bytes, used only to find duplicate keys and
/// to index large objects.
///
/// Every byte is mixed in (eight at a time), and the seed is random per
/// process, so inputs crafted to collide in a fixed hash cannot force the
/// quadratic path; equal hashes are always confirmed by comparing bytes.
/// The function is C (`cartograph_key_hash`, `static inline`, inlined into
/// Swift), shared with the parse's C tape builder, which hashes each key as
/// it reads it.
enum KeyHash {
    /// Random per process.
    static let seed = UInt64.random(in: 1...UInt64.max)

    /// Hashes every byte of `count` bytes at `base` with `seed`.
    @inline(__always)
    static func hash(_ base: UnsafeRawPointer?, count: Int, seed: UInt64) -> UInt64 {
        unsafe cartograph_key_hash(base?.assumingMemoryBound(to: UInt8.self), count, seed)
    }

    /// The hash of `bytes`.
    @inline(__always)
    static func hash(_ bytes: Span<UInt8>, seed: UInt64) -> UInt64 {
        unsafe bytes.withUnsafeBufferPointer { unsafe cartograph_key_hash($0.baseAddress, $0.count, seed) }
    }
}
