/// The keys of one object, to find a key written twice (which the tree
/// encoder writes once, in its first place, with the last value).
///
/// Most objects of a type write the same keys in the same order, so the
/// log first follows a ``KeyTemplate``: the keys an earlier object of the
/// same `CodingKey` type wrote. A key found in the template past the last
/// one matched cannot repeat an earlier key (the template's keys differ
/// from one another, and each match lies further on), so it costs one
/// string comparison (usually of identical storage) and needs no record;
/// its quoted form is written from the template too. Optional keys left
/// out skip a few entries. A key found nowhere in the next few entries
/// ends the following: the keys matched so far go into the log, and from
/// there every key is checked as below.
///
/// The checks are ``EncodingObject``'s, so that the stream finds every
/// repeat the tree finds: below ``EncodingObject/indexThreshold`` keys a
/// signature bit, then UTF-8 length and `String` equality; past it a hash
/// of the bytes while every key is ASCII (``ASCIIKeyIndex``), a `Set` of
/// the keys once one is not. Arrays are kept from object to object at the
/// same level.
///
/// Keys with an identity (``KeyIdentity``) are kept with it, so that a
/// template learned from them is followed by comparing identities
/// (``writeNextMemberStart(identity:first:into:)``); -1 is a key without one.
struct StreamKeyLog {
    private var signatures: UInt64 = 0
    private var keys: [String] = []
    /// Beside `keys`, each one's identity or -1.
    private var identities: [Int] = []
    private var asciiIndex = ASCIIKeyIndex()
    private var index: Set<String>?
    /// The template followed (nil once the log records keys itself).
    private(set) var template: KeyTemplate?
    /// The template entry to try next, and the entries matched (one bit each).
    private var position = 0
    private var matched: UInt64 = 0

    /// What ``insert(_:)`` found.
    enum Insertion: Equatable {
        /// The key was written before in this object.
        case repeated
        /// A new key, recorded in the log.
        case logged
        /// A new key, the template's entry at this position.
        case template(Int)
    }

    /// How far past the last match a key is looked for in the template
    /// before the log takes over: enough for runs of optional keys left out,
    /// few enough that an object of other keys (a dictionary) costs little.
    static let lookahead = 8

    /// Starts a new object, following `template` if there is one. The
    /// template is taken over (the table's lookup already retained it):
    /// borrowed, it was retained again to be stored and the lookup's copy
    /// released, two reference-count operations per object.
    mutating func reset(following template: consuming KeyTemplate? = nil) {
        signatures = 0
        if !keys.isEmpty {
            keys.removeAll(keepingCapacity: true)
            identities.removeAll(keepingCapacity: true)
        }
        if !asciiIndex.isEmpty { asciiIndex = ASCIIKeyIndex() }
        index = nil
        self.template = consume template
        position = 0
        matched = 0
    }

    /// The keys of an object that can become a template for the next
    /// objects of its type (nil if it followed one to the end, or is too
    /// large to follow). One key is enough: a wrapper of one member (a
    /// list of URLs under `"urls"`, twice in each of twitter.json's users)
    /// otherwise wrote its key through the name path in every object.
    var keysToLearn: (keys: [String], identities: [Int])? {
        guard template == nil, index == nil, !keys.isEmpty, keys.count <= KeyTemplate.maximumCount else { return nil }
        return (keys, identities)
    }

    /// Forgets `key`, the last one recorded (its member's value threw).
    /// Its signature bit stays set: the bits only say where to look.
    mutating func removeLast(_ key: String) {
        if let template {
            // The last match is the highest bit set.
            guard matched != 0 else { return }
            let last = 63 - matched.leadingZeroBitCount
            if template.matches(last, key, length: key.utf8.count) {
                matched &= ~(1 << UInt64(last))
                position = last
            }
            return
        }
        if index != nil {
            index!.remove(key)
        } else if keys.last == key {
            keys.removeLast()
            identities.removeLast()
            // The hash index has no removal: built again from the keys if needed.
            if !asciiIndex.isEmpty { asciiIndex = ASCIIKeyIndex() }
        }
    }

