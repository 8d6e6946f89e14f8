/// The members of a JSON object: unique keys in insertion order.
///
/// Members live in one array of pairs (one allocation per object). Objects
/// built by the parser carry no index (the parser has already applied the
/// duplicate-key policy), so parsing stays cheap and lookup in them is a
/// linear scan. Once an object with more than 16 keys is changed through
/// ``subscript(_:)``, it keeps a hash index, so building large objects key by
/// key stays linear. Equality ignores key order, as JSON does.
public struct JSONObject: Sendable, Hashable, Sequence, ExpressibleByDictionaryLiteral {
    /// One member.
    public typealias Member = (key: String, value: JSONValue)

    /// The members, in insertion order.
    public private(set) var members: [Member] = []
    private var index: [String: Int]?

    private static let indexThreshold = 16

    /// An empty object.
    public init() {}

    /// An object from pairs; a repeated key keeps its first position and its last value.
    public init(_ pairs: some Sequence<(String, JSONValue)>) {
        for (key, value) in pairs { self[key] = value }
    }

    /// An object from a literal; a repeated key keeps its last value.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self.init(elements)
    }

    /// Number of keys.
    public var count: Int { members.count }

    /// Whether there are no keys.
    public var isEmpty: Bool { members.isEmpty }

    /// The keys, in insertion order.
    public var keys: [String] { members.map(\.key) }

    /// The values, in the order of ``keys``.
    public var values: [JSONValue] { members.map(\.value) }

    /// The position of a key, or nil.
    public func position(of key: String) -> Int? {
        if let index { return index[key] }
        return members.firstIndex { $0.key == key }
    }

    /// The value for a key; setting `nil` removes the key.
    public subscript(key: String) -> JSONValue? {
        get { position(of: key).map { members[$0].value } }
        set {
            if let position = position(of: key) {
                if let newValue {
                    members[position].value = newValue
                } else {
                    members.remove(at: position)
                    rebuildIndex()
                }
            } else if let newValue {
                appendUnchecked(key, newValue)
                if index == nil, members.count > Self.indexThreshold { rebuildIndex() }
            }
        }
    }

    /// An object of members whose keys differ (the parser has already
    /// applied the duplicate-key policy), too few to need an index.
    init(parsedMembers: [Member]) {
        assert(parsedMembers.count <= Self.indexThreshold)
        members = parsedMembers
    }

    /// Appends a key known not to be present (the parser has already applied
    /// the duplicate-key policy).
    mutating func appendUnchecked(_ key: String, _ value: JSONValue) {
        members.append((key, value))
        if index != nil { index![key] = members.count - 1 }
    }

    /// Reserves room for `count` members.
    mutating func reserveCapacity(_ count: Int) {
        members.reserveCapacity(count)
    }

    private mutating func rebuildIndex() {
        guard members.count > Self.indexThreshold else {
            index = nil
            return
        }
        var built = [String: Int](minimumCapacity: members.count)
        for (position, member) in members.enumerated() { built[member.key] = position }
        index = built
    }

    /// Iterates `(key, value)` pairs in insertion order.
    public func makeIterator() -> IndexingIterator<[Member]> {
        members.makeIterator()
    }

    /// The same key set with equal values, in any order.
    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        guard lhs.count == rhs.count else { return false }
        if lhs.members.elementsEqual(rhs.members, by: { $0.key == $1.key }) {
            return lhs.members.elementsEqual(rhs.members, by: { $0.value == $1.value })
        }
        if rhs.index == nil, rhs.count > indexThreshold {
            var positions = [String: Int](minimumCapacity: rhs.count)
            for (position, member) in rhs.members.enumerated() { positions[member.key] = position }
            for (key, value) in lhs {
                guard let position = positions[key], rhs.members[position].value == value else { return false }
            }
            return true
        }
        for (key, value) in lhs {
            guard rhs[key] == value else { return false }
        }
        return true
    }

    /// Order-independent, consistent with `==`.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        var combined = 0
        for (key, value) in self {
            var pair = Hasher()
            pair.combine(key)
            pair.combine(value)
            combined ^= pair.finalize()
        }
        hasher.combine(combined)
    }
}
