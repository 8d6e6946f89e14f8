/// What a factory or transform knows while it makes a model: the registry
/// (to decode nested models), the options, where in the input it is, the key
/// the object sits under, and the model that contains it.
public struct MappingContext {
    /// What every context of one decode shares.
    final class Session {
        let registry: ModelRegistry
        let issues: IssueCollector?
        /// The options every property asks for, read once per decode
        /// instead of through the registry's storage per property.
        let lenientScalars: Bool
        let ignoreNulls: Bool
        let nullForNonOptional: NullForNonOptional
        /// The path links of the decode.
        let links = PathTrail.Stack()
        /// The decode reads a property list: optionals read the string
        /// `$null` as nil (``PlistNull``), and so do the `Codable` values
        /// inside its models.
        let readsNullMarker: Bool
        /// The decoder of the unregistered `Codable` values met in this
        /// decode (``CodableFallback``), made for the first and moved to
        /// each next one: a decoder is several allocations and a
        /// 1,024-entry key-hint table, which one per value paid in full.
        private var fallbackDecoder: DocumentDecoder?
        /// A fallback decode is running: one inside it (never met through
        /// this session's own contexts, but not ruled out) gets a decoder of its own.
        private var fallbackRunning = false
        init(registry: ModelRegistry, issues: IssueCollector?, readsNullMarker: Bool) {
            self.registry = registry
            self.issues = issues
            self.readsNullMarker = readsNullMarker
            let options = registry.options
            lenientScalars = options.lenientScalars
            ignoreNulls = options.ignoreNulls
            nullForNonOptional = options.nullForNonOptional
        }

        /// Runs `body` with a decoder placed at the value at `index` of
        /// `document`: the session's, when it is free and reads that document.
        func withFallbackDecoder<Result>(document: Document, index: Int, _ body: (DocumentDecoder) throws -> Result) rethrows -> Result {
            guard !fallbackRunning else { return try body(makeFallbackDecoder(document: document, index: index)) }
            let decoder: DocumentDecoder
            if let kept = fallbackDecoder, kept.document === document {
                kept.place(at: index)
                decoder = kept
            } else {
                decoder = makeFallbackDecoder(document: document, index: index)
                fallbackDecoder = decoder
            }
            fallbackRunning = true
            defer { fallbackRunning = false }
            return try body(decoder)
        }

        private func makeFallbackDecoder(document: Document, index: Int) -> DocumentDecoder {
            let decoder = DocumentDecoder(
                document: document, index: index, options: CodableOptions(), registry: registry, issues: issues, recyclesContainers: true)
            decoder.readsNullMarker = readsNullMarker
            return decoder
        }
    }

    let session: Session
    /// The innermost linked path component: an index into the session's
    /// ``PathTrail/Stack`` (-1: the root).
    let trail: Int
    /// Path components below `trail` not yet linked in (a property's key
    /// path): most properties never need them, so they are only linked when a
    /// nested model or an error asks. The spec's storage rather than the
    /// spec: an optional class reference is released directly (`KeySpec?`
    /// was destroyed through `Optional`'s value witness, per context).
    let pending: KeySpec.Storage?
    /// An array position below `pending`, likewise linked in only when needed
    /// (negative when there is none).
    let pendingIndex: Int
    /// The containing instance. Held, not unretained: a context is a public
    /// value a factory may keep, and `parent` must not dangle then.
    private let parentObject: AnyObject?

    init(registry: ModelRegistry, trail: PathTrail?, parent: AnyObject?, issues: IssueCollector?, readsNullMarker: Bool = false) {
        let session = Session(registry: registry, issues: issues, readsNullMarker: readsNullMarker)
        var link = -1
        for component in PathTrail.components(trail) { link = session.links.push(component, under: link) }
        self.init(session: session, trail: link, pending: nil, parent: parent)
    }

    private init(session: Session, trail: Int, pending: KeySpec.Storage?, pendingIndex: Int = -1, parent: AnyObject?) {
        self.session = session
        self.trail = trail
        self.pending = pending
        self.pendingIndex = pendingIndex
        self.parentObject = parent
    }

