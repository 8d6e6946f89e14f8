import Foundation

/// What a streaming keyed container writes through and into: a class, so
/// that a kept container (``RecycledContainers``) can be pointed at the
/// next object. Its targets are an ``ExclusiveState``, read in place on
/// the hot paths (``withTargets(_:)``), as ``TreeKeyedState``'s are.
class StreamKeyedState: ExclusiveState<StreamKeyedTargets> {
    /// A container for `encoder`'s object, which retains `encoder` unless
    /// `owned` is false: the encoder then keeps the container
    /// (``StreamEncoder``'s `keptState`) and answers for it.
    init(encoder: StreamEncoder, frame: Int, generation: Int, owned: Bool = true) {
        super.init(state: StreamKeyedTargets(encoder: encoder, owned: owned, frame: frame, generation: generation))
    }

    final func reset(encoder: StreamEncoder, frame: Int, generation: Int, owned: Bool) {
        state = StreamKeyedTargets(encoder: encoder, owned: owned, frame: frame, generation: generation)
    }

    /// Makes the container retain the encoder it writes through: a model
    /// holds a copy of it past the time its encoder kept it.
    final func pin() {
        guard state.owner == nil else { return }
        let encoder = self.encoder
        state = StreamKeyedTargets(encoder: encoder, owned: true, frame: state.frame, generation: state.generation)
    }

    /// The encoder (retained: for the paths that are not per member).
    final var encoder: StreamEncoder { state.encoder.with { $0 } }

    /// Whether this container writes through `encoder` (compared by address).
    final func writes(through encoder: StreamEncoder) -> Bool { state.encoder.refers(to: encoder) }
    final var frame: Int { state.frame }
    final var generation: Int { state.generation }

    /// The encoder and its run, borrowed for `body` (no reference counting).
    @inline(__always)
    final func withTargets<Result>(_ body: (StreamEncoder, StreamRun) throws -> Result) rethrows -> Result {
        try state.encoder.with { encoder in try body(encoder, encoder.run) }
    }
}

/// The encoder a streaming keyed container writes through, the frame of
/// the object it writes and that frame's generation (-1: a container
/// handed out after the stream was abandoned).
///
/// The encoder is held unretained, and retained again in `owner` unless
/// the encoder keeps the container as its own (a member's encoder that
/// the run reuses, ``StreamEncoder``'s `recycle`): pointing a kept
/// container at the next member's encoder, and pointing it away from the
/// last one so that it could be reused, cost four reference-count
/// operations for most nested values. Such an encoder outlives every use of its
/// container: the container is reached through the encoder, through the
/// run's table only to be pointed at another encoder, or through a copy a
/// model holds, which the encoder sees (the holder is not unique) and then
/// pins (``StreamKeyedState/pin()``) before it lets go.
struct StreamKeyedTargets {
    let encoder: Unretained<StreamEncoder>
    let owner: StreamEncoder?
    let frame: Int
    let generation: Int

    init(encoder: StreamEncoder, owned: Bool, frame: Int, generation: Int) {
        self.encoder = Unretained(encoder)
        owner = owned ? encoder : nil
        self.frame = frame
        self.generation = generation
    }
}

final class StreamKeyedContainer<Key: CodingKey>: StreamKeyedState, KeyedEncodingContainerProtocol {
    /// The bytes of a key that identify it (``KeyIdentity``), or -1 where
    /// keys are known by their names only.
    private let identityWidth = KeyIdentity.width(of: Key.self) ?? -1

    var codingPath: [any CodingKey] { encoder.codingPath }

    /// Begins the member `key`: separator, indentation, key. Returns
    /// where its bytes start, or -1 once the encode has ended (nothing is
    /// written). A key with an identity is first looked for in the
    /// object's template by it, without asking for its name.
    @inline(__always)
    private func begin(_ key: Key, _ encoder: StreamEncoder, _ run: StreamRun) throws -> Int {
        guard identityWidth >= 0 else { return try beginNamed(encoder.jsonKey(key), run) }
        let identity = KeyIdentity.of(key, width: identityWidth)
        let type = ObjectIdentifier(Key.self)
        if let start = run.state.beginTemplateMember(identity: identity, keyType: type, frame, generation) { return start }
        return try run.state.beginKeyedMember(encoder.jsonKey(key), frame, generation, identity: identity, keyType: type)
    }

    /// Begins a member by its JSON name (as ``begin(_:_:_:)``).
    @inline(__always)
    private func beginNamed(_ name: String, _ run: StreamRun) throws -> Int {
        try run.state.beginKeyedMember(name, frame, generation)
    }

    /// Inlined into each scalar `encode`, so that its write is made in
    /// place rather than through a closure's context and an indirect call.
    @inline(__always)
    private func put(_ key: Key, _ write: (inout NativeJSONWriter) -> Void) throws {
        try withTargets { encoder, run in
            guard try begin(key, encoder, run) >= 0 else { return }
            write(&run.state.writer)
        }
    }

