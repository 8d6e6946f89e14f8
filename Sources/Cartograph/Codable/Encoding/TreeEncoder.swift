import Foundation

/// What an encoder's containers fill in: values, or objects and arrays that
/// nested containers may still be adding to (hence references).
enum EncodingSlot {
    case value(JSONValue)
    /// A date or data kept for property-list output.
    case native(EncodedValue)
    case object(ObjectSlot)
    case array(ArraySlot)
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
/// measured cheaper than hashing every key for the object sizes `Codable`
/// types have (synthesized code never repeats a key). Past
/// ``indexThreshold`` members (a large `[String: Value]`, where nearly every
/// signature bit is set and the scan would make encoding quadratic: a
/// 15,000-key dictionary took 0.5 s) a hash index of the keys takes over;
/// it compares keys as `String`s, so canonically equivalent spellings are
/// one key there (a Swift dictionary cannot hold both either). Keys and values share
/// one array (one allocation per object, one buffer to walk). It is
/// `@exclusivity(unchecked)`: appending to an array stored in a class
/// property otherwise pays a runtime exclusivity check each time; a slot is
/// only ever filled by the one encoder that owns it.
final class ObjectSlot {
    /// One member: a struct, not a `(key:value:)` tuple, so that an array of
    /// them is destroyed through the struct's own value witness rather than
    /// the runtime's generic tuple destroy (measured: 1.3% of a records.json
    /// encode).
    struct Member {
        let key: String
        var value: EncodingSlot
    }

    @exclusivity(unchecked) private(set) var members: [Member] = []
    /// One bit per (UTF-8 length, first byte) signature among the keys: a key
    /// whose bit is clear is new without a scan, which is nearly always.
    @exclusivity(unchecked) private var signatures: UInt64 = 0
    /// Key → position, built once the object passes ``indexThreshold``
    /// members and holds a key that is not ASCII.
    @exclusivity(unchecked) private var index: [String: Int]?
    /// Past ``indexThreshold`` while every key is ASCII (nearly always):
    /// positions by a seeded hash of the key's bytes. `String`'s own
    /// hashing (SipHash over normalised text) was a twentieth of
    /// twitter.json's binary plist encode (callgrind), whose user objects
    /// have about 40 keys. For ASCII keys equal bytes are equal strings;
    /// with a non-ASCII key, canonical equivalence (the Kelvin sign is
    /// `K`) needs `String` equality, so the object moves to ``index``.
    @exclusivity(unchecked) private var asciiIndex = ASCIIKeyIndex()
    static let indexThreshold = 32

    func set(_ key: String, _ slot: EncodingSlot) {
        if members.count >= Self.indexThreshold { return setIndexed(key, slot) }
        let length = key.utf8.count
        let bit: UInt64 = 1 << UInt64((length &+ Int(key.utf8.first ?? 0) &* 7) & 63)
        if signatures & bit != 0, let position = position(of: key, length: length) {
            members[position].value = slot
            return
        }
        signatures |= bit
        // Models have a handful of keys or more: skip the 1-2-4 growth steps.
        if members.isEmpty { members.reserveCapacity(8) }
        members.append(Member(key: key, value: slot))
    }

    private func setIndexed(_ key: String, _ slot: EncodingSlot) {
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

    func slot(_ key: String) -> EncodingSlot? {
        if let index { return index[key].map { members[$0].value } }
        if !asciiIndex.isEmpty, let hash = ASCIIKeyIndex.hash(of: key) {
            return asciiIndex.position(of: key, hash: hash, in: members).map { members[$0].value }
        }
        return position(of: key, length: key.utf8.count).map { members[$0].value }
    }

    private func position(of key: String, length: Int) -> Int? {
        for position in members.indices where members[position].key.utf8.count == length && members[position].key == key { return position }
        return nil
    }

    func finished() throws -> JSONObject {
        var object = JSONObject()
        object.reserveCapacity(members.count)
        for member in members { object.appendUnchecked(member.key, try member.value.value()) }
        return object
    }
}

/// Open addressing from a seeded hash of an ASCII key's bytes to its
/// member's position in an ``ObjectSlot`` (a hit is confirmed against the
/// member's key).
struct ASCIIKeyIndex {
    private var slots: [(hash: UInt64, position: Int)] = []
    private var mask = 0
    private var count = 0

    var isEmpty: Bool { slots.isEmpty }

