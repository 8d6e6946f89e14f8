/// A property of a struct model that the rule loop fills itself, at the
/// property's offset, when the common case holds (see ``NestedModelSlot``,
/// ``NestedModelArraySlot``, ``ScalarArraySlot``); anything else declines
/// and the rule's own path runs.
///
/// A class with one overridden method rather than a protocol: the rule
/// loop calls it through the class's table, with no existential to open.
class InPlaceSlot: @unchecked Sendable {
    // @unchecked: immutable (subclasses keep their own caches safe).
    /// Where the struct keeps the property.
    let field: FieldOffset

    init(field: FieldOffset) { self.field = field }

    /// Reads the value at tape `index` into the property; false when the
    /// general path must run. `context` is the object's, `spec` the
    /// property's key.
    func read(
        index: Int, in document: Document, into fields: ModelFields, context: MappingContext, spec: KeySpec.Storage, mode: ReadMode
    ) throws -> Bool {
        false
    }

    /// Where the stream reads the property (declared `Value`) as a `Held`:
    /// the property itself when it is one; the payload of an optional one
    /// (at the optional's own offset, ``FieldOffset/payload(as:)``) when
    /// `isNothing` tells its nil apart; nil otherwise (the general path).
    static func streamedField<Value, Held>(
        _ field: FieldOffset, of _: Value.Type, holding _: Held.Type, isNothing: ((Value) -> Bool)?
    ) -> FieldOffset? {
        if isSameType(Value.self, Held.self) { return field }
        return isNothing == nil ? nil : field.payload(as: Held.self)
    }

    /// Writes the property's value from `view` (the model's memory) into
    /// the member the mapping stream began for it, in `context`, the
    /// property's own (its step linked); nil, having written nothing, when
    /// the general path must run.
    func write(_ view: ModelView, _ context: EncodingContext, _ writer: inout NativeJSONWriter, _ depth: Int) throws -> Bool? {
        nil
    }
}
