import Foundation
import Synchronization

/// The `Decoder` behind ``JSONMapper``'s `Codable` support: it reads a
/// ``Document``'s tape directly.
///
/// One decoder serves a whole decode: nested values save and restore its
/// position instead of creating new decoders. Keyed containers find keys by
/// comparing bytes, starting where the previous key was found (synthesized
/// `Codable` reads keys in declaration order, which is usually document
/// order), so a key costs one comparison, with no hashing and no
/// allocation. Scalars are converted straight from the tape.
final class DocumentDecoder: Decoder {
    let document: Document
    let entries: UnsafeMutablePointer<TapeEntry>
    let bytes: UnsafeMutablePointer<UInt8>
    let options: CodableOptions
    let registry: ModelRegistry
    let registryIsEmpty: Bool
    /// The key strategy is ``CodableOptions/KeyStrategy/useDefaultKeys``.
    let usesDefaultKeys: Bool
    /// The input text, valid for the decode, to give errors a line and column.
    let input: UnsafeRawBufferPointer?
    let issues: IssueCollector?
    /// The context registered models are made in: one per decode, made
    /// when the first is met (a session per model cost two allocations
    /// each, measured on records.json's 120,000 registered records).
    private(set) lazy var mappingContext = MappingContext(
        registry: registry, trail: nil, parent: nil, issues: issues,
        readsNullMarker: readsNullMarker)
    /// The last type asked about in the registry, and its entry (nil: not
    /// registered): an array's elements ask for the same type each time
    /// (records.json: 40,000 asks a decode; the registry's lookup and its
    /// entry's reference counts were 5% of a mapping decode there).
    private var lastAsked: ObjectIdentifier?
    private var lastAnswer: ModelEntry?
    /// The array types last met (``arrayReader(for:)``), replaced in turn.
    private var arrayReaders: [(type: ObjectIdentifier?, reader: (any TapeDecodedArray.Type)?)] = Array(repeating: (nil, nil), count: 8)
    private var nextArrayReader = 0
    /// The value being decoded.
    var index: Int
    var trail: CodingTrail?
    /// Where each depth's keyed container last found a key (a hint only; see ``KeyHint``).
    private let hints: UnsafeMutablePointer<KeyHint>
    private let hintCapacity = 1024
    var depth = 0
    private var convertedKeys: [String: [UInt8]] = [:]
    /// Under ``CodableOptions/KeyStrategy/snakeCase``, the decode's JSON
    /// keys, each converted once (nil under other strategies).
    let snakeCaseKeys: SnakeCaseKeyTable?
    /// Reading a property list: the string `$null` is nil (``PlistNull``),
    /// and `Date` and `Data` (under the default strategies) must be a
    /// plist's own dates and data, as in Foundation's decoder.
    var readsNullMarker = false
    /// The next keyed container reads a `[String: Value]` dictionary: its
    /// keys are data and are read as they are (as Foundation does).
    private var nextContainerKeepsKeys = false

    /// Keyed containers kept for reuse (``RecycledContainers``), for a
    /// decoder whose owner decodes through ``decodeTopLevel(_:)``, which
    /// empties it. A value in the decoder, read per container with no
    /// reference counting; one decode, one thread: no dynamic exclusivity
    /// checks.
    @exclusivity(unchecked) private var recycled: RecycledContainers<KeyedContainerState>

    init(
        document: Document, index: Int, options: CodableOptions, registry: ModelRegistry, input: UnsafeRawBufferPointer?, issues: IssueCollector?,
        recyclesContainers: Bool = false
    ) {
        self.document = document
        entries = document.tape.entries
        bytes = document.tape.bytes
        self.options = options
        self.registry = registry
        registryIsEmpty = !registry.hasEntries
        usesDefaultKeys = !options.keys.convertsKeys
        if case .snakeCase = options.keys { snakeCaseKeys = SnakeCaseKeyTable() } else { snakeCaseKeys = nil }
        self.input = input
        self.issues = issues
        self.index = index
        hints = .allocate(capacity: hintCapacity)
        hints.initialize(repeating: KeyHint(object: -1, next: 0), count: hintCapacity)
        recycled = RecycledContainers(keeps: recyclesContainers && ContainerLayout.keyedDecoding)
    }

    deinit {
        hints.deallocate()
        recycled.empty()
    }

    /// Decodes the root value as `type` and releases the containers kept
    /// for reuse, which hold this decoder (the owner of a decoder made with
    /// `recyclesContainers` decodes through this).
    func decodeTopLevel<T: Decodable>(_ type: T.Type) throws -> T {
        defer { recycled.empty() }
        return try decodeRoot(type)
    }

    var codingPath: [any CodingKey] { CodingTrail.keys(trail) }
    var userInfo: [CodingUserInfoKey: Any] { options.userInfo }