    /// Writes the template's entry `index` (just matched by ``insert(_:)``),
    /// quoted. A mutating method of the log, so that the template is read
    /// in place: taken out of the log by the caller (or through a
    /// non-mutating method, which copies the log), it was retained and
    /// released per key.
    @inline(__always)
    mutating func writeTemplateKey(_ index: Int, into sink: OutputBuffer) {
        template?.writeQuoted(index, into: sink)
    }

    /// Writes a compact member's start (comma, quoted key, colon) when
    /// `key` is the template's next entry, and records it as ``insert(_:)``
    /// records a match: the usual case, an object writing its type's keys
    /// in the order the first one did, done with one look at the template
    /// and one copy. False, with nothing written or recorded, for any other key.
    @inline(__always)
    mutating func writeNextMemberStart(_ key: String, first: Bool, into sink: OutputBuffer) -> Bool {
        // Through `?`: binding the template with `let` retained it per member.
        guard template?.writeMemberStart(position, ifMatching: key, first: first, into: sink) == true else { return false }
        matched |= 1 << UInt64(position)
        position += 1
        return true
    }

    /// ``writeNextMemberStart(_:first:into:)`` for a key known by its
    /// identity (``KeyIdentity``, of the type whose template this log
    /// follows): at the next entry, else anywhere further on. Unlike a name
    /// (``insert(_:identity:)``, a few entries on), an identity is one
    /// byte compared, so the rest of the template is searched: a model
    /// whose optional members are nil in long runs (twitter.json's users
    /// and statuses leave out more than ``lookahead`` in a row) kept
    /// following it, where the lookahead's miss sent every later member
    /// of the object down the name path.
    @inline(__always)
    mutating func writeNextMemberStart(identity: Int, first: Bool, into sink: OutputBuffer) -> Bool {
        guard let found = template?.writeMemberStart(from: position, identity: identity, first: first, into: sink)
        else {
            return false
        }
        matched |= 1 << UInt64(found)
        position = found + 1
        return true
    }

    /// Records `key` (with its identity, or -1), or finds it in the template.
    @inline(__always)
    mutating func insert(_ key: String, identity: Int = -1) -> Insertion {
        if let template {
            let end = min(position + Self.lookahead, template.keys.count)
            let length = key.utf8.count
            var candidate = position
            while candidate < end {
                if template.matches(candidate, key, length: length) {
                    matched |= 1 << UInt64(candidate)
                    position = candidate + 1
                    return .template(candidate)
                }
                candidate += 1
            }
            stopFollowing(template)
        }
        return record(key, identity: identity) ? .logged : .repeated
    }

    /// The log takes over from the template: the keys matched go in first.
    private mutating func stopFollowing(_ template: KeyTemplate) {
        self.template = nil
        var bits = matched
        while bits != 0 {
            let entry = bits.trailingZeroBitCount
            bits &= bits - 1
            _ = record(template.keys[entry], identity: template.identity(entry))
        }
    }

    /// Records `key`; false if it was already written in this object.
    private mutating func record(_ key: String, identity: Int) -> Bool {
        if index != nil { return index!.insert(key).inserted }
        if keys.count >= EncodingObject.indexThreshold { return insertIndexed(key, identity: identity) }
        let length = key.utf8.count
        let bit = EncodingObject.signatureBit(of: key, length: length)
        if signatures & bit != 0 {
            for known in keys where known.utf8.count == length && known == key { return false }
        }
        signatures |= bit
        keys.append(key)
        identities.append(identity)
        return true
    }

    private mutating func insertIndexed(_ key: String, identity: Int) -> Bool {
        let keys = self.keys
        if let hash = ASCIIKeyIndex.hash(of: key), !asciiIndex.isEmpty || asciiIndex.fill(keys.count, { keys[$0] }) {
            if asciiIndex.position(of: key, hash: hash, { keys[$0] }) != nil { return false }
            asciiIndex.insert(hash, position: keys.count)
            self.keys.append(key)
            identities.append(identity)
            return true
        }
        var all = Set(keys)
        let inserted = all.insert(key).inserted
        index = all
        asciiIndex = ASCIIKeyIndex()
        return inserted
    }
}

