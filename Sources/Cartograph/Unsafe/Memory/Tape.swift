import Foundation

/// The growable storage behind a ``Document``: tape entries and the bytes of
/// strings and numbers.
///
/// The parser appends one entry per token. The counters live in a struct
/// read through a pointer (``TapeStorage``, the buffer's header), not in
/// class properties, because the runtime checks exclusive access to every
/// class property on every access, while pointer accesses are unchecked. Only
/// ``DocumentBuilder`` writes, and only before the owning ``Document`` is
/// handed out; after that the tape is read-only.
///
/// A tape is one allocation with its storage and, for a small document,
/// its buffers too (a `ManagedBuffer` whose tail holds them): a small
/// document's parse makes it and the ``Document`` and nothing else.
@usableFromInline
final class Tape: ManagedBuffer<TapeStorage, UInt64> {
    /// Sized for an input of `expectedInputBytes`: an entry per four bytes
    /// (dense inputs — arrays of small numbers, records of short values —
    /// have one per four to six bytes), and text the size of the input and
    /// a byte, the most a JSON text's strings and numbers take, so that a
    /// whole input's text never grows. Pages never written are never
    /// resident: the room costs nothing, while growing by `realloc` can
    /// copy and hold both buffers at once (`scripts/memory` shows the peak).
    /// At least 16 entries and 64 bytes: a
    /// small document's tape then fits in one allocation that malloc
    /// serves from its per-thread cache (up to about 1 KB).
    static func make(expectedInputBytes: Int) -> Tape {
        make(entryCapacity: max(16, min(expectedInputBytes / 4, 1 << 24)), byteCapacity: max(64, min(expectedInputBytes + 1, 1 << 28)))
    }

    /// A tape with exact capacities. Buffers up to
    /// ``TapeStorage/sharedBlockLimit`` bytes in all sit in the tape's own
    /// allocation, one allocation fewer for a small document; larger ones
    /// are allocated apart, so that growing them moves pages by `realloc`
    /// rather than copying.
    static func make(entryCapacity: Int, byteCapacity: Int) -> Tape {
        let entryBytes = entryCapacity * MemoryLayout<TapeEntry>.stride
        let shared = entryBytes + byteCapacity <= TapeStorage.sharedBlockLimit
        let words = shared ? (entryBytes + byteCapacity + 7) / 8 : 0
        let made = create(minimumCapacity: words) { buffer in
            guard shared else { return TapeStorage(entryCapacity: entryCapacity, byteCapacity: byteCapacity) }
            let block = unsafe buffer.withUnsafeMutablePointerToElements { UnsafeMutableRawPointer($0) }
            return unsafe TapeStorage(inBlock: block, entryCapacity: entryCapacity, byteCapacity: byteCapacity)
        }
        return unsafe unsafeDowncast(made, to: Tape.self)
    }

    deinit {
        unsafe storage.pointee.release()
    }

    /// The counters and buffers, in this object.
    @inlinable var storage: UnsafeMutablePointer<TapeStorage> { unsafe withUnsafeMutablePointerToHeader { unsafe $0 } }

    /// The most input one document is read from, and the most memory a
    /// streamed element or envelope takes (2 GiB; ``ParseOptions`` limits
    /// above it act as it): a tape's payloads are 32-bit (``TapeEntry``), and
    /// the text and entries of a document stay below 4 GiB and 4 Gi within
    /// it (a JSON document's text is at most its input and a byte, a JSON5
    /// number's spelled-out text at most twice its own).
    static let maxDocumentBytes = 1 << 31

    /// The largest payload an entry holds: text offsets and entry indexes stay below it.
    static let maxOffset = Int(UInt32.max)

    /// The entries; valid up to ``count``.
    @inlinable var entries: UnsafeMutablePointer<TapeEntry> { unsafe storage.pointee.entries }
    /// Number of entries.
    @inline(__always) var count: Int { unsafe storage.pointee.count }
    /// String and number bytes.
    @inlinable var bytes: UnsafeMutablePointer<UInt8> { unsafe storage.pointee.bytes }
    /// Number of bytes used.
    @inline(__always) var byteCount: Int { unsafe storage.pointee.byteCount }