    // MARK: Containers

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        let keepsKeys = nextContainerKeepsKeys
        nextContainerKeepsKeys = false
        guard entries[index].kind == .object else { throw containerMismatch(object: true, at: index, key: nil, trail: trail) }
        return keyedContainer(Key.self, object: index, trail: trail, depth: depth, keepsKeys: keepsKeys)
    }

    /// A keyed container over `object`: a kept one pointed at it, or a new one (kept if this decoder keeps them).
    func keyedContainer<Key: CodingKey>(_: Key.Type, object: Int, trail: CodingTrail?, depth: Int, keepsKeys: Bool = false) -> KeyedDecodingContainer<
        Key
    > {
        let type = ObjectIdentifier(Key.self)
        if let (holder, state) = recycled.reuse(type, depth: depth) {
            state._withUnsafeGuaranteedRef { $0.reset(object: object, trail: trail, depth: depth, keepsKeys: keepsKeys) }
            // Kept for this key type: the holder's is a `KeyedDecodingContainer<Key>`.
            return holder._withUnsafeGuaranteedRef { unsafeDowncast($0, to: KeptContainerOf<KeyedDecodingContainer<Key>>.self).take() }
        }
        return newKeyedContainer(Key.self, object: object, trail: trail, depth: depth, keepsKeys: keepsKeys)
    }

    /// A new keyed container, kept if the table admits it. Not inlined: its
    /// local container made the caller look `KeyedDecodingContainer<Key>`'s
    /// metadata up on entry, on the reuse path too.
    @inline(never)
    private func newKeyedContainer<Key: CodingKey>(_: Key.Type, object: Int, trail: CodingTrail?, depth: Int, keepsKeys: Bool)
        -> KeyedDecodingContainer<Key>
    {
        let state = DocumentKeyedContainer<Key>(decoder: self, object: object, trail: trail, depth: depth, keepsKeys: keepsKeys)
        let container = KeyedDecodingContainer(state)
        if recycled.admits() { recycled.keep(KeptContainerOf(container), state: state, type: ObjectIdentifier(Key.self), depth: depth) }
        return container
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        nextContainerKeepsKeys = false
        guard entries[index].kind == .array else { throw containerMismatch(object: false, at: index, key: nil, trail: trail) }
        return DocumentUnkeyedContainer(decoder: self, array: index, trail: trail)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        nextContainerKeepsKeys = false
        return DocumentSingleValueContainer(decoder: self, index: index, trail: trail)
    }

    /// A decoder for a super decoder's value at `index` (of `document`, or
    /// this decoder's), reading as this one reads: the plist `$null`
    /// marker, and the depth the stack guard counts from.
    func superDecoder(at index: Int, of document: Document? = nil, trail: CodingTrail?) -> DocumentDecoder {
        let child = DocumentDecoder(
            document: document ?? self.document, index: index, options: options, registry: registry, input: input,
            issues: issues)
        child.readsNullMarker = readsNullMarker
        child.depth = depth
        child.trail = trail
        return child
    }

    /// Whether the value at `index` is nil: `null`, or in a property list the `$null` marker.
    @inline(__always)
    func isNil(at index: Int) -> Bool {
        let entry = entries[index]
        if entry.kind == .null { return true }
        return readsNullMarker && entry.kind == .string && PlistNull.isMarker(bytes + entry.payload, count: Int(entry.length))
    }

    // MARK: Keys

    /// The hint slot of a container depth.
    ///
    /// Slots are a speed-up only: containers that share one (a nested
    /// container, a custom strategy's decoder) overwrite each other's hint,
    /// and ``KeyHint/object`` makes `find` ignore a hint left by another
    /// object, so sharing costs a scan from the object's first key, never a
    /// key read from the wrong object.
    func hint(_ depth: Int) -> UnsafeMutablePointer<KeyHint>? {
        depth >= 0 && depth < hintCapacity ? hints + depth : nil
    }

    /// The tape index of the value for `key` in the object at `object`, or nil.
    /// `keys` is how the container reads its object's keys (``ObjectKeys``).
    func find(_ key: some CodingKey, in object: Int, hint: UnsafeMutablePointer<KeyHint>?, keys: ObjectKeys = .byStrategy) -> Int? {
        if comparesNames(keys) { return findExact(key.stringValue, in: object, hint: hint) }
        if case .converted(let values, _) = keys { return values[key.stringValue] }
        if case .fuzzy = options.keys { return fuzzyFind(key.stringValue, in: object) }
        // .snakeCaseRoundTrip, .custom: the key converted once, then compared.
        let converted = convertedKey(key.stringValue)
        return converted.withUnsafeBytes { find($0, in: object, hint: hint) }
    }

    /// Whether a container reading its object's keys as `keys` finds each
    /// key by its own name (the one place that decides it: ``find(_:in:hint:keys:)``
    /// and a container's per-key flag both ask here).
    func comparesNames(_ keys: ObjectKeys) -> Bool {
        switch keys {
        case .asGiven: return true
        case .converted, .snakeCased: return false
        case .byStrategy:
            switch options.keys {
            // Under .snakeCase a container whose keys have no underscores
            // compares them as they are (each converts to itself);
            // .codingPath containers always read `.converted` keys.
            case .useDefaultKeys, .snakeCase, .codingPath: return true
            case .snakeCaseRoundTrip, .custom, .fuzzy: return false
            }
        }
    }

    func findExact(_ name: consuming String, in object: Int, hint: UnsafeMutablePointer<KeyHint>?) -> Int? {
        // Owned and read in place (a key's name is a literal or a small
        // string: no copy); the view's contiguous-storage path retained and
        // released the name around each lookup.
        var name = name
        return name.withUTF8 { find(UnsafeRawBufferPointer($0), in: object, hint: hint) }
    }

    /// How a keyed container over `object` reads its keys: as given for a
    /// dictionary's container (`keepsKeys`) or without a key strategy; under
    /// ``CodableOptions/KeyStrategy/snakeCase``, when a key has an
    /// underscore, each JSON key converted to camelCase, the first of equal
    /// conversions winning — Foundation's rule — listed once per container
    /// by ``snakeCaseKeys`` (``ObjectKeys/snakeCased``; an object whose keys
    /// have no underscore is read as it is: a scan for one costs less than
    /// the listing, measured); under
    /// ``CodableOptions/KeyStrategy/codingPath(_:)`` each JSON key converted
    /// by the closure, given the container's path (`trail`) and the key.
    func objectKeys(of object: Int, keepsKeys: Bool, trail: CodingTrail?) -> ObjectKeys {
        if keepsKeys, options.keys.convertsKeys { return .asGiven }
        if case .codingPath(let convert) = options.keys {
            let path = CodingTrail.keys(trail)
            return convertedKeys(of: object) { convert(path + [StringKey($0)]).stringValue }
        }
        guard case .snakeCase = options.keys else { return .byStrategy }
        let end = entries[object].payload
        var position = object + 1
        while position < end {
            let entry = entries[position]
            if entry.flags & TapeFlags.shadowed == 0, memchr(bytes + entry.payload, 0x5F, Int(entry.length)) != nil {
                return .snakeCased
            }
            let valueEntry = entries[position + 1]
            position = valueEntry.kind == .array || valueEntry.kind == .object ? valueEntry.payload : position + 2
        }
        return .byStrategy
    }

    /// The object's keys, each converted once in document order, to their
    /// value's tape index; the first of equal conversions wins.
    func convertedKeys(of object: Int, by convert: (String) -> String) -> ObjectKeys {
        let end = entries[object].payload
        var values: [String: Int] = [:]
        var names: [String] = []
        var position = object + 1
        while position < end {
            let entry = entries[position]
            let valueEntry = entries[position + 1]
            if entry.flags & TapeFlags.shadowed == 0 {
                let name = String(decoding: UnsafeBufferPointer(start: bytes + entry.payload, count: Int(entry.length)), as: UTF8.self)
                let converted = convert(name)
                if values[converted] == nil {
                    values[converted] = position + 1
                    names.append(converted)
                }
            }
            position = valueEntry.kind == .array || valueEntry.kind == .object ? valueEntry.payload : position + 2
        }
        return .converted(values, names: names)
    }

    /// Marks the next keyed container as a `[String: Value]` dictionary's
    /// when the key strategy changes keys.
    private func keepDictionaryKeys<T>(_: T.Type) {
        if options.keys.convertsKeys, T.self is any StringDictionaryMarker.Type { nextContainerKeepsKeys = true }
    }

    private func convertedKey(_ name: String) -> [UInt8] {
        if let cached = convertedKeys[name] { return cached }
        let converted: String
        switch options.keys {
        case .snakeCaseRoundTrip: converted = NamingStrategy.snakeCase.outputKey(for: name)
        case .custom(let transform): converted = transform(name)
        default: converted = name
        }
        let bytes = Array(converted.utf8)
        convertedKeys[name] = bytes
        return bytes
    }

    /// Walks the object's keys once, cyclically from the hint: each step
    /// goes from a key to the next key of the same object (past the value's
    /// subtree), so the walk visits only this object's keys and ends where
    /// it began.
    private func find(_ key: UnsafeRawBufferPointer, in object: Int, hint: UnsafeMutablePointer<KeyHint>?) -> Int? {
        // The key the hint points at first, with nothing else set up:
        // synthesized `Codable` asks for keys in declaration order, which is
        // usually document order, so this answers most lookups (twitter.json:
        // 13,900 lookups a decode, ~100 instructions each through the walk).
        if let hint, hint.pointee.object == object {
            let probe = hint.pointee.next
            if probe < entries[object].payload {
                let entry = entries[probe]
                if entry.kind == .key, Int(entry.length) == key.count, entry.flags & TapeFlags.shadowed == 0,
                    key.count == 0 || KeyBytes.equal(bytes + entry.payload, key.baseAddress!, count: key.count)
                {
                    let value = entries[probe + 1]
                    hint.pointee.next = value.kind == .array || value.kind == .object ? value.payload : probe + 2
                    return probe + 1
                }
            }
        }
        return walk(key, in: object, hint: hint)
    }

    /// ``find(_:in:hint:)`` past the hint's key.
    @inline(never)
    private func walk(_ key: UnsafeRawBufferPointer, in object: Int, hint: UnsafeMutablePointer<KeyHint>?) -> Int? {
        let end = entries[object].payload
        let start = object + 1
        guard start < end else { return nil }
        let length = UInt32(key.count)
        var probe = start
        // Only a hint this object left is a key of this object.
        if let hint, hint.pointee.object == object {
            let next = hint.pointee.next
            if next > start, next < end, entries[next].kind == .key { probe = next }
        }
        let first = probe
        repeat {
            let entry = entries[probe]
            let valueEntry = entries[probe + 1]
            let next = valueEntry.kind == .array || valueEntry.kind == .object ? valueEntry.payload : probe + 2
            if entry.length == length, entry.flags & TapeFlags.shadowed == 0,
                key.count == 0 || KeyBytes.equal(bytes + entry.payload, key.baseAddress!, count: key.count)
            {
                hint?.pointee = KeyHint(object: object, next: next)
                return probe + 1
            }
            probe = next < end ? next : start
        } while probe != first
        return document.canonicalValue(forKey: key, inObject: object)
    }

    private func fuzzyFind(_ name: String, in object: Int) -> Int? {
        var best: (rank: Int, index: Int)?
        var iterator = ObjectView(document: document, index: object).makeIterator()
        while let (keyNode, value) = iterator.nextNodes() {
            guard let key = try? keyNode.string(), let rank = NamingStrategy.fuzzy.rank(key: key, property: name) else { continue }
            if best == nil || rank > best!.rank { best = (rank, value.index) }
        }
        return best?.index
    }

    /// The keys of an object as coding-key names: converted by the key
    /// strategy (each once, in document order) unless `keys` keeps them.
    func keyNames(in object: Int, keys: ObjectKeys = .byStrategy) -> [String] {
        if case .converted(_, let converted) = keys { return converted }
        var names: [String] = []
        var seen: Set<String> = []
        var iterator = ObjectView(document: document, index: object).makeIterator()
        while let (keyNode, _) = iterator.nextNodes() {
            let name = (try? keyNode.string()) ?? ""
            if case .asGiven = keys {
                names.append(name)
                continue
            }
            switch options.keys {
            case .snakeCase:
                let converted = SnakeCaseKeys.fromSnakeCase(name)
                if seen.insert(converted).inserted { names.append(converted) }
            case .snakeCaseRoundTrip: names.append(Self.camelCase(name))
            default: names.append(name)
            }
        }
        return names
    }

    static func camelCase(_ snake: String) -> String {
        let parts = snake.split(separator: "_", omittingEmptySubsequences: false)
        guard parts.count > 1 else { return snake }
        return parts.enumerated().map { $0 == 0 ? String($1) : $1.prefix(1).uppercased() + $1.dropFirst() }.joined()
    }

    // MARK: Errors

    func kindName(_ index: Int) -> String {
        switch entries[index].kind {
        case .null: return "null"
        case .true, .false: return "bool"
        case .number: return "number"
        case .string, .key: return "string"
        case .array: return "array"
        case .object: return "object"
        }
    }

    func path(_ key: (any CodingKey)?) -> [any CodingKey] {
        var keys = codingPath(trail)
        if let key { keys.append(key) }
        return keys
    }

    func codingPath(_ trail: CodingTrail?) -> [any CodingKey] { CodingTrail.keys(trail) }

    /// A Cartograph error for the value at `index`, with its byte offset.
    ///
    /// Its line and column are added only if the error leaves the decode
    /// (``DecodingErrors/locating(_:in:)``): many errors are caught and
    /// dropped on the way (`try?`, `decodeIfPresent` fallbacks, lossy
    /// arrays), and locating each would walk the input every time.
    func located(
        _ kind: CartographError.Kind, _ message: String, at index: Int?, path keys: [any CodingKey],
        expected: String? = nil, found: String? = nil
    ) -> CartographError {
        CartographError(
            kind, message, offset: index.map { entries[$0].source }, path: CodingTrail.render(keys),
            expected: expected, found: found)
    }

    func mismatch(expected: String, type: Any.Type, at index: Int, key: (any CodingKey)?, trail: CodingTrail? = nil) -> DecodingError {
        let keys = pathFor(trail: trail, key: key)
        let found = kindName(index)
        let error = located(.typeMismatch, "expected \(expected), found \(found)", at: index, path: keys, expected: expected, found: found)
        return .typeMismatch(type, DecodingError.Context(codingPath: keys, debugDescription: error.description, underlyingError: error))
    }

    /// The error for a container asked of a value of another kind: null is
    /// a missing value (`valueNotFound`), as Foundation reports it.
    func containerMismatch(object: Bool, at index: Int, key: (any CodingKey)?, trail: CodingTrail?) -> DecodingError {
        let type: Any.Type = object ? [String: Any].self : [Any].self
        if entries[index].kind == .null { return valueNotFound(type, at: index, key: key, trail: trail) }
        return mismatch(expected: object ? "object" : "array", type: type, at: index, key: key, trail: trail)
    }

    /// The error for a value nested deeper than the thread's stack allows (``StackGuard``).
    func stackExhausted(at index: Int, key: (any CodingKey)?, trail: CodingTrail?) -> DecodingError {
        let keys = pathFor(trail: trail, key: key)
        let error = StackGuard.exhausted(path: CodingTrail.render(keys), offset: entries[index].source)
        return .dataCorrupted(DecodingError.Context(codingPath: keys, debugDescription: error.description, underlyingError: error))
    }

    func outOfRange(_ type: Any.Type, at index: Int, key: (any CodingKey)?, trail: CodingTrail? = nil) -> DecodingError {
        let keys = pathFor(trail: trail, key: key)
        let text = String(decoding: UnsafeBufferPointer(start: bytes + entries[index].payload, count: Int(entries[index].length)), as: UTF8.self)
        let error = located(.numberOutOfRange, "number \(text) does not fit in \(type)", at: index, path: keys, expected: "\(type)", found: "number")
        return .dataCorrupted(DecodingError.Context(codingPath: keys, debugDescription: error.description, underlyingError: error))
    }

    func keyNotFound(_ key: any CodingKey, in object: Int, trail: CodingTrail?) -> DecodingError {
        let keys = pathFor(trail: trail, key: nil)
        let error = located(
            .keyNotFound, "key \"\(key.stringValue)\" is missing", at: object, path: keys + [key],
            expected: "a value", found: "nothing")
        return .keyNotFound(key, DecodingError.Context(codingPath: keys, debugDescription: error.description, underlyingError: error))
    }

    func valueNotFound(_ type: Any.Type, at index: Int, key: (any CodingKey)?, trail: CodingTrail?) -> DecodingError {
        let keys = pathFor(trail: trail, key: key)
        let error = located(.typeMismatch, "expected \(type), found null", at: index, path: keys, expected: "\(type)", found: "null")
        return .valueNotFound(type, DecodingError.Context(codingPath: keys, debugDescription: error.description, underlyingError: error))
    }

    func dataCorrupted(_ message: String, at index: Int, key: (any CodingKey)?, trail: CodingTrail?) -> DecodingError {
        let keys = pathFor(trail: trail, key: key)
        let error = located(.typeMismatch, message, at: index, path: keys)
        return .dataCorrupted(DecodingError.Context(codingPath: keys, debugDescription: error.description, underlyingError: error))
    }

    private func pathFor(trail: CodingTrail?, key: (any CodingKey)?) -> [any CodingKey] {
        var keys = CodingTrail.keys(trail ?? self.trail)
        if let key { keys.append(key) }
        return keys
    }

    // MARK: Scalars

    // The key and the trail are autoclosures, read only for an error
    // (measured: boxing a container's generic key per call was ~2% of a
    // twitter.json Codable decode; a recycled container's trail, a `var`,
    // was retained and released around every call).

    @inline(__always)
    func decodeBool(at index: Int, key: @autoclosure () -> (any CodingKey)?, trail: @autoclosure () -> CodingTrail?) throws -> Bool {
        switch entries[index].kind {
        case .true: return true
        case .false: return false
        // Foundation's JSONDecoder reports null for a Bool as a type
        // mismatch (unlike every other type, where it is valueNotFound).
        default: throw mismatch(expected: "bool", type: Bool.self, at: index, key: key(), trail: trail())
        }
    }

    @inline(__always)
    func decodeString(at index: Int, key: @autoclosure () -> (any CodingKey)?, trail: @autoclosure () -> CodingTrail?) throws -> String {
        let entry = entries[index]
        guard entry.kind == .string else {
            if entry.kind == .null { throw valueNotFound(String.self, at: index, key: key(), trail: trail()) }
            throw mismatch(expected: "string", type: String.self, at: index, key: key(), trail: trail())
        }
        if readsNullMarker {
            // A property list's <date> and <data> are kept as text, but they
            // are not strings, and `$null` is nil: as Foundation's decoder says.
            if entry.flags & (TapeFlags.date | TapeFlags.data) != 0 {
                throw mismatch(expected: "string", type: String.self, at: index, key: key(), trail: trail())
            }
            if PlistNull.isMarker(bytes + entry.payload, count: Int(entry.length)) {
                throw valueNotFound(String.self, at: index, key: key(), trail: trail())
            }
        }
        return TapeString.make(UnsafeBufferPointer(start: bytes + entry.payload, count: Int(entry.length)))
    }

    /// The text a string entry keeps (a plist's date or data included).
    private func tapeText(at index: Int) -> String {
        TapeString.make(UnsafeBufferPointer(start: bytes + entries[index].payload, count: Int(entries[index].length)))
    }

    @inline(__always)
    func decodeInteger<T: FixedWidthInteger>(
        _ type: T.Type, at index: Int, key: @autoclosure () -> (any CodingKey)?, trail: @autoclosure () -> CodingTrail?
    ) throws -> T {
        let entry = entries[index]
        guard entry.kind == .number else {
            if entry.kind == .null { throw valueNotFound(T.self, at: index, key: key(), trail: trail()) }
            throw mismatch(expected: "integer", type: T.self, at: index, key: key(), trail: trail())
        }
        let text = UnsafePointer(bytes + entry.payload)
        let count = Int(entry.length)
        if T.isSigned {
            if let value = NumberText.int64(text, count: count), let exact = T(exactly: value) { return exact }
        } else if let value = NumberText.uint64(text, count: count), let exact = T(exactly: value) {
            return exact
        }
        if T.bitWidth > 64 {
            // Int128 / UInt128: the exact digits, or out of range. A fraction
            // of zeros (`18446744073709551616.0`) is read exactly too, where
            // Foundation's slow path gives up beyond 64 bits.
            var digits = String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
            if let dot = digits.firstIndex(of: "."), digits[digits.index(after: dot)...].allSatisfy({ $0 == "0" }) {
                digits = String(digits[..<dot])
            }
            if let value = T(digits, radix: 10) { return value }
        }
        if !NumberText.isIntegerText(text, count: count) {
            // A whole number written with a fraction or exponent (`3.0`, `1e2`) is accepted when exact.
            let node = Node(document: document, index: index)
            if T.isSigned, let value = try? node.int64(), let exact = T(exactly: value) { return exact }
            if !T.isSigned, let value = try? node.uint64(), let exact = T(exactly: value) { return exact }
        }
        throw outOfRange(T.self, at: index, key: key(), trail: trail())
    }

    @inline(__always)
    func decodeDouble(
        at index: Int, key: @autoclosure () -> (any CodingKey)?, trail: @autoclosure () -> CodingTrail?, reporting type: Any.Type = Double.self
    ) throws -> Double {
        let entry = entries[index]
        switch entry.kind {
        case .number:
            let value = NumberText.double(terminated: UnsafePointer(bytes + entry.payload), count: Int(entry.length))
            // NaN and infinities from JSON5 or a plist (strtod reads their
            // text) are the only non-finite values allowed; others overflowed.
            guard value.isFinite || entry.flags & TapeFlags.nonFinite != 0 else { throw outOfRange(type, at: index, key: key(), trail: trail()) }
            // A nonzero number read as zero underflowed: refused, as
            // `JSONDecoder` refuses it (`2.01e-1234`).
            if value == 0, !NumberText.isZeroText(UnsafePointer(bytes + entry.payload), count: Int(entry.length)) {
                throw outOfRange(type, at: index, key: key(), trail: trail())
            }
            return value
        case .string:
            if case .convertFromString(let positive, let negative, let nan) = options.nonConformingFloats {
                let text = try decodeString(at: index, key: key(), trail: trail())
                if text == positive { return .infinity }
                if text == negative { return -.infinity }
                if text == nan { return .nan }
            }
            throw mismatch(expected: "number", type: type, at: index, key: key(), trail: trail())
        case .null:
            throw valueNotFound(type, at: index, key: key(), trail: trail())
        default:
            throw mismatch(expected: "number", type: type, at: index, key: key(), trail: trail())
        }
    }

    func decodeFloat(at index: Int, key: @autoclosure () -> (any CodingKey)?, trail: @autoclosure () -> CodingTrail?) throws -> Float {
        try decodeNarrow(Float.self, at: index, key: key(), trail: trail())
    }

    /// A `Float` (or `Float16`) rounded once from the number's text
    /// (``NarrowFloat``): through `Double` it would be rounded twice.
    func decodeNarrow<F: BinaryFloatingPoint & LosslessStringConvertible>(
        _ type: F.Type, at index: Int, key: @autoclosure () -> (any CodingKey)?, trail: @autoclosure () -> CodingTrail?
    ) throws -> F {
        let value = try decodeDouble(at: index, key: key(), trail: trail(), reporting: F.self)
        let entry = entries[index]
        let narrowed =
            entry.kind == .number
            ? NarrowFloat.value(
                F.self, nearest: value, text: UnsafeBufferPointer(start: UnsafePointer(bytes + entry.payload), count: Int(entry.length)))
            : F(value)
        // Too large for `F`, or too small: a nonzero value that narrows to zero underflowed.
        if value.isFinite, !narrowed.isFinite || (narrowed == 0 && value != 0) { throw outOfRange(F.self, at: index, key: key(), trail: trail()) }
        return narrowed
    }

    // MARK: Any Decodable

    /// The registered entry of `T`, if any (the last answer kept).
    @inline(__always)
    private func registeredEntry<T>(for _: T.Type) -> ModelEntry? {
        if registryIsEmpty { return nil }
        let id = ObjectIdentifier(T.self)
        if id == lastAsked { return lastAnswer }
        let entry = registry.registeredEntry(for: T.self)
        lastAsked = id
        lastAnswer = entry
        return entry
    }

    /// Decodes the value at `index` as `T` under `key` (nil for array
    /// elements and single values, which pass their own key).
    ///
    /// `key` and `parent` are consumed: the trail made for a nested value
    /// takes them over instead of copying them (the key's existential and
    /// the parent's retain were ~2 reference-count operations per value).
    func decodeValue<T: Decodable>(_ type: T.Type, at index: Int, key: consuming any CodingKey, parent: consuming CodingTrail?) throws -> T {
        // Kinds are asked for first, as plain enums: a function returning
        // `T?` makes the caller look `Optional<T>`'s metadata up on every
        // call (measured: ~1% of a twitter.json decode).
        if entries[index].kind == .array, let kind = ScalarArrayKind(T.self) {
            return try decodeScalarArray(kind, type, at: index, key: key, parent: parent)
        }
        if let special = specialKind(T.self, at: index) { return try decodeSpecial(special, type, at: index, key: key, trail: parent) }
        if let entry = registeredEntry(for: T.self) {
            do {
                return try entry.decode(Node(document: document, index: index), mappingContext, as: T.self)
            } catch let error as CartographError {
                let keys = pathFor(trail: parent, key: key)
                let located =
                    error.line == nil
                    ? self.located(error.kind, error.message, at: index, path: keys, expected: error.expected, found: error.found) : error
                throw DecodingError.dataCorrupted(
                    DecodingError.Context(codingPath: keys, debugDescription: located.description, underlyingError: located))
            }
        }
        // Any other array of Decodable elements (``TapeDecodedArray``).
        if entries[index].kind == .array, let array = arrayReader(for: T.self) {
            return try array.decode(self, at: index, key: key, parent: parent, as: T.self)
        }
        // The first levels cannot exhaust the stack's reserve: no check there.
        guard depth < StackGuard.uncheckedLevels || StackGuard.hasRoom else { throw stackExhausted(at: index, key: key, trail: parent) }
        let savedIndex = self.index
        // Swapped in and out: no reference counting on the saved trail.
        // The last uses of `parent` and `key`: moved into the trail.
        var other: CodingTrail? = CodingTrail(parent: parent, key: key)
        swap(&trail, &other)
        self.index = index
        depth += 1
        defer {
            self.index = savedIndex
            swap(&trail, &other)
            depth -= 1
        }
        keepDictionaryKeys(T.self)
        return try type.init(from: self)
    }

    /// `type` as a ``TapeDecodedArray`` (an `Array` of `Decodable`
    /// elements), or nil; the last few answers are kept (the runtime's
    /// conformance lookup was ~300 instructions an array, callgrind).
    private func arrayReader(for type: Any.Type) -> (any TapeDecodedArray.Type)? {
        let id = ObjectIdentifier(type)
        for slot in 0..<arrayReaders.count where arrayReaders[slot].type == id { return arrayReaders[slot].reader }
        let reader = type as? any TapeDecodedArray.Type
        arrayReaders[nextArrayReader] = (id, reader)
        nextArrayReader = (nextArrayReader + 1) % arrayReaders.count
        return reader
    }

    /// The elements of the array at `index` as `[E]`, as `Array.init(from:)`
    /// reads them (``TapeDecodedArray``): each decoded under its index, in
    /// order, the first failure thrown; an empty array needs no coding path.
    func decodeElements<E: Decodable>(_: E.Type, at index: Int, key: (any CodingKey)?, parent: CodingTrail?) throws -> [E] {
        let count = Int(entries[index].length)
        guard count > 0 else { return [] }
        guard depth < StackGuard.uncheckedLevels || StackGuard.hasRoom else { throw stackExhausted(at: index, key: key, trail: parent) }
        let arrayTrail = key.map { CodingTrail(parent: parent, key: $0) } ?? parent
        let end = entries[index].payload
        depth += 1
        defer { depth -= 1 }
        return try [E](unsafeUninitializedCapacity: count) { buffer, initialized in
            var position = index + 1
            while initialized < count, position < end {
                // Decoded into its place (through a local, the element was
                // copied and destroyed: a third of a twitter.json status's cost).
                (buffer.baseAddress! + initialized).initialize(
                    to: try decodeValue(E.self, at: position, key: IndexKey(initialized), parent: arrayTrail))
                initialized += 1
                let entry = entries[position]
                position = entry.kind == .array || entry.kind == .object ? entry.payload : position + 1
            }
        }
    }

    /// Decodes the current value as the root.
    func decodeRoot<T: Decodable>(_ type: T.Type) throws -> T {
        if let special = specialKind(T.self, at: index) { return try decodeSpecial(special, type, at: index, key: nil, trail: trail) }
        if let entry = registeredEntry(for: T.self) {
            return try entry.decode(Node(document: document, index: index), mappingContext, as: T.self)
        }
        if entries[index].kind == .array, let array = arrayReader(for: T.self) {
            return try array.decode(self, at: index, key: nil, parent: trail, as: T.self)
        }
        keepDictionaryKeys(T.self)
        return try type.init(from: self)
    }

    /// Arrays of the common scalars, and arrays of those arrays (two and
    /// three levels), read straight off the tape: no nested decoder state,
    /// container or coding path per array (canada.json has 55,000 `[Double]`
    /// pairs in `[[[Double]]]` rings). The outer levels were read by the
    /// standard library's `Array.init(from:)`, which is not specialised and
    /// looked `Array<Element>`'s metadata up per array (a tenth of a
    /// canada.json decode, perf).
    private func decodeScalarArray<T>(_ kind: ScalarArrayKind, _ type: T.Type, at index: Int, key: any CodingKey, parent: CodingTrail?) throws -> T {
        // Inlined into each case below, so that it is specialised for the
        // element type: called generically, every array looked its storage
        // class's metadata up and every append went through the unspecialised
        // `Array.append` (a quarter of a canada.json decode, perf).
        @inline(__always)
        func elements<E>(nested: Bool, _ read: (Int, IndexKey, CodingTrail?) throws -> E) throws -> [E] {
            let end = entries[index].payload
            var result: [E] = []
            result.reserveCapacity(Int(entries[index].length))
            var position = index + 1
            var ordinal = 0
            var elementTrail: CodingTrail?
            while position < end {
                let entry = entries[position]
                let isContainer = entry.kind == .array || entry.kind == .object
                if isContainer, !nested {
                    elementTrail = elementTrail ?? CodingTrail(parent: parent, key: key)
                    throw mismatch(expected: "\(E.self)", type: E.self, at: position, key: IndexKey(ordinal), trail: elementTrail)
                }
                do {
                    // Read first with no trail: an error is caught below and the
                    // element read again with the array's trail, which names it.
                    // Handing the parent in here retained and released it per
                    // element (7% of a canada.json decode, perf).
                    result.append(try read(position, IndexKey(ordinal), nil))
                } catch is DecodingError {
                    // Re-read with the array's path so the error names the element.
                    elementTrail = elementTrail ?? CodingTrail(parent: parent, key: key)
                    result.append(try read(position, IndexKey(ordinal), elementTrail))
                }
                position = isContainer ? entry.payload : position + 1
                ordinal += 1
            }
            return result
        }
        // Each row through decodeValue: an array row comes back here a level
        // down; anything else (null, a number, an object) takes the general
        // path and fails as `Array.init(from:)` would.
        @inline(__always)
        func rows<R: Decodable>(_ row: R.Type) throws -> [R] {
            try elements(nested: true) { try decodeValue(R.self, at: $0, key: $1, parent: $2) }
        }
        // `kind` names T's own array type (``ScalarArrayKind/init(_:)``): the casts cannot fail.
        // One case per element type and depth, each with its own closure
        // literal: a generic local function taking the element reader and
        // switching on the depth (tried) made the compiler box a closure
        // context per array, a malloc per canada.json pair (+4% instructions).
        switch (kind.element, kind.depth) {
        case (.double, 1): return try elements(nested: false) { try decodeDouble(at: $0, key: $1, trail: $2) } as! T
        case (.int, 1): return try elements(nested: false) { try decodeInteger(Int.self, at: $0, key: $1, trail: $2) } as! T
        case (.string, 1): return try elements(nested: false) { try decodeString(at: $0, key: $1, trail: $2) } as! T
        case (.float, 1): return try elements(nested: false) { try decodeFloat(at: $0, key: $1, trail: $2) } as! T
        case (.int64, 1): return try elements(nested: false) { try decodeInteger(Int64.self, at: $0, key: $1, trail: $2) } as! T
        case (.bool, 1): return try elements(nested: false) { try decodeBool(at: $0, key: $1, trail: $2) } as! T
        case (.double, 2): return try rows([Double].self) as! T
        case (.int, 2): return try rows([Int].self) as! T
        case (.string, 2): return try rows([String].self) as! T
        case (.float, 2): return try rows([Float].self) as! T
        case (.int64, 2): return try rows([Int64].self) as! T
        case (.bool, 2): return try rows([Bool].self) as! T
        case (.double, _): return try rows([[Double]].self) as! T
        case (.int, _): return try rows([[Int]].self) as! T
        case (.string, _): return try rows([[String]].self) as! T
        case (.float, _): return try rows([[Float]].self) as! T
        case (.int64, _): return try rows([[Int64]].self) as! T
        case (.bool, _): return try rows([[Bool]].self) as! T
        }
    }

    /// The arrays of scalars read straight off the tape: the element type,
    /// and how many array levels hold it (1 to 3).
    private struct ScalarArrayKind {
        enum Element: CaseIterable {
            case double, int, string, float, int64, bool
        }

        let element: Element
        let depth: Int

        var arrayType: Any.Type {
            func nested<E>(_: E.Type) -> Any.Type {
                switch depth {
                case 1: [E].self
                case 2: [[E]].self
                default: [[[E]]].self
                }
            }
            switch element {
            case .double: return nested(Double.self)
            case .int: return nested(Int.self)
            case .string: return nested(String.self)
            case .float: return nested(Float.self)
            case .int64: return nested(Int64.self)
            case .bool: return nested(Bool.self)
            }
        }

        /// Each kind's array type, found once: writing `T.self == [Double].self`
        /// looks the array type's metadata up on every call (measured: six
        /// such lookups per array were ~1% of a twitter.json Codable decode).
        private static let identified = (1...3).flatMap { depth in
            Element.allCases.map { element in
                let kind = ScalarArrayKind(element: element, depth: depth)
                return (ObjectIdentifier(kind.arrayType), kind)
            }
        }

        init(element: Element, depth: Int) {
            self.element = element
            self.depth = depth
        }

        /// The kind whose array type is `type`, if any.
        init?(_ type: Any.Type) {
            let identifier = ObjectIdentifier(type)
            guard let found = Self.identified.first(where: { $0.0 == identifier }) else { return nil }
            self = found.1
        }
    }

    /// Types Foundation's coders treat specially, and JSONValue.
    private enum SpecialKind {
        case date, data, decimal, url, jsonValue
        /// `Float16` rounded once from the text: its own `init(from:)` reads
        /// a `Float` and rounds that again.
        case float16
    }

    /// Whether the value at `index` is read as a ``SpecialKind`` when asked for as `type`.
    private func specialKind(_ type: Any.Type, at index: Int) -> SpecialKind? {
        if type == Date.self { return .date }
        if type == Data.self { return .data }
        if type == Decimal.self { return .decimal }
        // A plist's `{relative, base}` dictionary goes through URL's own init(from:).
        if type == URL.self, !(readsNullMarker && entries[index].kind == .object) { return .url }
        if type == JSONValue.self { return .jsonValue }
        #if !((os(macOS) || targetEnvironment(macCatalyst)) && arch(x86_64))
            if type == Float16.self { return .float16 }
        #endif
        return nil
    }

    /// Reads a special kind; `kind` names T itself (``specialKind(_:at:)``), so the casts cannot fail.
    private func decodeSpecial<T>(_ kind: SpecialKind, _ type: T.Type, at index: Int, key: (any CodingKey)?, trail: CodingTrail?) throws -> T {
        switch kind {
        case .date: return try decodeDate(at: index, key: key, trail: trail) as! T
        case .data: return try decodeData(at: index, key: key, trail: trail) as! T
        case .decimal: return try decodeDecimal(at: index, key: key, trail: trail) as! T
        case .url:
            let text = try decodeString(at: index, key: key, trail: trail)
            guard let url = URL(string: text) else { throw dataCorrupted("\"\(text)\" is not a valid URL", at: index, key: key, trail: trail) }
            return url as! T
        case .float16:
            #if !((os(macOS) || targetEnvironment(macCatalyst)) && arch(x86_64))
                return try decodeNarrow(Float16.self, at: index, key: key, trail: trail) as! T
            #else
                preconditionFailure("Float16 is not a special kind on this platform")
            #endif
        case .jsonValue:
            var keys = KeyStringCache()
            do {
                return try document.jsonValue(at: index, depth: 0, levels: TreeStackBudget.unmeasured, keys: &keys) as! T
            } catch {
                // The build's only error: the stack's budget.
                throw stackExhausted(at: index, key: key, trail: trail)
            }
        }
    }

    private func decodeDecimal(at index: Int, key: (any CodingKey)?, trail: CodingTrail?) throws -> Decimal {
        let entry = entries[index]
        guard entry.kind == .number else {
            if entry.kind == .null { throw valueNotFound(Decimal.self, at: index, key: key, trail: trail) }
            throw mismatch(expected: "number", type: Decimal.self, at: index, key: key, trail: trail)
        }
        let text = UnsafePointer(bytes + entry.payload)
        let count = Int(entry.length)
        if let value = NumberText.decimal(text, count: count) { return value }
        // More significant digits than Decimal's 38 (or zeros it need not
        // keep, as in 1e127 written out): rounded as Foundation's
        // JSONDecoder reads them, so a Decimal it wrote reads back equal.
        // The mapping layer's Decimal stays exact-or-throw.
        if let value = Decimal(
            string: String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self),
            locale: Locale(identifier: "en_US_POSIX")), !value.isNaN
        {
            return value
        }
        throw outOfRange(Decimal.self, at: index, key: key, trail: trail)
    }

    private func decodeDate(at index: Int, key: (any CodingKey)?, trail: CodingTrail?) throws -> Date {
        if entries[index].kind == .string, entries[index].flags & TapeFlags.date != 0,
            let date = PlistDate.date(tapeText(at: index))
        {
            return date
        }
        switch options.dates {
        case .deferredToDate:
            // A property list's dates are <date>s (as in Foundation's decoder).
            if readsNullMarker { throw mismatch(expected: "date", type: Date.self, at: index, key: key, trail: trail) }
            return Date(timeIntervalSinceReferenceDate: try decodeDouble(at: index, key: key, trail: trail))
        case .secondsSince1970:
            return Date(timeIntervalSince1970: try decodeDouble(at: index, key: key, trail: trail))
        case .millisecondsSince1970:
            return Date(timeIntervalSince1970: try decodeDouble(at: index, key: key, trail: trail) / 1000)
        case .iso8601:
            let text = try decodeString(at: index, key: key, trail: trail)
            guard let date = DateFormats.parseISO8601(text) else {
                throw dataCorrupted("\"\(text)\" is not an ISO 8601 date", at: index, key: key, trail: trail)
            }
            return date
        case .formatted(let format, let timeZone):
            let text = try decodeString(at: index, key: key, trail: trail)
            guard let date = LockedFormatter.shared(format: format, timeZone: timeZone).date(from: text) else {
                throw dataCorrupted("\"\(text)\" does not match the date format \"\(format)\"", at: index, key: key, trail: trail)
            }
            return date
        case .custom(let decode, _):
            return try nested(at: index, key: key, trail: trail) { try decode(self) }
        }
    }

    private func decodeData(at index: Int, key: (any CodingKey)?, trail: CodingTrail?) throws -> Data {
        if entries[index].kind == .string, entries[index].flags & TapeFlags.data != 0,
            let data = Data(base64Encoded: tapeText(at: index))
        {
            return data
        }
        switch options.data {
        case .base64:
            // A property list's data is <data>, not a string that happens to be base64.
            if readsNullMarker { throw mismatch(expected: "data", type: Data.self, at: index, key: key, trail: trail) }
            let text = try decodeString(at: index, key: key, trail: trail)
            guard let data = Data(base64Encoded: text) else {
                throw dataCorrupted("the string is not valid base64", at: index, key: key, trail: trail)
            }
            return data
        case .deferredToData:
            return try nested(at: index, key: key, trail: trail) { try Data(from: self) }
        case .custom(let decode, _):
            return try nested(at: index, key: key, trail: trail) { try decode(self) }
        }
    }

    /// Runs `body` with the decoder positioned on `index`.
    private func nested<R>(at index: Int, key: (any CodingKey)?, trail parent: CodingTrail?, _ body: () throws -> R) throws -> R {
        let savedIndex = self.index
        let savedTrail = trail
        self.index = index
        if let key { trail = CodingTrail(parent: parent, key: key) }
        defer {
            self.index = savedIndex
            trail = savedTrail
        }
        return try body()
    }
}

