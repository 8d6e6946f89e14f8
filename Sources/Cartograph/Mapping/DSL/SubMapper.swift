import Synchronization

/// The model entry a rule's sub-mapper (`Map(\.person, using: mapping)` or
/// `using: factory`) reads and writes through, in both directions, compiled
/// under the options of the registry that runs it (its naming strategy,
/// null and leniency rules), once per registry.
final class SubMapper: Sendable {
    private let compile: @Sendable (MappingOptions) -> ModelEntry
    private let cache = Mutex<[UInt64: ModelEntry]>([:])
    /// Registries a process builds are few; past this many the cache starts over.
    private static let cacheLimit = 16

    /// A sub-mapper from a mapping, compiled under each registry's options.
    init<Model>(_ mapping: Mapping<Model>) {
        compile = { options in mapping.compile(options: options) }
    }

    /// A sub-mapper from a factory (which has no options of its own).
    init(entry: ModelEntry) {
        compile = { _ in entry }
    }

    func entry(for registry: ModelRegistry) -> ModelEntry {
        let id = registry.identity
        if let entry = cache.withSanitizedLock({ $0[id] }) { return entry }
        let entry = compile(registry.options)
        cache.withSanitizedLock { cache in
            if cache.count >= Self.cacheLimit { cache.removeAll() }
            cache[id] = entry
        }
        return entry
    }
}
