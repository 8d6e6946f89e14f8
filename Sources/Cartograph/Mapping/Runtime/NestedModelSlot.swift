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

    /// The compiled mapping that makes `Model`, when only it does (not a
    /// factory, not a base class that inference may refine): resolved once
    /// per registry, unretained (see ``ResolvedModelEntry/compiledMapping(for:in:)``).
    final func mapping<Model>(of _: Model.Type, in registry: ModelRegistry) -> Unmanaged<CompiledMapping<Model>>? {
        guard let compiled = unsafe resolved.compiledMapping(for: Model.self, in: registry) else { return nil }
        return unsafe Unmanaged<CompiledMapping<Model>>.fromOpaque(compiled.toOpaque())
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

    init(offset: Int, wrap: @escaping (consuming Nested) -> Value, nothing: (() -> Value)?) {
        self.wrap = wrap
        self.nothing = nothing
        super.init(offset: offset)
    }

    override func read(
        index: Int, in document: Document, at base: UnsafeMutableRawPointer, context: MappingContext,
        spec: Unmanaged<KeySpec.Storage>, mode: ReadMode
    ) throws -> Bool {
        guard mode == .create, document.entry(index).kind == .object, let mapping = unsafe mapping(of: Nested.self, in: context.registry)
        else { return false }
        // Entered as the general path's entry decode enters it (path, stack, errors).
        let mark = context.linkMark
        let property = unsafe context.linked(spec.takeUnretainedValue())
        defer { property.unlink(to: mark) }
        let slot = unsafe (base + offset).assumingMemoryBound(to: Value.self)
        do {
            let model = try property.makingObject(at: Node(document: document, index: index).sourceOffset) { nested in
                unsafe try mapping._withUnsafeGuaranteedRef { try $0.make(ObjectView(document: document, index: index), nested) }
            }
            unsafe slot.pointee = wrap(consume model)
        } catch let skip as SkipElement {
            // The mapping's constructor left the object out: nil, or an error.
            guard let nothing else { throw skip.error(at: Node(document: document, index: index), path: property.path) }
            unsafe slot.pointee = nothing()
        }
        return true
    }
}