    /// The hash of an ASCII key's bytes; nil for a key with any other byte.
    static func hash(of key: String) -> UInt64? {
        key.utf8.withContiguousStorageIfAvailable { bytes -> UInt64? in
            for byte in bytes where byte >= 0x80 { return nil }
            return KeyHash.hash(UnsafeRawPointer(bytes.baseAddress), count: bytes.count, seed: KeyHash.seed)
        } ?? nil
    }

    /// Indexes the members (distinct keys); false, and empty, when one is not ASCII.
    mutating func fill(with members: [ObjectSlot.Member]) -> Bool {
        slots = Array(repeating: (0, -1), count: 128)
        mask = 127
        count = 0
        for (position, member) in members.enumerated() {
            guard let hash = Self.hash(of: member.key) else {
                slots = []
                return false
            }
            insert(hash, position: position)
        }
        return true
    }

    func position(of key: String, hash: UInt64, in members: [ObjectSlot.Member]) -> Int? {
        var index = Int(truncatingIfNeeded: hash) & mask
        while slots[index].position >= 0 {
            if slots[index].hash == hash, members[slots[index].position].key == key { return slots[index].position }
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

/// An array being encoded (unchecked exclusivity, as in ``ObjectSlot``).
final class ArraySlot {
    @exclusivity(unchecked) private(set) var elements: [EncodingSlot] = []

    var count: Int { elements.count }
    func append(_ slot: EncodingSlot) { elements.append(slot) }
    func replace(_ position: Int, with slot: EncodingSlot) { elements[position] = slot }
}

/// What every encoder of one encode shares, behind one reference: a nested
/// value's encoder then costs one retain for it instead of a copy of the
/// options (strategies, closures, `userInfo`) and the registry each.
final class EncodingRun {
    let options: CodableOptions
    let registry: ModelRegistry
    let registryIsEmpty: Bool
    /// Writing a property list: dates and data stay dates and data.
    let propertyList: Bool
    /// Keys after the key strategy, by key (filled as they are met; one encoder at a time).
    @exclusivity(unchecked) var convertedKeys: [String: String] = [:]
    /// Writing a binary plist with Cartograph's writer: scalars go into its sink as they come.
    let writeAhead: BinaryWriteAhead?
    /// Keyed containers kept for the next object of their key type at their
    /// depth; emptied when the root value is encoded (``TreeEncoder/encodeRootSlot(_:requiringValue:)``).
    @exclusivity(unchecked) var recycled: RecycledContainers<TreeKeyedState>

    init(options: CodableOptions, registry: ModelRegistry, propertyList: Bool, writeAhead: BinaryWriteAhead? = nil, recyclesContainers: Bool = true) {
        self.options = options
        self.registry = registry
        registryIsEmpty = !registry.hasEntries
        self.propertyList = propertyList
        self.writeAhead = writeAhead
        // Past 16 containers: below that the table cost more than it saved
        // (callgrind, one twitter.json status: 224K instructions an encode
        // before recycling, 247K keeping after 2).
        recycled = RecycledContainers(keeps: recyclesContainers && ContainerLayout.keyedEncoding, after: 16)
    }
}

/// The `Encoder` behind ``JSONMapper``'s `Codable` support: it builds a
/// tree of slots that a writer then turns into bytes.
final class TreeEncoder: Encoder {
    let run: EncodingRun
    private(set) var result: EncodingSlot? {
        didSet { if let commit, let result { commit(result) } }
    }
    /// For a super encoder: hands each result to the parent's slot as soon
    /// as it is set, so nothing depends on when the encoder is released (a
    /// single value encoded after the encoder itself was dropped used to be lost).
    var commit: ((EncodingSlot) -> Void)?
    /// Nesting depth of this encoder's value.
    let depth: Int
    /// The encoder whose member this one encodes, under `key`; or nil, with `baseTrail`.
    private let parent: TreeEncoder?
    /// The key of this encoder's value in its parent.
    let key: (any CodingKey)?
    private let baseTrail: CodingTrail?
    @exclusivity(unchecked) private var madeTrail: CodingTrail??
    /// Keys are written without the key strategy (a string-keyed dictionary's).
    @exclusivity(unchecked) private var writesKeysAsGiven = false

    /// The coding path as a chain, made on first use: most encoders are never
    /// asked (it serves `codingPath`, nested containers and errors).
    var trail: CodingTrail? {
        if let madeTrail { return madeTrail }
        let made = key.map { CodingTrail(parent: parent?.trail ?? baseTrail, key: $0) } ?? baseTrail
        madeTrail = .some(made)
        return made
    }

    var options: CodableOptions { run.options }

    /// What `encodeNil()` writes: `null`, or in a property list (which has
    /// no null) the string `$null`, as Foundation's `PropertyListEncoder`
    /// writes it — so `[1, nil, 3]` keeps its positions and Foundation
    /// reads it back.
    var nilValue: JSONValue { run.propertyList ? .string(PlistNull.marker) : .null }
    var registry: ModelRegistry { run.registry }
    var propertyList: Bool { run.propertyList }

    /// The encoder for a root value.
    convenience init(options: CodableOptions, registry: ModelRegistry, propertyList: Bool = false, writeAhead: BinaryWriteAhead? = nil) {
        self.init(run: EncodingRun(options: options, registry: registry, propertyList: propertyList, writeAhead: writeAhead), trail: nil, depth: 0)
    }

    init(run: EncodingRun, trail: CodingTrail?, depth: Int) {
        self.run = run
        baseTrail = trail
        parent = nil
        key = nil
        self.depth = depth
    }

    /// The encoder of a member of `parent`'s value.
    init(run: EncodingRun, parent: TreeEncoder, key: any CodingKey, depth: Int) {
        self.run = run
        self.parent = parent
        self.key = key
        baseTrail = nil
        self.depth = depth
    }

    var codingPath: [any CodingKey] { CodingTrail.keys(trail) }
    var userInfo: [CodingUserInfoKey: Any] { options.userInfo }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        let object: ObjectSlot
        if case .object(let existing)? = result {
            object = existing
        } else {
            object = ObjectSlot()
            result = .object(object)
        }
        if let (holder, state) = run.recycled.reuse(ObjectIdentifier(Key.self), depth: depth) {
            state._withUnsafeGuaranteedRef { $0.reset(encoder: self, object: object) }
            // Kept for this key type: the holder's is a `KeyedEncodingContainer<Key>`.
            return holder._withUnsafeGuaranteedRef { unsafeDowncast($0, to: KeptContainerOf<KeyedEncodingContainer<Key>>.self).take() }
        }
        return newKeyedContainer(Key.self, object: object)
    }

    /// A new keyed container, kept if the run's table admits it (not
    /// inlined, as on the decoder: its local container would make the
    /// caller look `KeyedEncodingContainer<Key>`'s metadata up on the reuse path too).
    @inline(never)
    private func newKeyedContainer<Key: CodingKey>(_: Key.Type, object: ObjectSlot) -> KeyedEncodingContainer<Key> {
        let state = TreeKeyedContainer<Key>(encoder: self, object: object)
        let container = KeyedEncodingContainer(state)
        if run.recycled.admits() { run.recycled.keep(KeptContainerOf(container), state: state, type: ObjectIdentifier(Key.self), depth: depth) }
        return container
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        let array: ArraySlot
        if case .array(let existing)? = result {
            array = existing
        } else {
            array = ArraySlot()
            result = .array(array)
        }
        return TreeUnkeyedContainer(encoder: self, array: array)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        TreeSingleValueContainer(encoder: self)
    }

    func store(_ slot: EncodingSlot) { result = slot }

    /// Stores a scalar as this encoder's value (written ahead below the root).
    func storeScalar(_ value: JSONValue) { result = isBelowRoot(key: nil) ? slot(value) : .value(value) }

    /// Whether a value this encoder encodes (under `key`, or as its own)
    /// is below the root: only those are written ahead, since the root's
    /// kind decides whether the format takes it at the top.
    private func isBelowRoot(key: (any CodingKey)?) -> Bool { key != nil || depth > 0 }

    /// A scalar's slot: written ahead into a binary plist's sink, or kept.
    @inline(__always)
    func slot(_ value: JSONValue) -> EncodingSlot {
        if let writeAhead = run.writeAhead, let written = writeAhead.slot(value) { return written }
        return .value(value)
    }

    /// The encoder a nested container writes through: its coding path is
    /// the nested container's, so the values inside it, their errors and a
    /// coding-path key strategy see the nested key (its result is unused:
    /// the container writes into its own slot).
    func scoped(_ trail: CodingTrail) -> TreeEncoder {
        TreeEncoder(run: run, trail: trail, depth: depth + 1)
    }

    // MARK: Keys

    func jsonKey(_ key: some CodingKey) -> String {
        if writesKeysAsGiven { return key.stringValue }
        switch options.keys {
        case .useDefaultKeys: return key.stringValue
        case .fuzzy: return NamingStrategy.droppingFuzzyPrefix(key.stringValue)
        case .codingPath(let convert):
            return convert(codingPath + [key]).stringValue
        case .snakeCase, .snakeCaseRoundTrip, .custom:
            let name = key.stringValue
            if let cached = run.convertedKeys[name] { return cached }
            let converted: String
            switch options.keys {
            case .custom(let transform): converted = transform(name)
            case .snakeCaseRoundTrip: converted = NamingStrategy.snakeCase.outputKey(for: name)
            default: converted = SnakeCaseKeys.toSnakeCase(name)
            }
            run.convertedKeys[name] = converted
            return converted
        }
    }

    /// Marks this encoder as encoding a `[String: Value]` dictionary when
    /// the key strategy changes keys: its keys are data, not coding keys, and
    /// are written as they are (as Foundation's encoder does).
    private func keepDictionaryKeys<T>(_: T.Type) {
        if options.keys.convertsKeys, T.self is any StringDictionaryMarker.Type { writesKeysAsGiven = true }
    }

    // MARK: Values

    func invalid(_ value: Any, _ message: String, key: (any CodingKey)?, kind: CartographError.Kind = .encodingFailed) -> EncodingError {
        var keys = codingPath
        if let key { keys.append(key) }
        let error = CartographError(kind, message, path: CodingTrail.render(keys))
        return .invalidValue(value, EncodingError.Context(codingPath: keys, debugDescription: error.description, underlyingError: error))
    }

    func double(_ value: Double, key: (any CodingKey)?) throws -> JSONValue {
        // Property lists hold NaN and the infinities, as Foundation writes them.
        guard value.isFinite || propertyList else {
            guard case .convertFromString(let positive, let negative, let nan) = options.nonConformingFloats else {
                throw invalid(value, "\(value) cannot be written as JSON; set CodableOptions.nonConformingFloats to write it as a string", key: key)
            }
            return .string(value.isNaN ? nan : (value > 0 ? positive : negative))
        }
        return .number(JSONNumber(value))
    }

    func float(_ value: Float, key: (any CodingKey)?) throws -> JSONValue {
        // In a property list a Float is the Double of the same value (exact,
        // as Foundation's XML writer writes it: 0.1 as 0.10000000149011612).
        guard value.isFinite, !propertyList else { return try double(Double(value), key: key) }
        // Float's own shortest digits (0.1 stays 0.1), whole values without `.0`.
        return .number(JSONNumber(text: DoubleFormatting.json(value)) ?? JSONNumber(Double(value)))
    }

    /// Encodes any value under `key` into a slot.
    func encodeValue<T: Encodable>(_ value: T, key: any CodingKey) throws -> EncodingSlot {
        if let special = try encodeSpecial(value, key: key) { return special }
        if !run.registryIsEmpty, let entry = registry.registeredEntry(for: T.self) {
            do {
                // Kept as the mapping wrote it: the writers walk it without a JSONValue in between.
                return .native(try entry.encodeValue(value, EncodingContext(registry: registry, profile: propertyList ? .propertyList : .json)))
            } catch let error as CartographError {
                throw invalid(value, error.message, key: key)
            }
        }
        try checkDepth(value, key: key)
        let child = TreeEncoder(run: run, parent: self, key: key, depth: depth + 1)
        child.keepDictionaryKeys(T.self)
        try value.encode(to: child)
        return child.result ?? .value(.object(JSONObject()))
    }

    /// Encodes a value a single-value container at the root (no key) holds:
    /// one level deeper, so that a value that encodes itself (a cycle)
    /// meets the depth limit.
    func encodeNested<T: Encodable>(_ value: T) throws -> EncodingSlot {
        if let special = try encodeSpecial(value, key: nil) { return special }
        if !run.registryIsEmpty, registry.registeredEntry(for: T.self) != nil { return try encodeRootSlot(value) }
        try checkDepth(value, key: nil)
        let child = TreeEncoder(run: run, trail: trail, depth: depth + 1)
        child.keepDictionaryKeys(T.self)
        try value.encode(to: child)
        return child.result ?? .value(.object(JSONObject()))
    }

    /// Refuses one level more than ``CodableOptions/maxDepth`` or than the stack holds.
    /// Generic, not `Any`: a value passed as `Any` is boxed (a struct larger
    /// than three words copied into a heap box, each reference in it
    /// retained) on every call, though only an error uses it.
    private func checkDepth<T>(_ value: T, key: (any CodingKey)?) throws {
        guard depth < options.maxDepth else {
            throw invalid(value, "the value nests deeper than CodableOptions.maxDepth (\(options.maxDepth))", key: key, kind: .depthLimitExceeded)
        }
        guard depth < StackGuard.uncheckedLevels || StackGuard.hasRoom else {
            throw invalid(value, StackGuard.exhausted().message, key: key, kind: .depthLimitExceeded)
        }
    }

    /// Encodes the root value.
    func encodeRoot<T: Encodable>(_ value: T) throws -> JSONValue {
        try encodeRootSlot(value).value()
    }

    /// Encodes the root value into a slot (written without a JSONValue in
    /// between). With `requiringValue`, a value that encodes nothing throws,
    /// as Foundation's encoders do at the top level ("Top-level T did not
    /// encode any values."); nested, it is an empty object.
    func encodeRootSlot<T: Encodable>(_ value: T, requiringValue: Bool = false) throws -> EncodingSlot {
        // The kept containers hold encoders, which hold the run: released
        // when the root value is done, however it ends.
        defer { if depth == 0 { run.recycled.empty() } }
        if let special = try encodeSpecial(value, key: nil) { return special }
        if !run.registryIsEmpty, let entry = registry.registeredEntry(for: T.self) {
            return .native(try entry.encodeValue(value, EncodingContext(registry: registry, profile: propertyList ? .propertyList : .json)))
        }
        keepDictionaryKeys(T.self)
        try value.encode(to: self)
        if result == nil, requiringValue { throw invalid(value, "Top-level \(T.self) did not encode any values.", key: nil) }
        return result ?? .value(.object(JSONObject()))
    }

    /// Types with their own JSON form, and arrays of the common scalars (no
    /// child encoder per array). Metatype comparisons first: a dynamic cast
    /// per candidate type would cost more than the encoding itself.
    private func encodeSpecial<T: Encodable>(_ value: T, key: (any CodingKey)?) throws -> EncodingSlot? {
        let type = T.self
        if type == [Double].self {
            return .value(.array(try (value as! [Double]).enumerated().map { try double($1, key: IndexKey($0)) }))
        }
        if type == [Int].self { return .value(.array((value as! [Int]).map { .number(JSONNumber($0)) })) }
        if type == [String].self { return .value(.array((value as! [String]).map { .string($0) })) }
        if type == [Int64].self { return .value(.array((value as! [Int64]).map { .number(JSONNumber($0)) })) }
        if type == [Bool].self { return .value(.array((value as! [Bool]).map { .bool($0) })) }
        if type == Date.self { return try encodeDate(value as! Date, key: key) }
        if type == Data.self { return try encodeData(value as! Data, key: key) }
        if type == Decimal.self { return .value(.number(JSONNumber(value as! Decimal))) }
        // JSON writes a URL as its absolute string (as JSONEncoder does); a
        // property list takes URL's own Codable form, `{relative, base}`, as
        // PropertyListEncoder does.
        if type == URL.self {
            if !propertyList { return .value(.string((value as! URL).absoluteString)) }
            if case .useDefaultKeys = options.keys { return .object(codableForm(of: value as! URL)) }
        }
        if type == JSONValue.self { return .value(value as! JSONValue) }
        return nil
    }

    /// What `URL.encode(to:)` writes, `{"relative": …, "base": …}` (the
    /// base only when there is one, itself in this form), built with no
    /// encoder or container of URL's: its container's generic metadata and
    /// a child encoder per URL were a tenth of a binary plist encode of
    /// activity.json. Under the default keys only (a key strategy would
    /// see URL's own coding keys: those go through `URL.encode(to:)`).
    private func codableForm(of url: URL) -> ObjectSlot {
        let object = ObjectSlot()
        object.set("relative", slot(.string(url.relativeString)))
        if let base = url.baseURL { object.set("base", .object(codableForm(of: base))) }
        return object
    }

    private func encodeDate(_ date: Date, key: (any CodingKey)?) throws -> EncodingSlot {
        if propertyList { return nativeSlot(.date(date), key: key) }
        switch options.dates {
        case .deferredToDate: return .value(try double(date.timeIntervalSinceReferenceDate, key: key))
        case .secondsSince1970: return .value(try double(date.timeIntervalSince1970, key: key))
        case .millisecondsSince1970:
            let millis = date.timeIntervalSince1970 * 1000
            if let whole = Int64(exactly: millis) { return .value(.number(JSONNumber(whole))) }
            return .value(try double(millis, key: key))
        case .iso8601(let fractional): return .value(.string(try DateFormats.iso8601String(date, fractional: fractional)))
        case .formatted(let format, let timeZone):
            return .value(.string(LockedFormatter.shared(format: format, timeZone: timeZone).string(from: date)))
        case .custom(_, let encode):
            return try nested(key: key) { try encode(date, $0) }
        }
    }

    private func encodeData(_ data: Data, key: (any CodingKey)?) throws -> EncodingSlot {
        if propertyList { return nativeSlot(.data(data), key: key) }
        switch options.data {
        case .base64: return .value(.string(data.base64EncodedString()))
        case .deferredToData: return try nested(key: key) { encoder in try Array(data).encode(to: encoder) }
        case .custom(_, let encode): return try nested(key: key) { try encode(data, $0) }
        }
    }

    /// A plist date's or data's slot: written ahead below the root, or kept.
    private func nativeSlot(_ value: EncodedValue, key: (any CodingKey)?) -> EncodingSlot {
        if isBelowRoot(key: key), let writeAhead = run.writeAhead, let written = writeAhead.slot(value) { return written }
        return .native(value)
    }

    private func nested(key: (any CodingKey)?, _ body: (TreeEncoder) throws -> Void) throws -> EncodingSlot {
        let child =
            key.map { TreeEncoder(run: run, parent: self, key: $0, depth: depth + 1) } ?? TreeEncoder(run: run, trail: trail, depth: depth + 1)
        try body(child)
        return child.result ?? .value(.object(JSONObject()))
    }
}

/// What a keyed container writes through and into: a class, so that a kept
/// container (``RecycledContainers``) can be pointed at the next object.
///
/// It owns both (``owners``) and reads them through unmanaged references
/// on the hot paths (``withTargets(_:)``): a strong reference read from a
/// `var` is retained and released around each use, which made the class
/// container's reference counting a third higher than the struct's it
/// replaced (callgrind, activity.json's encode).
class TreeKeyedState {
    @exclusivity(unchecked) private final var owners: (TreeEncoder, ObjectSlot)
    @exclusivity(unchecked) private final var encoderRef: Unmanaged<TreeEncoder>
    @exclusivity(unchecked) private final var objectRef: Unmanaged<ObjectSlot>

    init(encoder: TreeEncoder, object: ObjectSlot) {
        owners = (encoder, object)
        encoderRef = .passUnretained(encoder)
        objectRef = .passUnretained(object)
    }

    final func reset(encoder: TreeEncoder, object: ObjectSlot) {
        owners = (encoder, object)
        encoderRef = .passUnretained(encoder)
        objectRef = .passUnretained(object)
    }

    final var encoder: TreeEncoder { owners.0 }
    final var object: ObjectSlot { owners.1 }

    /// The encoder and the object, unretained (``owners`` keeps them).
    @inline(__always)
    final func withTargets<Result>(_ body: (TreeEncoder, ObjectSlot) throws -> Result) rethrows -> Result {
        try encoderRef._withUnsafeGuaranteedRef { encoder in try objectRef._withUnsafeGuaranteedRef { object in try body(encoder, object) } }
    }
}

final class TreeKeyedContainer<Key: CodingKey>: TreeKeyedState, KeyedEncodingContainerProtocol {
    /// The container's coding path (its encoder's: a nested container has
    /// an encoder of its own, ``TreeEncoder/scoped(_:)``; made only if asked).
    var trail: CodingTrail? { encoder.trail }

    var codingPath: [any CodingKey] { CodingTrail.keys(trail) }

    private func put(_ value: JSONValue, _ key: Key) { withTargets { encoder, object in object.set(encoder.jsonKey(key), encoder.slot(value)) } }

    func encodeNil(forKey key: Key) throws { put(encoder.nilValue, key) }
    func encode(_ value: Bool, forKey key: Key) throws { put(.bool(value), key) }
    func encode(_ value: String, forKey key: Key) throws { put(.string(value), key) }
    func encode(_ value: Double, forKey key: Key) throws { put(try encoder.double(value, key: key), key) }
    func encode(_ value: Float, forKey key: Key) throws { put(try encoder.float(value, key: key), key) }
    func encode(_ value: Int, forKey key: Key) throws { put(.number(JSONNumber(value)), key) }
    func encode(_ value: Int8, forKey key: Key) throws { put(.number(JSONNumber(Int64(value))), key) }
    func encode(_ value: Int16, forKey key: Key) throws { put(.number(JSONNumber(Int64(value))), key) }
    func encode(_ value: Int32, forKey key: Key) throws { put(.number(JSONNumber(Int64(value))), key) }
    func encode(_ value: Int64, forKey key: Key) throws { put(.number(JSONNumber(value)), key) }
    func encode(_ value: UInt, forKey key: Key) throws { put(.number(JSONNumber(UInt64(value))), key) }
    func encode(_ value: UInt8, forKey key: Key) throws { put(.number(JSONNumber(UInt64(value))), key) }
    func encode(_ value: UInt16, forKey key: Key) throws { put(.number(JSONNumber(UInt64(value))), key) }
    func encode(_ value: UInt32, forKey key: Key) throws { put(.number(JSONNumber(UInt64(value))), key) }
    func encode(_ value: UInt64, forKey key: Key) throws { put(.number(JSONNumber(value)), key) }
    func encode(_ value: Int128, forKey key: Key) throws { put(.number(JSONNumber(wide: value)), key) }
    func encode(_ value: UInt128, forKey key: Key) throws { put(.number(JSONNumber(wide: value)), key) }
    func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        // The value first, then its key: a custom key strategy's closure is
        // called in the order Foundation calls it (innermost keys first).
        try withTargets { encoder, object in
            let slot = try encoder.encodeValue(value, key: key)
            object.set(encoder.jsonKey(key), slot)
        }
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        let name = encoder.jsonKey(key)
        let nested: ObjectSlot
        if case .object(let existing)? = object.slot(name) {
            nested = existing
        } else {
            nested = ObjectSlot()
            object.set(name, .object(nested))
        }
        return KeyedEncodingContainer(TreeKeyedContainer<NestedKey>(encoder: encoder.scoped(CodingTrail(parent: trail, key: key)), object: nested))
    }

    func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let name = encoder.jsonKey(key)
        let nested: ArraySlot
        if case .array(let existing)? = object.slot(name) {
            nested = existing
        } else {
            nested = ArraySlot()
            object.set(name, .array(nested))
        }
        return TreeUnkeyedContainer(encoder: encoder.scoped(CodingTrail(parent: trail, key: key)), array: nested)
    }