/// Where a keyed container found its last key: the object it searched and
/// the index of the key after the one found (where the next search starts).
struct KeyHint {
    /// The tape index of the object the hint belongs to.
    var object: Int
    /// The tape index of a key of that object.
    var next: Int
}

extension LockedFormatter {
    private static let cache = FormatterCache()

    /// A shared formatter per format and time zone.
    static func shared(format: String, timeZone: TimeZone) -> LockedFormatter {
        cache.formatter(format: format, timeZone: timeZone)
    }
}

/// Formatters for `DateStrategy.formatted`, made once per format.
final class FormatterCache: Sendable {
    private let formatters = Mutex<[String: LockedFormatter]>([:])

    func formatter(format: String, timeZone: TimeZone) -> LockedFormatter {
        let key = format + "\u{0}" + timeZone.identifier
        return formatters.withLock { cache in
            if let existing = cache[key] { return existing }
            let made = LockedFormatter(format: format, timeZone: timeZone)
            cache[key] = made
            return made
        }
    }
}

/// How a keyed container reads its object's keys (``DocumentDecoder/objectKeys(of:keepsKeys:)``).
enum ObjectKeys {
    /// Through the key strategy, one lookup per key.
    case byStrategy
    /// As they are: a `[String: Value]` dictionary's keys under a key strategy.
    case asGiven
    /// The JSON keys converted by a coding-path closure (or to camelCase once
    /// the decode's ``SnakeCaseKeyTable`` is full), to their value's tape
    /// index, and the converted names in document order (for `allKeys`).
    case converted([String: Int], names: [String])
    /// The JSON keys converted to camelCase (Foundation's snake_case
    /// reading), listed by the container (``SnakeCaseKeyTable``).
    case snakeCased
}
