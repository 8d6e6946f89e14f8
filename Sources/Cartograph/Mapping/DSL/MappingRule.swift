/// How a rule reads: a new model, or an update of an existing one.
enum ReadMode {
    case create
    case update
}

/// One rule of a ``Mapping``: a property and where its value sits, a setter
/// for a key, an ignore entry, or a parent reference. Made by ``Map(_:_:required:lenient:coerceArray:ignoreNull:nilEncoding:)``
/// and its siblings inside a mapping's rule block.
public struct MappingRule<Model>: @unchecked Sendable {
    // @unchecked: the closures capture key paths, codecs and @Sendable user
    // closures, none of which change after the rule is built.
    let role: RuleRole
    /// The property's name (`firstName`): from the model's property table
    /// (``MappableProperties``), looked up by ``keyPath`` when the mapping is
    /// built, or given with the rule (``Setter(property:_:)``); nil for a
    /// rule with keys only.
    var property: String?
    /// A rule a subclass's mapping took from its superclass's: a rule of the
    /// subclass for the same property replaces it.
    var inherited = false
    /// A default mapping's rule for a `weak` or `unowned` property: dropped
    /// unless ``MappingOptions/convertsWeakProperties``.
    var weakDefault = false
    /// The rule's key path, for allow lists written with key paths.
    var keyPath: AnyKeyPath?
    /// The property's value is a scalar: writing it needs no context of
    /// its own (its path is made only for an error).
    var writesLeaf = false
    /// What a nil optional becomes when encoding, for this property (the registry's option otherwise).
    var nilEncoding: NilEncoding?
    /// A scalar property of a struct read in place instead of through ``read``.
    var stored: StoredScalar?
    /// The type of the value the rule writes through that type's own codec
    /// (no transform, no sub-mapper), whatever code reads it from the model;
    /// nil for any other rule. What decides whether the rule can hand a
    /// context to code that reads its path (PathBlindness.swift).
    var ownCodecValue: Any.Type?
    /// A model or scalar-array property of a struct the rule loop may fill
    /// itself (``NestedModelSlot``, ``NestedModelArraySlot``, ``ScalarArraySlot``).
    var nested: InPlaceSlot?
    /// Where a class model's table (``MappableProperty``) puts direct
    /// accessors of the rule's property (an ``AccessorSlot``), which the
    /// rule then calls instead of the key-path runtime; nil for a rule that
    /// reads and writes no property through a key path.
    var accessorSlot: AnyObject?
    /// Makes the rule loop's direct read of a class's scalar property
    /// (``ClassScalarRead``) once the accessors are known: nil, or a
    /// maker that gives nil, where the rule's own path runs.
    var makeClassScalar: (() -> ClassScalarRead?)?
    /// Makes the stream's write of a class's scalar property through its
    /// getter (``ClassScalarWrite``), likewise.
    var makeClassScalarWrite: (() -> ((Model, inout NativeJSONWriter, Int) throws -> Bool)?)?
    let decodeKey: KeySpec?
    let encodeKey: KeySpec?
    var decodes = true
    var encodes = true
    let required: Bool
    let ignoreNull: Bool?
    /// What the value looks like and how nulls meet it, for schemas
    /// (``ModelRegistry/jsonSchema(for:direction:)``); nil for a setter,
    /// whose value is free-form.
    var facts: ValueFacts?
    /// Applies the node found for the rule (nil when absent). The context is
    /// the object's; the key spec says where under it the node sits (the
    /// property's own context is only made when a nested value or an error
    /// needs it).
    let read: (inout Model, Node?, MappingContext, KeySpec?, ReadMode) throws -> Void
    /// The value to write, or nil when an optional property is nil.
    let write: ((Model, EncodingContext) throws -> EncodedValue?)?
    /// ``write`` as JSON straight into a writer at a depth (MappingStream.swift):
    /// false, with nothing written, where ``write`` gives nil; nil for a
    /// rule whose value is only written through its tree.
    var stream: ((Model, EncodingContext, inout NativeJSONWriter, Int) throws -> Bool)?

    init(
        role: RuleRole, property: String?, decodeKey: KeySpec?, encodeKey: KeySpec?, required: Bool = false, ignoreNull: Bool? = nil,
        read: @escaping (inout Model, Node?, MappingContext, KeySpec?, ReadMode) throws -> Void,
        write: ((Model, EncodingContext) throws -> EncodedValue?)?
    ) {
        self.role = role
        self.property = property
        self.decodeKey = decodeKey
        self.encodeKey = encodeKey
        self.required = required
        self.ignoreNull = ignoreNull
        self.read = read
        self.write = write
    }

