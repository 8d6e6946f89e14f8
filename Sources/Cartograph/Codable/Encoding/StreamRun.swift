import Foundation

/// Thrown through `encode(to:)` when a value cannot be written in order
/// (``StreamRun/abandon()``): the encode starts again with the tree encoder.
struct StreamAbandoned: Error {}

/// One container the streaming encoder has opened and not yet closed.
///
/// Plain values only (its object's keys are in ``StreamStack``'s
/// `keyLogs`, beside it), so that copying one, as `closeTop` does,
/// retains nothing.
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
    /// The `CodingKey` type of the keyed container that opened the object
    /// (nil for arrays): whose ``KeyTemplate`` the keys follow.
    var keyType: ObjectIdentifier?
}

/// What one streaming encode shares: the options and registry every
/// encoder of the value reads, and the ``StreamStack`` they write through
/// (``ExclusiveState``: touched several times per value, it skips the
/// runtime's exclusivity check).
final class StreamRun: ExclusiveState<StreamStack> {
    let options: CodableOptions
    let registry: ModelRegistry
    let registryIsEmpty: Bool
    /// Keys are written as their coding keys spell them (the default key
    /// strategy): asked for every member, kept as a flag rather than read
    /// out of the options' key strategy each time.
    let keysAsGiven: Bool
    /// What the registered models met in this encode are written in: one
    /// session for all of them (each one's cycle checks and path links are
    /// undone when it is written), not one per value: an array of 50,000
    /// registered records made 50,000 sessions.
    lazy var mappingSession = EncodingSession(registry: registry, profile: .json)

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

    init(options: CodableOptions, writeOptions: WriteOptions, registry: ModelRegistry, capacity: Int = 4096, lease: OutputLease? = nil) {
        self.options = options
        self.registry = registry
        registryIsEmpty = !registry.hasEntries
        keysAsGiven = !options.keys.convertsKeys
        super.init(state: StreamStack(writeOptions: writeOptions, keys: options.keys, capacity: capacity, lease: lease))
    }
}

/// The writer and the stack of open containers of one streaming encode,
/// with the converted keys and recycled containers its encoders share.
///
/// Frame 0 is the root's place, never closed; frame `f` above it is a
/// container at output level `f - 1`, whose members sit at level `f`.
struct StreamStack {
    var writer: NativeJSONWriter
    var convertedKeys = ConvertedKeyCache()
    /// Which value types are `[String: Value]` dictionaries, asked per nested value under a key strategy.
    var dictionaryTypes = TypeAnswers<Bool>()
    /// The registry's entries for the value types met (asked per nested value).
    var registeredEntries = TypeAnswers<ModelEntry?>()
    /// Which value types are arrays the encoder encodes itself (``StreamedArray``).
    var arrayTypes = TypeAnswers<(any StreamedArray.Type)?>()
    /// The keys the first objects of each `CodingKey` type wrote, for the
    /// next ones to follow (``StreamKeyLog``), and the templates found in
    /// ``SharedKeyTemplates`` (asked once per type an encode).
    private var templates = KeyTemplateTable()
    /// How this encode writes keys: which shared templates hold for it.
    private let keyStyle: SharedKeyTemplates.Style
    /// Changed in place (``InPlaceArray``): an `Array` here checked its
    /// buffer's uniqueness on every change of a frame.
    let frames = InPlaceArray(StreamFrame())
    /// The keys written in each frame's object (a repeated key abandons
    /// the stream), beside `frames` and as long.
    private let keyLogs = InPlaceArray(StreamKeyLog())
    /// Frames open, the root's included.
    private(set) var open = 1
    private var lastTicket = 0
    /// Set when a value could not be written in order: nothing after it is
    /// written, and the caller encodes again with the tree encoder.
    private(set) var abandoned = false
    /// Set when the encode has returned: a container kept past it writes
    /// nothing (as Foundation's `JSONEncoder` drops such writes) and throws nothing.
    var ended = false
    var recycled: RecycledContainers<StreamKeyedState>
    /// Encoders done with, to be used again for the next nested values
    /// (``StreamEncoder``'s `recycle`), linked through each other. Kept
    /// here, not in ``StreamRun``, so that their accesses are not checked
    /// at run time (a check each way cost more than reusing saved).
    var spare: StreamEncoder?

    init(writeOptions: WriteOptions, keys: CodableOptions.KeyStrategy, capacity: Int, lease: OutputLease?) {
        writer = NativeJSONWriter(options: writeOptions, capacity: capacity, lease: lease)
        keyStyle = SharedKeyTemplates.Style(escaping: writer.escaping, keys: keys)
        recycled = RecycledContainers(keeps: ContainerLayout.keyedEncoding, after: 16)
    }

    /// A ticket for an encoder's place: unique within the encode.
    @inline(__always)
    mutating func newTicket() -> Int {
        lastTicket &+= 1
        return lastTicket
    }

    /// Gives up streaming: the encode is done again by the tree encoder.
    mutating func abandon() -> StreamAbandoned {
        abandoned = true
        return StreamAbandoned()
    }