    /// An encoder for the value under `"super"` (Foundation's spelling; the
    /// key need not be one of `Key`'s cases).
    func superEncoder() -> any Encoder { superEncoder(for: StringKey("super")) }

    func superEncoder(forKey key: Key) -> any Encoder { superEncoder(for: key) }

    /// The key holds `{}` until the super encoder writes something (as in
    /// Foundation), keeping its place among the keys.
    private func superEncoder(for key: some CodingKey) -> any Encoder {
        let name = encoder.jsonKey(key)
        object.set(name, .value(.object(JSONObject())))
        let child = TreeEncoder(run: encoder.run, trail: CodingTrail(parent: trail, key: key), depth: encoder.depth + 1)
        child.commit = { [object] slot in object.set(name, slot) }
        return child
    }
}

struct TreeUnkeyedContainer: UnkeyedEncodingContainer {
    let encoder: TreeEncoder
    let array: ArraySlot
    /// The container's coding path (its encoder's: a nested container has
    /// an encoder of its own, ``TreeEncoder/scoped(_:)``; made only if asked).
    var trail: CodingTrail? { encoder.trail }

    var codingPath: [any CodingKey] { CodingTrail.keys(trail) }
    var count: Int { array.count }

    private func append(_ value: JSONValue) { array.append(encoder.slot(value)) }

