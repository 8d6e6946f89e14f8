import Foundation

// The streaming `Codable` encoder: bytes are written as `encode(to:)` runs,
// with no tree in between.
//
//     struct User: Encodable { let id: Int; let tags: [String] }
//     try mapper.encode(User(id: 7, tags: ["a"]))
//
// The root encoder is given the root's place (frame 0 of the run's stack,
// StreamRun.swift). `User.encode(to:)` asks it for a keyed container: `{`
// is written and frame 1 opened. `encode(7, forKey: .id)` writes `"id":7`
// into frame 1; `encode(["a"], forKey: .tags)` writes `,"tags":` and
// hands the value the member's place, where it writes `["a"]`. When the
// root's `encode(to:)` returns, frame 1 is closed with `}`.
//
// A container stays open until something is written into a container
// below it: then everything above that one is closed, as a nested
// container ends when its parent writes again. Each container remembers
// the generation of its frame, so a write into one already closed is seen.
//
// Foundation's `Encoder` allows what a stream cannot write in order: a
// write into a container after its siblings were written, a key written
// twice (the tree keeps the last value in the first place), a value
// replaced by another, a super encoder used after its parent wrote on.
// Any of these abandons the stream (``StreamRun/abandon()``): the encode
// starts again with ``TreeEncoder``, which defines what every such case
// writes, so the output is the tree's byte for byte. So does an error
// thrown once a member's bytes are begun: the tree then throws it, with
// nothing half-written. The value's `encode(to:)` runs a second time in
// those cases. Sorted keys and coding-path key strategies go to the tree
// from the start (``StreamRun/streams(_:_:)``).
//
// The containers are StreamKeyedContainer.swift, StreamUnkeyedContainer.swift
// and StreamSingleValueContainer.swift.

/// The `Encoder` behind ``JSONMapper/encode(_:)-(T)`` for JSON output: it
/// writes the bytes as the value encodes itself.
final class StreamEncoder: ExclusiveState<ReusedMemberKey>, Encoder, EncoderChecks {
    let run: StreamRun
    // The fields below are set again when the encoder is reused for
    // another member (``reuse(parent:key:frame:ticket:)``).
    /// Nesting depth of this encoder's value (for ``CodableOptions/maxDepth``).
    private(set) var depth: Int
    /// The frame whose member this encoder's value is: its container is frame `frame + 1`.
    private(set) var frame: Int
    /// The ticket that lets this encoder write into its place (0: a
    /// nested container's encoder, whose place is already its container).
    private(set) var ticket: Int
    /// The generation of this encoder's container, 0 before it has one.
    private var containerGeneration = 0
    private var containerIsObject = false
    private var wroteValue = false
    /// Keys are written without the key strategy (a string-keyed dictionary's).
    private(set) var writesKeysAsGiven = false

    /// The encoder of the value this one's value is a member of, for the
    /// coding path. Unretained while this encoder is in use: its parent is
    /// the caller then, alive until this encoder's value is done. An
    /// encoder still held when its value is done (a model keeps it, or a
    /// container of it) retains its parent from then on (``recycle(_:)``),
    /// and that parent, held so, does the same when its own value is done.
    /// Retaining the parent of every nested value's encoder cost a retain
    /// and a release each.
    private var parent: Unretained<StreamEncoder>?
    /// The parent again, retained: from its creation for an encoder that is
    /// not recycled (``nested(key:frame:_:)``), and once pinned.
    private var heldParent: StreamEncoder?
    private var baseTrail: PathTrail?
    private var madeTrail: PathTrail??