    // MARK: Frames

    /// Whether `frame` is still open as the container of that generation.
    @inline(__always)
    func isOpen(_ frame: Int, _ generation: Int) -> Bool {
        frame < open && frames[frame].generation == generation && !abandoned
    }

    /// Makes `frame` the innermost open container: the containers above it
    /// are closed (a nested container ends when its parent writes again).
    @inline(__always)
    mutating func closeAbove(_ frame: Int) {
        while open > frame + 1 { closeTop() }
    }

    private mutating func closeTop() {
        let top = open - 1
        settlePending(top)
        let frame = frames[top]
        writer.close(frame.isObject ? UInt8(ascii: "}") : UInt8(ascii: "]"), count: frame.count, depth: top - 1)
        open -= 1
        if let type = frame.keyType, let learned = keyLogs[top].keysToLearn { learn(learned.keys, identities: learned.identities, for: type) }
    }

    /// Keeps an object's keys as its type's template: merged with the
    /// template there if they can be (``KeyTemplate/merging(_:identities:)``),
    /// else in its place if they are more (an object that left optional
    /// keys out does not replace one that wrote them).
    private mutating func learn(_ keys: [String], identities: [Int], for type: ObjectIdentifier) {
        var learned = (keys: keys, identities: identities)
        if let known = templates[type] {
            if let merged = known.merging(keys, identities: identities) { learned = merged }
            if known.keys.count >= learned.keys.count { return }
        }
        let template = KeyTemplate(keys: learned.keys, identities: learned.identities, escaping: writer.escaping)
        templates.set(template, for: type)
        SharedKeyTemplates.shared.offer(template, for: type, style: keyStyle)
    }

    /// The template an object of `keyType` follows: this encode's, or at
    /// the type's first object here, the one kept from earlier encodes.
    @inline(__always)
    private mutating func template(for keyType: (any CodingKey.Type)?) -> KeyTemplate? {
        guard let keyType else { return nil }
        if let known = templates.entry(for: ObjectIdentifier(keyType)) { return known }
        return sharedTemplate(for: keyType)
    }

    /// Asks the shared templates (a lock), once per type an encode.
    @inline(never)
    private mutating func sharedTemplate(for keyType: any CodingKey.Type) -> KeyTemplate? {
        let template = SharedKeyTemplates.shared.template(for: keyType, style: keyStyle)
        templates.set(template, for: ObjectIdentifier(keyType))
        return template
    }

    /// Writes `{}` for a member whose encoder wrote nothing (as the tree
    /// encoder does), so that nothing else is written in its place.
    mutating func settlePending(_ frame: Int) {
        guard frames[frame].pendingTicket != 0 else { return }
        frames[frame].pendingTicket = 0
        writeEmptyObject(level: frame)
    }

    /// `{}` at an output level.
    mutating func writeEmptyObject(level: Int) {
        writer.sink.append(UInt8(ascii: "{"))
        writer.close(UInt8(ascii: "}"), count: 0, depth: level)
    }

    /// Starts the next member of `frame`: closes what is above it, settles
    /// the member before, writes the separator and the indentation.
    /// Returns where the member's bytes start (to undo it,
    /// ``undoMember(_:from:key:)``), or -1, writing nothing, once the
    /// encode has ended. Throws (abandoning) if the frame was closed.
    @inline(__always)
    mutating func beginMember(_ frame: Int, _ generation: Int) throws -> Int {
        guard isOpen(frame, generation) else {
            if ended { return -1 }
            throw abandon()
        }
        if open > frame + 1 { closeAbove(frame) }
        if frames[frame].pendingTicket != 0 { settlePending(frame) }
        let start = writer.sink.count
        // Frame n's members sit at output level n: an element of the container at depth n - 1.
        writer.beginElement(frames[frame].count, depth: frame - 1)
        frames[frame].count += 1
        return start
    }

    /// ``beginMember(_:_:)`` then ``writeKey(_:frame:)``: what a keyed
    /// container does for every member. In compact output, where the frame
    /// is the innermost, nothing is pending in it and `key` is the next one
    /// its template holds (nearly every member of a model after the first
    /// object of its type), the comma, key and colon are written at once.
    ///
    /// A key with an identity (``KeyIdentity``) is kept with it when its
    /// type is the one whose template the object follows (`keyType`), so
    /// that a template learned from this object holds it.
    @inline(__always)
    mutating func beginKeyedMember(
        _ key: String, _ frame: Int, _ generation: Int, identity: Int = -1, keyType: ObjectIdentifier? = nil
    ) throws -> Int {
        if writer.indent == 0, frame + 1 == open, isOpen(frame, generation), frames[frame].pendingTicket == 0 {
            let start = writer.sink.count
            if keyLogs[frame].writeNextMemberStart(key, first: frames[frame].count == 0, into: writer.sink) {
                frames[frame].count += 1
                return start
            }
        }
        let start = try beginMember(frame, generation)
        if start >= 0 {
            // Begun, so the frame is open.
            let kept = identity >= 0 && frames[frame].keyType == keyType ? identity : -1
            try writeKey(key, frame: frame, identity: kept)
        }
        return start
    }

