import Foundation

/// What an encoder's containers fill in: values, or objects and arrays that
/// nested containers may still be adding to (hence references).
///
/// The library has one output tree per audience, and this builder:
/// ``JSONValue`` is the public JSON DOM (values only, `Hashable`, what
/// jansson encodes); ``EncodedValue`` is what a model encodes to, public
/// because a ``ModelFactory`` returns it, with the date, data and native
/// leaves property lists and `[String: Any]` keep and JSON has no form for.
/// Neither can be this builder: Foundation's `Encoder` lets a nested
/// container be written after its siblings, so the tree must be filled
/// through references, and a value type filled that way would be copied
/// on every write. A node finishes as either tree (``value()``,
/// ``encoded``), or is walked as it is by the JSON and property-list
/// writers, which never build a finished tree at all.
enum EncodingNode {
    case value(JSONValue)
    /// A date or data kept for property-list output.
    case native(EncodedValue)
    case object(EncodingObject)
    case array(EncodingArray)
    /// A scalar already written into the run's binary plist sink, by its
    /// object number (``BinaryWriteAhead``); only that sink's walk meets one.
    case written(Int)

    /// The finished value (dates as ISO 8601 strings, data as base64); a
    /// native value with no JSON form throws.
    func value() throws -> JSONValue {
        switch self {
        case .value(let value): return value
        case .native(let native): return try native.jsonValue()
        case .object(let object): return .object(try object.finished())
        case .array(let array): return .array(try array.elements.map { try $0.value() })
        case .written: preconditionFailure("a value written ahead into a binary plist has no JSON form")
        }
    }

    /// The finished value with dates and data kept (for mappings writing plists).
    var encoded: EncodedValue {
        switch self {
        case .value(let value): return EncodedValue(value)
        case .native(let native): return native
        case .object(let object): return .object(object.members.map { ($0.key, $0.value.encoded) })
        case .array(let array): return .array(array.elements.map(\.encoded))
        case .written: preconditionFailure("a value written ahead into a binary plist has no other form")
        }
    }
}

/// An object being encoded; encoding a key twice keeps the last value, in the first position.
///
/// Duplicates are found by a linear scan that compares UTF-8 lengths (O(1)
/// for native strings) before text, and only when a key of the same
/// signature (length and first byte, hashed to one of 64 bits) was seen:
/// cheaper than hashing every key for the object sizes `Codable` types
/// have (synthesized code never repeats a key). Past
/// ``indexThreshold`` members (a large `[String: Value]`, where nearly every
/// signature bit is set and the scan would make encoding quadratic: a
/// 15,000-key dictionary took 0.5 s) a hash index of the keys takes over;
/// it compares keys as `String`s, so canonically equivalent spellings are
/// one key there (a Swift dictionary cannot hold both either). Keys and values share
/// one array (one allocation per object, one buffer to walk). The members
/// are an ``ExclusiveState``: appending to an array stored in a class
/// otherwise pays a runtime exclusivity check each time, and an object is
/// only ever filled by the one encoder that owns it.
final class EncodingObject: ExclusiveState<EncodingMembers> {
    typealias Member = EncodingMembers.Member
    /// 64, not 32: twitter.json's user objects (about 40 keys) stay on the
    /// scan, which costs less than filling an index for them (HISTORY.md,
    /// thirty-second session).
    static let indexThreshold = 64

    /// A key's signature bit (its UTF-8 length and first byte), shared with
    /// the streaming encoder's ``StreamKeyLog`` so that both find the same repeats.
    @inline(__always)
    static func signatureBit(of key: String, length: Int) -> UInt64 {
        1 << UInt64((length &+ Int(key.utf8.first ?? 0) &* 7) & 63)
    }

    init() { super.init(state: EncodingMembers()) }

    var members: [Member] { state.members }
    func set(_ key: String, _ slot: EncodingNode) { state.set(key, slot) }
    func node(_ key: String) -> EncodingNode? { state.node(key) }
    func finished() throws -> JSONObject { try state.finished() }
}

