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

    /// Where the stream reads the array: the property itself, or, for an
    /// optional, its payload once ``isNothing`` says it holds one. Nil when
    /// the stream takes the general path (class instances and
    /// protocol-typed values: their dynamic types, their cycles).
    private let array: FieldOffset?
    /// Whether the optional property holds nil (nil for a property that is the array itself).
    private let isNothing: ((Value) -> Bool)?

    init(field: FieldOffset, wrap: @escaping (consuming Collected) -> Value, isNothing: ((Value) -> Bool)? = nil) {
        self.wrap = wrap
        self.isNothing = isNothing
        array =
            Collected.Element.self is AnyClass || MetadataKind.isExistential(Collected.Element.self)
            ? nil : Self.streamedField(field, of: Value.self, holding: Collected.self, isNothing: isNothing)
        super.init(field: field)
    }

    /// What the general path writes (the rule's closure, the array codec's
    /// ``ValueCodec/streamElements(_:_:_:_:_:)`` and, per element, the
    /// model codec's stream): the elements' mapping found once for the
    /// array, each element lent from it and written by that mapping's
    /// stream in its own context, one level down.
    override func write(_ view: ModelView, _ context: EncodingContext, _ writer: inout NativeJSONWriter, _ depth: Int) throws -> Bool? {
        guard let array, context.subMapper == nil else { return nil }
        // A nil optional has nothing to write (its member is left out or `null`).
        if let isNothing, view.lend(field, as: Value.self, isNothing) { return false }
        return try withMapping(of: Collected.Element.self, in: context.registry) { mapping in
            try view.lend(array, as: Collected.self) { array in
                let elements = array.elements
                try context.descendToOpen()
                try writer.open(UInt8(ascii: "["), depth: depth, path: "")
                try context.withOwnStepLinked { context in
                    let elementMark = context.linkMark
                    try LentValue.forEach(in: elements) { position, element in
                        writer.beginElement(position, depth: depth)
                        defer { context.unlink(to: elementMark) }
                        let child = context.linkedChild(index: position)
                        try child.descendToOpen()
                        try mapping.stream(element, child, &writer, depth + 1)
                    }
                }
                writer.close(UInt8(ascii: "]"), count: elements.count, depth: depth)
                return true
            }
        }
    }

    override func read(
        index: Int, in document: Document, into fields: ModelFields, context: MappingContext, spec: KeySpec.Storage, mode: ReadMode
    ) throws -> Bool {
        let array = document.entry(index)
        guard mode == .create, array.kind == .array, context.issues == nil else { return false }
        let end = array.payload
        guard index + 1 < end else {
            fields.store(wrap(Collected.collecting(capacity: 0)), at: field)
            return true
        }
        // Every element an object, checked before anything is made, so that
        // declining leaves nothing behind.
        var probe = index + 1
        while probe < end {
            guard document.entry(probe).kind == .object else { return false }
            probe = document.next(after: probe)
        }
        return try withMapping(of: Collected.Element.self, in: context.registry) { mapping in
            // Entered as the general path's element loop enters it: the
            // property's path linked once, each element's under it.
            let mark = context.linkMark
            let elements = context.linked(spec)
            defer { elements.unlink(to: mark) }
            var result = Collected.collecting(capacity: Int(array.length))
            var position = index + 1
            var element = 0
            while position < end {
                do {
                    let model = try elements.element(element).makingObject(at: Node(document: document, index: position).sourceOffset) {
                        try mapping.make(ObjectView(document: document, index: position), $0)
                    }
                    result.collect(consume model)
                } catch is SkipElement {
                    // The element's constructor left it out, as in the general path.
                }
                element += 1
                position = document.next(after: position)
            }
            fields.store(wrap(consume result), at: field)
            return true
        } ?? false
    }
}
