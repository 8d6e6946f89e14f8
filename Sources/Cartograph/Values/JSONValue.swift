import Foundation

/// An owned JSON value: null, bool, number (exact), string, array, or object
/// with its key order kept.
///
/// Build one from a ``Document`` (``Node/jsonValue()``), from text
/// (`JSONValue(parsing:)`), from literals, or from
/// Foundation-style `[String: Any]` values (``JSONValue/init(any:)``).
///
/// ```swift
/// let value: JSONValue = ["name": "Ada", "tags": ["math", 1815], "born": nil]
/// ```
public enum JSONValue: Sendable, Hashable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number, exact (see ``JSONNumber``).
    case number(JSONNumber)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object, keys in order.
    case object(JSONObject)

    /// The value's kind.
    public var kind: JSONKind {
        switch self {
        case .null: return .null
        case .bool: return .bool
        case .number: return .number
        case .string: return .string
        case .array: return .array
        case .object: return .object
        }
    }

    /// Parses JSON text into a value.
    @inlinable // specialised where it is called, as Document(parsing:options:) is
    public init(parsing bytes: some Collection<UInt8>, options: ParseOptions = ParseOptions()) throws {
        self = try Document(parsing: bytes, options: options).root.jsonValue()
    }

    /// Parses JSON text from a string into a value.
    public init(parsing text: String, options: ParseOptions = ParseOptions()) throws {
        try self.init(parsing: Array(text.utf8), options: options)
    }

    /// The member for a key when this is an object, else nil.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let object) = self else { return nil }
        return object[key]
    }

    /// The element at a position when this is an array and it is in range, else nil.
    public subscript(position: Int) -> JSONValue? {
        guard case .array(let array) = self, array.indices.contains(position) else { return nil }
        return array[position]
    }

    /// The string, when this is one.
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The bool, when this is one.
    public var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// The number, when this is one.
    public var numberValue: JSONNumber? {
        if case .number(let value) = self { return value }
        return nil
    }

    /// Whether this is `null`.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }
}

extension JSONValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral,
    ExpressibleByDictionaryLiteral
{
    /// `null`.
    public init(nilLiteral: ()) { self = .null }
    /// A bool.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// An integer.
    public init(integerLiteral value: Int64) { self = .number(JSONNumber(value)) }
    /// A double.
    public init(floatLiteral value: Double) { self = .number(JSONNumber(value)) }
    /// A string.
    public init(stringLiteral value: String) { self = .string(value) }
    /// An array.
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    /// An object, keys in the literal's order.
    public init(dictionaryLiteral elements: (String, JSONValue)...) { self = .object(JSONObject(elements)) }
}

extension Node {
    /// Builds an owned ``JSONValue`` of this node and everything under it.
    ///
    /// - Throws: ``CartographError`` of kind
    ///   ``CartographError/Kind/depthLimitExceeded`` when the value nests
    ///   deeper than this thread's stack can build and later take apart
    ///   (only reachable with ``ParseOptions/maxDepth`` raised far past its
    ///   default; the article "Errors and limits", Stack, gives the budget).
    public func jsonValue() throws -> JSONValue {
        var keys = KeyStringCache()
        return try document.jsonValue(at: index, depth: 0, levels: TreeStackBudget.unmeasured, keys: &keys)
    }
}

/// How deep a recursive build of an owned tree (``JSONValue``) may go on
/// the calling thread.
///
/// The build itself asks ``StackGuard`` at each level past
/// ``StackGuard/uncheckedLevels``. But a `JSONValue` is also taken apart
/// recursively when it is released, so a tree the stack only just held
/// while it was built could overflow it then. So the depth is also held to
/// the room the stack has where the checks begin, at ``walkBytesPerLevel``
/// a level, kept for one later recursive walk. A tree built on a large
/// stack and released on a smaller one is beyond what this can see.
enum TreeStackBudget {
    /// Stack kept for each level of a later walk of the tree. Measured in
    /// a release build on a 512 KiB thread: releasing a tree takes about
    /// 150 bytes a level (arrays) to 230 (objects), building one about 150,
    /// and comparing, hashing, converting to `Any` and writing one all fit
    /// (there a build stops at about 870 levels). A debug build's frames
    /// are several times larger: comparing and converting trees the
    /// release figure allowed ran a 512 KiB thread out, so it keeps more.
    #if DEBUG
        static let walkBytesPerLevel = 2_048
    #else
        static let walkBytesPerLevel = 384
    #endif

    /// Measured lazily: most trees never reach the first checked level.
    static let unmeasured = Int.max