    /// The entry at `index`, checked against the entries written (the
    /// views' one read of a finished tape that skips ``TapeReader``: a
    /// ``Node`` reads its own entry inlined into the caller).
    @inlinable
    func entry(at index: Int) -> TapeEntry {
        let storage = unsafe storage
        precondition(UInt(bitPattern: index) < UInt(bitPattern: unsafe storage.pointee.count), "Cartograph: a tape index out of range")
        return unsafe storage.pointee.entries[index]
    }

    /// A copy with storage of exactly the size needed.
    func compactCopy() -> Tape {
        let copy = Tape.make(entryCapacity: max(count, 1), byteCapacity: max(byteCount, 1))
        unsafe copy.storage.pointee.copy(from: storage.pointee)
        return copy
    }

    /// A tape holding only `null`, placed at `source` in some input.
    static func holdingNull(at source: Int) -> Tape {
        let tape = Tape.make(entryCapacity: 1, byteCapacity: 1)
        _ = unsafe tape.storage.pointee.append(TapeEntry(kind: .null, flags: 0, length: 0, payload: 0, source: source))
        return tape
    }
}

/// The raw buffers and counters of a ``Tape``.
@usableFromInline
@safe struct TapeStorage {
    @usableFromInline private(set) var entries: UnsafeMutablePointer<TapeEntry>
    @usableFromInline private(set) var count = 0
    private var capacity: Int
    @usableFromInline private(set) var bytes: UnsafeMutablePointer<UInt8>
    private(set) var byteCount = 0
    private var byteCapacity: Int
    /// Whether the entries, and the bytes, are in the tape's own allocation
    /// (``Tape/make(entryCapacity:byteCapacity:)``) rather than allocated apart.
    private var entriesInBlock: Bool
    private var bytesInBlock: Bool

    /// A small tape's buffers share one allocation with the tape itself up
    /// to this many bytes (``Tape/make(entryCapacity:byteCapacity:)``).
    static let sharedBlockLimit = 8 << 10

    /// Storage whose buffers are allocated apart.
    init(entryCapacity: Int, byteCapacity: Int) {
        unsafe self.init(
            entries: Self.resized(nil, to: entryCapacity), capacity: entryCapacity,
            bytes: Self.resized(nil, to: byteCapacity), byteCapacity: byteCapacity, inBlock: false)
    }

    /// Storage whose buffers are `block` (8-byte aligned, room for both):
    /// the entries, then the bytes.
    init(inBlock block: UnsafeMutableRawPointer, entryCapacity: Int, byteCapacity: Int) {
        let entryBytes = entryCapacity * MemoryLayout<TapeEntry>.stride
        unsafe self.init(
            entries: block.bindMemory(to: TapeEntry.self, capacity: entryCapacity), capacity: entryCapacity,
            bytes: (block + entryBytes).bindMemory(to: UInt8.self, capacity: byteCapacity), byteCapacity: byteCapacity, inBlock: true)
    }

    private init(entries: UnsafeMutablePointer<TapeEntry>, capacity: Int, bytes: UnsafeMutablePointer<UInt8>, byteCapacity: Int, inBlock: Bool) {
        unsafe self.entries = unsafe entries
        self.capacity = capacity
        unsafe self.bytes = unsafe bytes
        self.byteCapacity = byteCapacity
        entriesInBlock = inBlock
        bytesInBlock = inBlock
    }

    /// `buffer` (holding `used` elements) grown to `count`: by `realloc`
    /// when it was allocated apart, by a copy when it was in the tape's own
    /// allocation (which it then leaves).
    private static func grown<Element>(_ buffer: UnsafeMutablePointer<Element>, used: Int, to count: Int, inBlock: inout Bool)
        -> UnsafeMutablePointer<Element>
    {
        guard inBlock else { return unsafe resized(buffer, to: count) }
        let moved = unsafe resized(nil as UnsafeMutablePointer<Element>?, to: count)
        unsafe moved.update(from: buffer, count: used)
        inBlock = false
        return unsafe moved
    }

