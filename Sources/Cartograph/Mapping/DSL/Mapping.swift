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
    /// A mistake in how the mapping was built (a rule that can be given no
    /// key, an allow list naming no property); reported by ``validate()``,
    /// ``ModelRegistry/validate()`` and by every use.
    var configurationError: CartographError?

    /// Properties allowed per direction, by name and by key path (a rule
    /// of a model without a property table has only its key path); nil
    /// allows every property.
    struct Allowed {
        var decode: Set<String>?
        var encode: Set<String>?
        var decodePaths: Set<AnyKeyPath> = []
        var encodePaths: Set<AnyKeyPath> = []

        func allows(_ rule: MappingRule<Model>, _ direction: MappingDirection) -> Bool? {
            guard let names = direction == .decode ? decode : encode else { return nil }
            if let property = rule.property, names.contains(property) { return true }
            return rule.keyPath.map((direction == .decode ? decodePaths : encodePaths).contains) ?? false
        }
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
        self.init(
            construct: { _, _ in make() }, naming: naming ?? base.naming, keys: keys ?? base.identifyingKeys,
            rules: inherited + rules())
    }

    init(
        construct: @escaping (ObjectView, MappingContext) throws -> Model, naming: NamingStrategy?, keys: [String]?,
        rules: [MappingRule<Model>], allowed: Allowed = Allowed()
    ) {
        self.construct = construct
        self.naming = naming
        self.identifyingKeys = keys
        self.allowed = allowed
        let given = Self.overriding(Self.namingProperties(rules))
        self.given = given
        let mapped = Set(given.filter { $0.role == .property }.compactMap(\.property))
        let unknown = (allowed.decode ?? []).union(allowed.encode ?? []).subtracting(mapped)
        configurationError =
            Self.unnamedRules(given)
            ?? (unknown.isEmpty
                ? nil
                : CartographError(
                    .keyNotFound,
                    "the allow list of the mapping of \(Model.self) names \(unknown.sorted().joined(separator: ", ")), which no rule maps",
                    expected: "properties the mapping maps: \(mapped.sorted().joined(separator: ", "))",
                    found: unknown.sorted().joined(separator: ", ")))
        // Ignores by name, and by key path (which needs no name: an
        // `Ignore(\.x)` of a model without a table still matches `Map(\.x, "x")`).
        var ignoredDecode = Set<String>()
        var ignoredEncode = Set<String>()
        var ignoredPaths: [(AnyKeyPath, MappingDirection)] = []
        for rule in given {
            guard case .ignore(let direction) = rule.role else { continue }
            if let property = rule.property {
                if direction.includes(.decode) { ignoredDecode.insert(property) }
                if direction.includes(.encode) { ignoredEncode.insert(property) }
            }
            if let keyPath = rule.keyPath { ignoredPaths.append((keyPath, direction)) }
        }
        func ignores(_ rule: MappingRule<Model>, _ direction: MappingDirection, _ names: Set<String>) -> Bool {
            if let property = rule.property, names.contains(property) { return true }
            guard let keyPath = rule.keyPath else { return false }
            return ignoredPaths.contains { $0.0 == keyPath && $0.1.includes(direction) }
        }
        // An allow list decides alone for its direction (it beats an
        // ignore, as in MAXJsonAdapter); without one, ignores apply.
        self.rules = given.compactMap { rule in
            if case .ignore = rule.role { return nil }
            guard rule.role == .property, rule.property != nil || rule.keyPath != nil else { return rule }
            var rule = rule
            rule.decodes = rule.decodes && (allowed.allows(rule, .decode) ?? !ignores(rule, .decode, ignoredDecode))
            rule.encodes = rule.encodes && (allowed.allows(rule, .encode) ?? !ignores(rule, .encode, ignoredEncode))
            return rule.decodes || rule.encodes ? rule : nil
        }
    }

    /// Names the rules written without a name from the model's property
    /// table (``MappableProperties``), by key path. Nothing of the model
    /// runs; a key path the table does not list (a computed property, a
    /// model without a table) leaves its rule unnamed, which
    /// ``unnamedRules(_:)`` reports unless the rule has keys of its own.
    private static func namingProperties(_ rules: [MappingRule<Model>]) -> [MappingRule<Model>] {
        guard let table = (Model.self as? any MappableProperties.Type)?.mappableProperties else { return rules }
        return rules.map { rule in
            guard let keyPath = rule.keyPath else { return rule }
            let entry = table.first { $0.keyPath == keyPath }
            // A class's table gives its accessors to the rules for its properties,
            // hand-written ones included (``AccessorSlot``).
            if let slot = rule.accessorSlot { entry?.fillSlot?(slot) }
            guard rule.property == nil else { return rule }
            var named = rule
            named.property = entry?.name
            return named
        }
    }

    /// The configuration error for property rules that can be given no key:
    /// no key written, and no name from a property table. Names the model,
    /// each rule's position, its key path and the property's type, and says
    /// what to write.
    private static func unnamedRules(_ rules: [MappingRule<Model>]) -> CartographError? {
        let unnamed = rules.enumerated().filter { _, rule in
            rule.role == .property && rule.property == nil && rule.decodeKey == nil && rule.encodeKey == nil
        }
        guard !unnamed.isEmpty else { return nil }
        let described = unnamed.map { position, rule in
            "rule \(position + 1) (a property of type \(rule.keyPath.map { "\(type(of: $0).valueType)" } ?? "unknown"))"
        }
        let hasTable = Model.self is any MappableProperties.Type
        let remedy =
            hasTable
            ? "the key path is not a stored property in \(Model.self)'s property table (a computed property, or a path into another model): give the key, Map(\\.property, \"key\")"
            : "\(Model.self) has no property table: mark it @Mappable, or give the key, Map(\\.property, \"key\")"
        return CartographError(
            .keyNotFound,
            "the mapping of \(Model.self) cannot name \(described.joined(separator: ", ")): \(remedy)",
            expected: "a key or a property name for every property rule", found: "a rule with neither")
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
        only(properties, paths: [], on: direction)
    }

    private func only(_ properties: [String], paths: Set<AnyKeyPath>, on direction: MappingDirection) -> Mapping<Model> {
        var allowed = self.allowed
        if direction.includes(.decode) { (allowed.decode, allowed.decodePaths) = (Set(properties), paths) }
        if direction.includes(.encode) { (allowed.encode, allowed.encodePaths) = (Set(properties), paths) }
        return Mapping(construct: construct, naming: naming, keys: identifyingKeys, rules: given, allowed: allowed)
    }

    /// The same mapping restricted to the properties of these key paths, in
    /// one direction or both (`only(\.title, \.balance, on: .decode)`).
    public func only(_ keyPaths: PartialKeyPath<Model>..., on direction: MappingDirection = .both) -> Mapping<Model> {
        var names: [String] = []
        var paths: Set<AnyKeyPath> = []
        for keyPath in keyPaths {
            let rules = given.filter { $0.keyPath == keyPath && $0.role == .property }
            if let name = rules.lazy.compactMap(\.property).first {
                names.append(name)
            } else if !rules.isEmpty {
                paths.insert(keyPath)
            } else {
                names.append("\(keyPath) (not mapped)")
            }
        }
        return only(names, paths: paths, on: direction)
    }

    /// Throws the mistake the mapping was built with, if any: a property
    /// rule that can be given no key (no key written, and its key path not
    /// in the model's property table), or an allow list naming a property no
    /// rule maps. Every use of the mapping throws it too; call this (or
    /// ``ModelRegistry/validate()``) at start-up to fail early. Nothing of
    /// the model runs to find it.
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
