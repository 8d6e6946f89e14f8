/// Foundation's snake_case reading for one decode
/// (``CodableOptions/KeyStrategy/snakeCase``), with each distinct JSON key
/// converted once.
///
/// Foundation converts every key of every object it reads
/// (``SnakeCaseKeys/fromSnakeCase(_:)``) into a dictionary made per object,
/// and so did this decoder: a `String` for each key, two hashed lookups and
/// a dictionary a container, a quarter of a decode of an API feed with
/// snake_case keys. A file's keys come from a small vocabulary, so here each
/// distinct key is converted once a decode, by the same function, and found
/// again by a seeded hash of its bytes (``KeyHash``). Converted names are
/// kept once each and numbered, so an object's listing (``list(_:tape:into:)``)
/// is a pair of integers a key, and the first of the keys that convert
/// alike wins by a stamp per name (Foundation's rule: the first in
/// document order), with no comparison between keys.
///
/// A container then finds a coding key by comparing its bytes with the
/// converted names of its listing, starting past the last one found
/// (synthesized `Codable` asks for keys in declaration order, usually
/// document order), as containers without a strategy compare the tape's
/// own keys.
///
/// Names compare as Swift strings do, under canonical equivalence (as the
/// dictionary Foundation builds per object does): a converted name
/// canonically equal to one already numbered takes its number, and a coding
/// key that misses bytewise is looked up again as a `String` whenever a
/// non-ASCII name or key is involved (``canonicalNumbers``). Only the bytes
/// are compared otherwise: two different ASCII strings are never
/// canonically equal.
///
/// Memory: the distinct keys and their conversions, each once, up to
/// ``capacity`` keys (about 2 MB of tables besides the keys' text). An
/// input with more distinct keys than that (an attack: real models have
/// a few hundred) gets the objects that bring new keys past it converted
/// one by one (``list(_:tape:into:)`` answers false), as before
/// the table, with memory held per container.
///
/// The tables are one struct behind ``ExclusiveState``: a decode owns its
/// table on one task, and the runtime's check of each access to a class's
/// arrays cost 4% of activity.json's decode (HISTORY.md, thirty-fourth
/// session).
final class SnakeCaseKeyTable: ExclusiveState<SnakeCaseKeyTable.Table> {
    /// The most distinct keys a decode's table holds.
    static let capacity = 16_384

    /// A key of an object's listing: its converted name's number and its
    /// value's tape index.
    struct Listed {
        let name: Int
        let value: Int
    }

    init() { super.init(state: Table()) }

    /// How many distinct keys the table holds.
    var count: Int { state.keyCount }

    /// The keys of the object at `object` (skipping keys a later repeat
    /// shadows), converted, in document order, the first of equal
    /// conversions kept; `list` is emptied first and keeps its capacity.
    /// False when a key is new and the table holds ``capacity`` keys
    /// already (`list` is then of no use).
    func list(_ object: Int, tape: TapeReader, into list: inout [Listed]) -> Bool {
        state.list(object, tape: tape, into: &list)
    }

    /// The value's tape index for the coding key named `key` in a listing,
    /// looking first past the key found last (`hint`, updated), or nil.
    func find(_ key: consuming String, in list: [Listed], hint: inout Int) -> Int? {
        state.find(key, in: list, hint: &hint)
    }

    /// A listing's converted names, in its order (a container's `allKeys`).
    func names(_ list: [Listed]) -> [String] {
        state.names(list)
    }
}

extension SnakeCaseKeyTable {
    /// The keys, names and their indexes.
    struct Table {
        /// A distinct JSON key (`name` -1: an empty slot).
        private struct KeySlot {
            var hash: UInt64 = 0
            var offset = 0
            var length = 0
            var name = -1
        }

        /// A distinct converted name (`name` -1: an empty slot).
        private struct NameSlot {
            var hash: UInt64 = 0
            var name = -1
        }

        private var keySlots = [KeySlot](repeating: KeySlot(), count: 64)
        fileprivate(set) var keyCount = 0
        private var nameSlots = [NameSlot](repeating: NameSlot(), count: 64)
        /// Where each converted name's bytes are in `text`.
        private var names: [(offset: Int, length: Int)] = []
        /// Per name, the last listing that took it (first of equal names wins).
        private var stamps: [UInt32] = []
        private var stamp: UInt32 = 0
        /// The bytes of the distinct keys and of their converted names.
        private var text: [UInt8] = []
        /// Every name's number by its `String`, made once the first non-ASCII
        /// name or coding key is met (nil before: all names are ASCII, equal
        /// only when their bytes are).
        private var canonicalNumbers: [String: Int]?

        init() {
            text.reserveCapacity(1024)
        }

        /// See ``SnakeCaseKeyTable/list(_:tape:into:)``.
        mutating func list(_ object: Int, tape: TapeReader, into list: inout [Listed]) -> Bool {
            list.removeAll(keepingCapacity: true)
            stamp &+= 1
            if stamp == 0 {
                for index in stamps.indices { stamps[index] = 0 }
                stamp = 1
            }
            let end = tape[object].payload
            var position = object + 1
            while position < end {
                let entry = tape[position]
                let valueEntry = tape[position + 1]
                if entry.flags & TapeFlags.shadowed == 0 {
                    guard let name = tape.withText(of: entry, { self.name(of: $0) }) else { return false }
                    if stamps[name] != stamp {
                        stamps[name] = stamp
                        list.append(Listed(name: name, value: position + 1))
                    }
                }
                position = valueEntry.kind == .array || valueEntry.kind == .object ? valueEntry.payload : position + 2
            }
            return true
        }