    func encodeNil(forKey key: Key) throws { try put(key) { $0.sink.append(contentsOf: .null) } }
    func encode(_ value: Bool, forKey key: Key) throws { try put(key) { $0.sink.append(contentsOf: value ? .true : .false) } }
    func encode(_ value: String, forKey key: Key) throws { try put(key) { $0.writeString(value) } }
    func encode(_ value: Double, forKey key: Key) throws {
        guard value.isFinite else { return try encodeWhole(try encoder.nonFinite(value, key: key), forKey: key) }
        try put(key) { $0.writeDouble(value) }
    }
    func encode(_ value: Float, forKey key: Key) throws { try encodeWhole(try encoder.float(value, key: key), forKey: key) }
    func encode(_ value: Int, forKey key: Key) throws { try put(key) { $0.writeInteger(Int64(value)) } }
    func encode(_ value: Int8, forKey key: Key) throws { try put(key) { $0.writeInteger(Int64(value)) } }
    func encode(_ value: Int16, forKey key: Key) throws { try put(key) { $0.writeInteger(Int64(value)) } }
    func encode(_ value: Int32, forKey key: Key) throws { try put(key) { $0.writeInteger(Int64(value)) } }
    func encode(_ value: Int64, forKey key: Key) throws { try put(key) { $0.writeInteger(value) } }
    func encode(_ value: UInt, forKey key: Key) throws { try encodeWhole(.number(JSONNumber(UInt64(value))), forKey: key) }
    func encode(_ value: UInt8, forKey key: Key) throws { try put(key) { $0.writeInteger(Int64(value)) } }
    func encode(_ value: UInt16, forKey key: Key) throws { try put(key) { $0.writeInteger(Int64(value)) } }
    func encode(_ value: UInt32, forKey key: Key) throws { try put(key) { $0.writeInteger(Int64(value)) } }
    func encode(_ value: UInt64, forKey key: Key) throws { try encodeWhole(.number(JSONNumber(value)), forKey: key) }
    func encode(_ value: Int128, forKey key: Key) throws { try encodeWhole(.number(JSONNumber(wide: value)), forKey: key) }
    func encode(_ value: UInt128, forKey key: Key) throws { try encodeWhole(.number(JSONNumber(wide: value)), forKey: key) }
    func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try withTargets { encoder, run in
            let start = try begin(key, encoder, run)
            guard start >= 0 else { return }
            do {
                try encoder.encodeValue(value, key: key, frame: frame)
            } catch {
                run.state.undoMember(frame, from: start, key: encoder.jsonKey(key))
                throw error
            }
        }
    }

    /// The protocol's own default, with the value lent where the optional
    /// lies (``LentValue``): the default's `if let`, in unspecialised code,
    /// copied a nested struct whole (a retain per reference in it).
    func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
        _ = try LentValue.withWrapped(value) { try encode($0, forKey: key) }
    }

    /// A scalar the writer writes whole (finite: it cannot throw).
    private func encodeWhole(_ value: JSONValue, forKey key: Key) throws {
        try withTargets { encoder, run in
            guard try begin(key, encoder, run) >= 0 else { return }
            try run.state.writer.write(value, depth: frame, path: "")
        }
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        let nested = openNested(key, object: true)
        return KeyedEncodingContainer(
            StreamKeyedContainer<NestedKey>(encoder: nested.encoder, frame: frame + 1, generation: nested.generation))
    }

    func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let nested = openNested(key, object: false)
        return StreamUnkeyedContainer(encoder: nested.encoder, frame: frame + 1, generation: nested.generation)
    }

    /// Begins the member `key` and opens a container in it, with the
    /// encoder its values are encoded through (a generation of -1 where
    /// the stream was abandoned).
    private func openNested(_ key: Key, object: Bool) -> (encoder: StreamEncoder, generation: Int) {
        let encoder = self.encoder
        let run = encoder.run
        let trail = PathTrail(parent: encoder.trail, key: key)
        var nestedGeneration = -1
        if (try? beginNamed(encoder.jsonKey(key), run)) ?? -1 >= 0, let opened = try? run.state.push(object: object, at: frame + 1) {
            nestedGeneration = opened
        }
        let nested = StreamEncoder(
            run: run, trail: trail, depth: encoder.depth + 1, frame: frame, container: nestedGeneration, isObject: object)
        return (nested, nestedGeneration)
    }

    /// An encoder for the value under `"super"` (Foundation's spelling).
    func superEncoder() -> any Encoder { superEncoder(for: StringKey("super")) }

    func superEncoder(forKey key: Key) -> any Encoder { superEncoder(for: key) }

    /// The member is begun now and written by the super encoder; if
    /// anything else is written here first, it is `{}` (as in Foundation).
    private func superEncoder(for key: some CodingKey) -> any Encoder {
        let encoder = self.encoder
        let run = encoder.run
        let trail = PathTrail(parent: encoder.trail, key: key)
        var ticket = -1
        if (try? beginNamed(encoder.jsonKey(key), run)) ?? -1 >= 0 {
            ticket = run.state.newTicket()
            run.state.setPending(frame, ticket: ticket)
        }
        return StreamEncoder(run: run, trail: trail, depth: encoder.depth + 1, frame: frame, ticket: ticket)
    }
}
