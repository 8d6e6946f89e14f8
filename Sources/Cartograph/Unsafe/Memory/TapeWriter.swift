/// The safe way to write a tape being built, for ``DocumentBuilder``: it
/// appends entries and text, patches a container's entry when it closes, and
/// compares and hashes key text for the duplicate-key policy.
///
/// A writer holds its ``Tape``, so the storage it writes outlives it, and it
/// writes through the tape's counters (``TapeStorage``) rather than class
/// properties, so an append is not an exclusivity check. Reads and patches
/// are checked against the entries and bytes written.
@safe
struct TapeWriter {
    private let tape: Tape
    private let storage: UnsafeMutablePointer<TapeStorage>

    init(_ tape: Tape) {
        self.tape = tape
        unsafe storage = unsafe tape.storage
    }

    /// The number of entries written.
    var count: Int {
        @inline(__always) get { unsafe storage.pointee.count }
    }

    /// The number of text bytes written.
    var byteCount: Int {
        @inline(__always) get { unsafe storage.pointee.byteCount }
    }

    /// The entry at `index`, checked against the entries written.
    subscript(index: Int) -> TapeEntry {
        @inline(__always) get { tape.entry(at: index) }
        @inline(__always) nonmutating set {
            precondition(UInt(bitPattern: index) < UInt(bitPattern: count), "Cartograph: a tape index out of range")
            unsafe storage.pointee.entries[index] = newValue
        }
    }

    /// Appends an entry and returns its index.
    @inline(__always)
    func append(_ entry: TapeEntry) -> Int {
        unsafe storage.pointee.append(entry)
    }

    /// Copies `count` bytes of text from `source` (an event's text, valid
    /// for the call), with a NUL after them when `terminate`; returns their offset.
    @inline(__always)
    func appendText(_ source: UnsafeRawPointer?, count: Int, terminate: Bool = false) -> Int {
        unsafe storage.pointee.appendBytes(source, count: count, terminate: terminate)
    }

    /// Copies `text`, with a NUL after it when `terminate`; returns its offset.
    @inline(__always)
    func appendText(_ text: Span<UInt8>, terminate: Bool = false) -> Int {
        unsafe text.withUnsafeBufferPointer { unsafe appendText(UnsafeRawPointer($0.baseAddress), count: $0.count, terminate: terminate) }
    }

    /// Takes the counts the C tape builder appended in place.
    func adoptCounts(count: Int, byteCount: Int) {
        unsafe storage.pointee.adoptCounts(count: count, byteCount: byteCount)
    }

    /// Forgets the last `entries` entries.
    func removeLast(_ entries: Int) {
        precondition(entries >= 0 && entries <= count, "Cartograph: removing entries not written")
        unsafe storage.pointee.removeLast(entries)
    }

    /// Forgets every entry and byte, keeping the buffers.
    func removeAll() {
        unsafe storage.pointee.removeAll()
    }

    /// Where `entry`'s text starts, checked to lie within the bytes written.
    @inline(__always)
    private func text(of entry: TapeEntry) -> UnsafePointer<UInt8> {
        precondition(entry.payload >= 0 && entry.payload &+ Int(entry.length) <= byteCount, "Cartograph: tape text out of range")
        return unsafe UnsafePointer(storage.pointee.bytes + entry.payload)
    }

    /// Whether two entries' texts are the same bytes.
    @inline(__always)
    func sameText(_ a: TapeEntry, _ b: TapeEntry) -> Bool {
        guard a.length == b.length else { return false }
        guard a.length > 0 else { return true }
        return unsafe KeyBytes.equal(text(of: a), text(of: b), count: Int(a.length))
    }

    /// The seeded hash of an entry's text (``KeyHash``).
    @inline(__always)
    func hash(of entry: TapeEntry, seed: UInt64) -> UInt64 {
        unsafe KeyHash.hash(text(of: entry), count: Int(entry.length), seed: seed)
    }

    /// The byte at `offset` of an entry's text.
    @inline(__always)
    func byte(_ offset: Int, of entry: TapeEntry) -> UInt8 {
        precondition(UInt(bitPattern: offset) < UInt(entry.length), "Cartograph: a byte beyond an entry's text")
        return unsafe text(of: entry)[offset]
    }

    /// An entry's text as a `String` (``TapeString``).
    func string(_ entry: TapeEntry) -> String {
        unsafe TapeString.make(UnsafeBufferPointer(start: text(of: entry), count: Int(entry.length)).span)
    }
}

/// A value in its own allocation, read and written in place with no
/// exclusivity check: the builder's innermost frame, touched by every
/// parse event. Only for trivial values (no references), so that two
/// overlapping accesses can give a stale number but never a freed object.
@safe
final class InPlaceBox<Value: BitwiseCopyable> {
    private let pointer: UnsafeMutablePointer<Value>

    init(_ value: Value) {
        unsafe pointer = .allocate(capacity: 1)
        unsafe pointer.initialize(to: value)
    }

    deinit {
        unsafe pointer.deallocate()
    }

    /// The value, read and written where it lives.
    var value: Value {
        unsafeAddress { unsafe UnsafePointer(pointer) }
        unsafeMutableAddress { unsafe pointer }
    }
}
