import Synchronization

/// The models Cartograph may create, and how: factories and mappings
/// registered per model type, plus the class-inference rules.
///
/// Configure a registry once at start-up; it is then an immutable `Sendable`
/// value that any number of concurrent decodes share. Registering is cheap:
/// each mapping is compiled the first time a decode, an encode or class
/// inference needs it, so models a process never meets cost nothing. Only
/// registered types (and ``Mappable`` types asked for by name) are ever
/// created: no type name from the input is trusted.
///
/// ```swift
/// var registry = ModelRegistry()
/// registry.register(UserFactory())
/// registry.register(Place.self)                     // a Mappable type
/// registry.discriminator(key: "type", ["circle": Circle.self, "square": Square.self])
/// let mapper = JSONMapper(registry: registry)
/// ```
public struct ModelRegistry: Sendable {
    /// Options shared by every mapping in the registry, fixed when it is
    /// created so that every mapping is compiled with the same ones.
    public var options: MappingOptions { storage.options }

    /// Everything behind one reference, so that copying a registry (every
    /// decode context holds one) costs one retain; copied on write.
    private final class Storage: @unchecked Sendable {
        // @unchecked: mutated only while uniquely referenced (before sharing).
        let options: MappingOptions
        var entries: [ObjectIdentifier: RegisteredModel] = [:]
        var order: [ObjectIdentifier] = []
        var identifyRules: [@Sendable (ObjectView, String?) -> Any.Type?] = []
        var discriminators: [(key: String, types: [String: Any.Type])] = []
        let compiled = CompiledMappings()
        /// ``isPolymorphic(_:)``'s answers, per declared type (emptied by every change).
        let polymorphic = Mutex<[ObjectIdentifier: Bool]>([:])
        /// Unique for the life of the process (an object's address is not:
        /// a freed storage's address comes back), for caches keyed by
        /// registry; renewed by every change, so a cache never outlives what it saw.
        var serial = Storage.nextSerial()
        private static let serials = Atomic<UInt64>(0)
        static func nextSerial() -> UInt64 { serials.add(1, ordering: .relaxed).newValue }

        init(options: MappingOptions) { self.options = options }

        func copy() -> Storage {
            let copy = Storage(options: options)
            copy.entries = entries
            copy.order = order
            copy.identifyRules = identifyRules
            copy.discriminators = discriminators
            return copy
        }
    }
    private var storage: Storage

    private var entries: [ObjectIdentifier: RegisteredModel] { storage.entries }
    private var order: [ObjectIdentifier] { storage.order }
    private var identifyRules: [@Sendable (ObjectView, String?) -> Any.Type?] { storage.identifyRules }
    private var discriminators: [(key: String, types: [String: Any.Type])] { storage.discriminators }
    private var compiled: CompiledMappings { storage.compiled }

    private mutating func writable() -> Storage {
        if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
        storage.polymorphic.withSanitizedLock { $0.removeAll() }
        storage.serial = Storage.nextSerial()
        return storage
    }

    /// An empty registry.
    public init(options: MappingOptions = MappingOptions()) {
        storage = Storage(options: options)
    }

    /// Registers a factory for its model type (replacing an earlier one).
    public mutating func register<F: ModelFactory>(_ factory: F) {
        add(RegisteredModel(TypedModelEntry(factory: factory)))
    }

    /// Registers closures for a one-off model type.
    public mutating func register<Model>(
        _ type: Model.Type, keys: [String], make: @escaping @Sendable (ObjectView, MappingContext) throws -> Model,
        encode: (@Sendable (Model, EncodingContext) throws -> EncodedValue)? = nil
    ) {
        register(ClosureFactory(keys: keys, make: make, encode: encode))
    }

    /// Registers a ``Mappable`` type through its ``Mappable/mapping``.
    ///
    /// The mapping is neither built nor compiled until a decode, encode or
    /// class inference first needs it (see ``register(_:)-(Mapping<Model>)``).
    public mutating func register<Model: Mappable>(_ type: Model.Type) {
        add(RegisteredModel(type: Model.self, source: MappableSource<Model>(options: options)))
    }

    /// Registers a `@Mappable` type (a ``MappableModel``) with its default
    /// mapping (``Mapping/automatic(naming:keys:)``): every property of its
    /// table under this registry's naming strategy. A subclass is
    /// registered on its own, with its superclass's properties and its own.
    ///
    /// ```swift
    /// @Mappable class User { var firstName: String?; var address: Address? }
    /// registry.register(User.self)
    /// ```
    public mutating func register<Model: MappableModel>(_ type: Model.Type) {
        add(RegisteredModel(type: Model.self, source: AutomaticSource<Model>(options: options)))
    }