    /// Where the path stack stands: links pushed after this (by
    /// ``materialized()`` or ``child(key:)``) are removed by ``unlink(to:)``
    /// once the contexts that hold them are done with.
    var linkMark: Int { session.links.count }

    /// Removes the path links pushed since `mark`.
    func unlink(to mark: Int) { session.links.truncate(to: mark) }

    /// The registry of the decode in progress.
    public var registry: ModelRegistry { session.registry }
    /// The registry's options.
    public var options: MappingOptions { session.registry.options }
    var issues: IssueCollector? { session.issues }

    /// The class instance that contains the value being decoded, if any.
    public var parent: AnyObject? { parentObject }

    /// The key the current object sits under (for array elements, the
    /// array's key), or nil at the top level.
    public var key: String? {
        if let pending {
            for case .key(let name) in pending.components.reversed() { return name }
        }
        return session.links.innermostKey(from: trail)
    }

    /// The path of the current value, as `$.statuses[3].user`.
    public var path: String { PathTrail.render(session.links.components(to: trail, pending: pending, index: pendingIndex)) }

    /// The same context with the pending components linked into the trail
    /// (pushed on the session's path stack: see ``linkMark``).
    func materialized() -> MappingContext {
        guard pending != nil || pendingIndex >= 0 else { return self }
        return MappingContext(
            session: session, trail: session.links.push(pending: pending, index: pendingIndex, under: trail), pending: nil, parent: parentObject)
    }

    /// Makes the model of the object this context is for, in the object's
    /// own context: its path links pushed for the call and removed after it,
    /// room on the stack checked first, a ``CartographError`` given the
    /// object's path. The one way into a nested model, for the registry
    /// entry's decode and the rule loop's in-place slots alike.
    @inline(__always)
    func makingObject<T>(at offset: @autoclosure () -> Int, _ make: (MappingContext) throws -> T) throws -> T {
        let mark = linkMark
        let context = materialized()
        defer { context.unlink(to: mark) }
        guard StackGuard.hasRoom else { throw StackGuard.exhausted(path: context.path, offset: offset()) }
        do {
            return try make(context)
        } catch let error as CartographError {
            throw error.at(path: context.path)
        }
    }

    /// The context of the value at a key path under the current object (no allocation).
    func child(spec: KeySpec) -> MappingContext {
        let base = pending == nil && pendingIndex < 0 ? self : materialized()
        return MappingContext(session: session, trail: base.trail, pending: spec.storage, parent: parentObject)
    }

    /// The context of the value at `spec` under the current object, linked
    /// into the trail at once (the rule loop's in-place slots: their
    /// property's context is made only to enter a nested model). Cut back
    /// with ``unlink(to:)``.
    func linked(_ spec: KeySpec.Storage) -> MappingContext {
        MappingContext(session: session, trail: session.links.push(spec, under: materialized().trail), pending: nil, parent: parentObject)
    }

    /// The context of the member under `key` of the current object (a
    /// dictionary's member): the key linked straight into the trail.
    func child(key: String) -> MappingContext {
        MappingContext(
            session: session, trail: session.links.push(.key(key), under: materialized().trail), pending: nil,
            parent: parentObject)
    }

    /// The context of element `index` of the current array (its key stays
    /// the array's); no allocation unless the element needs a context of its own.
    func element(_ index: Int) -> MappingContext {
        let base = pendingIndex < 0 ? self : materialized()
        return MappingContext(session: session, trail: base.trail, pending: base.pending, pendingIndex: index, parent: parentObject)
    }

    /// The same context with a new containing instance.
    func with(parent newParent: AnyObject?) -> MappingContext {
        MappingContext(session: session, trail: trail, pending: pending, parent: newParent)
    }

    /// Decodes a nested value of any supported type (registered model,
    /// scalar, optional, array, set, dictionary) from a node.
    public func decode<Value>(_ type: Value.Type, from node: Node) throws -> Value {
        try ValueCodec<Value>.resolve().decode(node, self, .standard)
    }

    /// Decodes the value a factory found under `key` of its object, so that
    /// an error inside it is named by its whole path
    /// (`$.features[0].geometry.coordinates[3][1][0]`, not the object's).
    /// Arrays of scalars, and arrays of those, are read in one loop per
    /// level, as a ``Mapping`` reads them.
    public func decode<Value>(_ type: Value.Type, from node: Node, key: String) throws -> Value {
        let mark = linkMark
        defer { unlink(to: mark) }
        return try ValueCodec<Value>.resolve().decode(node, child(key: key), .standard)
    }
}