/// The key templates of one encode, by `CodingKey` type: asked for at every
/// object a keyed container opens. An encode meets few key types, so the
/// first ones are found by comparing type identities in a short list; a
/// `Dictionary` lookup hashed each identity (SipHash), a tenth of opening
/// an object. Types past the list go in a dictionary.
struct KeyTemplateTable {
    /// Key types found by comparison before the dictionary is asked.
    private static let listed = 16
    private var types: [ObjectIdentifier] = []
    private var listedTemplates: [KeyTemplate?] = []
    private var others: [ObjectIdentifier: KeyTemplate?] = [:]

    /// The template of `type`, if one was learned.
    subscript(type: ObjectIdentifier) -> KeyTemplate? { entry(for: type) ?? nil }

    /// What the table holds for `type`: nil if the type was never set,
    /// `.some(nil)` if it was met without a template.
    func entry(for type: ObjectIdentifier) -> KeyTemplate?? {
        for index in 0..<types.count where types[index] == type { return .some(listedTemplates[index]) }
        return others.isEmpty ? nil : others[type]
    }

    /// Keeps `template` for `type` (replacing its template, if it has
    /// one); nil records that the type was met without one.
    mutating func set(_ template: KeyTemplate?, for type: ObjectIdentifier) {
        for index in 0..<types.count where types[index] == type {
            listedTemplates[index] = template
            return
        }
        if types.count < Self.listed {
            types.append(type)
            listedTemplates.append(template)
        } else {
            others[type] = template
        }
    }
}

/// The keys one object wrote, in order and all different, with their
/// quoted JSON forms: what the next objects of the same `CodingKey` type
/// follow (``StreamKeyLog``), in the same encode and, kept in
/// ``SharedKeyTemplates``, in later ones. Immutable, so encodes on several
/// threads read one at once.
final class KeyTemplate: Sendable {
    /// At most as many keys as a bit mask holds.
    static let maximumCount = 64

    let keys: [String]
    /// Which keys are ASCII (one bit each).
    private let ascii: UInt64
    /// The keys quoted and escaped, one after another.
    private let quoted: [UInt8]
    /// Each key's UTF-8 length and where its quoted form lies in `quoted`,
    /// side by side: one array read per key matched.
    private let entries: [Entry]

    private struct Entry {
        let length: Int
        let quoted: Range<Int>
        /// The key's identity, or -1.
        let identity: Int
    }

    /// The bytes of the quoted keys.
    var quotedByteCount: Int { quoted.count }

    /// A template of `keys`, each with its identity in `identities` (-1: none; nil: no key has one).
    init(keys: [String], identities: [Int]? = nil, escaping: StringEscaping) {
        precondition(keys.count <= Self.maximumCount, "a template holds at most 64 keys")
        precondition(identities == nil || identities!.count == keys.count, "an identity for each key")
        self.keys = keys
        var ascii: UInt64 = 0
        // Through a span: `utf8.allSatisfy` walked string indices, ~25
        // instructions a byte, 15% of encoding a 3 KB document.
        for (index, key) in keys.enumerated() where UTF8Validation.isASCII(key.utf8.span) { ascii |= 1 << UInt64(index) }
        self.ascii = ascii
        let buffer = OutputBuffer(capacity: keys.reduce(0) { $0 + $1.utf8.count + 2 })
        var entries: [Entry] = []
        entries.reserveCapacity(keys.count)
        for (index, key) in keys.enumerated() {
            let start = buffer.count
            buffer.appendJSONString(key, escaping)
            entries.append(Entry(length: key.utf8.count, quoted: start..<buffer.count, identity: identities?[index] ?? -1))
        }
        quoted = buffer.bytes
        self.entries = entries
    }

    /// Whether `key` (of UTF-8 `length`) has the same bytes as entry
    /// `index`: its quoted form is then that key's.
    ///
    /// `String` equality is canonical equivalence, not byte equality
    /// ("e\u{301}" equals "\u{E9}"), so it decides only for an ASCII entry
    /// of the same length: the only scalars canonically equivalent to ASCII
    /// (U+037E, U+1FEF, U+212A) are each longer than what they stand for,
    /// so no other text of that length equals it. Other entries compare bytes.
    @inline(__always)
    func matches(_ index: Int, _ key: String, length: Int) -> Bool {
        guard entries[index].length == length else { return false }
        if ascii & (1 << UInt64(index)) != 0 { return keys[index] == key }
        return keys[index].utf8.elementsEqual(key.utf8)
    }