    /// Registers a type that has both a property table and its own
    /// ``Mappable/mapping``: the mapping it wrote wins (its key-less rules
    /// are named from the table).
    public mutating func register<Model: MappableModel & Mappable>(_ type: Model.Type) {
        add(RegisteredModel(type: Model.self, source: MappableSource<Model>(options: options)))
    }

    /// Throws the first configuration error of a registered mapping (see
    /// ``Mapping/validate()``): a property rule that can be given no key,
    /// an allow list naming a property no rule maps. Every use of such a
    /// model throws it as well; call this once at start-up so that a
    /// mistake stops the service before it serves. Compiles every
    /// registered mapping (which registering alone defers), and runs none of
    /// the models' code.
    public func validate() throws {
        for id in order {
            guard let registered = entries[id] else { continue }
            try registered.entry.validate()
        }
    }

    /// Registers a mapping for its model type.
    ///
    /// The mapping is compiled (its codecs resolved, its keys named) the
    /// first time a decode, an encode or class inference needs it, not here:
    /// registering many models costs little until they are used. A mapping's
    /// configuration error (see ``Mapping/validate()``) is thrown by every
    /// use either way.
    public mutating func register<Model>(_ mapping: Mapping<Model>) {
        add(RegisteredModel(type: Model.self, source: MappingSource(mapping: mapping, options: options)))
    }

    private mutating func add(_ registered: RegisteredModel) {
        let storage = writable()
        let id = ObjectIdentifier(registered.type)
        if storage.entries[id] == nil { storage.order.append(id) }
        storage.entries[id] = registered
    }

    /// Adds an identify rule: it sees an object and the key it sits under
    /// (nil at the top level; the array's key for elements) and returns the
    /// registered model type it is, or nil to leave it to the next rule.
    /// Rules run in the order they were added, before discriminators and key matching.
    public mutating func identify(_ rule: @escaping @Sendable (ObjectView, String?) -> Any.Type?) {
        writable().identifyRules.append(rule)
    }

    /// Adds a discriminator: the string value of `key` picks the model type.
    public mutating func discriminator(key: String, _ types: [String: Any.Type]) {
        writable().discriminators.append((key, types))
    }

    /// The identity of this registry's storage and options: every change
    /// gives a new one (the options never change within one).
    var identity: UInt64 { storage.serial }

    /// Whether anything is registered.
    var hasEntries: Bool { !storage.entries.isEmpty || !storage.identifyRules.isEmpty || !storage.discriminators.isEmpty }

    /// The registered types, in registration order (for schemas).
    var registeredTypes: [Any.Type] { order.compactMap { entries[$0]?.type } }
    /// The discriminators, in the order added (for schemas).
    var discriminatorTable: [(key: String, types: [String: Any.Type])] { discriminators }
    /// Whether identify rules decide class inference (for schemas).
    var hasIdentifyRules: Bool { !identifyRules.isEmpty }
    /// Whether `candidate` is `type` or a subclass of it.
    static func isSame(_ candidate: Any.Type, orSubclassOf type: Any.Type) -> Bool {
        candidate == type || isSubclass(candidate, of: type)
    }

    /// The registered entry of a type (no `Mappable` fallback).
    func registeredEntry(for type: Any.Type) -> ModelEntry? { storage.entries[ObjectIdentifier(type)]?.entry }

    /// Whether a type is registered.
    public func isRegistered(_ type: Any.Type) -> Bool { entries[ObjectIdentifier(type)] != nil }

    /// The entry of a registered type; for a `Mappable` or `@Mappable`
    /// type that was not registered, its own or default mapping, compiled
    /// once per registry.
    func entry(for type: Any.Type) -> ModelEntry? {
        if let registered = entries[ObjectIdentifier(type)] { return registered.entry }
        guard type is any Mappable.Type || type is any MappableModel.Type else { return nil }
        return compiled.entry(for: type, options: options)
    }

    /// The model type class inference picks for an object, or nil.
    ///
    /// With identify rules or discriminators, they decide: the rules in the
    /// order added, then the discriminators; when none picks a model, the
    /// object stays a plain value. With neither, the best key match decides:
    /// a registered model qualifies when every one of its keys is present;
    /// among those, the one with the most keys (the most specific) wins, then
    /// the one registered first. Only registered types are ever chosen.
    public func model(for object: ObjectView, key: String?) throws -> Any.Type? {
        try candidates(for: object, key: key).first?.type
    }