    /// The same rule for a subclass (the model is upcast to run it). For a
    /// class model the instance is taken as its superclass with no runtime
    /// cast (``ClassUpcast``), and a class scalar's direct read
    /// (``ClassScalarRead``) is kept.
    func lifted<Sub>(to _: Sub.Type) -> MappingRule<Sub> {
        let read = self.read
        let write = self.write
        let upcast = ClassUpcast<Sub, Model>()
        let toBase: (Sub) -> Model = upcast.map { upcast in { upcast.apply($0) } } ?? { $0 as! Model }
        var lifted = MappingRule<Sub>(
            role: role, property: property, decodeKey: decodeKey, encodeKey: encodeKey,
            required: required, ignoreNull: ignoreNull,
            read: { sub, node, context, spec, mode in
                var base = toBase(sub)
                try read(&base, node, context, spec, mode)
                // Written back only where a rule put another instance in the model's place (a setter may).
                if let upcast, upcast.isSame(base, sub) { return }
                sub = base as! Sub
            },
            write: write.map { write in { sub, context in try write(toBase(sub), context) } })
        lifted.stream = stream.map { stream in { sub, context, writer, depth in try stream(toBase(sub), context, &writer, depth) } }
        if let upcast {
            lifted.makeClassScalar = makeClassScalar.map { make in { make()?.lifted(upcast) } }
            lifted.makeClassScalarWrite = makeClassScalarWrite.map { make in
                { make().map { write in { sub, writer, depth in try write(upcast.apply(sub), &writer, depth) } } }
            }
        }
        return carried(into: lifted)
    }

    /// The rule's flags, carried into its lifted copy.
    private func carried<Sub>(into rule: MappingRule<Sub>) -> MappingRule<Sub> {
        var lifted = rule
        lifted.decodes = decodes
        lifted.encodes = encodes
        lifted.inherited = true
        lifted.keyPath = keyPath
        lifted.nilEncoding = nilEncoding
        lifted.weakDefault = weakDefault
        lifted.writesLeaf = writesLeaf
        lifted.facts = facts
        return lifted
    }

}

/// What a rule does.
enum RuleRole: Sendable, Equatable {
    case property
    case ignore(MappingDirection)
    case setter
    case parent
}

/// A property rule through a codec.
func propertyRule<Model, Value>(
    _ keyPath: WritableKeyPath<Model, Value>, decodeKey: KeySpec?, encodeKey: KeySpec?, codec: ValueCodec<Value>,
    options: ValueOptions, required: Bool, ignoreNull: Bool?, shape: ValueShape
) -> MappingRule<Model> {
    // A stored property of a struct is written at its offset, not through
    // the key-path runtime, which is a generic call per property.
    let field = FieldOffset(keyPath)
    // A class model's property through the accessors its table gives, if it gives them.
    let accessors = AccessorSlot<Model, Value>()
    // Consuming: a decoded struct (a user with forty fields) is moved into
    // the model, not copied (a retain per field) and then destroyed.
    func store(_ model: inout Model, _ value: consuming Value) {
        var value = value
        guard let field else {
            if let set = accessors.set { return set(model, value) }
            model[keyPath: keyPath] = value
            return
        }
        // Swapped in (moves both ways); the old value is destroyed with `value`.
        ModelFields.with(&model) { $0.exchange(&value, at: field) }
    }
    var rule = MappingRule<Model>(
        role: .property, property: nil, decodeKey: decodeKey, encodeKey: encodeKey, required: required, ignoreNull: ignoreNull,
        read: { model, node, context, spec, mode in
            let found = try FoundValue.classify(
                node, required: required, mode: mode, ignoreNull: ignoreNull, holdsNull: codec.holdsNull,
                optional: codec.none != nil, hasZero: codec.zero != nil, valueType: Value.self, context: context, spec: { spec },
                name: spec?.description ?? decodeKey?.description ?? "?")
            switch found {
            case .leave: return
            case .clear: store(&model, codec.none!())
            case .reset: store(&model, codec.zero!())
            case .read(let node):
                if codec.isLeaf {
                    // A scalar needs no context of its own: the path is spelled out only on error.
                    do {
                        store(&model, try codec.decode(node, context, options))
                    } catch let error as CartographError {
                        throw error.replacingPath(FoundValue.path(context, spec))
                    }
                    return
                }
                let child = spec.map { context.child(spec: $0) } ?? context
                do {
                    store(&model, try codec.decode(node, child, options))
                } catch let skip as SkipElement {
                    // A factory left the property's object out: nil, or an error.
                    guard let none = codec.none else { throw skip.error(at: node, path: child.path) }
                    store(&model, none())
                }
            }
        },
        write: { model, context in
            let value: Value
            if let get = accessors.get { value = get(model) } else { value = model[keyPath: keyPath] }
            if codec.isNone(value) { return nil }
            // A sub-mapper writes the model it read (the registry's entry otherwise).
            return try codec.encode(value, options.subMapper.map { context.using($0) } ?? context)
        })
    func stream(_ value: Value, _ context: EncodingContext, _ writer: inout NativeJSONWriter, _ depth: Int) throws -> Bool {
        if codec.isNone(value) { return false }
        // The context passed on as it is unless a sub-mapper changes it (no copy, no retains).
        if let subMapper = options.subMapper {
            try codec.stream(value, context.using(subMapper), &writer, depth)
        } else {
            try codec.stream(value, context, &writer, depth)
        }
        return true
    }
    rule.stream = { model, context, writer, depth in
        // A stored property is lent where it lies: read out, a nested
        // struct was copied whole (a retain per string in it).
        if let field { return try field.lend(from: model, as: Value.self) { try stream($0, context, &writer, depth) } }
        if let get = accessors.get { return try stream(get(model), context, &writer, depth) }
        return try stream(model[keyPath: keyPath], context, &writer, depth)
    }
    rule.keyPath = keyPath
    if field == nil { rule.accessorSlot = accessors }
    rule.writesLeaf = codec.isLeaf && options.subMapper == nil
    rule.facts = ValueFacts(codec: codec, shape: shape, options: options)
    return rule
}

