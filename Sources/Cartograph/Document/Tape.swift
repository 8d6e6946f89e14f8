/// The growable storage behind a ``Document``: tape entries and the bytes of
/// strings and numbers.
///
/// Raw memory, because the parser appends one entry per token and a Swift
/// `Array` would pay a uniqueness and exclusivity check on every append.
/// Only ``DocumentBuilder`` writes to it, and only before the ``Document``
/// that owns it is handed out; after that it is read-only.
final class Tape {
    private(set) var entries: UnsafeMutablePointer<TapeEntry>
    private(set) var count = 0
    private var capacity: Int
    private(set) var bytes: UnsafeMutablePointer<UInt8>
    private(set) var byteCount = 0
    private var byteCapacity: Int

    init(expectedInputBytes: Int) {
        capacity = max(64, min(expectedInputBytes / 6, 1 << 24))
        byteCapacity = max(256, min(expectedInputBytes / 2, 1 << 28))
        entries = .allocate(capacity: capacity)
        bytes = .allocate(capacity: byteCapacity)
    }

    deinit {
        entries.deinitialize(count: count)
        entries.deallocate()
        bytes.deallocate()
    }

    /// Appends an entry and returns its index.
    @inline(__always)
    func append(_ entry: TapeEntry) -> Int {
        if count == capacity { growEntries() }
        (entries + count).initialize(to: entry)
        count += 1
        return count - 1
    }

    /// Copies bytes into storage; returns their offset. With `terminate`, a NUL follows them.
    @inline(__always)
    func appendBytes(_ source: UnsafeRawPointer?, count length: Int, terminate: Bool = false) -> Int {
        let needed = length + (terminate ? 1 : 0)
        if byteCount + needed > byteCapacity { growBytes(needed) }
        let offset = byteCount
        if length > 0, let source {
            (bytes + offset).update(from: source.assumingMemoryBound(to: UInt8.self), count: length)
        }
        if terminate { bytes[offset + length] = 0 }
        byteCount += needed
        return offset
    }

    /// Clears the tape for reuse, keeping its capacity.
    func removeAll() {
        entries.deinitialize(count: count)
        count = 0
        byteCount = 0
    }

    private func growEntries() {
        let newCapacity = capacity * 2
        let grown = UnsafeMutablePointer<TapeEntry>.allocate(capacity: newCapacity)
        grown.moveInitialize(from: entries, count: count)
        entries.deallocate()
        entries = grown
        capacity = newCapacity
    }

    private func growBytes(_ needed: Int) {
        var newCapacity = byteCapacity * 2
        while byteCount + needed > newCapacity { newCapacity *= 2 }
        let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        grown.update(from: bytes, count: byteCount)
        bytes.deallocate()
        bytes = grown
        byteCapacity = newCapacity
    }
}