    mutating func encodeNil() throws { append(encoder.nilValue) }
    mutating func encode(_ value: Bool) throws { append(.bool(value)) }
    mutating func encode(_ value: String) throws { append(.string(value)) }
    mutating func encode(_ value: Double) throws { append(try encoder.double(value, key: IndexKey(count))) }
    mutating func encode(_ value: Float) throws { append(try encoder.float(value, key: IndexKey(count))) }
    mutating func encode(_ value: Int) throws { append(.number(JSONNumber(value))) }
    mutating func encode(_ value: Int8) throws { append(.number(JSONNumber(Int64(value)))) }
    mutating func encode(_ value: Int16) throws { append(.number(JSONNumber(Int64(value)))) }
    mutating func encode(_ value: Int32) throws { append(.number(JSONNumber(Int64(value)))) }
    mutating func encode(_ value: Int64) throws { append(.number(JSONNumber(value))) }
    mutating func encode(_ value: UInt) throws { append(.number(JSONNumber(UInt64(value)))) }
    mutating func encode(_ value: UInt8) throws { append(.number(JSONNumber(UInt64(value)))) }
    mutating func encode(_ value: UInt16) throws { append(.number(JSONNumber(UInt64(value)))) }
    mutating func encode(_ value: UInt32) throws { append(.number(JSONNumber(UInt64(value)))) }
    mutating func encode(_ value: UInt64) throws { append(.number(JSONNumber(value))) }
    mutating func encode(_ value: Int128) throws { append(.number(JSONNumber(wide: value))) }
    mutating func encode(_ value: UInt128) throws { append(.number(JSONNumber(wide: value))) }
    mutating func encode<T: Encodable>(_ value: T) throws {
        array.append(try encoder.encodeValue(value, key: IndexKey(count)))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let nested = ObjectSlot()
        let key = IndexKey(count)
        array.append(.object(nested))
        return KeyedEncodingContainer(TreeKeyedContainer<NestedKey>(encoder: encoder.scoped(CodingTrail(parent: trail, key: key)), object: nested))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let nested = ArraySlot()
        let key = IndexKey(count)
        array.append(.array(nested))
        return TreeUnkeyedContainer(encoder: encoder.scoped(CodingTrail(parent: trail, key: key)), array: nested)
    }