    /// Models for an object, best first (one when a rule decides).
    func candidates(for object: ObjectView, key: String?) throws -> [ModelEntry] {
        for rule in identifyRules {
            if let type = rule(object, key) {
                guard let entry = entries[ObjectIdentifier(type)]?.entry else {
                    throw CartographError(
                        .typeMismatch, "an identify rule chose \(type), which is not registered",
                        offset: object.node.sourceOffset, expected: "a registered model", found: "\(type)")
                }
                return [entry]
            }
        }
        for discriminator in discriminators {
            guard let value = object[discriminator.key], value.kind == .string else { continue }
            let name = try value.string()
            guard let type = discriminator.types[name], let entry = entries[ObjectIdentifier(type)]?.entry else {
                throw CartographError(
                    .typeMismatch, "\"\(discriminator.key)\": \"\(name)\" names no registered model",
                    offset: value.sourceOffset, expected: discriminator.types.keys.sorted().joined(separator: ", "), found: name)
            }
            return [entry]
        }
        if !identifyRules.isEmpty || !discriminators.isEmpty { return [] }
        var qualified: [(entry: ModelEntry, rank: Int)] = []
        for (rank, id) in order.enumerated() {
            guard let entry = entries[id]?.entry, entry.isIdentified(by: object) else { continue }
            qualified.append((entry, rank))
        }
        qualified.sort { a, b in
            a.entry.keys.count != b.entry.keys.count ? a.entry.keys.count > b.entry.keys.count : a.rank < b.rank
        }
        return qualified.map(\.entry)
    }

    /// The first candidate whose model is a `T` (the type itself or a
    /// subclass), or nil when none is: an identify rule that answers for an
    /// object under a property of another declared type does not override
    /// that type. For a protocol (or `Any`), the first candidate; decoding
    /// checks that it conforms.
    func classify<T>(_ object: ObjectView, key: String?, as _: T.Type) throws -> ModelEntry? {
        let candidates = try candidates(for: object, key: key)
        if let match = candidates.first(where: { $0.type is T.Type }) { return match }
        return MetadataKind.isExistential(T.self) ? candidates.first : nil
    }

    /// Whether class inference can pick something more specific than `type`
    /// for a value declared as it: identify rules or discriminators exist,
    /// or a registered model is a strict subtype (a subclass; for a protocol,
    /// any registered model). Cached per type for this registry.
    func isPolymorphic(_ type: Any.Type) -> Bool {
        if !identifyRules.isEmpty || !discriminators.isEmpty { return true }
        let id = ObjectIdentifier(type)
        if let known = storage.polymorphic.withSanitizedLock({ $0[id] }) { return known }
        let existential = MetadataKind.isExistential(type)
        let answer = entries.values.contains { entry in
            entry.type != type && (existential || Self.isSubclass(entry.type, of: type))
        }
        storage.polymorphic.withSanitizedLock { $0[id] = answer }
        return answer
    }

    private static func isSubclass(_ candidate: Any.Type, of type: Any.Type) -> Bool {
        guard var current = candidate as? AnyClass, let base = type as? AnyClass else { return false }
        while let parent = _getSuperclass(current) {
            if parent == base { return true }
            current = parent
        }
        return false
    }
}

/// Entries compiled on first use for `Mappable` and `@Mappable` types that were not registered.
final class CompiledMappings: Sendable {
    private let cache = Mutex<[ObjectIdentifier: ModelEntry]>([:])

    func entry(for type: Any.Type, options: MappingOptions) -> ModelEntry {
        let id = ObjectIdentifier(type)
        if let entry = cache.withSanitizedLock({ $0[id] }) { return entry }
        let entry = compile(type, options: options)
        // Concurrent first uses may both compile; the first stored stays, so
        // an entry once handed out is never replaced (and freed) under a
        // reader that holds its compiled mapping unretained (``ResolvedModelEntry``).
        return cache.withSanitizedLock { cache in
            if let first = cache[id] { return first }
            cache[id] = entry
            return entry
        }
    }

    /// A type's own mapping when it has one (``Mappable``), else its default one (``MappableModel``).
    private func compile(_ type: Any.Type, options: MappingOptions) -> ModelEntry {
        if let mappable = type as? any Mappable.Type { return compileOwn(mappable, options: options) }
        let model = type as! any MappableModel.Type
        return compileDefault(model, options: options)
    }

    private func compileOwn<M: Mappable>(_: M.Type, options: MappingOptions) -> ModelEntry {
        M.mapping.compile(options: options)
    }

    private func compileDefault<M: MappableModel>(_: M.Type, options: MappingOptions) -> ModelEntry {
        Mapping<M>.automatic().compile(options: options)
    }
}
