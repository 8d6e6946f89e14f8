/// A model-typed property of a struct model (`user: TwitterUser`,
/// `retweetedStatus: RetweetedStatus?`) that the rule loop fills itself
/// when the common case holds: a new model is being made, the input has an
/// object under the key, and the property's type is registered through a
/// ``Mapping`` that class inference cannot refine. The nested mapping is
/// run directly and its model stored at the property's offset; anything
/// else (`null`, absence, another kind, an update, a factory, a base class)
/// declines, and the rule's own path runs as before.
///
/// The general path went through the rule's
/// closure, the null matrix, the codec's closure, the registry entry's
/// generic decode and two more closures before the nested mapping, and
/// moved the model back through each of them.
class NestedModelReader: InPlaceSlot, @unchecked Sendable {
    // @unchecked: immutable but for the resolved entry, which is safe to share (ResolvedModelEntry).
    private let resolved = ResolvedModelEntry()

    /// Runs `body` with the compiled mapping that makes `Model`, when only
    /// it does (not a factory, not a base class that inference may refine):
    /// resolved once per registry (see ``ResolvedModelEntry/withCompiledMapping(for:in:_:)``).
    /// Nil, without running `body`, when there is none.
    @inline(__always)
    final func withMapping<Model, Result>(
        of _: Model.Type, in registry: ModelRegistry, _ body: (CompiledMapping<Model>) throws -> Result
    ) rethrows -> Result? {
        try resolved.withCompiledMapping(for: Model.self, in: registry, body)
    }
}

/// The slot of a property of type `Value` holding a `Nested` model: `Value`
/// is `Nested` or `Nested?`. Both are the class's own generic arguments, so
/// storing the model looks no metadata up (asking for `Optional<Nested>`
/// inside generic code did, once per model).
final class NestedModelSlot<Value, Nested>: NestedModelReader, @unchecked Sendable {
    /// The model as the property's value (moved in, not copied).
    private let wrap: (consuming Nested) -> Value
    /// The property's nil, when it is optional.
    private let nothing: (() -> Value)?

    /// Where the stream reads the model: the property itself, or, for an
    /// optional, its payload once ``isNothing`` says it holds one. Nil when
    /// the stream takes the general path (a class instance or a
    /// protocol-typed value: its dynamic type, its cycles).
    private let model: FieldOffset?
    /// Whether the optional property holds nil (nil for a property that is the model itself).
    private let isNothing: ((Value) -> Bool)?

    init(field: FieldOffset, wrap: @escaping (consuming Nested) -> Value, nothing: (() -> Value)?, isNothing: ((Value) -> Bool)? = nil) {
        self.wrap = wrap
        self.nothing = nothing
        self.isNothing = isNothing
        model =
            Nested.self is AnyClass || MetadataKind.isExistential(Nested.self)
            ? nil : Self.streamedField(field, of: Value.self, holding: Nested.self, isNothing: isNothing)
        super.init(field: field)
    }

    /// What the general path writes (the rule's closure, the model codec's
    /// stream, ``ValueCodec/streamModel(_:dynamicType:resolved:_:_:_:)``),
    /// straight into the nested mapping's stream: the property lent from
    /// the model's memory, the mapping found once per registry.
    override func write(_ view: ModelView, _ context: EncodingContext, _ writer: inout NativeJSONWriter, _ depth: Int) throws -> Bool? {
        guard let model, context.subMapper == nil else { return nil }
        // A nil optional has nothing to write (its member is left out or `null`).
        if let isNothing, view.lend(field, as: Value.self, isNothing) { return false }
        return try withMapping(of: Nested.self, in: context.registry) { mapping in
            try view.lend(model, as: Nested.self) { model in
                try context.descendToOpen()
                try mapping.stream(model, context, &writer, depth)
                return true
            }
        }
    }

    override func read(
        index: Int, in document: Document, into fields: ModelFields, context: MappingContext, spec: KeySpec.Storage, mode: ReadMode
    ) throws -> Bool {
        guard mode == .create, document.entry(index).kind == .object else { return false }
        return try withMapping(of: Nested.self, in: context.registry) { mapping in
            // Entered as the general path's entry decode enters it (path, stack, errors).
            let mark = context.linkMark
            let property = context.linked(spec)
            defer { property.unlink(to: mark) }
            do {
                let model = try property.makingObject(at: Node(document: document, index: index).sourceOffset) { nested in
                    try mapping.make(ObjectView(document: document, index: index), nested)
                }
                fields.store(wrap(consume model), at: field)
            } catch let skip as SkipElement {
                // The mapping's constructor left the object out: nil, or an error.
                guard let nothing else { throw skip.error(at: Node(document: document, index: index), path: property.path) }
                fields.store(nothing(), at: field)
            }
            return true
        } ?? false
    }
}
