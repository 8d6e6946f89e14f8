/// One registered model type as the registry keeps it: a factory's entry
/// from the start, a mapping's compiled the first time any decode, encode or
/// class inference needs it.
///
/// Compiling a mapping (resolving every property's codec, naming its keys,
/// building key tables) is most of what registering one costs: on the
/// benchmark's 22 corpus models, 1.9 MiB of peak memory and most of the
/// start-up time, whether or not a model is ever decoded. A service that
/// registers hundreds of models pays only for the ones it meets. What the
/// registry needs before that — the type, for subclass checks — is kept
/// apart, so asking whether a type is registered or polymorphic compiles nothing.
final class RegisteredModel: @unchecked Sendable {
    // @unchecked: `type` is an immutable metatype; `source` is Sendable;
    // `published` is atomic and the box it holds immutable.
    let type: Any.Type
    private let source: (any DeferredEntrySource)?
    /// The compiled entry's box, published once compiled.
    private let published: PublishedObject<Box>

    /// The entry, boxed: an entry is an existential, the atomic holds one pointer.
    private final class Box: Sendable {
        let entry: ModelEntry
        init(_ entry: ModelEntry) { self.entry = entry }
    }

    /// An entry ready at registration (a factory, a one-off closure model).
    init(_ entry: ModelEntry) {
        type = entry.type
        source = nil
        published = PublishedObject(Box(entry))
    }

    /// An entry compiled on first use.
    init(type: Any.Type, source: any DeferredEntrySource) {
        self.type = type
        self.source = source
        published = PublishedObject()
    }

    /// The entry, compiled now if this is its first use.
    var entry: ModelEntry {
        if let entry = published.withObject({ $0.entry }) { return entry }
        return compileAndPublish()
    }

    /// Compiles the entry and publishes it. Concurrent first uses may each
    /// compile; the first published is the one every caller gets (a compiled
    /// mapping is immutable, so the others are dropped).
    @inline(never)
    private func compileAndPublish() -> ModelEntry {
        // Only a deferred registration reaches here: a ready one published in init.
        guard let source else { preconditionFailure("Cartograph: a registration with neither an entry nor a source") }
        return published.publish(Box(source.compile())) { $0.entry }
    }
}

/// What compiles a deferred registration. A protocol rather than a closure:
/// a @Sendable closure may not capture a model's metatype or its `Mappable` conformance.
protocol DeferredEntrySource: Sendable {
    func compile() -> ModelEntry
}

/// A mapping given to ``ModelRegistry/register(_:)-(Mapping<Model>)``.
struct MappingSource<Model>: DeferredEntrySource {
    let mapping: Mapping<Model>
    let options: MappingOptions
    func compile() -> ModelEntry { mapping.compile(options: options) }
}

/// A `Mappable` type's own mapping, not even built until first use.
struct MappableSource<Model: Mappable>: DeferredEntrySource {
    let options: MappingOptions
    func compile() -> ModelEntry { Model.mapping.compile(options: options) }
}

/// A `@Mappable` type's default mapping (``Mapping/automatic(naming:keys:)``), built on first use.
struct AutomaticSource<Model: MappableModel>: DeferredEntrySource {
    let options: MappingOptions
    func compile() -> ModelEntry { Mapping<Model>.automatic().compile(options: options) }
}
