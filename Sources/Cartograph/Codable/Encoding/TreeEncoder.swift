import Foundation

// The Codable encoder, in three steps:
//
//     struct User: Encodable { let id: Int; let tags: [String] }
//     try mapper.encode(User(id: 7, tags: ["a"]))
//
// 1. `encode(to:)` runs against a `TreeEncoder`; its containers fill nodes
//    (EncodingNode.swift): `.object(EncodingObject)` with members `id` →
//    `.value(7)` and `tags` → `.array(EncodingArray)` holding `.value("a")`
//    (`.native` keeps a date or data for a property list). Objects and
//    arrays are references because a nested container may still add to them
//    after its siblings were written (Foundation's `Encoder` allows it).
// 2. The key strategy, dates, data, URLs, non-finite numbers and registered
//    models are resolved while the nodes fill, so the tree holds only
//    values a writer can write as they are.
// 3. A writer walks the tree once: `NativeJSONWriter` for JSON, the plist
//    sinks for property lists (binary plists take scalars as they come:
//    BinaryWriteAhead.swift).
//
// Everything one encode shares (options, registry, converted keys, recycled
// containers) sits in one `EncodingRun`, so a nested value's encoder costs
// one retain. The containers are TreeKeyedContainer.swift,
// TreeUnkeyedContainer.swift and TreeSingleValueContainer.swift.

/// The `Encoder` behind ``JSONMapper``'s `Codable` support: it builds a
/// tree of nodes that a writer then turns into bytes.
final class TreeEncoder: Encoder, EncoderChecks {
    let run: EncodingRun
    private(set) var result: EncodingNode? {
        didSet { if let commit, let result { commit(result) } }
    }
    /// For a super encoder: hands each result to the parent's node as soon
    /// as it is set, so nothing depends on when the encoder is released (a
    /// single value encoded after the encoder itself was dropped used to be lost).
    var commit: ((EncodingNode) -> Void)?
    /// Nesting depth of this encoder's value.
    let depth: Int
    /// The encoder whose member this one encodes, under `key`; or nil, with `baseTrail`.
    private let parent: TreeEncoder?
    /// The key of this encoder's value in its parent.
    let key: (any CodingKey)?
    private let baseTrail: PathTrail?
    private var madeTrail: PathTrail??
    /// Keys are written without the key strategy (a string-keyed dictionary's).
    private var writesKeysAsGiven = false

    /// The coding path as a chain, made on first use: most encoders are never
    /// asked (it serves `codingPath`, nested containers and errors).
    var trail: PathTrail? {
        if let madeTrail = madeTrail { return madeTrail }
        let made = key.map { PathTrail(parent: parent?.trail ?? baseTrail, key: $0) } ?? baseTrail
        madeTrail = .some(made)
        return made
    }

    var options: CodableOptions { run.options }
    var maxDepth: Int { run.options.maxDepth }

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

    init(run: EncodingRun, trail: PathTrail?, depth: Int) {
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

    var codingPath: [any CodingKey] { PathTrail.codingKeys(trail) }
    var userInfo: [CodingUserInfoKey: Any] { options.userInfo }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        let object: EncodingObject
        if case .object(let existing)? = result {
            object = existing
        } else {
            object = EncodingObject()
            result = .object(object)
        }
        if let lent: Unretained<KeptContainerOf<KeyedEncodingContainer<Key>>> = run.recycled.reuse(
            ObjectIdentifier(Key.self), depth: depth, reset: { $0.reset(encoder: self, object: object) })
        {
            return lent.with { $0.take() }
        }
        return newKeyedContainer(Key.self, object: object)
    }

    /// A new keyed container, kept if the run's table admits it (not
    /// inlined, as on the decoder: its local container would make the
    /// caller look `KeyedEncodingContainer<Key>`'s metadata up on the reuse path too).
    @inline(never)
    private func newKeyedContainer<Key: CodingKey>(_: Key.Type, object: EncodingObject) -> KeyedEncodingContainer<Key> {
        let state = TreeKeyedContainer<Key>(encoder: self, object: object)
        let container = KeyedEncodingContainer(state)
        if run.recycled.admits() {
            run.recycled.keep(KeptContainerOf(container), state: state, type: ObjectIdentifier(Key.self), depth: depth)
        }
        return container
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        let array: EncodingArray
        if case .array(let existing)? = result {
            array = existing
        } else {
            array = EncodingArray()
            result = .array(array)
        }
        return TreeUnkeyedContainer(encoder: self, array: array)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        TreeSingleValueContainer(encoder: self)
    }

    func store(_ slot: EncodingNode) { result = slot }

