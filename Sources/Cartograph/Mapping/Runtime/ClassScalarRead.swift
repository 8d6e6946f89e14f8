/// A scalar property of a class model (`String`, `Int?`, `Date`…) that the
/// rule loop sets straight from the tape through the property's setter
/// (the accessors its table gives, ``AccessorSlot``): what ``ScalarRead``
/// is for a struct's stored property.
///
/// Through the rule's closure a class's scalar costs the null/absence
/// matrix, a codec closure, a ``Node`` and a generic value copy per
/// property; here it is one call of a closure the scalar type compiled for
/// itself (``ScalarValue/classAssigner(_:)``), which calls the setter.
final class ClassScalarRead: @unchecked Sendable {
    // @unchecked: immutable after init; the closure calls the model's setter, as the rule's own does.
    /// Reads the value at a tape index (not `null`) and sets it on the model in the fields.
    private let assign: (ModelFields, Document, Int, Bool) throws -> Void
    let required: Bool
    /// The type holds `null` (`JSONValue`): nulls and absence take the rule's own path.
    let holdsNull: Bool
    /// The rule's own lenient choice (the registry's is added when reading).
    let lenient: Bool

    /// The read for a class model's property of type `Value`, set by `set`;
    /// nil where the rule's own path must run (`Value` is neither a
    /// built-in scalar nor an optional of one).
    init?<Model, Value>(
        _: Model.Type, _: Value.Type, set: @escaping (Model, Value) -> Void, required: Bool, lenient: Bool
    ) {
        if let scalar = Value.self as? any ScalarValue.Type, let made = Self.assigner(scalar, Model.self, set: set) {
            assign = made
            holdsNull = scalar.holdsNull
        } else if let marker = Value.self as? any OptionalMarker.Type, let wrapped = Self.wrapped(marker),
            let made = Self.optionalAssigner(wrapped, Model.self, set: set)
        {
            assign = made
            holdsNull = false
        } else {
            return nil
        }
        self.required = required
        self.lenient = lenient
    }

    private static func wrapped<O: OptionalMarker>(_: O.Type) -> (any ScalarValue.Type)? {
        O.Wrapped.self as? any ScalarValue.Type
    }

    /// `set` taken as a setter of `S` (`Value` is `S`), compiled into `S`'s assigner.
    private static func assigner<S: ScalarValue, Model, Value>(
        _: S.Type, _: Model.Type, set: @escaping (Model, Value) -> Void
    ) -> ((ModelFields, Document, Int, Bool) throws -> Void)? {
        guard let typed = set as? (Model, S) -> Void else { return nil }
        let assign = S.classAssigner(typed)
        return { fields, document, index, lenient in try fields.withModel(Model.self) { try assign(&$0, document, index, lenient) } }
    }

    /// `set` taken as a setter of `S?` (`Value` is `S?`).
    private static func optionalAssigner<S: ScalarValue, Model, Value>(
        _: S.Type, _: Model.Type, set: @escaping (Model, Value) -> Void
    ) -> ((ModelFields, Document, Int, Bool) throws -> Void)? {
        guard let typed = set as? (Model, S?) -> Void else { return nil }
        let assign = S.classOptionalAssigner(typed)
        return { fields, document, index, lenient in try fields.withModel(Model.self) { try assign(&$0, document, index, lenient) } }
    }

    /// The rule loop's path for a plain key (``ScalarRead/read(index:in:into:context:)``'s
    /// contract): the value at tape `index` set on the model when it is not
    /// `null`; an absent key leaves the property. False, having set nothing,
    /// when the rest of the null/absence matrix must decide; errors come
    /// without the property's path, which the caller adds.
    @inline(__always)
    func read(index: Int?, in document: Document, into fields: ModelFields, context: MappingContext) throws -> Bool {
        guard let index, document.entry(index).kind != .null else {
            return index == nil && !required && !holdsNull
        }
        try assign(fields, document, index, lenient || context.session.lenientScalars)
        return true
    }
}

extension ScalarValue {
    static func classAssigner<Model>(_ set: @escaping (Model, Self) -> Void) -> (inout Model, Document, Int, Bool) throws -> Void {
        { model, document, index, lenient in set(model, try scalar(in: document, at: index, lenient: lenient)) }
    }

    static func classOptionalAssigner<Model>(_ set: @escaping (Model, Self?) -> Void) -> (inout Model, Document, Int, Bool) throws -> Void {
        { model, document, index, lenient in set(model, try scalar(in: document, at: index, lenient: lenient)) }
    }
}
