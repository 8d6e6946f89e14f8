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
    /// Keep a property's value (its default when creating, the old value
    /// when updating) when the input has an explicit `null`, for optional
    /// and non-optional properties alike, and leave out `null` elements of
    /// arrays and dictionaries whose element type is not optional
    /// (JAGPropertyConverter's `shouldIgnoreNullValues`). Default `false`;
    /// per property with `Map(…, ignoreNull:)`.
    public var ignoreNulls: Bool = false
    /// What a `null` does to a non-optional property when nulls are not
    /// ignored. Default ``NullForNonOptional/error``.
    public var nullForNonOptional: NullForNonOptional = .error
    /// What encoding does when a class instance refers back to one being
    /// encoded. Default ``CyclePolicy/error``.
    public var cycles: CyclePolicy = .error
    /// Whether a `@Mappable` type's default mapping maps its `weak` and
    /// `unowned` properties. Default `false`: such a reference usually
    /// points back up the graph (a parent, a delegate), and following it
    /// would read or write the graph twice or cycle (JAGPropertyConverter's
    /// `shouldConvertWeakProperties`). A weak property marked `@Mapped`, or
    /// mapped by a hand-written rule, is mapped either way.
    public var convertsWeakProperties: Bool = false
    /// Deepest nesting of models, arrays and dictionaries an encode writes.
    /// Default 512. Exceeding it throws
    /// ``CartographError/Kind/depthLimitExceeded`` (as does running short of
    /// thread stack first; see the limits table in the errors-and-limits article).
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

/// What a `null` in the input does to a property that is not optional.
///
/// The whole matrix, per property (`Map(…, required:, ignoreNull:)`) or
/// for the registry (``MappingOptions``), creating or updating:
///
/// | input | optional property | non-optional property |
/// | --- | --- | --- |
/// | key absent | unchanged (`required`: `keyNotFound` when creating) | unchanged (the same) |
/// | `null` | `nil` | this policy |
/// | `null` with `ignoreNulls` | unchanged | unchanged |
/// | `null` with `required` | `typeMismatch` | `typeMismatch` |
/// | a value | the value | the value |
public enum NullForNonOptional: Sendable, Hashable {
    /// Throw ``CartographError/Kind/typeMismatch`` naming the path. The default: a `null` is never silently dropped.
    case error
    /// Set the type's zero: `""`, `0`, `false`, empty data, an empty
    /// collection (types without one, such as models, still throw).
    case resetToDefault
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
    /// Property-list-legal values: dates and data stay `Date` and `Data`; no
    /// nulls (a nil property is left out, a nil in an array or dictionary is `$null`).
    case propertyList
    /// In-memory values left as they are (`Date`, `Data`, `URL`, `UUID` …), for `[String: Any]`.
    case full
}
