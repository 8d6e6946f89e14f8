/// Where each depth's keyed container last found a key, for the `Codable`
/// decoder (a hint only; see ``KeyHint``).
///
/// A fixed block of slots, one per container depth, written on nearly every
/// key lookup: kept out of Swift arrays so that a write is neither a
/// uniqueness check nor an exclusivity check, and out of the containers'
/// own storage so that a container recycled for another object of the same
/// depth finds its slot where it left it. A depth beyond the slots has no
/// hint: its lookups scan from the object's first key.
@safe
final class KeyHints {
    private let slots: UnsafeMutablePointer<KeyHint>
    /// The number of depths with a slot.
    let capacity: Int

    init(capacity: Int) {
        self.capacity = capacity
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
        guard holds(depth) else { return }
        unsafe slots[depth] = KeyHint(object: object, next: next)
    }
}
