/// An array-of-scalars property of a struct model (`indices: [Int]`,
/// `tags: [String]?`, `coordinates: [[Double]]`) that the rule loop fills
/// itself when the input has an array under the key: read by the scalar's
/// specialised array reader (``ScalarValue/scalarArray(in:at:lenient:skippingNulls:)``)
/// and moved into the property. `null`, absence and other kinds decline to
/// the rule's own path (the null matrix, coercion, the mismatch error), as
/// does a lossy decode, which reads element by element to skip what fails.
///
/// The general path went through the rule's closure, the null matrix, a
/// property context, the array codec's closure and an unspecialised
/// `withUnsafeMutableBytes` and `swap` to store, per array, before the
/// reader's own work.
final class ScalarArraySlot<Value, Collected: ArrayMarker>: InPlaceSlot, @unchecked Sendable {
    /// Reads the array at a tape index: document, index, lenient, leave nulls out.
    private let elements: (Document, Int, Bool, Bool) throws -> [Collected.Element]
    /// The array as the property's value (moved in, not copied).
    private let wrap: (consuming Collected) -> Value
    /// The rule's own `lenient`.
    private let lenient: Bool
    /// Writes the array as the array codec's stream does (the scalar's own loops).
    private let writes: ((Collected, inout NativeJSONWriter, Int) throws -> Void)?
    /// The levels of nesting that writer checks at once (``EncodingContext/descend(levels:)``).
    private let levels: Int
    /// Where the stream reads the array: the property itself, or, for an
    /// optional, its payload once ``isNothing`` says it holds one.
    private let array: FieldOffset?
    /// Whether the optional property holds nil (nil for a property that is the array itself).
    private let isNothing: ((Value) -> Bool)?

    init(
        field: FieldOffset, lenient: Bool, elements: @escaping (Document, Int, Bool, Bool) throws -> [Collected.Element],
        wrap: @escaping (consuming Collected) -> Value, writes: ((Collected, inout NativeJSONWriter, Int) throws -> Void)? = nil,
        levels: Int = 1, isNothing: ((Value) -> Bool)? = nil
    ) {
        self.elements = elements
        self.wrap = wrap
        self.lenient = lenient
        self.writes = writes
        self.levels = levels
        self.isNothing = isNothing
        array = Self.streamedField(field, of: Value.self, holding: Collected.self, isNothing: isNothing)
        super.init(field: field)
    }

    /// What the general path writes (the rule's closure, the array codec's
    /// stream): the array lent from the model's memory, checked for its
    /// levels of nesting and written by the scalar's own loop.
    override func write(_ view: ModelView, _ context: EncodingContext, _ writer: inout NativeJSONWriter, _ depth: Int) throws -> Bool? {
        guard let writes, let array, context.subMapper == nil else { return nil }
        // A nil optional has nothing to write (its member is left out or `null`).
        if let isNothing, view.lend(field, as: Value.self, isNothing) { return false }
        return try view.lend(array, as: Collected.self) { array in
            try context.descend(levels: levels)
            try writes(array, &writer, depth)
            return true
        }
    }

    override func read(
        index: Int, in document: Document, into fields: ModelFields, context: MappingContext, spec: KeySpec.Storage, mode: ReadMode
    ) throws -> Bool {
        guard document.entry(index).kind == .array, context.issues == nil else { return false }
        let session = context.session
        let array: [Collected.Element]
        do {
            array = try elements(document, index, lenient || session.lenientScalars, session.ignoreNulls)
        } catch let failure as ScalarElementFailure {
            // Named as the general path names it: the property, then each element's position.
            let property = context.child(spec: KeySpec(storage: spec))
            throw failure.error(in: property)
        }
        fields.store(wrap(Collected.make(array)), at: field)
        return true
    }
}