/// The class instances an encode is inside (see ``EncodingContext/visiting``).
///
/// A stack, not a set: the instances an encode is inside are the chain of
/// its class models from the root, left in the reverse order of entering,
/// and that chain is short (at most the depth limit). A scan of it costs
/// less than hashing every instance in and out (a twentieth of a class
/// model's encode went to `Hasher`).
///
/// An ``ExclusiveState``: an encode owns it on one task and `enter` and
/// `leave` run no code outside the library, and the runtime's check of
/// each access was a tenth of a class model's encode (records.json).
final class VisitedObjects: ExclusiveState<[ObjectIdentifier]> {
    init() { super.init(state: []) }

    /// Enters `object`; false if the encode is already inside it (a cycle).
    func enter(_ object: AnyObject) -> Bool {
        let identifier = ObjectIdentifier(object)
        if state.contains(identifier) { return false }
        state.append(identifier)
        return true
    }

    /// Leaves `object` (its siblings may hold it again without a cycle):
    /// the last one entered, unless an error unwound past others.
    func leave(_ object: AnyObject) {
        let identifier = ObjectIdentifier(object)
        if state.last == identifier {
            state.removeLast()
        } else if let position = state.lastIndex(of: identifier) {
            state.remove(at: position)
        }
    }
}

/// The registry's entries for the types an encode meets where a value's
/// own type decides (a class instance, an existential), the last eight
/// kept (``EncodingSession/entry(for:)``): asked of the registry, each was
/// a hashed lookup and an access check per nested class instance (5% of a
/// class model's encode). An ``ExclusiveState`` for the reasons
/// ``VisitedObjects`` is.
final class EntryAnswers: ExclusiveState<TypeAnswers<ModelEntry?>> {
    init() { super.init(state: TypeAnswers()) }
}

/// Collects the errors a lossy decode skipped.
final class IssueCollector {
    private(set) var issues: [CartographError] = []
    func record(_ error: CartographError) { issues.append(error) }
    /// Runs `body`, which reads a value whose issues are recorded with paths
    /// from the value itself (a registered model read inside a `Codable`
    /// decode, a `Codable` value inside a mapping), and puts the issues it
    /// records under `place`, the value's path from the document's root
    /// (asked for only if there are any).
    @inline(__always)
    static func placing<T>(_ issues: IssueCollector?, under place: () -> String, _ body: () throws -> T) rethrows -> T {
        guard let issues else { return try body() }
        let first = issues.issues.count
        defer {
            if issues.issues.count > first {
                let place = place()
                for index in first..<issues.issues.count { issues.issues[index] = issues.issues[index].placed(under: place) }
            }
        }
        return try body()
    }
    /// Gives every collected error its line and column (one pass over the input).
    func locate(in input: Span<UInt8>) {
        issues = SourceLocation.locateAll(issues, in: input)
    }
}

/// What every context of one encode shares, behind one reference: a
/// context is copied for each nested value, and each reference it holds is
/// a retain and a release per copy.
final class EncodingSession {
    let registry: ModelRegistry
    let profile: OutputProfile
    /// The class instances being encoded (see ``EncodingContext/visiting``).
    let visiting = VisitedObjects()
    /// The registry's entries for the value types met (``entry(for:)``).
    private let entries = EntryAnswers()
    /// The path links of the encode (as a decode's, ``MappingContext/Session``).
    let links = PathTrail.Stack()
    /// ``ModelRegistry/identity``, read once (the stream asks it per model written).
    let registryIdentity: UInt64

    init(registry: ModelRegistry, profile: OutputProfile) {
        self.registry = registry
        self.profile = profile
        registryIdentity = registry.identity
    }

    /// ``ModelRegistry/entry(for:)`` for `type`, answered once per type in
    /// this encode; the registry is asked outside the answers' access (it
    /// may compile a mapping).
    func entry(for type: Any.Type) -> ModelEntry? {
        let identifier = ObjectIdentifier(type)
        if let known = entries.state.known(identifier) { return known }
        let entry = registry.entry(for: type)
        entries.state.remember(entry, for: identifier)
        return entry
    }
}