    /// Stores a scalar as this encoder's value (written ahead below the root).
    func storeScalar(_ value: JSONValue) { result = isBelowRoot(key: nil) ? node(value) : .value(value) }

    /// Whether a value this encoder encodes (under `key`, or as its own)
    /// is below the root: only those are written ahead, since the root's
    /// kind decides whether the format takes it at the top.
    private func isBelowRoot(key: (any CodingKey)?) -> Bool { key != nil || depth > 0 }

    /// A scalar's node: written ahead into a binary plist's sink, or kept.
    @inline(__always)
    func node(_ value: JSONValue) -> EncodingNode {
        if let writeAhead = run.writeAhead, let written = writeAhead.node(value) { return written }
        return .value(value)
    }

    /// The encoder a nested container writes through: its coding path is
    /// the nested container's, so the values inside it, their errors and a
    /// coding-path key strategy see the nested key (its result is unused:
    /// the container writes into its own node).
    func scoped(_ trail: PathTrail) -> TreeEncoder {
        TreeEncoder(run: run, trail: trail, depth: depth + 1)
    }

    // MARK: Keys

    func jsonKey(_ key: some CodingKey) -> String {
        if writesKeysAsGiven { return key.stringValue }
        switch run.options.keys {
        case .useDefaultKeys: return key.stringValue
        case .fuzzy: return NamingStrategy.droppingFuzzyPrefix(key.stringValue)
        case .codingPath(let convert):
            return convert(codingPath + [key]).stringValue
        case .snakeCase, .snakeCaseRoundTrip, .custom:
            return KeyConversion.converted(key.stringValue, run.options.keys, cache: &run.convertedKeys)
        }
    }

    /// Marks this encoder as encoding a `[String: Value]` dictionary when
    /// the key strategy changes keys: its keys are data, not coding keys, and
    /// are written as they are (as Foundation's encoder does).
    private func keepDictionaryKeys<T>(_: T.Type) {
        if run.options.keys.convertsKeys, run.dictionaryTypes.isStringDictionary(T.self) { writesKeysAsGiven = true }
    }

    // MARK: Values

    /// Runs `value.encode(to: encoder)`; in a property list, a dictionary
    /// encodes its members in key order, so that equal values give equal
    /// bytes (KeyOrderedDictionary.swift).
    private func encodeContents<T: Encodable>(of value: T, to encoder: TreeEncoder) throws {
        if propertyList, run.keyOrderedTypes.isKeyOrderedDictionary(T.self), let dictionary = value as? any KeyOrderedDictionary {
            try dictionary.encodeInKeyOrder(to: encoder)
        } else {
            try value.encode(to: encoder)
        }
    }

    /// Encodes any value under `key` into a node.
    func encodeValue<T: Encodable>(_ value: T, key: any CodingKey) throws -> EncodingNode {
        if let special = try encodeSpecial(value, key: key) { return special }
        if !run.registryIsEmpty, let entry = run.registeredEntries.registeredEntry(for: T.self, in: registry) {
            do {
                // Kept as the mapping wrote it: the writers walk it without a JSONValue in between.
                return .native(try entry.encodeValue(value, EncodingContext(session: run.mappingSession)))
            } catch let error as CartographError {
                throw invalid(value, error.message, key: key)
            }
        }
        try checkDepth(value, key: key)
        let child = TreeEncoder(run: run, parent: self, key: key, depth: depth + 1)
        child.keepDictionaryKeys(T.self)
        try encodeContents(of: value, to: child)
        return child.result ?? .value(.object(JSONObject()))
    }

    /// Encodes a value a single-value container at the root (no key) holds:
    /// one level deeper, so that a value that encodes itself (a cycle)
    /// meets the depth limit.
    func encodeNested<T: Encodable>(_ value: T) throws -> EncodingNode {
        if let special = try encodeSpecial(value, key: nil) { return special }
        if !run.registryIsEmpty, run.registeredEntries.registeredEntry(for: T.self, in: registry) != nil { return try encodeRootNode(value) }
        try checkDepth(value, key: nil)
        let child = TreeEncoder(run: run, trail: trail, depth: depth + 1)
        child.keepDictionaryKeys(T.self)
        try encodeContents(of: value, to: child)
        return child.result ?? .value(.object(JSONObject()))
    }

    /// Encodes the root value.
    func encodeRoot<T: Encodable>(_ value: T) throws -> JSONValue {
        try encodeRootNode(value).value()
    }

