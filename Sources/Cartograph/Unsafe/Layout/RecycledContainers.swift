/// Keyed containers a decode (or an encode) made, kept to be handed out
/// again for the next object of the same type at the same depth.
///
/// Making a keyed container is dear, a large share of a `Codable` decode
/// after the parse: the runtime looks up the metadata of `DocumentKeyedContainer<Key>`,
/// of the standard library's box around it and the conformance's witness
/// table, and allocates both objects. Handing a kept one out costs one
/// reset: the kept `KeyedDecodingContainer<Key>` is copied out of its
/// ``KeptContainer``, whose own metadata names the container's type, so no
/// lookup is made (a bit cast in the decoder's generic code looked
/// `KeyedDecodingContainer<Key>`'s metadata up each time).
///
/// A kept container is handed out only when the table's copy holds the only
/// reference to its box (`isKnownUniquelyReferenced`): a container the
/// caller still holds (stored, or alive beside another of the same key type
/// at the same depth) is never pointed at another object; a new one is made
/// and kept instead.
///
/// A kept container's box holds its state, which holds the decoder, which
/// holds this table: the decoder's owner calls
/// ``DocumentDecoder/decodeTopLevel(_:)``, which empties the table when the
/// decode ends, however it ends.
///
/// The encoder keeps its `KeyedEncodingContainer`s the same way (`State`
/// is then ``TreeKeyedState``; the owner of an encode empties the table
/// when the root value is encoded): making one looked up the metadata of
/// `TreeKeyedContainer<Key>` and of the box.
///
/// This relies on `KeyedDecodingContainer` and `KeyedEncodingContainer`
/// being one reference to their box, as they have been since Swift 4;
/// ``ContainerLayout`` checks that once at run time (size, box type, a
/// round trip), and without it nothing is kept.
@safe struct RecycledContainers<State: AnyObject> {
    @safe private struct Slot {
        var type: ObjectIdentifier?
        var depth = 0
        var holder: KeptContainer?
        /// `holder` again, unretained, to lend it (`holder` keeps it alive).
        var lentHolder: Unmanaged<KeptContainer>?
        var state: Unmanaged<State>?
    }

    /// Open addressing: a key type and depth probe up to ``probes`` slots
    /// from their hash; past that the one at the hash is replaced.
    private static var capacity: Int { 128 }
    private static var probes: Int { 8 }
    /// Made when the first container is kept: a decode that makes few
    /// containers pays for no table.
    private var slots: UnsafeMutablePointer<Slot>?
    /// Containers made before any is kept (small documents make one or two).
    private var made = 0
    private var keeps: Bool
    /// How many containers are made before one is kept.
    private let keepsAfter: Int

    /// A table that keeps containers if `keeps`, once `after` were made
    /// without (a small document then makes no table).
    init(keeps: Bool, after: Int = 2) {
        self.keeps = keeps
        keepsAfter = after
    }

    /// Releases every kept container; none is kept after.
    mutating func empty() {
        keeps = false
        guard let slots = unsafe slots else { return }
        // Only the slots that hold a container have anything to release;
        // an empty slot holds nothing (a nil holder, trivial fields), so it
        // is left as is rather than destroyed through the value witness,
        // a call per slot (128 for every decode that kept a container: a
        // streamed element's decode keeps a few, most of the table's cost).
        for index in 0..<Self.capacity where unsafe slots[index].type != nil {
            unsafe (slots + index).deinitialize(count: 1)
        }
        unsafe slots.deallocate()
        unsafe self.slots = nil
    }

    @inline(__always)
    private static func home(of type: ObjectIdentifier, depth: Int) -> Int {
        let mixed = (UInt(bitPattern: Int(bitPattern: type)) >> 3 ^ UInt(truncatingIfNeeded: depth) &* 0x9E37_79B9) &* 0x9E37_79B9_7F4A_7C15
        return Int(mixed >> UInt(UInt.bitWidth - 7))
    }