/// What a factory, transform or mapping knows while it encodes a model.
public struct EncodingContext {
    /// The registry of the encode in progress.
    public var registry: ModelRegistry { session.registry }
    /// The registry's options.
    public var options: MappingOptions { session.registry.options }
    /// The kind of output being produced.
    public var profile: OutputProfile { session.profile }
    /// The registry, profile and visited instances of the whole encode.
    let session: EncodingSession
    /// The path to this value's parent: the innermost link on the session's
    /// ``PathTrail/Stack`` (-1: the root). This value's own step (its key,
    /// an array position under that key) is kept in `pending` and
    /// `pendingIndex` and linked only when a child needs it
    /// (``materialized()``): most values are written and left without one.
    /// A link is a plain value on the stack; the `PathTrail` object per
    /// linked step it replaced was an allocation and a retain and release
    /// per child context (a twentieth of a mapping encode of twitter.json).
    let trail: Int
    let pending: KeySpec.Storage?
    /// An array position below `pending` (negative: none; `Int.min`: ``blind``).
    let pendingIndex: Int
    /// The class instances being encoded, outermost first (one set per
    /// encode, shared by every context of it: entered and left around each
    /// instance, so a cycle is found in O(1) without copying a set per level).
    var visiting: VisitedObjects { session.visiting }
    /// How many values deep this context is.
    let depth: Int
    /// A rule's sub-mapper, for the model this value is or holds (cleared
    /// inside that model: its own properties use the registry).
    let subMapper: SubMapper?
    /// Inside a model whose stream hands no context to code that could
    /// read its path (PathBlindness.swift): no step is linked for this
    /// value or anything below it. The stream's own errors are thrown
    /// again by the tree, with their paths. Kept as `pendingIndex`'s
    /// `Int.min` (a blind context has no pending step): a field of its own
    /// made the context a word larger, and every copy and destroy of one
    /// in generic code a call through its value witnesses.
    var blind: Bool { pendingIndex == .min }

    /// The root context of a new encode.
    init(registry: ModelRegistry, profile: OutputProfile) {
        self.init(session: EncodingSession(registry: registry, profile: profile))
    }

    init(
        session: EncodingSession, trail: Int = -1, pending: KeySpec.Storage? = nil, pendingIndex: Int = -1, depth: Int = 0,
        subMapper: SubMapper? = nil, blind: Bool = false
    ) {
        self.session = session
        self.trail = trail
        self.pending = pending
        self.pendingIndex = blind ? .min : pendingIndex
        self.depth = depth
        self.subMapper = subMapper
    }

    func using(_ subMapper: SubMapper) -> EncodingContext {
        EncodingContext(
            session: session, trail: trail, pending: pending, pendingIndex: pendingIndex, depth: depth, subMapper: subMapper, blind: blind)
    }

    func leavingSubMapper() -> EncodingContext {
        EncodingContext(session: session, trail: trail, pending: pending, pendingIndex: pendingIndex, depth: depth, blind: blind)
    }

    /// This context, blind (``blind``): for a model whose whole stream was
    /// found to hand no context to code that could read a path.
    func blinded() -> EncodingContext {
        EncodingContext(session: session, trail: trail, depth: depth, subMapper: subMapper, blind: true)
    }

    /// A blind context's child: the same place on the path stack, one level down.
    @inline(__always)
    func blindChild() -> EncodingContext {
        EncodingContext(session: session, trail: trail, depth: depth + 1, subMapper: subMapper, blind: true)
    }

    /// The path being encoded, as `$.friends[3]`.
    public var path: String { PathTrail.render(session.links.components(to: trail, pending: pending, index: pendingIndex)) }

    /// Whether this value's own step is still to be linked.
    var hasPendingStep: Bool { pending != nil || pendingIndex >= 0 }

    /// Where the path stack stands: links pushed after this (by
    /// ``materialized()``, ``child(_:)`` or ``child(spec:)`` under a
    /// pending step) are removed by ``unlink(to:)`` when the call that
    /// pushed them returns. A context kept after that (a factory storing
    /// the one it was given) names what the stack then holds, as a
    /// decode's does (``PathTrail/Stack``).
    var linkMark: Int { session.links.count }