    /// Whether this is a member's encoder that ``recycle(_:)`` will be
    /// called for, however its value's encode ends: only such an encoder
    /// records its kept container below, which holds it in turn (the
    /// cycle is broken there).
    private var recyclable = false
    /// The keyed container kept for this encoder's value in the run's
    /// table (``RecycledContainers``), and its state: let go of when the
    /// value is done (``recycle(_:)``).
    private var keptHolder: KeptContainer?
    /// `keptHolder` again, unretained, to ask it without a retain.
    private var lentKeptHolder: Unretained<KeptContainer>?
    /// Whether the kept container was taken for the value being encoded
    /// now: one kept for an earlier value was checked when that value was
    /// done (``recycle(_:)``), and is not checked again when it is replaced.
    private var keptForThisValue = false
    private var keptState: StreamKeyedState?
    /// The next spare encoder, while this one is spare (``StreamStack/spare``).
    private var nextSpare: StreamEncoder?

    var options: CodableOptions { run.options }
    var maxDepth: Int { run.options.maxDepth }
    var registry: ModelRegistry { run.registry }
    var propertyList: Bool { false }

    /// An encoder for the value in `ticket`'s place in `frame`, with its
    /// coding path given whole.
    init(run: StreamRun, trail: PathTrail?, depth: Int, frame: Int, ticket: Int) {
        self.run = run
        baseTrail = trail
        parent = nil
        self.depth = depth
        self.frame = frame
        self.ticket = ticket
        super.init(state: ReusedMemberKey())
    }

    /// The encoder of a member of `parent`'s value, under `key` (taken
    /// over, not copied).
    init(run: StreamRun, parent: StreamEncoder, retained: Bool, key: some CodingKey, frame: Int, ticket: Int) {
        self.run = run
        self.parent = Unretained(parent)
        heldParent = retained ? parent : nil
        baseTrail = nil
        depth = parent.depth + 1
        self.frame = frame
        self.ticket = ticket
        super.init(state: ReusedMemberKey(key: key))
    }

    /// The encoder of a nested container already opened as frame `frame + 1`.
    init(run: StreamRun, trail: PathTrail, depth: Int, frame: Int, container generation: Int, isObject: Bool) {
        self.run = run
        baseTrail = trail
        parent = nil
        self.depth = depth
        self.frame = frame
        ticket = 0
        containerGeneration = generation
        containerIsObject = isObject
        super.init(state: ReusedMemberKey())
    }

    /// The coding path as a chain, made on first use.
    var trail: PathTrail? {
        if let madeTrail = madeTrail { return madeTrail }
        let made = state.memberKey.map { PathTrail(parent: parent?.with { $0.trail } ?? baseTrail, key: $0) } ?? baseTrail
        madeTrail = .some(made)
        return made
    }

    var codingPath: [any CodingKey] { PathTrail.codingKeys(trail) }
    var userInfo: [CodingUserInfoKey: Any] { options.userInfo }

