/// A type whose JSON form is described by a ``Mapping``.
///
/// ```swift
/// extension Place: Mappable {
///     static let mapping = Mapping<Place>({ Place() }) {
///         Map(\.name, "title")
///         Map(\.lat, "geometry.lat", required: true)
///         Map(\.opened, "opened_at", transform: .iso8601)
///         Ignore(\.cache, on: .encode)
///     }
/// }
/// ```
public protocol Mappable {
    /// How the type is read from and written to objects.
    static var mapping: Mapping<Self> { get }
}

/// Which way a rule applies.
public enum MappingDirection: Sendable, Hashable {
    /// Reading models from input.
    case decode
    /// Writing models out.
    case encode
    /// Both.
    case both

    func includes(_ other: MappingDirection) -> Bool { self == .both || self == other }
}

/// A declarative description of a model's wire form, built from key paths,
/// used both to read models and to write them back.
///
/// Decoding starts from the value `make` returns (a new instance each time,
/// for classes) and applies every rule: a key that is absent leaves the
/// property as it is, unless the rule is `required`; an explicit `null`
/// clears an optional property; a value that cannot be converted throws,
/// naming the path (never a silent nil).
public struct Mapping<Model>: @unchecked Sendable {
    // @unchecked: `construct` is a @Sendable user closure (or wraps one);
    // rules are immutable.
    let construct: (ObjectView, MappingContext) throws -> Model
    let rules: [MappingRule<Model>]
    let naming: NamingStrategy?
    let identifyingKeys: [String]?
    /// The rules as given, before allow lists and ignores were applied (for ``only(_:on:)``).
    let given: [MappingRule<Model>]
    /// The allow lists, by direction.
    let allowed: Allowed
    /// A mistake in how the mapping was built (an allow list naming no
    /// property); reported by ``validate()`` and by every use.
    let configurationError: CartographError?

    /// Properties allowed per direction; nil allows every property.
    struct Allowed {
        var decode: Set<String>?
        var encode: Set<String>?
    }

    /// A mapping that starts each model from `make()`.
    /// - Parameters:
    ///   - make: a new model holding the defaults the rules fill in.
    ///   - naming: how property names become keys for rules without one (the registry's by default).
    ///   - keys: the keys that identify this model's objects for class inference (default: every rule's decode key).
    ///   - rules: the property rules (`Map`, `Ignore`, setters), applied in order.
    public init(
        _ make: @escaping @Sendable () -> Model, naming: NamingStrategy? = nil, keys: [String]? = nil,
        @MappingBuilder<Model> _ rules: () -> [MappingRule<Model>]
    ) {
        self.init(construct: { _, _ in make() }, naming: naming, keys: keys, rules: rules())
    }

    /// A mapping whose models are made by a whole-object setter (which
    /// replaces construction); the rules then apply to what it returns.
    public init(
        construct: @escaping @Sendable (ObjectView, MappingContext) throws -> Model, naming: NamingStrategy? = nil,
        keys: [String]? = nil, @MappingBuilder<Model> _ rules: () -> [MappingRule<Model>] = { [] }
    ) {
        self.init(construct: construct, naming: naming, keys: keys, rules: rules())
    }

    /// A subclass's mapping: the superclass mapping's rules, then these; a
    /// rule here for a property the superclass maps replaces the inherited one.
    /// `Model` must be a subclass of `Base` (checked when the mapping is built).
    public init<Base>(
        inheriting base: Mapping<Base>, _ make: @escaping @Sendable () -> Model, naming: NamingStrategy? = nil,
        keys: [String]? = nil, @MappingBuilder<Model> _ rules: () -> [MappingRule<Model>]
    ) {
        precondition(Model.self is Base.Type, "\(Model.self) does not inherit from \(Base.self)")
        let inherited = base.given.map { $0.lifted(to: Model.self) }
        self.init(construct: { _, _ in make() }, naming: naming ?? base.naming, keys: keys ?? base.identifyingKeys,
            rules: inherited + rules())
    }

    init(construct: @escaping (ObjectView, MappingContext) throws -> Model, naming: NamingStrategy?, keys: [String]?,
        rules: [MappingRule<Model>], allowed: Allowed = Allowed())
    {
        self.construct = construct
        self.naming = naming
        self.identifyingKeys = keys
        self.allowed = allowed
        let given = Self.overriding(Self.namingProperties(rules, construct: construct))
        self.given = given
        let mapped = Set(given.filter { $0.role == .property }.compactMap(\.property))
        let unknown = (allowed.decode ?? []).union(allowed.encode ?? []).subtracting(mapped)
        configurationError = unknown.isEmpty ? nil : CartographError(.keyNotFound,
            "the allow list of the mapping of \(Model.self) names \(unknown.sorted().joined(separator: ", ")), which no rule maps",
            expected: "properties the mapping maps: \(mapped.sorted().joined(separator: ", "))", found: unknown.sorted().joined(separator: ", "))
        var ignoredDecode = Set<String>()
        var ignoredEncode = Set<String>()
        for rule in given {
            if case .ignore(let direction) = rule.role, let property = rule.property {
                if direction.includes(.decode) { ignoredDecode.insert(property) }
                if direction.includes(.encode) { ignoredEncode.insert(property) }
            }
        }
        // An allow list decides alone for its direction (it beats an
        // ignore, as in MAXJsonAdapter); without one, ignores apply.
        self.rules = given.compactMap { rule in
            if case .ignore = rule.role { return nil }
            guard rule.role == .property, let property = rule.property else { return rule }
            var rule = rule
            rule.decodes = rule.decodes && (allowed.decode.map { $0.contains(property) } ?? !ignoredDecode.contains(property))
            rule.encodes = rule.encodes && (allowed.encode.map { $0.contains(property) } ?? !ignoredEncode.contains(property))
            return rule.decodes || rule.encodes ? rule : nil
        }
    }