    mutating func superEncoder() -> any Encoder {
        let position = array.count
        array.append(.value(.object(JSONObject())))
        let child = TreeEncoder(run: encoder.run, trail: CodingTrail(parent: trail, key: IndexKey(position)), depth: encoder.depth + 1)
        child.commit = { [array] slot in array.replace(position, with: slot) }
        return child
    }
}

struct TreeSingleValueContainer: SingleValueEncodingContainer {
    let encoder: TreeEncoder

    var codingPath: [any CodingKey] { encoder.codingPath }

    mutating func encodeNil() throws { encoder.storeScalar(encoder.nilValue) }
    mutating func encode(_ value: Bool) throws { encoder.storeScalar(.bool(value)) }
    mutating func encode(_ value: String) throws { encoder.storeScalar(.string(value)) }
    mutating func encode(_ value: Double) throws { encoder.storeScalar(try encoder.double(value, key: nil)) }
    mutating func encode(_ value: Float) throws { encoder.storeScalar(try encoder.float(value, key: nil)) }
    mutating func encode(_ value: Int) throws { encoder.storeScalar(.number(JSONNumber(value))) }
    mutating func encode(_ value: Int8) throws { encoder.storeScalar(.number(JSONNumber(Int64(value)))) }
    mutating func encode(_ value: Int16) throws { encoder.storeScalar(.number(JSONNumber(Int64(value)))) }
    mutating func encode(_ value: Int32) throws { encoder.storeScalar(.number(JSONNumber(Int64(value)))) }
    mutating func encode(_ value: Int64) throws { encoder.storeScalar(.number(JSONNumber(value))) }
    mutating func encode(_ value: UInt) throws { encoder.storeScalar(.number(JSONNumber(UInt64(value)))) }
    mutating func encode(_ value: UInt8) throws { encoder.storeScalar(.number(JSONNumber(UInt64(value)))) }
    mutating func encode(_ value: UInt16) throws { encoder.storeScalar(.number(JSONNumber(UInt64(value)))) }
    mutating func encode(_ value: UInt32) throws { encoder.storeScalar(.number(JSONNumber(UInt64(value)))) }
    mutating func encode(_ value: UInt64) throws { encoder.storeScalar(.number(JSONNumber(value))) }
    mutating func encode(_ value: Int128) throws { encoder.storeScalar(.number(JSONNumber(wide: value))) }
    mutating func encode(_ value: UInt128) throws { encoder.storeScalar(.number(JSONNumber(wide: value))) }
    /// The value takes this encoder's place: one level down, the same path
    /// (its key is not repeated).
    mutating func encode<T: Encodable>(_ value: T) throws { encoder.store(try encoder.encodeNested(value)) }
}
