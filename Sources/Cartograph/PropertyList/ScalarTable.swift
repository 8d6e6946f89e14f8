import Foundation

/// Open addressing from the bytes of an encoded scalar to its object
/// number; a hit is confirmed by comparing the bytes in the output.
///
/// A slot is one word: the object number (32 bits), 16 bits of the hash
/// and the stamp of the write that filled it (16 bits). Eight bytes instead
/// of the 24 of (hash, object, length) keep the table of a large plist
/// mostly in cache, where at 24 bytes nearly every lookup missed it. The
/// length needs no slot: an encoded scalar is self-delimiting (its marker
/// and count fix its size), so bytes equal to the new scalar's whole
/// encoding are an object of that same encoding.
///
/// A table outlives one write (``BinaryPlistScratch`` keeps it for the
/// next): ``reset()`` empties it by moving to a new stamp instead of
/// clearing every slot (a table grown by a large plist would otherwise cost
/// each small one a pass over it). Past 2³² − 1 objects, new scalars are
/// not shared (each is written out) rather than numbered wrongly.
struct ScalarTable {
    private var slots: [UInt64]
    private var mask: Int
    private var used = 0
    private var stamp: UInt64 = 1
    private let seed = KeyHash.seed

    /// A table of `slotCount` slots, a power of two (zero: a placeholder that holds nothing).
    init(slotCount: Int = 4096) {
        slots = Array(repeating: 0, count: slotCount)
        mask = slotCount - 1
    }

    /// Bytes the table holds on to.
    var footprint: Int { slots.capacity * MemoryLayout<UInt64>.stride }

    /// Forgets every entry.
    mutating func reset() {
        used = 0
        stamp = (stamp + 1) & 0xFFFF
        if stamp == 0 {
            // Stamps wrapped (every 65,535 writes): clear for real.
            for index in slots.indices { slots[index] = 0 }
            stamp = 1
        }
    }

    /// The object already holding the bytes of `output` from `start` to its
    /// end (a scalar just written), or `next` (now recorded for them).
    /// (`output` is the array, not its span: the sink's span of its own
    /// output would borrow the whole sink while its table is modified.)
    mutating func object(from start: Int, in written: [UInt8], offsets: [Int], next: Int) -> Int {
        let output = written.span
        // Grown before the lookup, while every recorded object has its offset.
        if (used + 1) * 3 > slots.count * 2 { grow(output: output, offsets: offsets) }
        let length = output.count - start
        let bytes = output.extracting(start...)
        let hash = KeyHash.hash(bytes, seed: seed)
        let tag = (hash >> 48) << 16 | stamp
        var index = Int(truncatingIfNeeded: hash) & mask
        while true {
            let slot = slots[index]
            if slot & 0xFFFF != stamp { break }
            // An object recorded earlier starts before these bytes, so
            // `length` bytes from it stay inside the output.
            if slot & 0xFFFF_FFFF == tag, case let earlier = offsets[Int(slot >> 32)],
                output.extracting(earlier..<earlier + length).elementsEqual(bytes)
            {
                return Int(slot >> 32)
            }
            index = (index + 1) & mask
        }
        guard next < 0xFFFF_FFFF else { return next }
        slots[index] = UInt64(next) << 32 | tag
        used += 1
        return next
    }

    /// Doubles the table. A slot keeps 16 bits of its hash, too few to
    /// place it in a larger table, so each object's bytes are hashed again
    /// (amortised: one hash per entry per doubling).
    private mutating func grow(output: Span<UInt8>, offsets: [Int]) {
        let old = slots
        slots = Array(repeating: 0, count: max(old.count * 2, 16))
        mask = slots.count - 1
        for slot in old where slot & 0xFFFF == stamp {
            let start = offsets[Int(slot >> 32)]
            let hash = KeyHash.hash(output.extracting(start..<start + Self.encodedLength(at: start, in: output)), seed: seed)
            var index = Int(truncatingIfNeeded: hash) & mask
            while slots[index] & 0xFFFF == stamp { index = (index + 1) & mask }
            slots[index] = slot
        }
    }

    /// The length of the scalar encoded at `start`, from its marker (and
    /// count): a bool or null, an integer, real or date, data or a string.
    static func encodedLength(at start: Int, in output: Span<UInt8>) -> Int {
        let marker = output[start]
        let low = Int(marker & 0x0F)
        switch marker >> 4 {
        case 0x0: return 1
        case 0x1, 0x2: return 1 + (1 << low)
        case 0x3: return 9
        default:
            let (count, header) = markedCount(at: start, in: output)
            return header + (marker >> 4 == 0x6 ? 2 * count : count)
        }
    }

    /// A data or string object's count (bytes, or UTF-16 units) and the
    /// length of its marker and count: in the marker's low nibble, or past
    /// 14 in an integer object after it.
    static func markedCount(at start: Int, in output: Span<UInt8>) -> (count: Int, header: Int) {
        let low = Int(output[start] & 0x0F)
        guard low == 0x0F else { return (low, 1) }
        let width = 1 << Int(output[start + 1] & 0x0F)
        return (Int(truncatingIfNeeded: output.bigEndianInteger(at: start + 2, width: width)), 2 + width)
    }
}