    /// Rules whose key paths did not give their property's name, named by
    /// probing a model made by `construct` from an empty object
    /// (``PropertyNameProbe``). A rule still unnamed keeps `property` nil.
    private static func namingProperties(_ rules: [MappingRule<Model>], construct: (ObjectView, MappingContext) throws -> Model)
        -> [MappingRule<Model>]
    {
        // A model with a property table (``Mappable()``): names are looked
        // up there and nothing of the model runs; a key path the table does
        // not list (a computed property) stays unnamed.
        if let table = (Model.self as? any MappableProperties.Type)?.mappableProperties {
            return rules.map { rule in
                guard rule.property == nil, let keyPath = rule.keyPath else { return rule }
                var named = rule
                named.property = table.first { $0.keyPath == keyPath }?.name
                named.probe = nil
                return named
            }
        }
        guard rules.contains(where: { $0.property == nil && $0.probe != nil }),
            let empty = try? Document(parsing: "{}").root.object(),
            var model = try? construct(empty, MappingContext(registry: ModelRegistry(), trail: nil, parent: nil, issues: nil))
        else { return rules }
        return rules.map { rule in
            guard rule.property == nil, let probe = rule.probe else { return rule }
            var named = rule
            named.property = probe(&model)
            return named
        }
    }

    /// A subclass's rule for a property replaces the one inherited for it
    /// (`Map(\.street, "newCustomProperty")` in a subclass's mapping: only
    /// the new key is read and written).
    private static func overriding(_ rules: [MappingRule<Model>]) -> [MappingRule<Model>] {
        let own = Set(rules.filter { !$0.inherited && $0.role == .property }.compactMap(\.property))
        guard !own.isEmpty else { return rules }
        return rules.filter { !($0.inherited && $0.role == .property && $0.property.map(own.contains) == true) }
    }

    /// The same mapping restricted to these properties (an allow list, by
    /// property name) in one direction or both. An allow list beats an
    /// `Ignore`; a name the mapping does not map is an error (``validate()``,
    /// and every use of the mapping).
    public func only(_ properties: [String], on direction: MappingDirection = .both) -> Mapping<Model> {
        var allowed = self.allowed
        if direction.includes(.decode) { allowed.decode = Set(properties) }
        if direction.includes(.encode) { allowed.encode = Set(properties) }
        return Mapping(construct: construct, naming: naming, keys: identifyingKeys, rules: given, allowed: allowed)
    }

    /// The same mapping restricted to the properties of these key paths, in
    /// one direction or both (`only(\.title, \.balance, on: .decode)`).
    public func only(_ keyPaths: PartialKeyPath<Model>..., on direction: MappingDirection = .both) -> Mapping<Model> {
        let names = keyPaths.map { keyPath in
            given.first { $0.keyPath == keyPath }?.property ?? "\(keyPath) (not mapped)"
        }
        return only(names, on: direction)
    }

    /// Throws the mistake the mapping was built with, if any (an allow list
    /// naming a property no rule maps). Every use of the mapping throws it
    /// too; call this at start-up to fail early.
    public func validate() throws {
        if let configurationError { throw configurationError }
    }
}

/// Builds the rule list of a ``Mapping``.
@resultBuilder
public enum MappingBuilder<Model> {
    /// One rule.
    public static func buildExpression(_ rule: MappingRule<Model>) -> [MappingRule<Model>] { [rule] }
    /// Several rules (from a loop or a helper).
    public static func buildExpression(_ rules: [MappingRule<Model>]) -> [MappingRule<Model>] { rules }
    /// A block.
    public static func buildBlock(_ parts: [MappingRule<Model>]...) -> [MappingRule<Model>] { parts.flatMap { $0 } }
    /// `if` without `else`.
    public static func buildOptional(_ part: [MappingRule<Model>]?) -> [MappingRule<Model>] { part ?? [] }
    /// `if`/`else`, first branch.
    public static func buildEither(first: [MappingRule<Model>]) -> [MappingRule<Model>] { first }
    /// `if`/`else`, second branch.
    public static func buildEither(second: [MappingRule<Model>]) -> [MappingRule<Model>] { second }
    /// `for` loops.
    public static func buildArray(_ parts: [[MappingRule<Model>]]) -> [MappingRule<Model>] { parts.flatMap { $0 } }
}
