/// Keyed containers a decode made, kept to be handed out again for the next
/// object of the same type at the same depth.
///
/// Making a keyed container was ~1,700 instructions (callgrind, twitter.json
/// `Codable`: 1,264 containers a decode, an eighth of the decode after the
/// parse): the runtime looked up the metadata of `DocumentKeyedContainer<Key>`,
/// of the standard library's box around it and the conformance's witness
/// table, and allocated both objects. Handing a kept one out costs one
/// reset: the kept `KeyedDecodingContainer<Key>` is copied out of its
/// ``KeptContainer``, whose own metadata names the container's type, so no
/// lookup is made (a bit cast in the decoder's generic code looked
/// `KeyedDecodingContainer<Key>`'s metadata up each time, ~470
/// instructions, a third of a reuse).
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
/// This relies on `KeyedDecodingContainer` being one reference to its box,
/// as it has been since Swift 4; ``isAvailable`` checks that once at run
/// time (size, box type, a round trip), and without it nothing is kept.
struct RecycledContainers {
    private struct Slot {
        var type: ObjectIdentifier?
        var depth = 0
        var holder: KeptContainer?
        var state: Unmanaged<KeyedContainerState>?
    }

    /// Open addressing: a key type and depth probe up to ``probes`` slots
    /// from their hash; past that the one at the hash is replaced.
    private static let capacity = 128
    private static let probes = 8
    /// Made when the first container is kept: a decode that makes few
    /// containers pays for no table.
    private var slots: UnsafeMutablePointer<Slot>?
    /// Containers made before any is kept (small documents make one or two).
    private var made = 0
    private var keeps: Bool

    /// A table that keeps containers if `keeps` (and ``isAvailable``).
    init(keeps: Bool) {
        self.keeps = keeps && Self.isAvailable
    }

    /// Releases every kept container; none is kept after.
    mutating func empty() {
        keeps = false
        guard let slots else { return }
        // Only the slots that hold a container have anything to release;
        // an empty slot holds nothing (a nil holder, trivial fields), so it
        // is left as is rather than destroyed through the value witness,
        // a call per slot (128 for every decode that kept a container: a
        // streamed element's decode keeps a few, most of the table's cost).
        for index in 0..<Self.capacity where slots[index].type != nil {
            (slots + index).deinitialize(count: 1)
        }
        slots.deallocate()
        self.slots = nil
    }

    @inline(__always)
    private static func home(of type: ObjectIdentifier, depth: Int) -> Int {
        let mixed = (UInt(bitPattern: Int(bitPattern: type)) >> 3 ^ UInt(truncatingIfNeeded: depth) &* 0x9E37_79B9) &* 0x9E37_79B9_7F4A_7C15
        return Int(mixed >> UInt(UInt.bitWidth - 7))
    }

    /// The holder of a kept container for `type` at `depth` that nothing
    /// else holds (not retained: the table keeps it), its state pointed at
    /// `object`; nil if there is none.
    @inline(__always)
    func reuse(_ type: ObjectIdentifier, object: Int, trail: CodingTrail?, depth: Int, keepsKeys: Bool) -> Unmanaged<KeptContainer>? {
        guard let slots else { return nil }
        var index = Self.home(of: type, depth: depth)
        for _ in 0..<Self.probes {
            let slot = slots + index
            guard let kept = slot.pointee.type else { return nil }
            if kept == type, slot.pointee.depth == depth {
                let holder = Unmanaged.passUnretained(slot.pointee.holder!)
                guard holder._withUnsafeGuaranteedRef({ $0.isUnique() }) else { return nil }
                slot.pointee.state!._withUnsafeGuaranteedRef { $0.reset(object: object, trail: trail, depth: depth, keepsKeys: keepsKeys) }
                return holder
            }
            index = (index + 1) & (Self.capacity - 1)
        }
        return nil
    }

    /// Whether the container just made is to be kept (counted: the first
    /// two of a decode are not, so that small documents make no table).
    mutating func admits() -> Bool {
        made += 1
        return keeps && made > 2
    }

    /// Keeps a new container (in `holder`; its state is `state`) for `type`
    /// at `depth`, in place of one kept for the same, or in an empty slot,
    /// or in place of the one at the hash.
    mutating func keep(_ holder: KeptContainer, state: KeyedContainerState, type: ObjectIdentifier, depth: Int) {
        if slots == nil {
            slots = .allocate(capacity: Self.capacity)
            slots!.initialize(repeating: Slot(), count: Self.capacity)
        }
        let slots = slots!
        let home = Self.home(of: type, depth: depth)
        var target = home
        var index = home
        for _ in 0..<Self.probes {
            let slot = slots[index]
            if slot.type == nil || (slot.type == type && slot.depth == depth) {
                target = index
                break
            }
            index = (index + 1) & (Self.capacity - 1)
        }
        slots[target] = Slot(type: type, depth: depth, holder: holder, state: .passUnretained(state))
    }

    /// Whether `KeyedDecodingContainer` is laid out as this type expects:
    /// one reference to the standard library's box, which a bit cast can
    /// take out and put back.
    static let isAvailable: Bool = {
        guard MemoryLayout<KeyedDecodingContainer<StringKey>>.size == MemoryLayout<AnyObject>.size,
            MemoryLayout<KeyedDecodingContainer<StringKey>>.alignment == MemoryLayout<AnyObject>.alignment
        else { return false }
        let probe = KeyedDecodingContainer(LayoutProbe())
        let box = unsafeBitCast(probe, to: AnyObject.self)
        guard String(describing: type(of: box)).contains("KeyedDecodingContainerBox") else { return false }
        let back = unsafeBitCast(box, to: KeyedDecodingContainer<StringKey>.self)
        return back.codingPath.map(\.stringValue) == [LayoutProbe.mark]
    }()

    /// A container whose coding path marks it, for ``isAvailable``.
    private struct LayoutProbe: KeyedDecodingContainerProtocol {
        static let mark = "cartograph.layout-probe"
        var codingPath: [any CodingKey] { [StringKey(Self.mark)] }
        var allKeys: [StringKey] { [] }
        func contains(_ key: StringKey) -> Bool { false }
        func decodeNil(forKey key: StringKey) throws -> Bool { throw failure }
        func decode<T: Decodable>(_ type: T.Type, forKey key: StringKey) throws -> T { throw failure }
        func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: StringKey) throws -> KeyedDecodingContainer<NestedKey> {
            throw failure
        }
        func nestedUnkeyedContainer(forKey key: StringKey) throws -> any UnkeyedDecodingContainer { throw failure }
        func superDecoder() throws -> any Decoder { throw failure }
        func superDecoder(forKey key: StringKey) throws -> any Decoder { throw failure }
        private var failure: DecodingError { .dataCorrupted(DecodingError.Context(codingPath: codingPath, debugDescription: "a layout probe")) }
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
    // One decode, one thread: no dynamic exclusivity checks.
    @exclusivity(unchecked) private var container: Container

    init(_ container: Container) {
        self.container = container
    }

    /// A copy of the container (one more reference to its box).
    func take() -> Container { container }

    override func isUnique() -> Bool {
        // `Container` is one reference to its box (``RecycledContainers/isAvailable``).
        withUnsafeMutablePointer(to: &container) { pointer in
            pointer.withMemoryRebound(to: AnyObject.self, capacity: 1) { isKnownUniquelyReferenced(&$0.pointee) }
        }
    }
}
