/// An array-of-models property of a struct model (`hashtags: [Hashtag]`,
/// `media: [Media]?`) that the rule loop fills itself, as
/// ``NestedModelSlot`` does for one model: when a new model is being made,
/// the input has an array under the key whose elements are all objects, and
/// the element type is registered through a ``Mapping`` that class
/// inference cannot refine. Each element's mapping is run directly and the
/// models collected into the property; anything else (a `null` element,
/// another kind, an update, a factory, a base class, a lossy decode that
/// records issues) declines before anything is made, and the rule's own
/// path runs as before.
///
/// API payloads hold many such arrays, most of them empty: the general path
/// went through the rule's closure, the null
/// matrix, the array codec's closure, the element loop and, per element,
/// the element codec's closure, the registry entry's generic decode and two
/// more closures.
final class NestedModelArraySlot<Value, Collected: ArrayMarker>: NestedModelReader, @unchecked Sendable {
    /// The array as the property's value (moved in, not copied).
    private let wrap: (consuming Collected) -> Value

    init(offset: Int, wrap: @escaping (consuming Collected) -> Value) {
        self.wrap = wrap
        super.init(offset: offset)
    }

    override func read(
        index: Int, in document: Document, at base: UnsafeMutableRawPointer, context: MappingContext,
        spec: Unmanaged<KeySpec.Storage>, mode: ReadMode
    ) throws -> Bool {
        let array = document.entry(index)
        guard mode == .create, array.kind == .array, context.issues == nil else { return false }
        let slot = unsafe (base + offset).assumingMemoryBound(to: Value.self)
        let end = array.payload
        guard index + 1 < end else {
            unsafe slot.pointee = wrap(Collected.collecting(capacity: 0))
            return true
        }
        // Every element an object, checked before anything is made, so that
        // declining leaves nothing behind.
        var position = index + 1
        while position < end {
            guard document.entry(position).kind == .object else { return false }
            position = document.next(after: position)
        }
        guard let mapping = unsafe mapping(of: Collected.Element.self, in: context.registry) else { return false }
        // Entered as the general path's element loop enters it: the
        // property's path linked once, each element's under it.
        let mark = context.linkMark
        let elements = unsafe context.linked(spec.takeUnretainedValue())
        defer { elements.unlink(to: mark) }
        var result = Collected.collecting(capacity: Int(array.length))
        position = index + 1
        var element = 0
        while position < end {
            do {
                let model = try elements.element(element).makingObject(at: Node(document: document, index: position).sourceOffset) {
                    let element = $0
                    return unsafe try mapping._withUnsafeGuaranteedRef { try $0.make(ObjectView(document: document, index: position), element) }
                }
                result.collect(consume model)
            } catch is SkipElement {
                // The element's constructor left it out, as in the general path.
            }
            element += 1
            position = document.next(after: position)
        }
        unsafe slot.pointee = wrap(consume result)
        return true
    }
}
