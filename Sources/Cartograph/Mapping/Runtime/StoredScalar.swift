/// A scalar property (`String`, `Int64?`, `Date`…) of a struct model that a
/// mapping reads straight into the model's memory, at the property's
/// ``FieldOffset``: what the key path would do, minus the closures, the
/// generic value copies and the key-path runtime.
///
/// Per scalar property, the codec path costs two closure calls, a generic
/// value copy and a key-path write; this path is one witness call.
final class StoredScalar: @unchecked Sendable {
    // @unchecked: immutable; a metatype and plain values.
    /// Where and how the property is written: what the rule loop reads per
    /// property, copied out with no reference count.
    let scalar: ScalarRead
    /// Whether the type has a zero, for ``NullForNonOptional/resetToDefault``.
    let hasZero: Bool
    /// The key to name when a required one is missing and the rule was given none.
    let name: String

    init(scalar: ScalarRead, hasZero: Bool, name: String) {
        self.scalar = scalar
        self.hasZero = hasZero
        self.name = name
    }

    /// The slot for a property, or nil when the codec path must run: a class
    /// model, a property the key path reaches through code, a type that is
    /// not a built-in scalar (or an optional of one), array coercion or a sub-mapper.
    static func make<Model, Value>(_ keyPath: WritableKeyPath<Model, Value>, options: ValueOptions, rule: MappingRule<Model>) -> StoredScalar? {
        guard !options.coerceArrays, options.subMapper == nil, let field = FieldOffset(keyPath),
            let (scalar, optional) = scalarType(of: Value.self)
        else { return nil }
        return StoredScalar(
            scalar: ScalarRead(
                field: field, type: scalar, optional: optional, lenient: options.lenient, required: rule.required,
                ignoreNull: rule.ignoreNull, holdsNull: !optional && scalar.holdsNull),
            hasZero: optional || scalar.hasZero, name: rule.decodeKey?.description ?? rule.property ?? "?")
    }

    /// Applies what a rule found to the model's fields, by the same matrix
    /// as the codec path (``FoundValue``); errors carry the value's path.
    /// Not generic over the model: the rule loop holds the model's fields
    /// once per object, so no model metadata or generic call is needed per
    /// property.
    func read(_ node: Node?, into fields: ModelFields, context: MappingContext, spec: KeySpec?, mode: ReadMode) throws {
        let found = try FoundValue.classify(
            node, required: scalar.required, mode: mode, ignoreNull: scalar.ignoreNull, holdsNull: scalar.holdsNull,
            optional: scalar.optional, hasZero: hasZero, valueType: scalar.type, context: context, spec: { spec },
            name: spec?.description ?? name)
        switch found {
        case .leave: return
        case .clear, .reset:
            scalar.type.storeEmpty(optional: scalar.optional, into: fields, at: scalar.field)
        case .read(let node):
            do {
                try scalar.type.store(
                    from: node, lenient: scalar.lenient || context.session.lenientScalars, optional: scalar.optional, into: fields,
                    at: scalar.field)
            } catch let error as CartographError {
                throw error.replacingPath(FoundValue.path(context, spec))
            }
        }
    }
}

/// The part of a ``StoredScalar`` the rule loop reads for every property:
/// plain values only (no class reference, no string), so that copying it
/// out of the compiled mapping touches no reference count (a retain and a
/// release per property were a measurable share of a mapping decode).
struct ScalarRead {
    let field: FieldOffset
    let type: any ScalarValue.Type
    /// The property is `Optional<type>`.
    let optional: Bool
    /// The rule's own lenient choice (the registry's is added when reading).
    let lenient: Bool
    /// The rule's null and absence choices, and what the type allows
    /// (worked out once: asking the type per value costs metadata lookups).
    let required: Bool
    let ignoreNull: Bool?
    let holdsNull: Bool

    /// The rule loop's path for a plain key: the value at tape `index`
    /// (nil when the key is absent) read straight from the tape when it is
    /// not `null`, with no ``Node`` and no key spec made. False, having
    /// written nothing, when the rest of the null/absence matrix must decide
    /// (``StoredScalar/read(_:into:context:spec:mode:)``); errors come
    /// without the property's path, which the caller adds.
    @inline(__always)
    func read(index: Int?, in document: Document, into fields: ModelFields, context: MappingContext) throws -> Bool {
        guard let index, document.entry(index).kind != .null else {
            // The common cells of the matrix (FoundValue): an absent key
            // leaves the property; a null that is ignored leaves it, an
            // optional's null clears it.
            guard !required, !holdsNull else { return false }
            guard index != nil else { return true }
            if ignoreNull ?? context.session.ignoreNulls { return true }
            guard optional else { return false }
            type.storeEmpty(optional: true, into: fields, at: field)
            return true
        }
        try type.store(in: document, at: index, lenient: lenient || context.session.lenientScalars, optional: optional, into: fields, at: field)
        return true
    }
}

extension ScalarValue {
    static var hasZero: Bool { zero != nil }

    static func store(from node: Node, lenient: Bool, optional: Bool, into fields: ModelFields, at field: FieldOffset) throws {
        put(try scalar(from: node, lenient: lenient), optional: optional, into: fields, at: field)
    }

    static func storeEmpty(optional: Bool, into fields: ModelFields, at field: FieldOffset) {
        if optional {
            fields.store(Optional<Self>.none, at: field)
        } else if let zero {
            fields.store(zero, at: field)
        }
    }
}