    /// Removes the path links pushed since `mark`.
    func unlink(to mark: Int) { session.links.truncate(to: mark) }

    /// `trail` with this value's own step pushed on the stack.
    private func linkedTrail() -> Int { session.links.push(pending: pending, index: pendingIndex, under: trail) }

    /// The same context with its own step linked: made once by a value
    /// that has children, so that they do not each link it again.
    func materialized() -> EncodingContext {
        // A blind context has no pending step (``blind``).
        guard hasPendingStep else { return self }
        return EncodingContext(session: session, trail: linkedTrail(), depth: depth, subMapper: subMapper)
    }

    /// Runs `body` in this context with its own step linked (once, for all
    /// the children `body` makes; not when `linking` is false), and cuts
    /// back what `body` leaves linked. A context with nothing to link is
    /// passed as it is: ``materialized()`` returns a copy of it, a retain
    /// and a release of each of its references.
    @inline(__always)
    func withOwnStepLinked(_ linking: Bool = true, _ body: (EncodingContext) throws -> Void) rethrows {
        if blind { return try body(self) }
        let mark = linkMark
        defer { unlink(to: mark) }
        if linking, hasPendingStep { try body(materialized()) } else { try body(self) }
    }

    func child(_ component: PathTrail.Component) -> EncodingContext {
        if blind { return blindChild() }
        // An array position under a key not yet linked waits with it.
        if case .index(let index) = component, pendingIndex < 0 {
            return EncodingContext(session: session, trail: trail, pending: pending, pendingIndex: index, depth: depth + 1, subMapper: subMapper)
        }
        return EncodingContext(
            session: session, trail: session.links.push(component, under: linkedTrail()), depth: depth + 1, subMapper: subMapper)
    }

    func child(spec: KeySpec) -> EncodingContext {
        if blind { return blindChild() }
        return EncodingContext(
            session: session, trail: hasPendingStep ? linkedTrail() : trail, pending: spec.storage, depth: depth + 1, subMapper: subMapper)
    }

    /// ``child(spec:)`` with the step linked at once, for the stream's
    /// nested values, which link their own step anyway (``materialized()``
    /// made a second context for it: a retain and a release of each of its
    /// references per nested model). The caller cuts the link back
    /// (``unlink(to:)``) when the value is written.
    func linkedChild(spec: KeySpec) -> EncodingContext { linkedChild { session.links.push(spec.storage, under: $0) } }

    /// The same for an array's element at `index`.
    func linkedChild(index: Int) -> EncodingContext { linkedChild { session.links.push(.index(index), under: $0) } }

    /// A child one level down whose step `push` links under this context's own.
    @inline(__always)
    private func linkedChild(_ push: (Int) -> Int) -> EncodingContext {
        if blind { return blindChild() }
        return EncodingContext(session: session, trail: push(hasPendingStep ? linkedTrail() : trail), depth: depth + 1, subMapper: subMapper)
    }

    /// ``descend(levels:)`` without the stack check, for a stream about
    /// to open the level's container, whose writer checks the stack
    /// (``NativeJSONWriter/open(_:depth:path:)``): one check per level, not two.
    @inline(__always)
    func descendToOpen() throws {
        // Past the limit, descend(levels:) throws its error with the path.
        if depth + 1 > options.maxDepth { try descend() }
    }

    /// Checks that one more level fits (`levels` more, for the stream's
    /// nested scalar arrays): within ``MappingOptions/maxDepth`` and within
    /// the thread's stack (``StackGuard``).
    func descend(levels: Int = 1) throws {
        guard depth + levels <= options.maxDepth else {
            throw CartographError(.depthLimitExceeded, "the value nests deeper than MappingOptions.maxDepth (\(options.maxDepth))", path: path)
        }
        guard StackGuard.hasRoom else { throw StackGuard.exhausted(path: path) }
    }

    /// Encodes a nested value of any supported type.
    public func encode<Value>(_ value: Value) throws -> EncodedValue {
        try ValueCodec<Value>.resolve().encode(value, self)
    }
}
