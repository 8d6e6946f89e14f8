/// What a factory or transform knows while it makes a model: the registry
/// (to decode nested models), the options, where in the input it is, the key
/// the object sits under, and the model that contains it.
public struct MappingContext {
    /// The registry of the decode in progress.
    public let registry: ModelRegistry
    /// The registry's options.
    public var options: MappingOptions { registry.options }
    let trail: PathTrail?
    /// Path components below `trail` not yet allocated (a property's key path):
    /// most properties never need them, so they are only linked in when a
    /// nested model or an error asks.
    let pending: KeySpec?
    /// The key the current object sits under (for array elements, the
    /// array's key), or nil at the top level.
    public let key: String?
    /// The class instance that contains the value being decoded, if any.
    public private(set) weak var parent: AnyObject?
    let issues: IssueCollector?

    init(registry: ModelRegistry, trail: PathTrail?, pending: KeySpec? = nil, key: String?, parent: AnyObject?, issues: IssueCollector?) {
        self.registry = registry
        self.trail = trail
        self.pending = pending
        self.key = key
        self.parent = parent
        self.issues = issues
    }

    /// The path of the current value, as `$.statuses[3].user`.
    public var path: String { PathTrail.render(trail, pending?.trailComponents ?? []) }

    /// The same context with the pending components linked into the trail.
    func materialized() -> MappingContext {
        guard let pending else { return self }
        var trail = self.trail
        for component in pending.trailComponents { trail = PathTrail(parent: trail, component: component) }
        return MappingContext(registry: registry, trail: trail, key: key, parent: parent, issues: issues)
    }

    /// The context of the value at a key path under the current object (no allocation).
    func child(spec: KeySpec) -> MappingContext {
        let base = materialized()
        var lastKey = key
        for case .key(let name) in spec.components { lastKey = name }
        return MappingContext(registry: registry, trail: base.trail, pending: spec, key: lastKey, parent: parent, issues: issues)
    }

    /// The context of element `index` of the current array (its key stays the array's).
    func element(_ index: Int) -> MappingContext {
        let base = materialized()
        return MappingContext(registry: registry, trail: PathTrail(parent: base.trail, component: .index(index)), key: key,
            parent: parent, issues: issues)
    }

    /// The same context with a new containing instance.
    func with(parent newParent: AnyObject?) -> MappingContext {
        MappingContext(registry: registry, trail: trail, pending: pending, key: key, parent: newParent, issues: issues)
    }

    /// Decodes a nested value of any supported type (registered model,
    /// scalar, optional, array, set, dictionary) from a node.
    public func decode<Value>(_ type: Value.Type, from node: Node) throws -> Value {
        try ValueCodec<Value>.resolve().decode(node, self, .standard)
    }
}

/// Collects the errors a lossy decode skipped.
final class IssueCollector {
    private(set) var issues: [CartographError] = []
    func record(_ error: CartographError) { issues.append(error) }
}

/// What a factory, transform or mapping knows while it encodes a model.
public struct EncodingContext {
    /// The registry of the encode in progress.
    public let registry: ModelRegistry
    /// The registry's options.
    public var options: MappingOptions { registry.options }
    /// The kind of output being produced.
    public let profile: OutputProfile
    let trail: PathTrail?
    let visiting: Set<ObjectIdentifier>

    init(registry: ModelRegistry, profile: OutputProfile, trail: PathTrail? = nil, visiting: Set<ObjectIdentifier> = []) {
        self.registry = registry
        self.profile = profile
        self.trail = trail
        self.visiting = visiting
    }

    /// The path being encoded, as `$.friends[3]`.
    public var path: String { PathTrail.render(trail) }

    func child(_ component: PathTrail.Component) -> EncodingContext {
        EncodingContext(registry: registry, profile: profile, trail: PathTrail(parent: trail, component: component), visiting: visiting)
    }

    func child(spec: KeySpec) -> EncodingContext {
        var trail = self.trail
        for component in spec.trailComponents { trail = PathTrail(parent: trail, component: component) }
        return EncodingContext(registry: registry, profile: profile, trail: trail, visiting: visiting)
    }

    func entering(_ object: AnyObject) -> EncodingContext {
        var visiting = visiting
        visiting.insert(ObjectIdentifier(object))
        return EncodingContext(registry: registry, profile: profile, trail: trail, visiting: visiting)
    }

    /// Encodes a nested value of any supported type.
    public func encode<Value>(_ value: Value) throws -> EncodedValue {
        try ValueCodec<Value>.resolve().encode(value, self)
    }
}