extension MappingRule {
    /// Lets the rule loop read a struct's stored scalar, nested model or
    /// scalar array property in place (``StoredScalar``, ``InPlaceSlot``).
    mutating func readInPlace<Value>(_ keyPath: WritableKeyPath<Model, Value>, codec: ValueCodec<Value>, options: ValueOptions) {
        stored = StoredScalar.make(keyPath, options: options, rule: self)
        // A class's scalar, set through the accessors its table may give (filled after this rule is made).
        if stored == nil, options.subMapper == nil, !options.coerceArrays, Model.self is AnyClass,
            let slot = accessorSlot as? AccessorSlot<Model, Value>
        {
            let required = self.required
            let lenient = options.lenient
            makeClassScalar = { slot.set.flatMap { ClassScalarRead(Model.self, Value.self, set: $0, required: required, lenient: lenient) } }
            makeClassScalarWrite = { slot.get.flatMap { ClassScalarWrite.make(Model.self, Value.self, get: $0) } }
        }
        if stored == nil, options.subMapper == nil, !options.coerceArrays, let field = FieldOffset(keyPath) {
            nested = codec.modelSlot?(field) ?? codec.arraySlot?(field, options.lenient)
        }
    }
}

/// A property rule with the options every `Map` overload takes; a rule
/// through the property type's own codec may read the property in place.
private func mapRule<Model, Value>(
    _ keyPath: WritableKeyPath<Model, Value>, decode decodeKey: KeySpec?, encode encodeKey: KeySpec?, codec: ValueCodec<Value>,
    options: ValueOptions, required: Bool, ignoreNull: Bool?, nilEncoding: NilEncoding?, inPlace: Bool,
    shape: ValueShape? = nil
) -> MappingRule<Model> {
    var rule = propertyRule(
        keyPath, decodeKey: decodeKey, encodeKey: encodeKey, codec: codec, options: options, required: required,
        ignoreNull: ignoreNull, shape: shape ?? ValueShape.of(Value.self, subMapper: options.subMapper))
    rule.nilEncoding = nilEncoding
    // In place: the type's own codec, with no sub-mapper (the two `Map`s without a transform).
    if inPlace {
        rule.readInPlace(keyPath, codec: codec, options: options)
        if options.subMapper == nil { rule.ownCodecValue = Value.self }
    }
    return rule
}

// Every `Map` overload takes the same per-property options: `required`,
// `ignoreNull` and `nilEncoding` always, `lenient` and `coerceArray` where
// the value is read by its type's own codec (a transform reads it itself),
// and one key for both directions or a key per direction.

