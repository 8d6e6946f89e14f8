/// What a property rule does with what it found under its key: the
/// absent/null matrix of ``MappingOptions`` in one place, for rules that go
/// through a codec and for scalars written in place (``StoredScalar``).
enum FoundValue {
    /// Absent, or a null the options ignore: the property keeps its value.
    case leave
    /// A null for an optional: the property becomes nil.
    case clear
    /// A null for a non-optional under ``NullForNonOptional/resetToDefault``: the type's zero.
    case reset
    /// A value to read (a null too, when the type holds null).
    case read(Node)

    /// Sorts out a found node (nil when the key is absent).
    /// - Parameters:
    ///   - spec: where the node was looked up under the object's context, for error paths.
    ///   - name: the key to name when a required one is missing.
    @inline(__always)
    static func classify(
        _ node: Node?, required: Bool, mode: ReadMode, ignoreNull: Bool?, holdsNull: Bool, optional: Bool, hasZero: Bool,
        valueType: Any.Type, context: MappingContext, spec: () -> KeySpec?, name: @autoclosure () -> String
    ) throws -> FoundValue {
        guard let node else {
            if required, mode == .create {
                throw CartographError(
                    .keyNotFound, "required key \"\(name())\" is missing", path: path(context, spec()),
                    expected: "a value", found: "nothing")
            }
            return .leave
        }
        guard node.isNull, !holdsNull || required else { return .read(node) }
        if required {
            throw CartographError(
                .typeMismatch, "required value is null", offset: node.sourceOffset, path: path(context, spec()),
                expected: "a value", found: "null")
        }
        if ignoreNull ?? context.session.ignoreNulls { return .leave }
        if optional { return .clear }
        if context.session.nullForNonOptional == .resetToDefault, hasZero { return .reset }
        throw CartographError(
            .typeMismatch, "expected \(valueType), found null (the property is not optional)",
            offset: node.sourceOffset, path: path(context, spec()), expected: "\(valueType)", found: "null")
    }

    /// The path of the value a rule reads.
    static func path(_ context: MappingContext, _ spec: KeySpec?) -> String {
        (spec.map { context.child(spec: $0) } ?? context).path
    }
}