        /// See ``SnakeCaseKeyTable/find(_:in:hint:)``.
        mutating func find(_ key: consuming String, in list: [Listed], hint: inout Int) -> Int? {
            var key = key
            return key.withUTF8Span { key -> Int? in
                let count = list.count
                guard count > 0 else { return nil }
                var position = hint < count ? hint : 0
                let first = position
                repeat {
                    let listed = list[position]
                    position = position + 1 < count ? position + 1 : 0
                    if matches(listed.name, key) {
                        hint = position
                        return listed.value
                    }
                } while position != first
                guard canonicalNumbers != nil || !UTF8Validation.isASCII(key) else { return nil }
                // Missed bytewise with a non-ASCII name or key about: the name
                // canonically equal to the key, if any, and its place in the list.
                guard let number = canonicalNumber(of: key.decodedString) else { return nil }
                for index in list.indices where list[index].name == number {
                    hint = index + 1 < count ? index + 1 : 0
                    return list[index].value
                }
                return nil
            }
        }

        /// The number of the name canonically equal to `key`, if any.
        @inline(never)
        private mutating func canonicalNumber(of key: String) -> Int? {
            canonicalIndex()[key]
        }

        /// ``canonicalNumbers``, made from the names so far if it is not yet.
        private mutating func canonicalIndex() -> [String: Int] {
            if let canonicalNumbers { return canonicalNumbers }
            var index: [String: Int] = [:]
            for number in names.indices where index[nameText(number)] == nil { index[nameText(number)] = number }
            canonicalNumbers = index
            return index
        }

        private func nameText(_ number: Int) -> String {
            let (offset, length) = names[number]
            return text.span.decodedString(offset..<offset + length)
        }

        /// See ``SnakeCaseKeyTable/names(_:)``.
        func names(_ list: [Listed]) -> [String] {
            list.map { nameText($0.name) }
        }

        @inline(__always)
        private func matches(_ name: Int, _ key: Span<UInt8>) -> Bool {
            let (offset, length) = names[name]
            return text.span.extracting(offset..<offset + length).elementsEqual(key)
        }

        /// The number of the converted name of the JSON key `key`; nil for a
        /// new key when the table is full.
        private mutating func name(of key: Span<UInt8>) -> Int? {
            let hash = KeyHash.hash(key, seed: KeyHash.seed)
            var index = Int(truncatingIfNeeded: hash) & (keySlots.count - 1)
            while keySlots[index].name >= 0 {
                let slot = keySlots[index]
                if slot.hash == hash, text.span.extracting(slot.offset..<slot.offset + slot.length).elementsEqual(key) {
                    return slot.name
                }
                index = (index + 1) & (keySlots.count - 1)
            }
            return keyCount < SnakeCaseKeyTable.capacity ? added(key, hash: hash) : nil
        }

        /// Converts a key met for the first time and indexes it.
        @inline(never)
        private mutating func added(_ bytes: Span<UInt8>, hash: UInt64) -> Int {
            let key = bytes.decodedString
            let converted = bytes.firstIndex(of: 0x5F) != nil ? SnakeCaseKeys.fromSnakeCase(key) : key
            let name = interned(converted)
            let offset = appendText(bytes)
            let count = bytes.count
            if (keyCount + 1) * 2 > keySlots.count { keySlots = Self.grown(keySlots, empty: KeySlot(), hash: \.hash) { $0.name >= 0 } }
            var index = Int(truncatingIfNeeded: hash) & (keySlots.count - 1)
            while keySlots[index].name >= 0 { index = (index + 1) & (keySlots.count - 1) }
            keySlots[index] = KeySlot(hash: hash, offset: offset, length: count, name: name)
            keyCount += 1
            return name
        }

        /// The number of a converted name, numbering it if it is new.
        private mutating func interned(_ original: String) -> Int {
            var name = original
            return name.withUTF8Span { bytes -> Int in
                let hash = KeyHash.hash(bytes, seed: KeyHash.seed)
                var index = Int(truncatingIfNeeded: hash) & (nameSlots.count - 1)
                while nameSlots[index].name >= 0 {
                    let slot = nameSlots[index]
                    if slot.hash == hash, matches(slot.name, bytes) { return slot.name }
                    index = (index + 1) & (nameSlots.count - 1)
                }
                // Not bytewise known: canonically equal to a name already numbered?
                if canonicalNumbers != nil || !UTF8Validation.isASCII(bytes) {
                    _ = canonicalIndex()
                    if let number = canonicalNumbers![original] { return number }
                    canonicalNumbers![original] = names.count
                }
                let number = names.count
                names.append((appendText(bytes), bytes.count))
                stamps.append(0)
                if names.count * 2 > nameSlots.count {
                    nameSlots = Self.grown(nameSlots, empty: NameSlot(), hash: \.hash) { $0.name >= 0 }
                    index = Int(truncatingIfNeeded: hash) & (nameSlots.count - 1)
                    while nameSlots[index].name >= 0 { index = (index + 1) & (nameSlots.count - 1) }
                }
                nameSlots[index] = NameSlot(hash: hash, name: number)
                return number
            }
        }

        /// Copies bytes to the end of `text`; returns where they start.
        private mutating func appendText(_ bytes: Span<UInt8>) -> Int {
            let offset = text.count
            bytes.append(to: &text)
            return offset
        }

        /// An open-addressing table twice the size, with the same entries.
        private static func grown<Slot>(_ slots: [Slot], empty: Slot, hash: (Slot) -> UInt64, isUsed: (Slot) -> Bool) -> [Slot] {
            var grown = [Slot](repeating: empty, count: slots.count * 2)
            let mask = grown.count - 1
            for slot in slots where isUsed(slot) {
                var index = Int(truncatingIfNeeded: hash(slot)) & mask
                while isUsed(grown[index]) { index = (index + 1) & mask }
                grown[index] = slot
            }
            return grown
        }
    }
}