    // MARK: Containers

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        guard let generation = openContainer(object: true, keyType: Key.self) else {
            return newKeyedContainer(Key.self, generation: -1)
        }
        if let lent: Unretained<KeptContainerOf<KeyedEncodingContainer<Key>>> = run.state.recycled.reuse(
            ObjectIdentifier(Key.self), depth: frame,
            reset: {
                $0.reset(encoder: self, frame: frame + 1, generation: generation, owned: !recyclable)
                if recyclable { keep($0) }
            })
        {
            return lent.with { kept in
                if recyclable { keep(holder: kept) }
                return kept.take()
            }
        }
        return newKeyedContainer(Key.self, generation: generation)
    }

    /// A new keyed container, kept if the run's table admits it (not
    /// inlined: see ``TreeEncoder``'s).
    @inline(never)
    private func newKeyedContainer<Key: CodingKey>(_: Key.Type, generation: Int) -> KeyedEncodingContainer<Key> {
        let kept = generation > 0 && run.state.recycled.admits()
        // A container this encoder keeps does not retain it (``StreamKeyedTargets``).
        let state = StreamKeyedContainer<Key>(encoder: self, frame: frame + 1, generation: generation, owned: !(kept && recyclable))
        let container = KeyedEncodingContainer(state)
        if kept {
            let holder = KeptContainerOf(container)
            run.state.recycled.keep(holder, state: state, type: ObjectIdentifier(Key.self), depth: frame)
            if recyclable {
                keep(state)
                keep(holder: holder)
            }
        }
        return container
    }

    /// Keeps `state` as the container of this encoder's value, first
    /// pinning the one it replaces if that was taken for this value too
    /// (two containers of one object). Most often it is the one this
    /// encoder kept last (``recycle(_:)``), and nothing is assigned.
    /// Called before ``keep(holder:)``: the pin asks the old holder.
    @inline(__always)
    private func keep(_ state: StreamKeyedState) {
        if keptState !== state {
            if keptForThisValue { pinKeptContainerIfShared() }
            keptState = state
        }
        keptForThisValue = true
    }

    /// Keeps the holder of the kept container, retained and lent.
    @inline(__always)
    private func keep(holder: KeptContainer) {
        guard keptHolder !== holder else { return }
        keptHolder = holder
        lentKeptHolder = Unretained(holder)
    }

    /// When this encoder stops answering for the container it kept (it
    /// keeps another one, or its value is done): if that container still
    /// writes through this encoder and a model holds a copy of it, it
    /// retains the encoder from now on.
    private func pinKeptContainerIfShared() {
        guard keptState?.writes(through: self) == true, keptContainerIsShared else { return }
        keptState?.pin()
    }

    /// Whether anything besides the run's table and this encoder holds the
    /// container it kept (a model's copy). Asked of the holder unretained:
    /// retained around the call, it cost a retain and a release per
    /// nested value.
    @inline(__always)
    private var keptContainerIsShared: Bool {
        guard let holder = lentKeptHolder else { return true }
        return !holder.with { $0.isUnique() }
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer { streamingUnkeyedContainer() }

    /// ``unkeyedContainer()`` as its own type (for ``StreamedArray``).
    func streamingUnkeyedContainer() -> StreamUnkeyedContainer {
        StreamUnkeyedContainer(encoder: self, frame: frame + 1, generation: openContainer(object: false) ?? -1)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        StreamSingleValueContainer(encoder: self)
    }

    /// The generation of this encoder's container of that kind: the one it
    /// has (made innermost again), or a new one in its place. Nil, having
    /// abandoned, where the stream cannot give one (a container of the
    /// other kind, a closed one, a place already written).
    private func openContainer(object: Bool, keyType: (any CodingKey.Type)? = nil) -> Int? {
        if containerGeneration != 0 {
            guard containerIsObject == object, run.state.isOpen(frame + 1, containerGeneration) else {
                _ = run.state.abandon()
                return nil
            }
            run.state.closeAbove(frame + 1)
            return containerGeneration
        }
        guard !wroteValue, run.state.takePlace(frame, ticket: ticket),
            let generation = try? run.state.push(object: object, at: frame + 1, keyType: keyType)
        else {
            _ = run.state.abandon()
            return nil
        }
        containerGeneration = generation
        containerIsObject = object
        return generation
    }

    /// Takes this encoder's place for a single value; a second value, or one
    /// after a container, abandons. False, writing nothing, once the encode has ended.
    func beginSingleValue() throws -> Bool {
        if run.state.ended { return false }
        guard !wroteValue, containerGeneration == 0, run.state.takePlace(frame, ticket: ticket) else { throw run.state.abandon() }
        wroteValue = true
        return true
    }

    // MARK: Keys

    func jsonKey(_ key: some CodingKey) -> String {
        if writesKeysAsGiven || run.keysAsGiven { return key.stringValue }
        switch run.options.keys {
        case .useDefaultKeys: return key.stringValue
        case .fuzzy: return NamingStrategy.droppingFuzzyPrefix(key.stringValue)
        case .snakeCase, .snakeCaseRoundTrip: return KeyConversion.converted(key.stringValue, run.options.keys, cache: &run.state.convertedKeys)
        // Never streamed (StreamRun.streams): the tree encoder calls these.
        case .custom, .codingPath: return key.stringValue
        }
    }

    /// A `[String: Value]` dictionary's keys are data, written as they are
    /// under a key strategy (as Foundation's encoder does).
    private func keepDictionaryKeys<T>(_: T.Type) {
        if run.options.keys.convertsKeys, run.state.dictionaryTypes.isStringDictionary(T.self) { writesKeysAsGiven = true }
    }

    // MARK: Values

    /// Writes `value` into the member just begun in `frame` (its separator
    /// and key written, its place empty), as the member `key` of this
    /// encoder's value. On an error the caller undoes the member
    /// (``StreamRun/undoMember(_:from:key:)``).
    func encodeValue<T: Encodable, Key: CodingKey>(_ value: T, key: Key, frame: Int) throws {
        // The key stays its own type until the child encoder keeps it: made
        // an existential here (an optional one, lent to the checks), it
        // cost a value-witness call to move it into the child and one to
        // destroy the emptied optional, ~4.6% of twitter.json's encode.
        // Only a value that may be special, or that fails a check, makes
        // an existential key before that.
        let special = SpecialEncoding.of(T.self)
        if special != nil || !run.registryIsEmpty,
            try writeSpecial(value, special, key: key, frame: frame, wrapsModelErrors: true, below: true)
        {
            return
        }
        if !hasRoomBelow { try refuseDepth(value, key: key) }
        let ticket = run.state.newTicket()
        run.state.setPending(frame, ticket: ticket)
        let child: StreamEncoder
        // Moved out of the list, not copied: a copy was a retain and a release each.
        if let spare = run.state.spare.take() {
            run.state.spare = spare.nextSpare.take()
            spare.reuse(parent: self, key: key, frame: frame, ticket: ticket)
            child = spare
        } else {
            child = StreamEncoder(run: run, parent: self, retained: false, key: key, frame: frame, ticket: ticket)
        }
        child.recyclable = true
        child.keepDictionaryKeys(T.self)
        // Handed to `recycle` on both paths rather than from a `defer`, so
        // that it is moved onto the spare list, not copied there and then
        // released here (a retain and a release per nested value).
        // `consume`: an unoptimised build otherwise keeps `child` alive here
        // through the call, so `recycle` never saw it unique and debug
        // builds (the tests) never reused an encoder.
        do {
            try child.encodeContents(value)
        } catch {
            recycle(consume child)
            throw error
        }
        run.state.finishPlace(frame, ticket: ticket)
        recycle(consume child)
    }

    // MARK: Reuse

    /// After `child`'s value is written (or has thrown): if a model holds
    /// a copy of the keyed container kept for it, that container retains
    /// `child` from now on (it keeps its encoder and its coding path), and
    /// if then nothing else holds `child` (such a container, an encoder
    /// below it, the caller), it becomes the run's next spare. An encoder
    /// anything still holds is never reused.
    ///
    /// Made and freed per nested value, an encoder cost ~520 instructions
    /// (the allocation, the deinit's walk of the parent chain, the free);
    /// reused, what is left is letting go of what it held. twitter.json's
    /// encode: 20.39M → 19.92M instructions a round, and no allocation
    /// per nested value.
    ///
    /// The kept container and its holder stay in `child`: its next value
    /// nearly always takes the same container again (the next element of
    /// an array, the same member of the next object), and then nothing is
    /// assigned (``container(keyedBy:)`` compares first). The container
    /// holds `child` unretained (``StreamKeyedTargets``), so neither keeps
    /// the other alive: before, a done container was pointed at the root's
    /// encoder so that `child` could be reused, and back at the next
    /// member's, four reference-count operations for most nested values. A
    /// pinned container is let go of, or the two would hold each other.
    @inline(__always)
    private func recycle(_ child: consuming StreamEncoder) {
        child.recyclable = false
        child.keptForThisValue = false
        // A pinned container holds `child`, which is then let go of below.
        child.pinKeptContainerIfShared()
        guard isKnownUniquelyReferenced(&child) else {
            // Still held: its coding path may be asked for later. It is
            // never reused, so it lets go of the container it kept: one
            // pinned just now would otherwise hold it in turn, and one
            // kept for an earlier value at another depth (a spare reused
            // for an array keeps its last object's) may have been handed
            // since to an encoder below this one, whose model kept it,
            // pinning it to that encoder, which holds this one: a cycle.
            if child.heldParent == nil { child.heldParent = child.parent?.with { $0 } }
            child.keptHolder = nil
            child.lentKeptHolder = nil
            child.keptState = nil
            return
        }
        // The key stays until the encoder's next use replaces it: one
        // assignment through the existential's value witnesses, not two.
        child.parent = nil
        child.madeTrail = nil
        child.nextSpare = run.state.spare.take()
        run.state.spare = consume child
    }

    /// Makes a spare encoder the encoder of a member of `parent`'s value,
    /// as ``init(run:parent:retained:key:frame:ticket:)`` makes a new one.
    private func reuse(parent: StreamEncoder, key: some CodingKey, frame: Int, ticket: Int) {
        // Only member encoders are reused (``recycle(_:)``), so the flag
        // already says there is a key.
        assert(state.hasKey)
        self.parent = Unretained(parent)
        state.key = key
        depth = parent.depth + 1
        self.frame = frame
        self.ticket = ticket
        containerGeneration = 0
        containerIsObject = false
        wroteValue = false
        writesKeysAsGiven = false
    }

    /// Writes a value a single-value container holds into this encoder's
    /// place: one level deeper, the same coding path. On an error the place
    /// is empty again, as the tree encoder leaves it.
    func encodeNested<T: Encodable>(_ value: T) throws {
        let start = run.state.writer.sink.count
        guard try beginSingleValue() else { return }
        do {
            if try writeSpecial(value, SpecialEncoding.of(T.self), key: nil, frame: frame, wrapsModelErrors: false, below: true) { return }
            try checkDepth(value, key: nil)
            let ticket = run.state.newTicket()
            run.state.setPending(frame, ticket: ticket)
            let child = StreamEncoder(run: run, trail: trail, depth: depth + 1, frame: frame, ticket: ticket)
            child.keepDictionaryKeys(T.self)
            try child.encodeContents(value)
            run.state.finishPlace(frame, ticket: ticket)
        } catch {
            if run.state.undoPlace(frame, ticket: ticket, from: start) { wroteValue = false }
            throw error
        }
    }

    /// Encodes the root value (this is the root's encoder). With
    /// `requiringValue`, a value that encodes nothing throws, as Foundation's
    /// encoders do at the top level.
    func encodeRoot<T: Encodable>(_ value: T, requiringValue: Bool) throws {
        defer { run.state.recycled.empty() }
        guard run.state.takePlace(frame, ticket: ticket) else { throw run.state.abandon() }
        if try writeSpecial(value, SpecialEncoding.of(T.self), key: nil, frame: frame, wrapsModelErrors: false, below: false) { return }
        run.state.setPending(frame, ticket: ticket)
        keepDictionaryKeys(T.self)
        try encodeContents(value)
        if requiringValue, !run.state.abandoned, run.state.frames[frame].pendingTicket == ticket {
            throw invalid(value, "Top-level \(T.self) did not encode any values.", key: nil)
        }
        run.state.finishPlace(frame, ticket: ticket)
    }

    /// `value.encode(to: self)`, or for an array of `Encodable` elements
    /// the same calls made here (``StreamedArray``).
    @inline(__always)
    private func encodeContents<T: Encodable>(_ value: T) throws {
        if let array = run.state.arrayTypes.streamedArray(T.self) {
            try encodeElements(of: value, as: array)
        } else {
            try value.encode(to: self)
        }
    }

    /// The elements of `value`, an `A` (the array type opened from its
    /// metatype, whose metadata is then at hand: named in a static method
    /// of `Array`, the array type was looked up per array).
    private func encodeElements<T, A: StreamedArray>(of value: T, as _: A.Type) throws {
        try sameType(value, as: A.self).encodeElements(to: self)
    }

    /// Writes the values with a JSON form of their own (dates, data, URLs,
    /// decimals, `JSONValue`s, registered models) and arrays of the common
    /// scalars; false for any other value. Its own types first
    /// (``SpecialEncoding``), then registered models. A registered model's error is wrapped with the
    /// member's key where the tree wraps it (a member), and thrown as it is
    /// where the tree throws it so (the root, a single value). `below`: the
    /// value is a level below this encoder's (a member, or what a single
    /// value holds), with the depth check `encode(to:)` would meet first;
    /// false for the root. `special` is ``SpecialEncoding/of(_:)`` for `T`,
    /// asked by the caller.
    private func writeSpecial<T: Encodable>(
        _ value: T, _ special: SpecialEncoding?, key: (any CodingKey)?, frame: Int, wrapsModelErrors: Bool, below: Bool
    ) throws -> Bool {
        if let kind = special {
            // The kind says what T is: `sameType` then reinterprets the value without a dynamic cast.
            switch kind {
            case .doubles:
                let generation = try run.state.push(object: false, at: frame + 1)
                for (index, element) in sameType(value, as: [Double].self).enumerated() {
                    if element.isFinite {
                        _ = try run.state.beginMember(frame + 1, generation)
                        run.state.writer.writeDouble(element)
                    } else {
                        let replacement = try nonFinite(element, key: key, index: index)
                        _ = try run.state.beginMember(frame + 1, generation)
                        try run.state.writer.write(replacement, depth: frame + 1, path: "")
                    }
                }
                run.state.closeAbove(frame)
            case .integers: return try writeArray(sameType(value, as: [Int].self), frame: frame) { $0.writeInteger(Int64($1)) }
            case .strings: return try writeArray(sameType(value, as: [String].self), frame: frame) { $0.writeString($1) }
            case .int64s: return try writeArray(sameType(value, as: [Int64].self), frame: frame) { $0.writeInteger($1) }
            case .booleans: return try writeArray(sameType(value, as: [Bool].self), frame: frame) { $0.sink.append(contentsOf: $1 ? .true : .false) }
            case .date: try writeDate(sameType(value, as: Date.self), key: key, frame: frame)
            case .data: try writeData(sameType(value, as: Data.self), key: key, frame: frame)
            case .decimal: try run.state.writer.writeNumber(JSONNumber(sameType(value, as: Decimal.self)), path: "")
            case .url: run.state.writer.writeString(sameType(value, as: URL.self).absoluteString)
            case .jsonValue: try writeWhole(sameType(value, as: JSONValue.self), frame: frame)
            case .doubleRows:
                // The depth checks `encode(to:)` would meet: the value's own, and (below) its rows'.
                if below { try checkDepth(value, key: key) }
                try writeRows(value, matrices: false, frame: frame)
            case .doubleMatrices:
                if below { try checkDepth(value, key: key) }
                // Too deep for the rows: `encode(to:)` reports it, with the path.
                guard (below ? depth + 1 : depth) < maxDepth else { return false }
                try writeRows(value, matrices: true, frame: frame)
            }
            return true
        }
        if !run.registryIsEmpty, let entry = run.state.registeredEntries.registeredEntry(for: T.self, in: registry) {
            // Streamed into the run's buffer through a copy of its writer
            // (no access to the run held while the model's rules run). On
            // an error its bytes are cut off and the tree below reports it
            // (MappingStream.swift).
            var writer = run.state.writer
            let start = writer.sink.count
            do {
                try entry.streamValue(value, EncodingContext(session: run.mappingSession), &writer, frame)
                return true
            } catch {
                writer.sink.truncate(to: start)
            }
            let encoded: EncodedValue
            do {
                encoded = try entry.encodeValue(value, EncodingContext(registry: registry, profile: .json))
            } catch let error as CartographError where wrapsModelErrors {
                throw invalid(value, error.message, key: key)
            }
            do {
                try run.state.writer.write(encoded, depth: frame, path: "")
            } catch {
                // The tree's writer reports it, with its path.
                throw run.state.abandon()
            }
            return true
        }
        return false
    }

    /// Rows of doubles (`[[Double]]`), or a list of such (`[[[Double]]]`,
    /// `matrices`), into the member begun in `frame`, by the writer alone:
    /// nothing else can write in between, so no frame is opened for them.
    /// A NaN or an infinity abandons the stream (the tree then writes what
    /// the options make of it, or throws with its path), and so does the
    /// writer's depth limit (the tree's writer reports it).
    private func writeRows(_ value: some Encodable, matrices: Bool, frame: Int) throws {
        func checkFinite(_ rows: [[Double]]) throws {
            for row in rows {
                for element in row where !element.isFinite { throw run.state.abandon() }
            }
        }
        guard matrices else {
            let rows = sameType(value, as: [[Double]].self)
            try checkFinite(rows)
            do {
                return try Double.writeJSONMatrix(rows, into: &run.state.writer, depth: frame)
            } catch {
                throw run.state.abandon()
            }
        }
        let list = sameType(value, as: [[[Double]]].self)
        for rows in list { try checkFinite(rows) }
        do {
            try run.state.writer.open(UInt8(ascii: "["), depth: frame, path: "")
            for position in 0..<list.count {
                run.state.writer.beginElement(position, depth: frame)
                try Double.writeJSONMatrix(list[position], into: &run.state.writer, depth: frame + 1)
            }
            run.state.writer.close(UInt8(ascii: "]"), count: list.count, depth: frame)
        } catch {
            throw run.state.abandon()
        }
    }

    private func writeArray<Element>(_ elements: [Element], frame: Int, _ write: (inout NativeJSONWriter, Element) -> Void) throws -> Bool {
        let generation = try run.state.push(object: false, at: frame + 1)
        for element in elements {
            _ = try run.state.beginMember(frame + 1, generation)
            write(&run.state.writer, element)
        }
        run.state.closeAbove(frame)
        return true
    }

    /// A whole `JSONValue`, written by the writer; what it refuses (a NaN
    /// inside, too deep) the tree's writer reports, with its path.
    private func writeWhole(_ value: JSONValue, frame: Int) throws {
        do {
            try run.state.writer.write(value, depth: frame, path: "")
        } catch {
            throw run.state.abandon()
        }
    }

    private func writeDate(_ date: Date, key: (any CodingKey)?, frame: Int) throws {
        switch options.dates {
        case .deferredToDate: try writeDouble(date.timeIntervalSinceReferenceDate, key: key, frame: frame)
        case .secondsSince1970: try writeDouble(date.timeIntervalSince1970, key: key, frame: frame)
        case .millisecondsSince1970:
            let millis = date.timeIntervalSince1970 * 1000
            if let whole = Int64(exactly: millis) { return run.state.writer.writeInteger(whole) }
            try writeDouble(millis, key: key, frame: frame)
        case .iso8601(let fractional): run.state.writer.writeString(try DateFormats.iso8601String(date, fractional: fractional))
        case .formatted(let format, let timeZone):
            run.state.writer.writeString(LockedFormatter.shared(format: format, timeZone: timeZone).string(from: date))
        case .custom(_, let encode):
            try nested(key: key, frame: frame) { try encode(date, $0) }
        }
    }

    private func writeData(_ data: Data, key: (any CodingKey)?, frame: Int) throws {
        switch options.data {
        case .base64: run.state.writer.writeString(data.base64EncodedString())
        case .deferredToData: try nested(key: key, frame: frame) { encoder in try Array(data).encode(to: encoder) }
        case .custom(_, let encode): try nested(key: key, frame: frame) { try encode(data, $0) }
        }
    }

    private func writeDouble(_ value: Double, key: (any CodingKey)?, frame: Int) throws {
        if value.isFinite { return run.state.writer.writeDouble(value) }
        try writeWhole(try nonFinite(value, key: key), frame: frame)
    }

    /// A value a closure encodes (a custom date or data strategy) in the
    /// member's place, through an encoder of its own.
    private func nested(key: (any CodingKey)?, frame: Int, _ body: (StreamEncoder) throws -> Void) throws {
        let ticket = run.state.newTicket()
        run.state.setPending(frame, ticket: ticket)
        let child =
            key.map { StreamEncoder(run: run, parent: self, retained: true, key: $0, frame: frame, ticket: ticket) }
            ?? StreamEncoder(run: run, trail: trail, depth: depth + 1, frame: frame, ticket: ticket)
        try body(child)
        run.state.finishPlace(frame, ticket: ticket)
    }
}