/// Maps a property to a key (or a dotted key path) for both directions; the
/// key defaults to the property's name under the naming strategy.
/// - Parameters:
///   - keyPath: the property.
///   - key: the key or dotted key path in the input; nil derives it from the property's name.
///   - required: a missing or null value fails the model instead of keeping the default.
///   - lenient: convert scalars between kinds (`"42"` → 42) for this property.
///   - coerceArray: accept one value where an array is expected (and the first element of an array where one value is).
///   - ignoreNull: keep the property's value when the input has `null` (overrides the registry option).
///   - nilEncoding: what a nil optional becomes when encoding (overrides the registry option).
public func Map<Model, Value>(
    _ keyPath: WritableKeyPath<Model, Value>, _ key: KeySpec? = nil, required: Bool = false, lenient: Bool = false,
    coerceArray: Bool = false, ignoreNull: Bool? = nil, nilEncoding: NilEncoding? = nil
) -> MappingRule<Model> {
    mapRule(
        keyPath, decode: key, encode: key, codec: ValueCodec<Value>.resolve(),
        options: ValueOptions(lenient: lenient, coerceArrays: coerceArray), required: required, ignoreNull: ignoreNull,
        nilEncoding: nilEncoding, inPlace: true)
}

/// Maps a property to different keys for reading and for writing (nil: the
/// property's name under the naming strategy); the options are those of
/// ``Map(_:_:required:lenient:coerceArray:ignoreNull:nilEncoding:)``.
public func Map<Model, Value>(
    _ keyPath: WritableKeyPath<Model, Value>, decode decodeKey: KeySpec?, encode encodeKey: KeySpec?, required: Bool = false,
    lenient: Bool = false, coerceArray: Bool = false, ignoreNull: Bool? = nil, nilEncoding: NilEncoding? = nil
) -> MappingRule<Model> {
    mapRule(
        keyPath, decode: decodeKey, encode: encodeKey, codec: ValueCodec<Value>.resolve(),
        options: ValueOptions(lenient: lenient, coerceArrays: coerceArray), required: required, ignoreNull: ignoreNull,
        nilEncoding: nilEncoding, inPlace: true)
}

/// Maps a property through a value transform (both directions).
public func Map<Model, Value>(
    _ keyPath: WritableKeyPath<Model, Value>, _ key: KeySpec? = nil, transform: Transform<Value>, required: Bool = false,
    ignoreNull: Bool? = nil, nilEncoding: NilEncoding? = nil
) -> MappingRule<Model> {
    Map(keyPath, decode: key, encode: key, transform: transform, required: required, ignoreNull: ignoreNull, nilEncoding: nilEncoding)
}

/// Maps a property through a value transform, read from one key and written to another.
public func Map<Model, Value>(
    _ keyPath: WritableKeyPath<Model, Value>, decode decodeKey: KeySpec?, encode encodeKey: KeySpec?, transform: Transform<Value>,
    required: Bool = false, ignoreNull: Bool? = nil, nilEncoding: NilEncoding? = nil
) -> MappingRule<Model> {
    mapRule(
        keyPath, decode: decodeKey, encode: encodeKey, codec: transform.codec(), options: .standard, required: required,
        ignoreNull: ignoreNull, nilEncoding: nilEncoding, inPlace: false, shape: transform.shape)
}

/// Maps an optional property through a value transform; `null` clears it
/// (or leaves it, with `ignoreNull`).
public func Map<Model, Value>(
    _ keyPath: WritableKeyPath<Model, Value?>, _ key: KeySpec? = nil, transform: Transform<Value>, required: Bool = false,
    ignoreNull: Bool? = nil, nilEncoding: NilEncoding? = nil
) -> MappingRule<Model> {
    Map(keyPath, decode: key, encode: key, transform: transform, required: required, ignoreNull: ignoreNull, nilEncoding: nilEncoding)
}

/// Maps an optional property through a value transform, read from one key and written to another.
public func Map<Model, Value>(
    _ keyPath: WritableKeyPath<Model, Value?>, decode decodeKey: KeySpec?, encode encodeKey: KeySpec?, transform: Transform<Value>,
    required: Bool = false, ignoreNull: Bool? = nil, nilEncoding: NilEncoding? = nil
) -> MappingRule<Model> {
    mapRule(
        keyPath, decode: decodeKey, encode: encodeKey, codec: transform.optionalCodec(), options: .standard, required: required,
        ignoreNull: ignoreNull, nilEncoding: nilEncoding, inPlace: false, shape: .optional(transform.shape))
}

