import Foundation

/// Thrown through `encode(to:)` when a value cannot be written in order
/// (``StreamRun/abandon()``): the encode starts again with the tree encoder.
struct StreamAbandoned: Error {}

/// One container the streaming encoder has opened and not yet closed.
struct StreamFrame {
    /// Which container this is: a container keeps the generation of the
    /// frame it writes into, and a frame reused at the same level gets a new one.
    var generation = 0
    var isObject = false
    /// Members written.
    var count = 0
    /// The ticket of the encoder whose value is the member written last and
    /// not yet begun (0: none): that encoder may begin it, and anything
    /// else written here first settles it as `{}`.
    var pendingTicket = 0
    /// The keys written, for objects (a repeated key abandons the stream).
    var keys = StreamKeyLog()
}

/// The keys of one object, to find a key written twice (which the tree
/// encoder writes once, in its first place, with the last value).
///
/// The same tests as ``EncodingObject``'s, so that the stream finds every
/// repeat the tree finds: below ``EncodingObject/indexThreshold`` keys a
/// signature bit, then UTF-8 length and `String` equality; past it a hash
/// of the bytes while every key is ASCII (``ASCIIKeyIndex``), a `Set` of
/// the keys once one is not. Arrays are kept from object to object at the
/// same level.
struct StreamKeyLog {
    private var signatures: UInt64 = 0
    private var keys: [String] = []
    private var asciiIndex = ASCIIKeyIndex()
    private var index: Set<String>?

    mutating func reset() {
        signatures = 0
        if !keys.isEmpty { keys.removeAll(keepingCapacity: true) }
        if !asciiIndex.isEmpty { asciiIndex = ASCIIKeyIndex() }
        index = nil
    }

    /// Forgets `key`, the last one recorded (its member's value threw).
    /// Its signature bit stays set: the bits only say where to look.
    mutating func removeLast(_ key: String) {
        if index != nil {
            index!.remove(key)
        } else if keys.last == key {
            keys.removeLast()
            // The hash index has no removal: built again from the keys if needed.
            if !asciiIndex.isEmpty { asciiIndex = ASCIIKeyIndex() }
        }
    }

    /// Records `key`; false if it was already written in this object.
    mutating func insert(_ key: String) -> Bool {
        if index != nil { return index!.insert(key).inserted }
        if keys.count >= EncodingObject.indexThreshold { return insertIndexed(key) }
        let length = key.utf8.count
        let bit = EncodingObject.signatureBit(of: key, length: length)
        if signatures & bit != 0 {
            for known in keys where known.utf8.count == length && known == key { return false }
        }
        signatures |= bit
        keys.append(key)
        return true
    }

    private mutating func insertIndexed(_ key: String) -> Bool {
        let keys = self.keys
        if let hash = ASCIIKeyIndex.hash(of: key), !asciiIndex.isEmpty || asciiIndex.fill(keys.count, { keys[$0] }) {
            if asciiIndex.position(of: key, hash: hash, { keys[$0] }) != nil { return false }
            asciiIndex.insert(hash, position: keys.count)
            self.keys.append(key)
            return true
        }
        var all = Set(keys)
        let inserted = all.insert(key).inserted
        index = all
        asciiIndex = ASCIIKeyIndex()
        return inserted
    }
}

/// What one streaming encode shares: the writer, the stack of open
/// containers, and what every encoder of the value reads (options,
/// registry, converted keys, recycled containers).
///
/// Frame 0 is the root's place, never closed; frame `f` above it is a
/// container at output level `f - 1`, whose members sit at level `f`.
final class StreamRun {
    let options: CodableOptions
    let registry: ModelRegistry
    let registryIsEmpty: Bool
    @exclusivity(unchecked) var writer: NativeJSONWriter
    @exclusivity(unchecked) var convertedKeys: [String: String] = [:]
    @exclusivity(unchecked) private(set) var frames: [StreamFrame] = [StreamFrame()]
    /// Frames open, the root's included.
    @exclusivity(unchecked) private(set) var open = 1
    @exclusivity(unchecked) private var lastTicket = 0
    /// Set when a value could not be written in order: nothing after it is
    /// written, and the caller encodes again with the tree encoder.
    @exclusivity(unchecked) private(set) var abandoned = false
    /// Set when the encode has returned: a container kept past it writes
    /// nothing (as Foundation's `JSONEncoder` drops such writes) and throws nothing.
    @exclusivity(unchecked) var ended = false
    @exclusivity(unchecked) var recycled: RecycledContainers<StreamKeyedState>