extension StreamEncoder {
    /// Encodes `value` as JSON bytes, streaming (into `lease`'s memory if
    /// one is given), and hands the buffer holding them to `body`; nil if
    /// the value cannot be streamed (the caller then encodes it with the
    /// tree encoder).
    static func encode<T: Encodable, Result>(
        _ value: T, options: CodableOptions, writeOptions: WriteOptions, registry: ModelRegistry, requiringValue: Bool = true,
        lease: OutputLease? = nil, finishing body: (OutputBuffer) throws -> Result
    ) throws -> Result? {
        let run = StreamRun(options: options, writeOptions: writeOptions, registry: registry, lease: lease)
        let root = StreamEncoder(run: run, trail: nil, depth: 0, frame: 0, ticket: run.state.newTicket())
        run.state.setPending(0, ticket: root.ticket)
        // Containers kept past the encode write nothing from here on, also
        // while the tree encodes the value again. The run lets go of the
        // encoders it holds (they hold it).
        defer {
            run.state.ended = true
            run.state.spare = nil
        }
        do {
            try root.encodeRoot(value, requiringValue: requiringValue)
        } catch {
            if run.state.abandoned { return nil }
            throw error
        }
        if run.state.abandoned { return nil }
        // The caller's closure runs after the state's modification ends.
        let output = run.state.finish()
        return try body(output)
    }

