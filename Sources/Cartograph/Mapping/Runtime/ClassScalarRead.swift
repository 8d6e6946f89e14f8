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
    /// The same read on the model itself (`(inout Model, Document, Int,
    /// Bool) throws -> Void`), for a subclass's copy (``lifted(_:)``).
    private let typed: Any
    let required: Bool
    /// The type holds `null` (`JSONValue`): nulls and absence take the rule's own path.
    let holdsNull: Bool
    /// The rule's own lenient choice (the registry's is added when reading).
    let lenient: Bool

    private init<Model>(
        _: Model.Type, _ typed: @escaping (inout Model, Document, Int, Bool) throws -> Void, required: Bool, holdsNull: Bool, lenient: Bool
    ) {
        assign = { fields, document, index, lenient in try fields.withModel(Model.self) { try typed(&$0, document, index, lenient) } }
        self.typed = typed
        self.required = required
        self.holdsNull = holdsNull
        self.lenient = lenient
    }

    /// The read for a class model's property of type `Value`, set by `set`;
    /// nil where the rule's own path must run (`Value` is neither a
    /// built-in scalar nor an optional of one).
    convenience init?<Model, Value>(
        _: Model.Type, _: Value.Type, set: @escaping (Model, Value) -> Void, required: Bool, lenient: Bool
    ) {
        guard let (scalar, optional) = scalarType(of: Value.self),
            let typed = optional ? Self.optionalAssigner(scalar, Model.self, set: set) : Self.assigner(scalar, Model.self, set: set)
        else { return nil }
        self.init(Model.self, typed, required: required, holdsNull: !optional && scalar.holdsNull, lenient: lenient)
    }

    /// The same read for a subclass's mapping, which runs its superclass's rules.
    func lifted<Sub, Base>(_ upcast: ClassUpcast<Sub, Base>) -> ClassScalarRead? {
        guard let typed = typed as? (inout Base, Document, Int, Bool) throws -> Void else { return nil }
        return ClassScalarRead(
            Sub.self,
            { sub, document, index, lenient in
                var base = upcast.apply(sub)
                try typed(&base, document, index, lenient)
            }, required: required, holdsNull: holdsNull, lenient: lenient)
    }

    /// `set` taken as a setter of `S` (`Value` is `S`), compiled into `S`'s assigner.
    private static func assigner<S: ScalarValue, Model, Value>(
        _: S.Type, _: Model.Type, set: @escaping (Model, Value) -> Void
    ) -> ((inout Model, Document, Int, Bool) throws -> Void)? {
        guard let typed = set as? (Model, S) -> Void else { return nil }
        return S.classAssigner(typed)
    }

    /// `set` taken as a setter of `S?` (`Value` is `S?`), compiled into
    /// `S`'s assigner with the model taken as an object: a requirement
    /// generic over the model too is not specialised for `S`, and made each
    /// `S?` it set by asking the runtime for `Optional<S>`'s metadata (a
    /// hash lookup of some 300 instructions per property).
    private static func optionalAssigner<S: ScalarValue, Model, Value>(
        _: S.Type, _: Model.Type, set: @escaping (Model, Value) -> Void
    ) -> ((inout Model, Document, Int, Bool) throws -> Void)? {
        guard let typed = set as? (Model, S?) -> Void else { return nil }
        let assign = S.classOptionalAssigner { object, value in typed(classValue(object, as: Model.self), value) }
        return { model, document, index, lenient in try assign(classObject(model), document, index, lenient) }
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

/// The stream's write of a class model's scalar property through its
/// getter (the accessors its table gives): what
/// ``ScalarValue/writeStored(_:at:optional:into:depth:)`` is for a struct's
/// stored property. False, writing nothing, for nil.
enum ClassScalarWrite {
    /// The write for a property of type `Value` read by `get`; nil where
    /// the rule's own stream must run (`Value` is neither a built-in scalar
    /// nor an optional of one).
    static func make<Model, Value>(_: Model.Type, _: Value.Type, get: @escaping (Model) -> Value)
        -> ((Model, inout NativeJSONWriter, Int) throws -> Bool)?
    {
        guard let (scalar, optional) = scalarType(of: Value.self) else { return nil }
        return optional ? optionalWriter(scalar, get: get) : writer(scalar, get: get)
    }

    private static func writer<S: ScalarValue, Model, Value>(_: S.Type, get: @escaping (Model) -> Value)
        -> ((Model, inout NativeJSONWriter, Int) throws -> Bool)?
    {
        guard let typed = get as? (Model) -> S else { return nil }
        return S.classWriter(typed)
    }

    /// An optional's getter: the value it gives (a `Value`, whose type the
    /// closure holds) is written by `S`'s own specialised stored-value
    /// writer, read as a `Value` that is its own field. Unwrapped in generic
    /// code, as a `S?`, each value asked the runtime for `Optional<S>`'s
    /// metadata, a hash lookup of some 300 instructions.
    private static func optionalWriter<S: ScalarValue, Model, Value>(_: S.Type, get: @escaping (Model) -> Value)
        -> ((Model, inout NativeJSONWriter, Int) throws -> Bool)?
    {
        guard Value.self == S?.self else { return nil }
        let whole = FieldOffset.whole(Value.self)
        return { model, writer, depth in
            let value = get(model)
            return try ModelView.with(value) { try S.writeStored($0, at: whole, optional: true, into: &writer, depth: depth) }
        }
    }
}

extension ScalarValue {
    static func classWriter<Model>(_ get: @escaping (Model) -> Self) -> (Model, inout NativeJSONWriter, Int) throws -> Bool {
        { model, writer, depth in
            try get(model).writeJSON(into: &writer, depth: depth)
            return true
        }
    }

    static func classAssigner<Model>(_ set: @escaping (Model, Self) -> Void) -> (inout Model, Document, Int, Bool) throws -> Void {
        { model, document, index, lenient in set(model, try scalar(in: document, at: index, lenient: lenient)) }
    }

    static func classOptionalAssigner(_ set: @escaping (AnyObject, Self?) -> Void) -> (AnyObject, Document, Int, Bool) throws -> Void {
        { object, document, index, lenient in set(object, try scalar(in: document, at: index, lenient: lenient)) }
    }
}