/// Maps an array property through a value transform applied to each element
/// (`[Date]` with `.iso8601`, a format, or seconds since 1970).
public func Map<Model, Value>(
    _ keyPath: WritableKeyPath<Model, [Value]>, _ key: KeySpec? = nil, transform: Transform<Value>, required: Bool = false,
    ignoreNull: Bool? = nil, nilEncoding: NilEncoding? = nil
) -> MappingRule<Model> {
    Map(keyPath, decode: key, encode: key, transform: transform, required: required, ignoreNull: ignoreNull, nilEncoding: nilEncoding)
}

/// Maps an array property through a per-element transform, read from one key and written to another.
public func Map<Model, Value>(
    _ keyPath: WritableKeyPath<Model, [Value]>, decode decodeKey: KeySpec?, encode encodeKey: KeySpec?, transform: Transform<Value>,
    required: Bool = false, ignoreNull: Bool? = nil, nilEncoding: NilEncoding? = nil
) -> MappingRule<Model> {
    mapRule(
        keyPath, decode: decodeKey, encode: encodeKey, codec: transform.arrayCodec(), options: .standard, required: required,
        ignoreNull: ignoreNull, nilEncoding: nilEncoding, inPlace: false, shape: .array(transform.shape, unique: false))
}

/// Maps a property whose objects are made by a specific factory (a
/// sub-mapper) rather than the registry: the property may be the model, an
/// optional, an array or a set of it.
public func Map<Model, Value, Factory: ModelFactory>(
    _ keyPath: WritableKeyPath<Model, Value>, _ key: KeySpec? = nil, using factory: Factory, required: Bool = false,
    coerceArray: Bool = false, ignoreNull: Bool? = nil, nilEncoding: NilEncoding? = nil
) -> MappingRule<Model> {
    Map(
        keyPath, decode: key, encode: key, using: factory, required: required, coerceArray: coerceArray, ignoreNull: ignoreNull,
        nilEncoding: nilEncoding)
}

/// Maps a property whose objects are made by a specific factory, read from one key and written to another.
public func Map<Model, Value, Factory: ModelFactory>(
    _ keyPath: WritableKeyPath<Model, Value>, decode decodeKey: KeySpec?, encode encodeKey: KeySpec?, using factory: Factory,
    required: Bool = false, coerceArray: Bool = false, ignoreNull: Bool? = nil, nilEncoding: NilEncoding? = nil
) -> MappingRule<Model> {
    mapRule(
        keyPath, decode: decodeKey, encode: encodeKey, codec: ValueCodec<Value>.resolve(),
        options: ValueOptions(coerceArrays: coerceArray, subMapper: SubMapper(entry: TypedModelEntry(factory: factory))),
        required: required, ignoreNull: ignoreNull, nilEncoding: nilEncoding, inPlace: false)
}

/// Maps a property whose objects are read with a specific mapping (a sub-mapper).
public func Map<Model, Value, Element>(
    _ keyPath: WritableKeyPath<Model, Value>, _ key: KeySpec? = nil, using mapping: Mapping<Element>, required: Bool = false,
    coerceArray: Bool = false, ignoreNull: Bool? = nil, nilEncoding: NilEncoding? = nil
) -> MappingRule<Model> {
    Map(
        keyPath, decode: key, encode: key, using: mapping, required: required, coerceArray: coerceArray, ignoreNull: ignoreNull,
        nilEncoding: nilEncoding)
}

/// Maps a property whose objects are read with a specific mapping, read from one key and written to another.
public func Map<Model, Value, Element>(
    _ keyPath: WritableKeyPath<Model, Value>, decode decodeKey: KeySpec?, encode encodeKey: KeySpec?, using mapping: Mapping<Element>,
    required: Bool = false, coerceArray: Bool = false, ignoreNull: Bool? = nil, nilEncoding: NilEncoding? = nil
) -> MappingRule<Model> {
    mapRule(
        keyPath, decode: decodeKey, encode: encodeKey, codec: ValueCodec<Value>.resolve(),
        options: ValueOptions(coerceArrays: coerceArray, subMapper: SubMapper(mapping)), required: required, ignoreNull: ignoreNull,
        nilEncoding: nilEncoding, inPlace: false)
}

