import Foundation

/// Open addressing from a seeded hash of an ASCII key's bytes to its
/// member's position in an ``EncodingObject`` (a hit is confirmed against the
/// member's key).
struct ASCIIKeyIndex {
    private var slots: [(hash: UInt64, position: Int)] = []
    private var mask = 0
    private var count = 0

    var isEmpty: Bool { slots.isEmpty }

    /// The hash of an ASCII key's bytes; nil for a key with any other byte.
    static func hash(of key: String) -> UInt64? {
        var key = key
        return key.withUTF8Span { bytes in UTF8Validation.isASCII(bytes) ? KeyHash.hash(bytes, seed: KeyHash.seed) : nil }
    }

    /// Indexes the members (distinct keys); false, and empty, when one is not ASCII.
    mutating func fill(with members: [EncodingObject.Member]) -> Bool {
        fill(members.count) { members[$0].key }
    }

    /// Indexes `count` distinct keys, the key at each position given by
    /// `key`; false, and empty, when one is not ASCII.
    mutating func fill(_ count: Int, _ key: (Int) -> String) -> Bool {
        slots = Array(repeating: (0, -1), count: 128)
        mask = 127
        self.count = 0
        for position in 0..<count {
            guard let hash = Self.hash(of: key(position)) else {
                slots = []
                return false
            }
            insert(hash, position: position)
        }
        return true
    }

    func position(of key: String, hash: UInt64, in members: [EncodingObject.Member]) -> Int? {
        position(of: key, hash: hash) { members[$0].key }
    }

    /// The position of `key` (its hash `hash`), the key at each position given by `keyAt`.
    func position(of key: String, hash: UInt64, _ keyAt: (Int) -> String) -> Int? {
        var index = Int(truncatingIfNeeded: hash) & mask
        while slots[index].position >= 0 {
            if slots[index].hash == hash, keyAt(slots[index].position) == key { return slots[index].position }
            index = (index + 1) & mask
        }
        return nil
    }

    mutating func insert(_ hash: UInt64, position: Int) {
        if (count + 1) * 2 > slots.count {
            let old = slots
            slots = Array(repeating: (0, -1), count: old.count * 2)
            mask = slots.count - 1
            for slot in old where slot.position >= 0 { place(slot) }
        }
        place((hash, position))
        count += 1
    }

    /// Puts an entry in the first free slot from its hash on.
    private mutating func place(_ entry: (hash: UInt64, position: Int)) {
        var index = Int(truncatingIfNeeded: entry.hash) & mask
        while slots[index].position >= 0 { index = (index + 1) & mask }
        slots[index] = entry
    }
}
