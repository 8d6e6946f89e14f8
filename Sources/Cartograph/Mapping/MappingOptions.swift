/// How models are read and written, shared by every mapping in a registry.
public struct MappingOptions: Sendable {
    /// How property names become keys, for rules that give no explicit key. Default ``NamingStrategy/exact``.
    public var naming: NamingStrategy = .exact
    /// When two properties match one input key (or one property several keys)
    /// under a loose naming strategy: `true` throws
    /// ``CartographError/Kind/ambiguousKey``; `false` (the default) applies
    /// the documented precedence (see ``NamingStrategy``).
    public var strictNaming: Bool = false
    /// Convert scalars between kinds where the meaning is unambiguous
    /// (`"42"` → 42, `1`/`"true"` → true, 3 → `"3"`), for every property.
    /// Default `false`; per property with `Map(..., lenient: true)`.
    public var lenientScalars: Bool = false
    /// What an optional property that is nil becomes when encoding. Default ``NilEncoding/omit``.
    public var nilEncoding: NilEncoding = .omit
    /// In `JSONMapper.update(_:from:)`, keep the old value when the input
    /// has an explicit `null`, instead of clearing the optional. Default `false`.
    public var ignoreNulls: Bool = false
    /// What encoding does when a class instance refers back to one being
    /// encoded. Default ``CyclePolicy/error``.
    public var cycles: CyclePolicy = .error
    /// Deepest nesting of models, arrays and dictionaries an encode writes.
    /// Default 512. Exceeding it throws
    /// ``CartographError/Kind/depthLimitExceeded`` (as does running short of
    /// thread stack first; see the README's limits table).
    public var maxDepth: Int = 512
    /// The kind of value `Date`, `Data` and `URL` properties become when encoding.
    public var profile: OutputProfile = .json
    /// Values passed through to factories and transforms.
    public var userInfo: [String: any Sendable] = [:]

    /// The defaults described on each property.
    public init() {}

    /// The defaults, with some properties changed.
    public init(_ configure: (inout MappingOptions) -> Void) {
        configure(&self)
    }
}

/// What an optional property that is nil becomes when a model is encoded.
public enum NilEncoding: Sendable, Hashable {
    /// Leave the key out. The default.
    case omit
    /// Write `null` (for JSON; plists have no null and omit it).
    case null
}

/// What encoding does when a class graph loops back to an instance being encoded.
public enum CyclePolicy: Sendable, Hashable {
    /// Throw ``CartographError/Kind/cycle`` naming the path. The default.
    case error
    /// Leave out the property that closes the loop (for weak back-references).
    case skip
}

/// Which values encoding may produce, after JAGPropertyConverter's output types.
public enum OutputProfile: Sendable, Hashable {
    /// JSON-legal values only: dates, data, URLs and enums become strings or numbers through their transforms.
    case json
    /// Property-list-legal values: dates and data stay `Date` and `Data`; no nulls.
    case propertyList
    /// In-memory values left as they are (`Date`, `Data`, `URL`, `UUID` …), for `[String: Any]`.
    case full
}
