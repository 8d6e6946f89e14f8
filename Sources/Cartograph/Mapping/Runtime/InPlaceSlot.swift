/// A property of a struct model that the rule loop fills itself, at the
/// property's offset, when the common case holds (see ``NestedModelSlot``,
/// ``NestedModelArraySlot``, ``ScalarArraySlot``); anything else declines
/// and the rule's own path runs.
///
/// A class with one overridden method rather than a protocol: the rule
/// loop holds it unretained and calls it through the class's table, with no
/// existential to open.
class InPlaceSlot: @unchecked Sendable {
    // @unchecked: immutable (subclasses keep their own caches safe).
    /// The property's offset in the struct.
    let offset: Int

    init(offset: Int) { self.offset = offset }

    /// Reads the value at tape `index` into the property at `base` (the
    /// model's address); false when the general path must run. `context`
    /// is the object's, `spec` the property's key (unretained: owned by the
    /// compiled mapping's rules).
    func read(
        index: Int, in document: Document, at base: UnsafeMutableRawPointer, context: MappingContext,
        spec: Unmanaged<KeySpec.Storage>, mode: ReadMode
    ) throws -> Bool {
        false
    }
}

/// What the rule loop reads in place for a property with a slot: its key
/// and slot, unretained (owned by the compiled mapping's rules).
@safe struct DirectSlotRead {
    let key: UnsafeRawBufferPointer
    let slot: Unmanaged<InPlaceSlot>
    let spec: Unmanaged<KeySpec.Storage>
    /// With the key absent, the rule's fallback (the property's own name
    /// under a renaming strategy) may still find it.
    let looksFurther: Bool
}
