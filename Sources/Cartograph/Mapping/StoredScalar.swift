/// A scalar property (`String`, `Int64?`, `Date`…) of a struct model that a
/// mapping reads straight into the model's memory: the offset comes from
/// `MemoryLayout.offset(of:)`, which answers only for stored properties
/// kept inline in the struct (not computed ones, observed ones or class
/// members), so writing a value of the property's type there is what the
/// key path would do, minus the closures, the generic value copies and the
/// key-path runtime.
///
/// Measured on twitter.json (README "Measured speed"): per scalar property,
/// the codec path cost two closure calls, a generic value copy and a
/// key-path write; this path is one witness call.
final class StoredScalar: @unchecked Sendable {
    // @unchecked: immutable; a metatype and plain values. A class: the
    // rule loop reaches it with one reference instead of copying its fields.
    let offset: Int
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
    let hasZero: Bool
    /// The key to name when a required one is missing and the rule was given none.
    let name: String

    init(
        offset: Int, type: any ScalarValue.Type, optional: Bool, lenient: Bool, required: Bool, ignoreNull: Bool?, holdsNull: Bool,
        hasZero: Bool, name: String
    ) {
        self.offset = offset
        self.type = type
        self.optional = optional
        self.lenient = lenient
        self.required = required
        self.ignoreNull = ignoreNull
        self.holdsNull = holdsNull
        self.hasZero = hasZero
        self.name = name
    }

    /// The slot for a property, or nil when the codec path must run: a class
    /// model, a property the key path reaches through code, a type that is
    /// not a built-in scalar (or an optional of one), array coercion or a sub-mapper.
    static func make<Model, Value>(_ keyPath: WritableKeyPath<Model, Value>, options: ValueOptions, rule: MappingRule<Model>) -> StoredScalar? {
        guard !options.coerceArrays, options.subMapper == nil, let offset = inlineOffset(of: keyPath)
        else { return nil }
        var scalar = Value.self as? any ScalarValue.Type
        var optional = false
        if scalar == nil, let marker = Value.self as? any OptionalMarker.Type {
            scalar = wrappedScalar(marker)
            optional = true
        }
        guard let scalar else { return nil }
        return StoredScalar(offset: offset, type: scalar, optional: optional, lenient: options.lenient, required: rule.required,
            ignoreNull: rule.ignoreNull, holdsNull: !optional && scalar.holdsNull, hasZero: optional || scalar.hasZero,
            name: rule.decodeKey?.description ?? rule.property ?? "?")
    }

    private static func wrappedScalar<O: OptionalMarker>(_: O.Type) -> (any ScalarValue.Type)? {
        O.Wrapped.self as? any ScalarValue.Type
    }

    /// Applies what a rule found to the model's memory, by the same matrix as
    /// the codec path (``FoundValue``); errors carry the value's path.
    func read<Model>(_ node: Node?, into model: inout Model, context: MappingContext, spec: @autoclosure () -> KeySpec?, mode: ReadMode) throws {
        let found = try FoundValue.classify(node, required: required, mode: mode, ignoreNull: ignoreNull, holdsNull: holdsNull,
            optional: optional, hasZero: hasZero, valueType: type, context: context, spec: spec, name: spec()?.description ?? name)
        let type = self.type
        let optional = self.optional
        let offset = self.offset
        switch found {
        case .leave: return
        case .clear, .reset:
            withUnsafeMutableBytes(of: &model) { raw in type.storeEmpty(optional: optional, at: raw.baseAddress! + offset) }
        case .read(let node):
            let lenient = self.lenient || context.options.lenientScalars
            do {
                try withUnsafeMutableBytes(of: &model) { raw in
                    try type.store(from: node, lenient: lenient, optional: optional, at: raw.baseAddress! + offset)
                }
            } catch let error as CartographError {
                throw error.replacingPath(FoundValue.path(context, spec()))
            }
        }
    }
}

/// Where a struct keeps the property a key path names, when it keeps it
/// inline (a stored property, not computed or observed, of a struct, not a
/// class): writing a value of the property's type there is what the key
/// path's setter would do.
func inlineOffset<Model, Value>(of keyPath: WritableKeyPath<Model, Value>) -> Int? {
    Model.self is AnyClass ? nil : MemoryLayout<Model>.offset(of: keyPath)
}

extension ScalarValue {
    static var hasZero: Bool { zero != nil }

    static func store(from node: Node, lenient: Bool, optional: Bool, at address: UnsafeMutableRawPointer) throws {
        let value = try scalar(from: node, lenient: lenient)
        if optional {
            address.assumingMemoryBound(to: Optional<Self>.self).pointee = value
        } else {
            address.assumingMemoryBound(to: Self.self).pointee = value
        }
    }

    static func storeEmpty(optional: Bool, at address: UnsafeMutableRawPointer) {
        if optional {
            address.assumingMemoryBound(to: Optional<Self>.self).pointee = nil
        } else if let zero {
            address.assumingMemoryBound(to: Self.self).pointee = zero
        }
    }
}