    /// ``beginKeyedMember(_:_:_:identity:keyType:)``'s quick case for a
    /// key known by its identity: where the object follows the template of
    /// the key's type (`keyType`) and its next entry has that identity, the
    /// comma, key and colon are written from the template and the member's
    /// start returned; nil, with nothing written, in any other case.
    @inline(__always)
    mutating func beginTemplateMember(identity: Int, keyType: ObjectIdentifier, _ frame: Int, _ generation: Int) -> Int? {
        guard writer.indent == 0, frame + 1 == open, isOpen(frame, generation), frames[frame].pendingTicket == 0,
            frames[frame].keyType == keyType
        else { return nil }
        let start = writer.sink.count
        guard keyLogs[frame].writeNextMemberStart(identity: identity, first: frames[frame].count == 0, into: writer.sink) else { return nil }
        frames[frame].count += 1
        return start
    }

    /// Undoes the member last begun in `frame` (from its start, with its key):
    /// the containers its value opened are dropped unwritten. The value's
    /// error then leaves the stream as the tree encoder leaves its tree, with
    /// no member for it, so a caller that catches the error writes on.
    mutating func undoMember(_ frame: Int, from mark: Int, key: String?) {
        guard !abandoned, !ended, frame < open else { return }
        open = frame + 1
        frames[frame].count -= 1
        frames[frame].pendingTicket = 0
        if let key { keyLogs[frame].removeLast(key) }
        writer.sink.truncate(to: mark)
    }

    /// Writes a member's key; a key already written in this object abandons.
    @inline(__always)
    mutating func writeKey(_ key: String, frame: Int, identity: Int = -1) throws {
        switch keyLogs[frame].insert(key, identity: identity) {
        case .repeated: throw abandon()
        case .logged: writer.writeString(key)
        case .template(let entry): keyLogs[frame].writeTemplateKey(entry, into: writer.sink)
        }
        writer.endKey()
    }

    /// Marks the member just begun in `frame` as the place of the encoder
    /// holding `ticket`.
    @inline(__always)
    mutating func setPending(_ frame: Int, ticket: Int) { frames[frame].pendingTicket = ticket }

    /// Undoes a single value begun in `frame` (from `mark`): the place is
    /// the encoder's holding `ticket` again. False if nothing was undone.
    mutating func undoPlace(_ frame: Int, ticket: Int, from mark: Int) -> Bool {
        guard !abandoned, !ended, frame < open else { return false }
        open = frame + 1
        frames[frame].pendingTicket = ticket
        writer.sink.truncate(to: mark)
        return true
    }

    /// Whether the encoder holding `ticket` may write its value in `frame`
    /// now: the member it was given is the last one there and still empty.
    /// On true, the place is taken.
    @inline(__always)
    mutating func takePlace(_ frame: Int, ticket: Int) -> Bool {
        guard !abandoned, !ended, frame < open, frames[frame].pendingTicket == ticket else { return false }
        if open > frame + 1 { closeAbove(frame) }
        frames[frame].pendingTicket = 0
        return true
    }

    /// After an encoder's value is done: closes what it opened and writes
    /// `{}` if it wrote nothing.
    @inline(__always)
    mutating func finishPlace(_ frame: Int, ticket: Int) {
        guard !abandoned, frame < open else { return }
        if open > frame + 1 { closeAbove(frame) }
        if frames[frame].pendingTicket == ticket { settlePending(frame) }
    }

    /// Opens a container at output level `frame` (its members then sit in
    /// frame `frame + 1`); returns its generation. Past the writer's depth
    /// limit or the stack's room the stream is abandoned: the tree encoder
    /// reports it as it always has. An object opened by a keyed container
    /// names its `CodingKey` type, whose template its keys then follow.
    mutating func push(object: Bool, at frame: Int, keyType: (any CodingKey.Type)? = nil) throws -> Int {
        guard frame == open, frame - 1 < writer.options.maxDepth, StackGuard.hasRoom else { throw abandon() }
        writer.sink.append(object ? UInt8(ascii: "{") : UInt8(ascii: "["))
        let generation = newTicket()
        if open == frames.count {
            frames.append(StreamFrame())
            keyLogs.append(StreamKeyLog())
        }
        frames[open].generation = generation
        frames[open].isObject = object
        frames[open].count = 0
        frames[open].pendingTicket = 0
        frames[open].keyType = keyType.map { ObjectIdentifier($0) }
        if object { keyLogs[open].reset(following: template(for: keyType)) }
        open += 1
        return generation
    }

    /// Closes every container and finishes the output (a final newline
    /// when pretty, as the tree's writer writes it); returns the buffer
    /// holding it.
    mutating func finish() -> OutputBuffer {
        ended = true
        closeAbove(0)
        writer.endDocument()
        return writer.sink
    }
}