    /// The buffers come from `malloc` and grow with `realloc`: a large
    /// buffer is then moved by remapping its pages rather than copied. The
    /// elements are trivial, so moving their bytes moves them.
    private static func resized<Element>(_ buffer: UnsafeMutablePointer<Element>?, to count: Int) -> UnsafeMutablePointer<Element> {
        guard let raw = unsafe realloc(buffer, count * MemoryLayout<Element>.stride) else {
            fatalError("Cartograph: out of memory for a tape of \(count) \(Element.self) values")
        }
        return unsafe raw.bindMemory(to: Element.self, capacity: count)
    }

    /// Copies another tape's entries and bytes (the capacities must suffice).
    mutating func copy(from other: TapeStorage) {
        unsafe entries.update(from: other.entries, count: other.count)
        unsafe bytes.update(from: other.bytes, count: other.byteCount)
        count = other.count
        byteCount = other.byteCount
    }

    /// Frees the buffers (TapeEntry is trivial, so nothing needs deinitializing).
    func release() {
        if !entriesInBlock { unsafe free(entries) }
        if !bytesInBlock { unsafe free(bytes) }
    }

    /// Forgets every entry and byte, keeping the buffers.
    mutating func removeAll() {
        count = 0
        byteCount = 0
    }

    /// How many entries and bytes fit before the buffers grow.
    var capacities: (entries: Int, bytes: Int) { (capacity, byteCapacity) }

    /// Takes the counts of entries and bytes that the C tape builder
    /// (`cartograph_yajl_tape`) appended in place.
    mutating func adoptCounts(count: Int, byteCount: Int) {
        precondition(count <= capacity && byteCount <= byteCapacity, "tape counts beyond capacity")
        self.count = count
        self.byteCount = byteCount
    }

    /// Makes room for `entries` more entries and `bytes` more bytes.
    mutating func reserve(entries: Int, bytes: Int) {
        while count + entries > capacity { growEntries() }
        if byteCount + bytes > byteCapacity { growBytes(bytes) }
    }

    /// Forgets the last `entries` entries (their bytes stay, unused).
    mutating func removeLast(_ entries: Int) {
        count -= entries
    }

    /// Appends an entry and returns its index.
    @inline(__always)
    mutating func append(_ entry: TapeEntry) -> Int {
        if count == capacity { growEntries() }
        unsafe (entries + count).initialize(to: entry)
        count += 1
        return count - 1
    }

    /// Copies bytes into storage; returns their offset. With `terminate`, a NUL follows them.
    @inline(__always)
    mutating func appendBytes(_ source: UnsafeRawPointer?, count length: Int, terminate: Bool = false) -> Int {
        let needed = length + (terminate ? 1 : 0)
        if byteCount + needed > byteCapacity { growBytes(needed) }
        let offset = byteCount
        if length > 0, let source = unsafe source {
            // The C tape builder's copy (`static inline`, inlined here): most
            // keys and numbers are short, and two overlapping word copies
            // beat both a call to memmove and a byte loop.
            unsafe CText.copy(bytes + offset, from: source.assumingMemoryBound(to: UInt8.self), count: length)
        }
        if terminate { unsafe bytes[offset + length] = 0 }
        byteCount += needed
        return offset
    }

    // The parse limits (``Tape/maxDocumentBytes``) keep a tape well below
    // 32-bit offsets; past them an entry would point at the wrong text, so
    // growing there stops the process rather than corrupting a document.
    private mutating func growEntries() {
        precondition(capacity < Tape.maxOffset, "Cartograph: a tape beyond 32-bit entry indexes")
        let newCapacity = min(capacity * 2, Tape.maxOffset)
        unsafe entries = unsafe Self.grown(entries, used: count, to: newCapacity, inBlock: &entriesInBlock)
        capacity = newCapacity
    }

    private mutating func growBytes(_ needed: Int) {
        var newCapacity = byteCapacity * 2
        precondition(byteCount + needed <= Tape.maxOffset, "Cartograph: a tape beyond 32-bit text offsets")
        while byteCount + needed > newCapacity { newCapacity *= 2 }
        unsafe bytes = unsafe Self.grown(bytes, used: byteCount, to: newCapacity, inBlock: &bytesInBlock)
        byteCapacity = newCapacity
    }
}