    /// ``encode(_:options:writeOptions:registry:requiringValue:_:)`` as an array.
    static func encode<T: Encodable>(
        _ value: T, options: CodableOptions, writeOptions: WriteOptions, registry: ModelRegistry, requiringValue: Bool = true
    ) throws -> [UInt8]? {
        try encode(value, options: options, writeOptions: writeOptions, registry: registry, requiringValue: requiringValue) { $0.bytes }
    }
}

/// The key of the member a ``StreamEncoder``'s value is (none for the
/// root and for a nested container's encoder), in an ``ExclusiveState``:
/// it is set again when the encoder is reused, and an assignment to an
/// existential field of the class itself began a run-time exclusivity
/// check (the old key's destruction may run any code), two per nested
/// value, more than reusing the encoder saved.
///
/// Not an optional: assigning an optional existential went through the
/// optional's value witnesses (each side's case asked) around the
/// existential's own, ~1% of twitter.json's `Codable` encode.
struct ReusedMemberKey {
    /// The member's key; a placeholder where ``hasKey`` is false.
    var key: any CodingKey
    let hasKey: Bool

    /// No key: the root's encoder, or a nested container's.
    init() {
        key = IndexKey(0)
        hasKey = false
    }

    init(key: some CodingKey) {
        self.key = key
        hasKey = true
    }

    /// The member's key, nil where there is none.
    var memberKey: (any CodingKey)? { hasKey ? key : nil }
}