    /// Encodes the root value into a node (written without a JSONValue in
    /// between). With `requiringValue`, a value that encodes nothing throws,
    /// as Foundation's encoders do at the top level ("Top-level T did not
    /// encode any values."); nested, it is an empty object.
    func encodeRootNode<T: Encodable>(_ value: T, requiringValue: Bool = false) throws -> EncodingNode {
        // The kept containers hold encoders, which hold the run: released
        // when the root value is done, however it ends.
        defer { if depth == 0 { run.recycled.empty() } }
        if let special = try encodeSpecial(value, key: nil) { return special }
        if !run.registryIsEmpty, let entry = run.registeredEntries.registeredEntry(for: T.self, in: registry) {
            return .native(try entry.encodeValue(value, EncodingContext(session: run.mappingSession)))
        }
        keepDictionaryKeys(T.self)
        try encodeContents(of: value, to: self)
        if result == nil, requiringValue { throw invalid(value, "Top-level \(T.self) did not encode any values.", key: nil) }
        return result ?? .value(.object(JSONObject()))
    }

    /// Types with their own JSON form, and arrays of the common scalars (no
    /// child encoder per array), told apart as the stream tells them
    /// (``SpecialEncoding``: type identities, no dynamic cast).
    private func encodeSpecial<T: Encodable>(_ value: T, key: (any CodingKey)?) throws -> EncodingNode? {
        guard let kind = SpecialEncoding.of(T.self) else { return nil }
        switch kind {
        case .doubles: return .value(.array(try sameType(value, as: [Double].self).enumerated().map { try double($1, key: key, index: $0) }))
        case .integers: return .value(.array(sameType(value, as: [Int].self).map { .number(JSONNumber($0)) }))
        case .strings: return .value(.array(sameType(value, as: [String].self).map { .string($0) }))
        case .int64s: return .value(.array(sameType(value, as: [Int64].self).map { .number(JSONNumber($0)) }))
        case .booleans: return .value(.array(sameType(value, as: [Bool].self).map { .bool($0) }))
        case .date: return try encodeDate(sameType(value, as: Date.self), key: key)
        case .data: return try encodeData(sameType(value, as: Data.self), key: key)
        // A property list takes Decimal's own Codable form, as
        // PropertyListEncoder writes it (``PlistDecimal``); JSON a number.
        case .decimal: return propertyList ? nil : .value(.number(JSONNumber(sameType(value, as: Decimal.self))))
        case .url:
            // JSON writes a URL as its absolute string (as JSONEncoder does); a
            // property list takes URL's own Codable form, `{relative, base}`, as
            // PropertyListEncoder does.
            let url = sameType(value, as: URL.self)
            if !propertyList { return .value(.string(url.absoluteString)) }
            if case .useDefaultKeys = options.keys { return .object(codableForm(of: url)) }
            return nil
        case .jsonValue: return .value(sameType(value, as: JSONValue.self))
        // Through `encode(to:)`: the tree is the reference the stream's own
        // writing of these is checked against, errors and their paths included.
        case .doubleRows, .doubleMatrices: return nil
        }
    }

    /// What `URL.encode(to:)` writes, `{"relative": …, "base": …}` (the
    /// base only when there is one, itself in this form), built with no
    /// encoder or container of URL's: its container's generic metadata and
    /// a child encoder per URL were a tenth of a binary plist encode of
    /// activity.json. Under the default keys only (a key strategy would
    /// see URL's own coding keys: those go through `URL.encode(to:)`).
    private func codableForm(of url: URL) -> EncodingObject {
        let object = EncodingObject()
        object.set("relative", node(.string(url.relativeString)))
        if let base = url.baseURL { object.set("base", .object(codableForm(of: base))) }
        return object
    }

    private func encodeDate(_ date: Date, key: (any CodingKey)?) throws -> EncodingNode {
        if propertyList { return nativeNode(.date(date), key: key) }
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

    private func encodeData(_ data: Data, key: (any CodingKey)?) throws -> EncodingNode {
        if propertyList { return nativeNode(.data(data), key: key) }
        switch options.data {
        case .base64: return .value(.string(data.base64EncodedString()))
        case .deferredToData: return try nested(key: key) { encoder in try Array(data).encode(to: encoder) }
        case .custom(_, let encode): return try nested(key: key) { try encode(data, $0) }
        }
    }

    /// A plist date's or data's node: written ahead below the root, or kept.
    private func nativeNode(_ value: EncodedValue, key: (any CodingKey)?) -> EncodingNode {
        if isBelowRoot(key: key), let writeAhead = run.writeAhead, let written = writeAhead.node(value) { return written }
        return .native(value)
    }

    private func nested(key: (any CodingKey)?, _ body: (TreeEncoder) throws -> Void) throws -> EncodingNode {
        let child =
            key.map { TreeEncoder(run: run, parent: self, key: $0, depth: depth + 1) } ?? TreeEncoder(run: run, trail: trail, depth: depth + 1)
        try body(child)
        return child.result ?? .value(.object(JSONObject()))
    }
}
