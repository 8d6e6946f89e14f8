/// Where each depth's keyed container last found a key, for the `Codable`
/// decoder (a hint only; see ``KeyHint``).
///
/// A block of slots, one per container depth, written on nearly every key
/// lookup: kept out of Swift arrays so that a write is neither a
/// uniqueness check nor an exclusivity check, and out of the containers'
/// own storage so that a container recycled for another object of the same
/// depth finds its slot where it left it. The block starts small and grows
/// as deeper containers set their hints, up to ``limit`` depths: a block
/// of the limit's size made for every decode was 6,000 instructions of
/// writes (16 KB), about 1% of decoding a 3 KB document and more of a
/// smaller one. A depth beyond the block has no hint: its lookups scan from
/// the object's first key.
@safe
final class KeyHints {
    private var slots: UnsafeMutablePointer<KeyHint>
    /// The number of depths with a slot now.
    private(set) var capacity: Int
    /// The most depths the block grows to.
    let limit: Int

    /// Slots for `initial` depths, growing up to `limit`.
    init(initial: Int = 16, limit: Int) {
        self.limit = limit
        capacity = min(initial, limit)
        unsafe slots = .allocate(capacity: capacity)
        unsafe slots.initialize(repeating: KeyHint(object: -1, next: 0), count: capacity)
    }

    deinit {
        unsafe slots.deallocate()
    }

    /// Whether `depth` has a slot.
    @inline(__always)
    func holds(_ depth: Int) -> Bool { UInt(bitPattern: depth) < UInt(bitPattern: capacity) }

    /// The hint of `depth` if it belongs to `object`.
    @inline(__always)
    func next(at depth: Int, in object: Int) -> Int? {
        guard holds(depth) else { return nil }
        let hint = unsafe slots[depth]
        return hint.object == object ? hint.next : nil
    }

    /// Records that the next lookup in `object`, at `depth`, should start at `next`.
    @inline(__always)
    func set(_ depth: Int, object: Int, next: Int) {
        if !holds(depth) {
            guard depth >= 0, depth < limit else { return }
            grow(toHold: depth)
        }
        unsafe slots[depth] = KeyHint(object: object, next: next)
    }

    /// Makes room for `depth` (below ``limit``): the block doubles, its
    /// hints kept and the new slots empty.
    @inline(never)
    private func grow(toHold depth: Int) {
        var grown = capacity
        while grown <= depth { grown *= 2 }
        grown = min(grown, limit)
        let larger = UnsafeMutablePointer<KeyHint>.allocate(capacity: grown)
        unsafe larger.moveInitialize(from: slots, count: capacity)
        unsafe (larger + capacity).initialize(repeating: KeyHint(object: -1, next: 0), count: grown - capacity)
        unsafe slots.deallocate()
        unsafe slots = larger
        capacity = grown
    }
}