/// Writes a value computed from the model under a key when encoding (the
/// mirror of ``Setter(_:_:)``); never read. A nil is written as the
/// property's `nilEncoding` says (left out by default).
///
/// ```swift
/// Getter("tenantName") { $0.tenant?.firstName }   // a path through an optional reference
/// ```
/// Without a key (in a `@Mappable` type's attribute), the rule takes its
/// property's name.
public func Getter<Model, Value>(
    _ key: KeySpec? = nil, nilEncoding: NilEncoding? = nil, _ body: @escaping @Sendable (Model) throws -> Value
) -> MappingRule<Model> {
    encodeOnlyRule(encodeKey: key, nilEncoding: nilEncoding, body)
}

/// A read-only property (a struct's `let`, a computed property without a
/// setter) in a default mapping: written under its name, never read.
func readOnlyRule<Model, Value>(_ keyPath: KeyPath<Model, Value>) -> MappingRule<Model> {
    var rule = encodeOnlyRule(encodeKey: nil, nilEncoding: nil) { (model: Model) in model[keyPath: keyPath] }
    rule.keyPath = keyPath
    return rule
}

private func encodeOnlyRule<Model, Value>(
    encodeKey: KeySpec?, nilEncoding: NilEncoding?, _ body: @escaping (Model) throws -> Value
) -> MappingRule<Model> {
    let codec = ValueCodec<Value>.resolve()
    var rule = MappingRule<Model>(
        role: .property, property: nil, decodeKey: nil, encodeKey: encodeKey,
        read: { _, _, _, _, _ in },
        write: { model, context in
            let value = try body(model)
            return codec.isNone(value) ? nil : try codec.encode(value, context)
        })
    rule.stream = { model, context, writer, depth in
        let value = try body(model)
        if codec.isNone(value) { return false }
        try codec.stream(value, context, &writer, depth)
        return true
    }
    rule.decodes = false
    rule.nilEncoding = nilEncoding
    rule.facts = ValueFacts(codec: codec, shape: ValueShape.of(Value.self), options: .standard)
    // The body reads the value; it is given no context.
    rule.ownCodecValue = Value.self
    return rule
}

/// Leaves a property out of reading, writing, or both.
public func Ignore<Model, Value>(_ keyPath: KeyPath<Model, Value>, on direction: MappingDirection = .both) -> MappingRule<Model> {
    var rule = MappingRule<Model>(
        role: .ignore(direction), property: nil, decodeKey: nil, encodeKey: nil,
        read: { _, _, _, _, _ in }, write: nil)
    rule.keyPath = keyPath
    return rule
}

/// Runs a setter when the key is present: it receives the value and the
/// model being built, for keys that are not properties or need custom code.
public func Setter<Model>(
    _ key: KeySpec, _ body: @escaping @Sendable (inout Model, Node, MappingContext) throws -> Void
) -> MappingRule<Model> {
    setterRule(property: nil, key: key, body)
}

/// Runs a setter for a property name: its key comes from the name through
/// the naming strategy, as a property rule's does (`fullName` reads
/// `full_name` under `.snakeCase`, any spelling under `.fuzzy`) — the
/// setter-based properties of JAGPropertyConverter and MAXJsonAdapter.
public func Setter<Model>(
    property name: String, _ body: @escaping @Sendable (inout Model, Node, MappingContext) throws -> Void
) -> MappingRule<Model> {
    setterRule(property: name, key: nil, body)
}

private func setterRule<Model>(
    property: String?, key: KeySpec?, _ body: @escaping @Sendable (inout Model, Node, MappingContext) throws -> Void
) -> MappingRule<Model> {
    MappingRule(
        role: .setter, property: property, decodeKey: key, encodeKey: nil,
        read: { model, node, context, spec, _ in
            if let node { try body(&model, node, spec.map { context.child(spec: $0) } ?? context) }
        }, write: nil)
}

/// Gives a child class model a reference to the class model that contains it
/// (make the property `weak` to avoid a retain cycle); works for single
/// children and for array elements. Never encoded.
public func ParentReference<Model: AnyObject, Parent: AnyObject>(_ keyPath: ReferenceWritableKeyPath<Model, Parent?>) -> MappingRule<Model> {
    var rule = MappingRule<Model>(
        role: .parent, property: nil, decodeKey: nil, encodeKey: nil,
        read: { model, _, context, _, _ in
            if let parent = context.parent as? Parent { model[keyPath: keyPath] = parent }
        }, write: nil)
    rule.keyPath = keyPath
    return rule
}
