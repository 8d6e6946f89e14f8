/// An open-addressing table from key hashes to key positions, reused for
/// every object of a parse.
///
/// Each slot carries the generation of the object that wrote it, so starting
/// a new object is O(1) (bump the generation) instead of clearing the table.
@safe final class DuplicateKeyTable {
    private var slots: UnsafeMutablePointer<UInt64>
    private var capacity = 0
    private var generation: UInt64 = 0
    private(set) var mask = 0

    init() {
        unsafe slots = .allocate(capacity: 1)
    }

    deinit {
        unsafe slots.deallocate()
    }

    /// Empties the table and makes room for `count` keys; returns self for chaining.
    func prepare(for count: Int) -> DuplicateKeyTable {
        var size = 32
        while size < count * 2 { size <<= 1 }
        if size > capacity {
            unsafe slots.deallocate()
            unsafe slots = .allocate(capacity: size)
            unsafe slots.initialize(repeating: 0, count: size)
            capacity = size
            generation = 0
        }
        generation += 1
        mask = size - 1
        return self
    }

    /// The key position stored in a slot by the current object, or nil.
    @inline(__always)
    func occupant(_ slot: Int) -> Int? {
        let value = unsafe slots[slot]
        return value >> 32 == generation ? Int(value & 0xFFFF_FFFF) : nil
    }

    @inline(__always)
    func set(_ slot: Int, _ position: Int) {
        unsafe slots[slot] = generation << 32 | UInt64(position)
    }
}