    /// Whether values with these options can be streamed. Sorted keys need
    /// every key of an object first; a custom key strategy must be called
    /// in the order Foundation calls it (a value's keys before its own), so
    /// both go to the tree encoder.
    static func streams(_ options: CodableOptions, _ writeOptions: WriteOptions) -> Bool {
        if writeOptions.sortedKeys { return false }
        switch options.keys {
        case .useDefaultKeys, .snakeCase, .snakeCaseRoundTrip, .fuzzy: return true
        case .custom, .codingPath: return false
        }
    }

    init(options: CodableOptions, writeOptions: WriteOptions, registry: ModelRegistry, capacity: Int = 4096) {
        self.options = options
        self.registry = registry
        registryIsEmpty = !registry.hasEntries
        unsafe writer = NativeJSONWriter(options: writeOptions, capacity: capacity)
        unsafe recycled = RecycledContainers(keeps: ContainerLayout.keyedEncoding, after: 16)
    }

    /// A ticket for an encoder's place: unique within the encode.
    @inline(__always)
    func newTicket() -> Int {
        unsafe lastTicket &+= 1
        return unsafe lastTicket
    }

    /// Gives up streaming: the encode is done again by the tree encoder.
    func abandon() -> StreamAbandoned {
        unsafe abandoned = true
        return StreamAbandoned()
    }

    // MARK: Frames

    /// Whether `frame` is still open as the container of that generation.
    @inline(__always)
    func isOpen(_ frame: Int, _ generation: Int) -> Bool {
        unsafe frame < open && frames[frame].generation == generation && !abandoned
    }

    /// Makes `frame` the innermost open container: the containers above it
    /// are closed (a nested container ends when its parent writes again).
    @inline(__always)
    func closeAbove(_ frame: Int) {
        while unsafe open > frame + 1 { closeTop() }
    }

    private func closeTop() {
        let top = unsafe open - 1
        settlePending(top)
        let frame = unsafe frames[top]
        if frame.count == 0 {
            if unsafe writer.foundationLayout { unsafe writer.emptyContainerLines(top - 1) }
        } else {
            unsafe writer.newline(top - 1)
        }
        unsafe writer.sink.append(frame.isObject ? UInt8(ascii: "}") : UInt8(ascii: "]"))
        unsafe open -= 1
    }

    /// Writes `{}` for a member whose encoder wrote nothing (as the tree
    /// encoder does), so that nothing else is written in its place.
    func settlePending(_ frame: Int) {
        guard unsafe frames[frame].pendingTicket != 0 else { return }
        unsafe frames[frame].pendingTicket = 0
        writeEmptyObject(level: frame)
    }

    /// `{}` at an output level.
    func writeEmptyObject(level: Int) {
        unsafe writer.sink.append(UInt8(ascii: "{"))
        if unsafe writer.foundationLayout { unsafe writer.emptyContainerLines(level) }
        unsafe writer.sink.append(UInt8(ascii: "}"))
    }

    /// Starts the next member of `frame`: closes what is above it, settles
    /// the member before, writes the separator and the indentation.
    /// Returns where the member's bytes start (to undo it,
    /// ``undoMember(_:from:key:)``), or -1, writing nothing, once the
    /// encode has ended. Throws (abandoning) if the frame was closed.
    @inline(__always)
    func beginMember(_ frame: Int, _ generation: Int) throws -> Int {
        guard isOpen(frame, generation) else {
            if unsafe ended { return -1 }
            throw abandon()
        }
        if unsafe open > frame + 1 { closeAbove(frame) }
        if unsafe frames[frame].pendingTicket != 0 { settlePending(frame) }
        let start = unsafe writer.sink.count
        if unsafe frames[frame].count > 0 { unsafe writer.sink.append(UInt8(ascii: ",")) }
        unsafe frames[frame].count += 1
        unsafe writer.newline(frame)
        return start
    }

