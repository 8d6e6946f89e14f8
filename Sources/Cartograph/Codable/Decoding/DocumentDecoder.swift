import Foundation
import Synchronization

// The Codable decoder reads the tape in place:
//
//     {"id": 7, "tags": ["a"]}   →   tape: object(2) key"id" 7 key"tags" array(1) "a"
//     try mapper.decode(User.self, from: bytes)
//
// `User.init(from:)` asks for a keyed container (a view of the object's tape
// index), `decode(Int.self, forKey: .id)` finds "id" by comparing bytes from
// where the last key was found, and converts the number straight from the
// tape; `tags` is read by `decodeElements` without an unkeyed container.
// The facets are in their own files: DocumentDecoder+Keys.swift (key
// lookup and key strategies), +Scalars (numbers and strings),
// +AnyDecodable (nested values, arrays, dates, data, registered models)
// and +Errors.

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
    /// The document's tape, read through its checked reader (which holds the document).
    let tape: TapeReader
    let options: CodableOptions
    let registry: ModelRegistry
    let registryIsEmpty: Bool
    /// The key strategy is ``CodableOptions/KeyStrategy/useDefaultKeys``.
    let usesDefaultKeys: Bool
    let issues: IssueCollector?
    /// The context registered models are made in: one per decode, made
    /// when the first is met (a session per model cost two allocations each).
    private(set) lazy var mappingContext = MappingContext(
        registry: registry, trail: nil, parent: nil, issues: issues,
        readsNullMarker: readsNullMarker)
    /// The last type asked about in the registry, and its entry (nil: not
    /// registered): an array's elements ask for the same type each time
    /// (records.json: 40,000 asks a decode; the registry's lookup and its
    /// entry's reference counts were 5% of a mapping decode there).
    var lastAsked: ObjectIdentifier?
    var lastAnswer: ModelEntry?
    /// The array types last met (``arrayReader(for:)``). An
    /// ``ExclusiveState``: as the decoder's `var`s, the lookup began a
    /// dynamic exclusivity access per array decoded (about 75
    /// instructions; 0.3% of twitter.json's `Codable` decode).
    let arrayReaders = ArrayReaderAnswers()
    /// The value being decoded.
    var index: Int
    var trail: PathTrail?
    /// Where each depth's keyed container last found a key (a hint only; see ``KeyHint``).
    let hints: KeyHints
    var depth = 0
    var convertedKeyBytes: [String: [UInt8]] = [:]
    /// Under ``CodableOptions/KeyStrategy/snakeCase``, the decode's JSON
    /// keys, each converted once (nil under other strategies).
    let snakeCaseKeys: SnakeCaseKeyTable?
    /// Reading a property list: the string `$null` is nil (``PlistNull``),
    /// and `Date` and `Data` (under the default strategies) must be a
    /// plist's own dates and data, as in Foundation's decoder.
    var readsNullMarker = false
    /// The next keyed container reads a `[String: Value]` dictionary: its
    /// keys are data and are read as they are (as Foundation does).
    var nextContainerKeepsKeys = false

    /// Keyed containers kept for reuse (``RecycledContainers``), for a
    /// decoder whose owner decodes through ``decodeTopLevel(_:)``, which
    /// empties it. Held in an ``ExclusiveState``: as a `var` of the
    /// decoder, every container handed out began a dynamic exclusivity
    /// access around the table's lookup (about 75 instructions, 0.6% of
    /// the HTTP benchmark's decode).
    private let recycled: KeptKeyedContainers

    init(
        document: Document, index: Int, options: CodableOptions, registry: ModelRegistry, issues: IssueCollector?,
        recyclesContainers: Bool = false
    ) {
        tape = document.reader
        self.options = options
        self.registry = registry
        registryIsEmpty = !registry.hasEntries
        usesDefaultKeys = !options.keys.convertsKeys
        if case .snakeCase = options.keys { snakeCaseKeys = SnakeCaseKeyTable() } else { snakeCaseKeys = nil }
        self.issues = issues
        self.index = index
        hints = KeyHints(limit: 1024)
        recycled = KeptKeyedContainers(state: RecycledContainers(keeps: recyclesContainers && ContainerLayout.keyedDecoding))
    }

    deinit {
        recycled.state.empty()
    }

    /// Places the decoder at the root value at `index` for the next
    /// ``decodeTopLevel(_:)`` (a mapping decode's ``CodableFallback``
    /// reuses one decoder for every value it meets). Its caches (types,
    /// key hints, converted keys) stay: they hold for the same document.
    func place(at index: Int) {
        self.index = index
        trail = nil
        depth = 0
        nextContainerKeepsKeys = false
    }

    /// Decodes the root value as `type` and releases the containers kept
    /// for reuse, which hold this decoder (the owner of a decoder made with
    /// `recyclesContainers` decodes through this).
    func decodeTopLevel<T: Decodable>(_ type: T.Type) throws -> T {
        defer { recycled.state.empty() }
        return try decodeRoot(type)
    }

    /// The document decoded.
    var document: Document { tape.document }

    var codingPath: [any CodingKey] { PathTrail.codingKeys(trail) }
    var userInfo: [CodingUserInfoKey: Any] { options.userInfo }

    // MARK: Containers

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        let keepsKeys = nextContainerKeepsKeys
        nextContainerKeepsKeys = false
        guard tape[index].kind == .object else { throw containerMismatch(object: true, at: index, key: nil, trail: trail) }
        return keyedContainer(Key.self, object: index, trail: trail, depth: depth, keepsKeys: keepsKeys)
    }

    /// A keyed container over `object`: a kept one pointed at it, or a new one (kept if this decoder keeps them).
    func keyedContainer<Key: CodingKey>(_: Key.Type, object: Int, trail: PathTrail?, depth: Int, keepsKeys: Bool = false) -> KeyedDecodingContainer<
        Key
    > {
        let type = ObjectIdentifier(Key.self)
        if let lent: Unretained<KeptContainerOf<KeyedDecodingContainer<Key>>> = recycled.state.reuse(
            type, depth: depth,
            reset: { $0.reset(object: object, trail: trail, depth: depth, keepsKeys: keepsKeys) })
        {
            return lent.with { $0.take() }
        }
        return newKeyedContainer(Key.self, object: object, trail: trail, depth: depth, keepsKeys: keepsKeys)
    }

    /// A new keyed container, kept if the table admits it. Not inlined: its
    /// local container made the caller look `KeyedDecodingContainer<Key>`'s
    /// metadata up on entry, on the reuse path too.
    @inline(never)
    private func newKeyedContainer<Key: CodingKey>(_: Key.Type, object: Int, trail: PathTrail?, depth: Int, keepsKeys: Bool)
        -> KeyedDecodingContainer<Key>
    {
        let state = DocumentKeyedContainer<Key>(decoder: self, object: object, trail: trail, depth: depth, keepsKeys: keepsKeys)
        let container = KeyedDecodingContainer(state)
        if recycled.state.admits() {
            recycled.state.keep(KeptContainerOf(container), state: state, type: ObjectIdentifier(Key.self), depth: depth)
        }
        return container
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        nextContainerKeepsKeys = false
        guard tape[index].kind == .array else { throw containerMismatch(object: false, at: index, key: nil, trail: trail) }
        return DocumentUnkeyedContainer(decoder: self, array: index, trail: trail)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        nextContainerKeepsKeys = false
        return DocumentSingleValueContainer(decoder: self, index: index, trail: trail)
    }

    /// A decoder for a super decoder's value at `index` (of `document`, or
    /// this decoder's), reading as this one reads: the plist `$null`
    /// marker, and the depth the stack guard counts from.
    func superDecoder(at index: Int, of document: Document? = nil, trail: PathTrail?) -> DocumentDecoder {
        let child = DocumentDecoder(
            document: document ?? self.document, index: index, options: options, registry: registry,
            issues: issues)
        child.readsNullMarker = readsNullMarker
        child.depth = depth
        child.trail = trail
        return child
    }

    /// Whether the value at `index` is nil: `null`, or in a property list the `$null` marker.
    @inline(__always)
    func isNil(at index: Int) -> Bool {
        let entry = tape[index]
        if entry.kind == .null { return true }
        return readsNullMarker && tape.isPlistNullMarker(entry)
    }
}

/// A decoder's kept keyed containers (``RecycledContainers``), one
/// decode's, on its task. Without the runtime's exclusivity check
/// (``ExclusiveState``): a lookup runs only the kept state's `reset`,
/// which points the state at the next object and never reaches the
/// table (the one outside code it can run, a custom key strategy's
/// closure, is given keys and paths, never the decoder); a container is
/// kept (`admits`, `keep`) after it is made, with no other access open.
final class KeptKeyedContainers: ExclusiveState<RecycledContainers<KeyedContainerState>> {}

/// The array types a decoder last met and whether each is a
/// ``TapeDecodedArray`` (``DocumentDecoder/arrayReader(for:)``): one
/// decode's, on its task; an answer is found by the runtime's
/// conformance lookup, which runs no code of the caller's.
final class ArrayReaderAnswers: ExclusiveState<TypeAnswers<(any TapeDecodedArray.Type)?>> {
    init() { super.init(state: TypeAnswers()) }
}