    /// Writes a compact member's start with entry `index`'s key (see
    /// ``OutputBuffer/appendMemberStart(quoted:first:)``) if `key` is that
    /// entry; false, writing nothing, if it is not or there is no such entry.
    @inline(__always)
    func writeMemberStart(_ index: Int, ifMatching key: String, first: Bool, into sink: OutputBuffer) -> Bool {
        guard index < entries.count, matches(index, key, length: key.utf8.count) else { return false }
        writeMemberStart(index, first: first, into: sink)
        return true
    }

    /// Entry `index`'s key identity, or -1.
    func identity(_ index: Int) -> Int { entries[index].identity }

    /// This template's keys and those of an object that did not follow
    /// it (`keys`, in the order written, with their `identities`), in one
    /// order that keeps both orders: what an object of either shape then
    /// follows. A synthesized `encode(to:)` writes its keys in one fixed
    /// order and leaves out nil optionals, so two objects of a model can
    /// each write keys the other left out (a status with a reply and one
    /// with a retweet); a template of only one of them sent every object
    /// of the other shape down the name path.
    ///
    /// Nil where the keys cannot be merged: a key without an identity in
    /// either (a dictionary's keys are data, and are not merged), two keys
    /// in opposite orders, two names the same, or more keys than a template holds.
    func merging(_ keys: [String], identities: [Int]) -> (keys: [String], identities: [Int])? {
        guard entries.allSatisfy({ $0.identity >= 0 }), identities.allSatisfy({ $0 >= 0 }) else { return nil }
        var mergedKeys: [String] = []
        var mergedIdentities: [Int] = []
        var next = 0
        func keepEntries(through last: Int) {
            while next <= last {
                mergedKeys.append(self.keys[next])
                mergedIdentities.append(entries[next].identity)
                next += 1
            }
        }
        // Where a new key goes among the template's keys the object left
        // out is not known from the two orders alone: a synthesized key
        // type's cases are declared, tagged and written in one order, so
        // those of lower tags go first (none the object writes later).
        var later = Set(identities)
        for (key, identity) in zip(keys, identities) {
            later.remove(identity)
            if let found = entries[next...].firstIndex(where: { $0.identity == identity }) {
                keepEntries(through: found)
            } else if entries[..<next].contains(where: { $0.identity == identity }) {
                return nil
            } else {
                while next < entries.count, entries[next].identity < identity, !later.contains(entries[next].identity) {
                    keepEntries(through: next)
                }
                mergedKeys.append(key)
                mergedIdentities.append(identity)
            }
        }
        keepEntries(through: entries.count - 1)
        // Identities differ by case; a hand-written key type could still
        // give two cases one name, and a template's names must differ.
        guard mergedKeys.count <= Self.maximumCount, Set(mergedKeys).count == mergedKeys.count else { return nil }
        return (mergedKeys, mergedIdentities)
    }

    /// ``writeMemberStart(_:ifMatching:first:into:)`` for a key of identity
    /// `identity` (0 or more): the first entry from `start` on with that
    /// identity is that key. Returns its index, or nil, writing nothing,
    /// if there is none.
    @inline(__always)
    func writeMemberStart(from start: Int, identity: Int, first: Bool, into sink: OutputBuffer) -> Int? {
        var index = start
        while index < entries.count, entries[index].identity != identity { index += 1 }
        guard index < entries.count else { return nil }
        writeMemberStart(index, first: first, into: sink)
        return index
    }

    /// Writes a compact member's start with entry `index`'s key.
    @inline(__always)
    private func writeMemberStart(_ index: Int, first: Bool, into sink: OutputBuffer) {
        let quoted = quoted // a local: a span borrows it for no longer than the call
        sink.appendMemberStart(quoted: quoted.span.extracting(entries[index].quoted), first: first)
    }

    /// Writes entry `index`'s key, quoted, as ``NativeJSONWriter/writeString(_:)`` would.
    @inline(__always)
    func writeQuoted(_ index: Int, into sink: OutputBuffer) {
        let quoted = quoted // a local: a span borrows it for no longer than the call
        sink.append(quoted.span.extracting(entries[index].quoted))
    }
}
