/// One object's keys listed for lookups out of document order: a
/// signature of each key's bytes and where it lies on the tape.
///
/// ``ObjectView/Cursor`` (the mapping layer's reader) finds a key by
/// trying the member after the last one found, then walking the object's
/// keys on the tape (the `Codable` decoder, whose containers are recycled
/// from object to object, learns where keys lie instead:
/// ``LearnedKeyOrder``). Read in document order, each key costs one
/// comparison. Read in another order (Foundation's `JSONEncoder`
/// writes a struct's keys in hash order; other writers their own), every
/// lookup walks half the object: on twitter.json with its keys shuffled,
/// a mapping decode took half as long again as on the original. So an
/// object of ``minimumKeys`` or more that misses twice is listed here once,
/// and its later lookups compare signatures in one short array and
/// confirm a match against the tape. Smaller objects are walked: the walk
/// of a few keys costs about what a list of them does (measured on the
/// HTTP benchmark's nine-key records, Benchmarks/HISTORY.md).
///
/// The entries are plain memory, grown as needed and reused from object
/// to object by the list's owner (a cursor).
@safe
final class ObjectKeyList {
    /// The fewest keys an object is listed with.
    static let minimumKeys: UInt32 = 12

    private struct Entry {
        var signature: UInt64
        /// The key's tape index.
        var position: Int
    }

    private var entries: UnsafeMutablePointer<Entry>?
    private var capacity = 0
    private var count = 0

    init() {}

    /// Whether a reader lists the object at `object` after its `misses`th
    /// miss (a lookup the member after the last one found did not answer):
    /// from the second, in an object of ``minimumKeys`` or more. The rule
    /// of ``ObjectView/Cursor``, which keeps its own count (a counter held
    /// in a struct and mutated through a call cost a runtime exclusivity
    /// check per miss).
    @inline(__always)
    static func lists(after misses: Int, in object: Int, tape: borrowing TapeReader) -> Bool {
        misses >= 2 && tape[object].length >= minimumKeys
    }

    deinit {
        unsafe entries?.deallocate()
    }

    /// Lists the keys of the object at `object` that are not shadowed, in document order.
    func list(_ object: Int, tape: borrowing TapeReader) {
        let container = tape[object]
        let end = container.payload
        // A container's length is its key count: room for all of them at once.
        let needed = max(Int(container.length), 1)
        if capacity < needed {
            unsafe entries?.deallocate()
            unsafe entries = .allocate(capacity: needed)
            capacity = needed
        }
        count = 0
        guard let entries = unsafe entries else { return }
        var position = object + 1
        while position < end, count < capacity {
            let entry = tape[position]
            if entry.flags & TapeFlags.shadowed == 0 {
                let text = unsafe tape.textBuffer(of: entry)
                unsafe entries[count] = Entry(signature: KeySignature.of(text.baseAddress, count: text.count), position: position)
                count += 1
            }
            position = tape.next(after: position + 1)
        }
    }

    /// The tape index of the listed key whose bytes are `key`'s, or nil.
    func position(of key: Span<UInt8>, tape: borrowing TapeReader) -> Int? {
        guard let entries = unsafe entries else { return nil }
        return unsafe key.withUnsafeBufferPointer { key in
            let signature = unsafe KeySignature.of(key.baseAddress, count: key.count)
            for index in 0..<count where unsafe entries[index].signature == signature {
                let position = unsafe entries[index].position
                let entry = tape[position]
                guard Int(entry.length) == key.count else { continue }
                guard let bytes = key.baseAddress else { return position }
                if unsafe KeyBytes.equal(tape.start(of: entry), bytes, count: key.count) { return position }
            }
            return nil
        }
    }
}

/// A 64-bit digest of a key's bytes for ``ObjectKeyList``: equal bytes
/// give equal signatures; a match is confirmed against the bytes, so
/// unequal ones that collide cost a comparison, never a wrong answer.
enum KeySignature {
    /// The length mixed with the first and last eight bytes (overlapping
    /// loads, as ``KeyBytes/equal(_:_:count:)`` reads them).
    @inline(__always)
    static func of(_ start: UnsafePointer<UInt8>?, count: Int) -> UInt64 {
        guard let start = unsafe start, count > 0 else { return 0 }
        let raw = unsafe UnsafeRawPointer(start)
        let length = UInt64(truncatingIfNeeded: count) &* 0x9E37_79B9_7F4A_7C15
        switch count {
        case 8...:
            let head = unsafe raw.loadUnaligned(as: UInt64.self)
            let tail = unsafe raw.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
            return head ^ (tail << 29 | tail >> 35) ^ length
        case 4..<8:
            let head = unsafe raw.loadUnaligned(as: UInt32.self)
            let tail = unsafe raw.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)
            return (UInt64(head) | UInt64(tail) << 32) ^ length
        default:
            let bytes = unsafe UInt64(start[0]) | UInt64(start[count / 2]) << 8 | UInt64(start[count - 1]) << 16
            return bytes ^ length
        }
    }
}
