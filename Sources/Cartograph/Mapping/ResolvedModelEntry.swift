import Synchronization

/// What a model-typed property's codec found in the last registry it read
/// with: the declared type's own entry, when class inference cannot pick
/// anything else for it. Asking the registry per object costs two hash
/// lookups, a protocol conformance check and a lock (measured on
/// twitter.json: a few percent of a mapping decode); this asks once per
/// registry (``ModelRegistry/identity`` changes with every change to it).
final class ResolvedModelEntry: Sendable {
    // Not generic: a generic class (or a payload nested in one) would cost
    // a runtime metadata lookup per use, which is what this saves.
    private struct Answer {
        let identity: UInt64
        /// Nil when the codec must take the general path (not registered, a
        /// declared base class or protocol that inference may refine).
        let entry: ModelEntry?
    }

    private let last = Mutex<Answer?>(nil)

    /// The entry to decode `Value` with directly, or nil for the general path.
    func entry<Value>(for _: Value.Type, in registry: ModelRegistry) -> ModelEntry? {
        let identity = registry.identity
        if let answer = last.withLock({ $0 }), answer.identity == identity { return answer.entry }
        var entry = registry.entry(for: Value.self)
        if let found = entry, found.type != Value.self || registry.isPolymorphic(Value.self) { entry = nil }
        last.withLock { $0 = Answer(identity: identity, entry: entry) }
        return entry
    }
}