    /// The holder of the kept container for `type` at `depth` that nothing
    /// else holds, after `reset` has pointed its state at the new object;
    /// nil if there is none. The caller takes the container out
    /// (``KeptContainerOf/take()``).
    ///
    /// The holder is lent, unretained: the table's own reference keeps it
    /// alive until the table is emptied, after the caller is done with it.
    /// Returned retained, it cost a retain and a release per container
    /// handed out.
    ///
    /// `Container`, the type the caller asks for, is the container type
    /// kept for `type` (a `KeyedDecodingContainer<Key>` for
    /// `ObjectIdentifier(Key.self)`; debug builds check it). It is inferred
    /// from the caller's result: neither a metatype argument nor an
    /// optional container, whose handling in the caller's generic code
    /// looks `KeyedDecodingContainer<Key>`'s metadata up at run time, the
    /// cost this table exists to avoid.
    @inline(__always)
    func reuse<Container>(_ type: ObjectIdentifier, depth: Int, reset: (State) -> Void) -> Unretained<KeptContainerOf<Container>>? {
        guard let slots = unsafe slots else { return nil }
        var index = Self.home(of: type, depth: depth)
        for _ in 0..<Self.probes {
            let slot = unsafe slots + index
            guard let kept = unsafe slot.pointee.type else { return nil }
            if kept == type, unsafe slot.pointee.depth == depth {
                guard let lent = unsafe slot.pointee.lentHolder else { return nil }
                return unsafe lent._withUnsafeGuaranteedRef { holder in
                    guard holder.isUnique() else { return nil }
                    // Not retained: the table keeps it.
                    unsafe slot.pointee.state!._withUnsafeGuaranteedRef(reset)
                    assert(holder is KeptContainerOf<Container>, "a container kept for another type")
                    return Unretained(unsafe unsafeDowncast(holder, to: KeptContainerOf<Container>.self))
                }
            }
            index = (index + 1) & (Self.capacity - 1)
        }
        return nil
    }

    /// Whether the container just made is to be kept (counted: the first
    /// ``keepsAfter`` are not, so that small documents make no table).
    mutating func admits() -> Bool {
        made += 1
        return keeps && made > keepsAfter
    }

    /// Keeps a new container (in `holder`; its state is `state`) for `type`
    /// at `depth`, in place of one kept for the same, or in an empty slot,
    /// or in place of the one at the hash.
    mutating func keep(_ holder: KeptContainer, state: State, type: ObjectIdentifier, depth: Int) {
        if unsafe slots == nil {
            unsafe slots = .allocate(capacity: Self.capacity)
            unsafe slots!.initialize(repeating: Slot(), count: Self.capacity)
        }
        let slots = unsafe slots!
        let home = Self.home(of: type, depth: depth)
        var target = home
        var index = home
        for _ in 0..<Self.probes {
            let slot = unsafe slots[index]
            if slot.type == nil || (slot.type == type && slot.depth == depth) {
                target = index
                break
            }
            index = (index + 1) & (Self.capacity - 1)
        }
        unsafe slots[target] = unsafe Slot(
            type: type, depth: depth, holder: holder, lentHolder: .passUnretained(holder), state: .passUnretained(state))
    }
}

/// A kept `KeyedDecodingContainer` (``RecycledContainers``), type-erased so
/// the table can hold any key type's.
class KeptContainer {
    /// Whether the kept copy holds the only reference to the container's box.
    func isUnique() -> Bool { false }
}

/// A kept container of type `Container` (a `KeyedDecodingContainer<Key>`).
///
/// Generic over the container type itself, so that the container's
/// metadata is this object's generic argument: ``take()`` copies it out
/// without the runtime lookup that naming `KeyedDecodingContainer<Key>` in
/// the decoder's generic code costs.
final class KeptContainerOf<Container>: KeptContainer {
    /// The container's one reference to its box, held as an object: its
    /// uniqueness is then asked without going through `Container`, which
    /// in the table's unspecialised code took a generic pointer and a
    /// rebinding per container handed out.
    ///
    /// Optional, though never nil: under the Swift 6 language mode,
    /// passing an `inout AnyObject` to `isKnownUniquelyReferenced` opens
    /// the existential into a copy, and in an unoptimised build that copy
    /// is a second reference, so the box was never unique and debug builds
    /// (the test suite) never handed a kept container out. An
    /// `AnyObject?` is passed as it is.
    // One decode, one thread: no dynamic exclusivity checks.
    @exclusivity(unchecked) private var box: AnyObject?

    init(_ container: Container) {
        // `Container` is one reference to its box (``ContainerLayout``).
        unsafe box = unsafeBitCast(container, to: AnyObject.self)
    }

    /// A copy of the container (one more reference to its box).
    func take() -> Container { unsafe unsafeBitCast(box.unsafelyUnwrapped, to: Container.self) }

    override func isUnique() -> Bool { unsafe isKnownUniquelyReferenced(&box) }
}
