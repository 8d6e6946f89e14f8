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
    @safe private final class Answer: @unchecked Sendable {
        // @unchecked: immutable; `compiled` names a compiled mapping (itself
        // safe to share) that `entry` keeps alive.
        let identity: UInt64
        /// Nil when the codec must take the general path (not registered, a
        /// declared base class or protocol that inference may refine).
        let entry: ModelEntry?
        /// The entry's compiled mapping, unretained (the entry holds it).
        let compiled: Unmanaged<AnyObject>?

        init(identity: UInt64, entry: ModelEntry?) {
            self.identity = identity
            self.entry = entry
            unsafe compiled = unsafe entry?.compiledMapping.map { unsafe Unmanaged.passUnretained($0) }
        }
    }

    /// How many answers are published for lock-free reading.
    static let publishedLimit = 16

    /// The latest published answer, as `Unmanaged` bits (0: none yet).
    private let published = Atomic<Int>(0)
    /// Every published answer, kept alive for readers of `published`.
    private let kept = Mutex<[Answer]>([])
    /// The last answer once the published limit is reached.
    private let last = Mutex<Answer?>(nil)

    /// The entry to decode `Value` with directly, or nil for the general path.
    func entry<Value>(for _: Value.Type, in registry: ModelRegistry) -> ModelEntry? {
        answer(for: Value.self, in: registry).answer.entry
    }

    /// Runs `body` with the compiled mapping of the entry to decode `Value`
    /// with directly, unretained: alive as long as this object (a published
    /// answer holds the entry, which holds the mapping) or, past the
    /// published limit, as long as `registry`. Nil, without running `body`,
    /// for the general path or when the entry is not a mapping's. What the
    /// in-place slots ask per nested object: with no reference counted on the way.
    @inline(__always)
    func withCompiledMapping<Value, Result>(
        for _: Value.Type, in registry: ModelRegistry, _ body: (CompiledMapping<Value>) throws -> Result
    ) rethrows -> Result? {
        guard let compiled = unsafe compiledMapping(for: Value.self, in: registry) else { return nil }
        // The entry was registered for `Value`, so its mapping makes `Value`.
        return unsafe try Unmanaged<CompiledMapping<Value>>.fromOpaque(compiled.toOpaque())._withUnsafeGuaranteedRef(body)
    }

    /// The compiled mapping of the entry to decode `Value` with directly,
    /// unretained (see ``withCompiledMapping(for:in:_:)``).
    private func compiledMapping<Value>(for _: Value.Type, in registry: ModelRegistry) -> Unmanaged<AnyObject>? {
        if let published = unsafe publishedAnswer(for: registry.identity) {
            return unsafe published._withUnsafeGuaranteedRef { unsafe $0.compiled }
        }
        let (answer, kept) = answer(for: Value.self, in: registry)
        guard let compiled = unsafe answer.compiled else { return nil }
        if kept { return unsafe compiled }
        // An answer past the published limit lives only while `last` holds
        // it, which another thread may replace: its mapping is used
        // unretained only when the registry (alive for the whole decode)
        // holds the same one; otherwise the general path runs.
        guard unsafe registry.entry(for: Value.self)?.compiledMapping === compiled.takeUnretainedValue() else { return nil }
        return unsafe compiled
    }

    /// The answer for `registry`, and whether it is one of the published
    /// answers (kept until this object goes).
    private func answer<Value>(for _: Value.Type, in registry: ModelRegistry) -> (answer: Answer, kept: Bool) {
        let identity = registry.identity
        if let published = unsafe publishedAnswer(for: identity) { return unsafe (published.takeUnretainedValue(), true) }
        if let answer = last.withLock({ $0 }), answer.identity == identity { return (answer, false) }
        var entry = registry.entry(for: Value.self)
        if let found = entry, found.type != Value.self || registry.isPolymorphic(Value.self) { entry = nil }
        let answer = Answer(identity: identity, entry: entry)
        let publishes = kept.withLock { answers in
            guard answers.count < Self.publishedLimit else { return false }
            answers.append(answer)
            return true
        }
        if publishes {
            unsafe published.store(Int(bitPattern: Unmanaged.passUnretained(answer).toOpaque()), ordering: .releasing)
        } else {
            last.withLock { $0 = answer }
        }
        return (answer, publishes)
    }

    /// The latest published answer when it is `identity`'s, unretained
    /// (published answers live as long as this object).
    @inline(__always)
    private func publishedAnswer(for identity: UInt64) -> Unmanaged<Answer>? {
        guard let pointer = unsafe UnsafeRawPointer(bitPattern: published.load(ordering: .acquiring)) else { return nil }
        let answer = unsafe Unmanaged<Answer>.fromOpaque(pointer)
        return unsafe answer._withUnsafeGuaranteedRef { $0.identity == identity } ? unsafe answer : nil
    }

    /// How many answers have been published (for tests).
    var publishedCount: Int { kept.withLock { $0.count } }
}
