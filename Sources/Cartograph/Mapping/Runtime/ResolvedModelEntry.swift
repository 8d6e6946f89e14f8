import Synchronization

/// What a model-typed property's codec found in the registries it read
/// with: the declared type's own entry, when class inference cannot pick
/// anything else for it. Asking the registry per object costs two hash
/// lookups, a protocol conformance check and a lock; this asks once per
/// registry (``ModelRegistry/identity`` changes with every change to it).
///
/// The answer for the registry in use is read without a lock: answers are
/// immutable objects, published through one atomic word and kept alive
/// until this object goes, so a reader never sees one freed. Up to
/// ``publishedLimit`` answers are published (a service that makes a new
/// registry per request would otherwise keep one per request); after that,
/// the last answer is kept under a lock, as before (a lock pair, a retain
/// and a release per nested object).
final class ResolvedModelEntry: Sendable {
    // Not generic: a generic class (or a payload nested in one) would cost
    // a runtime metadata lookup per use, which is what this saves.
    private final class Answer: @unchecked Sendable {
        // @unchecked: immutable; `compiled` is a compiled mapping, itself
        // immutable and safe to share.
        let identity: UInt64
        /// Nil when the codec must take the general path (not registered, a
        /// declared base class or protocol that inference may refine).
        let entry: ModelEntry?
        /// The entry's compiled mapping (a `CompiledMapping<Value>`), nil
        /// for a factory's entry.
        let compiled: AnyObject?

        init(identity: UInt64, entry: ModelEntry?) {
            self.identity = identity
            self.entry = entry
            compiled = entry?.compiledMapping
        }
    }

    /// How many answers are published for lock-free reading.
    static let publishedLimit = 16

    /// The answers published, the latest read without a lock.
    private let published = PublishedObjects<Answer>(limit: ResolvedModelEntry.publishedLimit)
    /// The last answer once the published limit is reached.
    private let last = Mutex<Answer?>(nil)

    /// The entry to decode `Value` with directly, or nil for the general path.
    func entry<Value>(for _: Value.Type, in registry: ModelRegistry) -> ModelEntry? {
        answer(for: Value.self, in: registry).entry
    }

    /// Runs `body` with the compiled mapping of the entry to decode `Value`
    /// with directly, borrowed: alive as long as this object (a published
    /// answer holds it) or, past the published limit, as long as
    /// `registry`. Nil, without running `body`, for the general path or
    /// when the entry is not a mapping's. What the in-place slots ask per
    /// nested object: with no reference counted on the way.
    @inline(__always)
    func withCompiledMapping<Value, Result>(
        for _: Value.Type, in registry: ModelRegistry, _ body: (CompiledMapping<Value>) throws -> Result
    ) rethrows -> Result? {
        let identity = registry.identity
        // The published answer for this registry, when it is the latest:
        // .some(result), or .some(nil) for the general path; nil otherwise.
        let fast: Result?? =
            try published.withLatest { answer in
                guard answer.identity == identity else { return nil }
                guard let compiled = answer.compiled else { return .some(nil) }
                // The entry was registered for `Value`, so its mapping makes `Value`.
                return .some(try withKnownClass(compiled, as: CompiledMapping<Value>.self, body))
            } ?? nil
        if let fast { return fast }
        return try slowCompiledMapping(for: Value.self, in: registry, body)
    }

    /// ``withCompiledMapping(for:in:_:)`` when the latest published answer
    /// is another registry's.
    @inline(never)
    private func slowCompiledMapping<Value, Result>(
        for _: Value.Type, in registry: ModelRegistry, _ body: (CompiledMapping<Value>) throws -> Result
    ) rethrows -> Result? {
        // An answer past the published limit lives only while `last` holds
        // it, which another thread may replace: held here, as is its
        // mapping, for the call.
        guard let compiled = answer(for: Value.self, in: registry).compiled else { return nil }
        return try withKnownClass(compiled, as: CompiledMapping<Value>.self, body)
    }

    /// The answer for `registry`: published (kept until this object goes)
    /// while fewer than ``publishedLimit`` are, else kept in `last`.
    private func answer<Value>(for _: Value.Type, in registry: ModelRegistry) -> Answer {
        let identity = registry.identity
        if let published = published.withLatest({ $0.identity == identity ? $0 : nil }) ?? nil { return published }
        if let answer = last.withSanitizedLock({ $0 }), answer.identity == identity { return answer }
        var entry = registry.entry(for: Value.self)
        if let found = entry, found.type != Value.self || registry.isPolymorphic(Value.self) { entry = nil }
        let answer = Answer(identity: identity, entry: entry)
        if !published.publish(answer) { last.withSanitizedLock { $0 = answer } }
        return answer
    }

    /// How many answers have been published (for tests).
    var publishedCount: Int { published.count }
}
