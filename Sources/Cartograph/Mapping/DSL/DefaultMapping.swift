/// The mapping a ``MappableModel`` gets without writing one: every property
/// of its table with the rules ``Mappable()``'s attributes gave it.
extension Mapping where Model: MappableModel {
    /// The model's default mapping: each property in its table
    /// (``MappableProperties/mappableProperties``, a superclass's first),
    /// read and written under its name through the naming strategy, as its
    /// `@Mapped` and `@MapIgnore` attributes adjust; a read-only property is
    /// only written. Each model is made with `init()`.
    ///
    /// What `registry.register(User.self)` registers for a
    /// `@Mappable` type; call it to start from the default and restrict it
    /// (`Mapping<User>.automatic().only(\.id, \.name, on: .encode)`).
    /// Building it runs none of the model's code: the table's key paths and
    /// rules are made by the macro's generated code.
    /// - Parameters:
    ///   - naming: how property names become keys (the registry's by default).
    ///   - keys: the keys that identify the model's objects for class inference (default: every decoded key).
    public static func automatic(naming: NamingStrategy? = nil, keys: [String]? = nil) -> Mapping<Model> {
        var rules: [MappingRule<Model>] = []
        var foreign: [String] = []
        for property in Model.mappableProperties {
            // The table is read on `Model` itself, so its key paths are rooted
            // there; a hand-written table rooted elsewhere cannot serve.
            guard let made = property.makeRules() as? [MappingRule<Model>] else {
                foreign.append("\(property.name) (\(type(of: property.keyPath)))")
                continue
            }
            rules += made
        }
        var mapping = Mapping(construct: { _, _ in Model() }, naming: naming, keys: keys, rules: rules)
        if !foreign.isEmpty, mapping.configurationError == nil {
            mapping.configurationError = CartographError(
                .typeMismatch,
                "the property table of \(Model.self) lists \(foreign.joined(separator: ", ")), whose key paths do not start at \(Model.self)",
                expected: "key paths rooted at \(Model.self)", found: foreign.joined(separator: ", "))
        }
        return mapping
    }
}