    /// Whether a container `depth` levels below the start of the build may
    /// be built. `levels` is the budget, ``unmeasured`` until the first
    /// checked level sets it.
    @inline(__always)
    static func allows(depth: Int, levels: inout Int) -> Bool {
        if depth < StackGuard.uncheckedLevels { return true }
        if levels == unmeasured {
            levels = depth + max(0, StackGuard.remaining - StackGuard.reserve) / walkBytesPerLevel
        }
        return depth < levels && StackGuard.hasRoom
    }
}

/// Reuses one `String` for each repeated key while a tree is built: arrays
/// of records repeat the same keys, and making each key's `String` from the
/// tape's bytes (its ASCII check, `UTF8Span`, the string) cost about 160
/// instructions a key on citm_catalog.json, a quarter of its tree build; a
/// hit here costs about half that.
///
/// A key is known by its length and two words: its first and last eight
/// bytes, which hold all of a key of up to 16 bytes, so a hit there is a
/// few comparisons; a longer key's bytes are compared as well. The words
/// pick one of 128 sets of two slots (twitter.json's 94 keys thrashed a
/// table of 256 single slots: one lookup in nine missed). A new key takes
/// the set's second slot once the first is held, so the first key of a
/// set stays found while others pass through. Keys built to share a set
/// cost what they did without the cache, and one comparison of their bytes
/// more: never a wrong key, and linear in the input.
///
/// The slots are made once a tree has made ``uncachedKeys`` keys: most
/// trees built from a node are small (a property's `[]`,
/// `{"type":"Point",…}`), and making and destroying 256 empty slots for
/// each cost the twitter.json factories 9% of their decode (an empty
/// `symbols` array per status).
struct KeyStringCache {
    private struct Slot {
        var count = 0
        var head: UInt64 = 0
        var tail: UInt64 = 0
        var string = ""
    }

    /// Keys a tree makes before it keeps them.
    static let uncachedKeys = 16

    private var slots: [Slot] = []
    private var made = 0

    mutating func string(for bytes: Span<UInt8>) -> String {
        let count = bytes.count
        guard count > 0 else { return "" }
        if slots.isEmpty {
            made += 1
            if made <= Self.uncachedKeys { return TapeString.make(bytes) }
            slots = [Slot](repeating: Slot(), count: 256)
        }
        let (head, tail) = Self.words(bytes)
        let mixed = (head &* 0x9E37_79B9_7F4A_7C15) ^ (tail &* 0xC2B2_AE3D_27D4_EB4F) ^ UInt64(count)
        let first = Int(truncatingIfNeeded: mixed >> 57) &<< 1
        if let found = cached(at: first, bytes, head, tail) ?? cached(at: first &+ 1, bytes, head, tail) { return found }
        let fresh = TapeString.make(bytes)
        slots[slots[first].count == 0 ? first : first &+ 1] = Slot(count: count, head: head, tail: tail, string: fresh)
        return fresh
    }

    /// The string in slot `index` when it is the key of `bytes` (whose words are `head` and `tail`).
    @inline(__always)
    private func cached(at index: Int, _ bytes: Span<UInt8>, _ head: UInt64, _ tail: UInt64) -> String? {
        guard slots[index].count == bytes.count, slots[index].head == head, slots[index].tail == tail else { return nil }
        var string = slots[index].string
        // Up to 16 bytes the words hold the whole key.
        if bytes.count <= 16 { return string }
        return string.withUTF8Span { $0.elementsEqual(bytes) } ? string : nil
    }

    /// Two words that together hold every byte of 1 to 16 bytes (with
    /// their count, they tell any two such keys apart), and the ends of a
    /// longer key: the first and last eight bytes; the first and last
    /// four; the first, middle and last byte.
    @inline(__always)
    static func words(_ bytes: Span<UInt8>) -> (head: UInt64, tail: UInt64) {
        let count = bytes.count
        if count >= 8 { return (bytes.word(at: 0), bytes.word(at: count &- 8)) }
        if count >= 4 { return (UInt64(bytes.word32(at: 0)), UInt64(bytes.word32(at: count &- 4))) }
        return (UInt64(bytes[0]) | UInt64(bytes[count / 2]) << 8 | UInt64(bytes[count &- 1]) << 16, 0)
    }
}