    /// Undoes the member last begun in `frame` (from its start, with its key):
    /// the containers its value opened are dropped unwritten. The value's
    /// error then leaves the stream as the tree encoder leaves its tree, with
    /// no member for it, so a caller that catches the error writes on.
    func undoMember(_ frame: Int, from mark: Int, key: String?) {
        guard unsafe !abandoned, unsafe !ended, unsafe frame < open else { return }
        unsafe open = frame + 1
        unsafe frames[frame].count -= 1
        unsafe frames[frame].pendingTicket = 0
        if let key { unsafe frames[frame].keys.removeLast(key) }
        unsafe writer.sink.truncate(to: mark)
    }

    /// Writes a member's key; a key already written in this object abandons.
    @inline(__always)
    func writeKey(_ key: String, frame: Int) throws {
        guard unsafe frames[frame].keys.insert(key) else { throw abandon() }
        unsafe writer.writeString(key)
        if unsafe writer.foundationLayout { unsafe writer.sink.append(UInt8(ascii: " ")) }
        unsafe writer.sink.append(UInt8(ascii: ":"))
        if unsafe writer.indent > 0 { unsafe writer.sink.append(UInt8(ascii: " ")) }
    }

    /// Marks the member just begun in `frame` as the place of the encoder
    /// holding `ticket`.
    @inline(__always)
    func setPending(_ frame: Int, ticket: Int) { unsafe frames[frame].pendingTicket = ticket }

    /// Undoes a single value begun in `frame` (from `mark`): the place is
    /// the encoder's holding `ticket` again. False if nothing was undone.
    func undoPlace(_ frame: Int, ticket: Int, from mark: Int) -> Bool {
        guard unsafe !abandoned, unsafe !ended, unsafe frame < open else { return false }
        unsafe open = frame + 1
        unsafe frames[frame].pendingTicket = ticket
        unsafe writer.sink.truncate(to: mark)
        return true
    }

    /// Whether the encoder holding `ticket` may write its value in `frame`
    /// now: the member it was given is the last one there and still empty.
    /// On true, the place is taken.
    @inline(__always)
    func takePlace(_ frame: Int, ticket: Int) -> Bool {
        guard unsafe !abandoned, unsafe !ended, unsafe frame < open, unsafe frames[frame].pendingTicket == ticket else { return false }
        if unsafe open > frame + 1 { closeAbove(frame) }
        unsafe frames[frame].pendingTicket = 0
        return true
    }

    /// After an encoder's value is done: closes what it opened and writes
    /// `{}` if it wrote nothing.
    @inline(__always)
    func finishPlace(_ frame: Int, ticket: Int) {
        guard unsafe !abandoned, unsafe frame < open else { return }
        if unsafe open > frame + 1 { closeAbove(frame) }
        if unsafe frames[frame].pendingTicket == ticket { settlePending(frame) }
    }

    /// Opens a container at output level `frame` (its members then sit in
    /// frame `frame + 1`); returns its generation. Past the writer's depth
    /// limit or the stack's room the stream is abandoned: the tree encoder
    /// reports it as it always has.
    func push(object: Bool, at frame: Int) throws -> Int {
        guard unsafe frame == open, unsafe frame - 1 < writer.options.maxDepth, StackGuard.hasRoom else { throw abandon() }
        unsafe writer.sink.append(object ? UInt8(ascii: "{") : UInt8(ascii: "["))
        let generation = newTicket()
        if unsafe open == frames.count {
            unsafe frames.append(StreamFrame(generation: generation, isObject: object))
        } else {
            unsafe frames[open].generation = generation
            unsafe frames[open].isObject = object
            unsafe frames[open].count = 0
            unsafe frames[open].pendingTicket = 0
            if object { unsafe frames[open].keys.reset() }
        }
        unsafe open += 1
        return generation
    }

    /// Closes every container, finishes the output (a final newline when
    /// pretty, as the tree's writer writes it) and hands it to `body` in place.
    func finish<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        unsafe ended = true
        closeAbove(0)
        if unsafe writer.indent > 0, unsafe !writer.foundationLayout { unsafe writer.sink.append(UInt8(ascii: "\n")) }
        return unsafe try writer.sink.withBytes(body)
    }
}