/// The members of an ``EncodingObject`` and the indexes that find a key among them.
struct EncodingMembers {
    /// One member: a struct, not a `(key:value:)` tuple, so that an array of
    /// them is destroyed through the struct's own value witness rather than
    /// the runtime's generic tuple destroy.
    struct Member {
        let key: String
        var value: EncodingNode
    }

    private(set) var members: [Member] = []
    /// One bit per (UTF-8 length, first byte) signature among the keys: a key
    /// whose bit is clear is new without a scan, which is nearly always.
    private var signatures: UInt64 = 0
    /// Key → position, built once the object passes ``EncodingObject/indexThreshold``
    /// members and holds a key that is not ASCII.
    private var index: [String: Int]?
    /// Past ``EncodingObject/indexThreshold`` while every key is ASCII (nearly always):
    /// positions by a seeded hash of the key's bytes: `String`'s own hashing
    /// normalises the text first, which objects of many keys feel. For
    /// ASCII keys equal bytes are equal strings;
    /// with a non-ASCII key, canonical equivalence (the Kelvin sign is
    /// `K`) needs `String` equality, so the object moves to ``index``.
    private var asciiIndex = ASCIIKeyIndex()

    mutating func set(_ key: String, _ slot: EncodingNode) {
        if members.count >= EncodingObject.indexThreshold { return setIndexed(key, slot) }
        let length = key.utf8.count
        let bit = EncodingObject.signatureBit(of: key, length: length)
        if signatures & bit != 0, let position = position(of: key, length: length) {
            members[position].value = slot
            return
        }
        signatures |= bit
        // Models have a handful of keys or more: skip the 1-2-4 growth steps.
        if members.isEmpty { members.reserveCapacity(8) }
        members.append(Member(key: key, value: slot))
    }

    private mutating func setIndexed(_ key: String, _ slot: EncodingNode) {
        if index == nil, let hash = ASCIIKeyIndex.hash(of: key), !asciiIndex.isEmpty || asciiIndex.fill(with: members) {
            if let position = asciiIndex.position(of: key, hash: hash, in: members) {
                members[position].value = slot
            } else {
                asciiIndex.insert(hash, position: members.count)
                members.append(Member(key: key, value: slot))
            }
            return
        }
        if index == nil {
            index = Dictionary(members.indices.map { (members[$0].key, $0) }, uniquingKeysWith: { first, _ in first })
            asciiIndex = ASCIIKeyIndex()
        }
        if let position = index![key] {
            members[position].value = slot
        } else {
            index![key] = members.count
            members.append(Member(key: key, value: slot))
        }
    }

    func node(_ key: String) -> EncodingNode? {
        if let index { return index[key].map { members[$0].value } }
        if !asciiIndex.isEmpty, let hash = ASCIIKeyIndex.hash(of: key) {
            return asciiIndex.position(of: key, hash: hash, in: members).map { members[$0].value }
        }
        return position(of: key, length: key.utf8.count).map { members[$0].value }
    }

    private func position(of key: String, length: Int) -> Int? {
        for position in members.indices where members[position].key.utf8.count == length && members[position].key == key {
            return position
        }
        return nil
    }

    func finished() throws -> JSONObject {
        var object = JSONObject()
        object.reserveCapacity(members.count)
        for member in members { object.appendUnchecked(member.key, try member.value.value()) }
        return object
    }
}

/// An array being encoded (an ``ExclusiveState``, as ``EncodingObject``'s members are).
final class EncodingArray: ExclusiveState<[EncodingNode]> {
    init() { super.init(state: []) }

    var elements: [EncodingNode] { state }
    var count: Int { state.count }
    func append(_ slot: EncodingNode) { state.append(slot) }
    func replace(_ position: Int, with slot: EncodingNode) { state[position] = slot }
}