extension Document {
    /// The owned tree of the value at `index`, `depth` levels below where
    /// the build started; a container past the stack's budget (`levels`,
    /// ``TreeStackBudget``) throws.
    func jsonValue(at index: Int, depth: Int, levels: Int, keys: inout KeyStringCache) throws -> JSONValue {
        let tape = reader
        let entry = tape[index]
        switch entry.kind {
        case .null, .true, .false, .number, .string, .key:
            return scalar(entry)
        case .array:
            var levels = levels
            guard TreeStackBudget.allows(depth: depth, levels: &levels) else { throw StackGuard.exhausted(offset: entry.source) }
            var position = index + 1
            let count = Int(entry.length)
            // Arrays of one to four leaves (a point, a range, a pair of ids)
            // made from a literal: reserving room in an empty array asks
            // malloc for the block's size (``ShortArray``). Leaves only, so
            // that no level of this recursion passes through the literal's
            // frames: made there, nested values took a debug build's stack
            // a third faster, and it built a shallower tree.
            if count >= 1, count <= ShortArray.limit, let short = shortArray(at: index, count: count) {
                return .array(short)
            }
            var elements: [JSONValue] = []
            elements.reserveCapacity(count)
            while position < entry.payload {
                elements.append(try jsonValue(at: position, depth: depth + 1, levels: levels, keys: &keys))
                position = next(after: position)
            }
            return .array(elements)
        case .object:
            var levels = levels
            guard TreeStackBudget.allows(depth: depth, levels: &levels) else { throw StackGuard.exhausted(offset: entry.source) }
            // Up to four leaf members from a literal too (see arrays above).
            let count = Int(entry.length)
            if count >= 1, count <= ShortArray.limit, let short = shortObject(at: index, count: count, keys: &keys) {
                return .object(short)
            }
            var object = JSONObject()
            object.reserveCapacity(count)
            var position = index + 1
            while position < entry.payload {
                let key = tape[position]
                if key.flags & TapeFlags.shadowed == 0 {
                    let name = tape.withText(of: key) { keys.string(for: $0) }
                    object.appendUnchecked(name, try jsonValue(at: position + 1, depth: depth + 1, levels: levels, keys: &keys))
                }
                position = next(after: position + 1)
            }
            return .object(object)
        }
    }

    /// The value of a scalar entry (null, bool, number, string).
    @inline(__always)
    private func scalar(_ entry: TapeEntry) -> JSONValue {
        switch entry.kind {
        case .null: return .null
        case .true: return .bool(true)
        case .false: return .bool(false)
        case .number: return .number(jsonNumber(entry))
        case .string, .key: return .string(reader.string(entry))
        case .array, .object: preconditionFailure("Cartograph: a container read as a scalar")
        }
    }

    /// A value that holds no other: a scalar, `[]` or `{}`. Built without
    /// recursion; nil for a container that holds something.
    private func leaf(at index: Int) -> JSONValue? {
        let entry = reader[index]
        switch entry.kind {
        case .array: return entry.length == 0 ? .array([]) : nil
        case .object: return entry.length == 0 ? .object(JSONObject()) : nil
        default: return scalar(entry)
        }
    }

    /// Whether the value at `index` holds no other (``leaf(at:)``).
    private func isLeaf(at index: Int) -> Bool {
        let entry = reader[index]
        return (entry.kind != .array && entry.kind != .object) || entry.length == 0
    }

    /// The `count` (1 to ``ShortArray/limit``) elements of the array at
    /// `index` from a literal, when every one is a leaf; else nil.
    private func shortArray(at index: Int, count: Int) -> [JSONValue]? {
        var position = index + 1
        for _ in 0..<count {
            guard isLeaf(at: position) else { return nil }
            position = next(after: position)
        }
        position = index + 1
        return ShortArray.make(count: count) { _ in
            defer { position = next(after: position) }
            return leaf(at: position)
        }
    }

    /// The `count` (1 to ``ShortArray/limit``) members of the object at
    /// `index` from a literal, when every value is a leaf and no key is
    /// shadowed (a duplicate the parse's policy hides); else nil.
    private func shortObject(at index: Int, count: Int, keys: inout KeyStringCache) -> JSONObject? {
        let tape = reader
        var position = index + 1
        for _ in 0..<count {
            guard tape[position].flags & TapeFlags.shadowed == 0, isLeaf(at: position + 1) else { return nil }
            position = next(after: position + 1)
        }
        position = index + 1
        let members = ShortArray.make(count: count) { _ -> JSONObject.Member? in
            defer { position = next(after: position + 1) }
            guard let value = leaf(at: position + 1) else { return nil }
            return (tape.withText(of: tape[position]) { keys.string(for: $0) }, value)
        }
        return members.map { JSONObject(parsedMembers: $0) }
    }
}
