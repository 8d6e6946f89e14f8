/// Turns a stream of parse events into a ``Document``'s tape, enforcing the
/// limits of ``ParseOptions`` and the duplicate-key policy as it goes.
///
/// Every input format (yajl for JSON, libplist, in-memory values) drives the
/// same builder, so every Document looks the same whatever it was read from.
/// Each event method returns `false` after recording ``failure``; the caller
/// then stops feeding (a yajl callback returns 0, which cancels the parse).
final class DocumentBuilder {
    /// The innermost open container (or the top level, at depth 0). Kept
    /// behind one pointer so each event reads it in one load; the containers
    /// around it wait on `frames`.
    private struct Frame: BitwiseCopyable {
        var entry = 0
        var count = 0
        var isObject = false
        var depth = 0
        /// Whether a key of this object has a byte above 0x7F.
        var hasNonASCIIKey = false
    }

    let tape: Tape
    let options: ParseOptions
    /// The first error an event met (cleared on reuse).
    private(set) var failure: CartographError?
    /// Where each top-level value starts.
    private(set) var roots: [Int] = []
    /// Open containers and the keys of open objects: pointer-backed for the
    /// same reason as ``TapeStorage`` (no exclusivity checks per event).
    /// Both stacks are made at their first use: a parse through the C tape
    /// builder (every whole JSON input) uses neither, or only `keyIndices`
    /// for an object whose keys may repeat.
    private var frames: PointerStack<Frame> { Self.madeOnce(&madeFrames) }
    private var madeFrames: PointerStack<Frame>?
    private let current = InPlaceBox(Frame())
    /// Tape indices of the keys of the object being closed (scratch), and
    /// after them, for a small object, each key's signature.
    private var keyIndices: PointerStack<Int> { Self.madeOnce(&madeKeyIndices) }
    private var madeKeyIndices: PointerStack<Int>?

    @inline(__always)
    private static func madeOnce<Element>(_ stack: inout PointerStack<Element>?) -> PointerStack<Element> {
        if let made = stack { return made }
        let made = PointerStack<Element>()
        stack = made
        return made
    }
    /// Made at the first object whose keys may repeat (most parses have none).
    private lazy var duplicateTable = DuplicateKeyTable()
    private let seed = KeyHash.seed
    private let validatesUTF8: Bool
    /// The tape, written through its checked writer.
    private let writer: TapeWriter
    private let maxDepth: Int
    private let maxKeys: Int
    private let maxString: Int
    private let maxNumber: Int

    /// When streaming, decides which builder each event goes to (nil otherwise).
    let splitter: StreamSplitter?

    convenience init(options: ParseOptions, expectedInputBytes: Int, validatesUTF8: Bool = true, splitter: StreamSplitter? = nil) {
        self.init(options: options, tape: Tape.make(expectedInputBytes: expectedInputBytes), validatesUTF8: validatesUTF8, splitter: splitter)
    }

    /// A builder of `tape` (empty, or written so far by the C tape builder,
    /// whose counts and roots it then adopts: ``adoptNativeTape(count:byteCount:roots:)``).
    init(options: ParseOptions, tape: Tape, validatesUTF8: Bool = true, splitter: StreamSplitter? = nil) {
        self.splitter = splitter
        self.options = options
        self.tape = tape
        writer = TapeWriter(tape)
        self.validatesUTF8 = validatesUTF8
        maxDepth = options.maxDepth
        maxKeys = options.maxKeysPerObject
        maxString = min(options.maxStringBytes, Int(UInt32.max))
        maxNumber = min(options.maxNumberDigits, Int(UInt32.max))
    }

    /// Whether every container opened has been closed and at least one value was read.
    var isComplete: Bool { current.value.depth == 0 && !roots.isEmpty }

    /// Nesting depth of the value being built.
    var depth: Int { current.value.depth }

    /// The memory the tape takes so far: its entries and text.
    var memoryBytes: Int { writer.count * MemoryLayout<TapeEntry>.stride + writer.byteCount }

    /// Records a failure; always returns false so callers can `return fail(...)`.
    @discardableResult
    func fail(_ error: CartographError) -> Bool {
        if failure == nil { failure = error }
        return false
    }

    // MARK: Failures (out of line, to keep the event paths small)

    @inline(never)
    func failLimit(_ kind: CartographError.Kind, _ value: Int, at source: Int) -> Bool {
        let message: String
        switch kind {
        case .numberTooLong: message = "number has \(value) characters, more than maxNumberDigits (\(options.maxNumberDigits))"
        case .tooManyKeys: message = "object has more than maxKeysPerObject (\(options.maxKeysPerObject)) keys"
        case .stringTooLong: message = "string has \(value) bytes, more than maxStringBytes (\(options.maxStringBytes))"
        default: message = "nesting deeper than maxDepth (\(options.maxDepth))"
        }
        return fail(CartographError(kind, message, offset: source))
    }

    @inline(never)
    func failInvalidUTF8(_ byte: UInt8, at position: Int, source: Int) {
        fail(
            CartographError(
                .invalidUTF8,
                "invalid UTF-8 in string (byte 0x\(String(byte, radix: 16, uppercase: true)) at string byte \(position))",
                offset: source))
    }

    /// Takes what the C tape builder (``YajlParser``'s whole-input path)
    /// appended in place: the tape's counts, and the roots after those
    /// already taken.
    func adoptNativeTape(count: Int, byteCount: Int, roots native: Span<Int>) {
        writer.adoptCounts(count: count, byteCount: byteCount)
        guard native.count > roots.count else { return }
        if native.count == 1 {
            addRoot(native[0])
        } else {
            for index in roots.count..<native.count { roots.append(native[index]) }
        }
    }

    /// The roots of a document of one value (nearly every document): one
    /// array shared by all of them, not one allocated per parse (a tenth of
    /// the allocations of a small document's parse). Appending to it copies.
    static let firstEntryOnly = [0]

    @inline(__always)
    private func addRoot(_ index: Int) {
        if index == 0, roots.capacity == 0 {
            roots = Self.firstEntryOnly
        } else {
            roots.append(index)
        }
    }

    /// Hands a finished element over; a failure (a model that could not be
    /// made) becomes this builder's failure.
    private func completed(_ element: DocumentBuilder, _ splitter: StreamSplitter) -> Bool {
        let accepted = splitter.afterElementEvent(element)
        if !accepted, let failure = splitter.failure { fail(failure) }
        return accepted
    }

    /// Carries an element builder's failure up to this (the envelope) builder.
    private func routed(_ accepted: Bool, _ element: DocumentBuilder) -> Bool {
        if !accepted, let failure = element.failure { fail(failure) }
        return accepted
    }

    // MARK: Events

    @inline(__always)
    private func appendValue(_ entry: TapeEntry) -> Int {
        let index = writer.append(entry)
        if current.value.depth == 0 {
            addRoot(index)
        } else if !current.value.isObject {
            current.value.count += 1
        }
        return index
    }

    /// `null`, `true` or `false` at `source`.
    @inline(__always)
    func literal(_ kind: TokenKind, at source: Int) -> Bool {
        if let splitter {
            if let element = splitter.elementBuilder(forValueIn: self) {
                return routed(element.literal(kind, at: source), element) && completed(element, splitter)
            }
            if splitter.discardsEnvelope { return true }
        }
        _ = appendValue(TapeEntry(kind: kind, flags: 0, length: 0, payload: 0, source: source))
        return true
    }

    /// A number's validated JSON text (`flags`: ``TapeFlags/nonFinite`` for JSON5's `Infinity` and `NaN`).
    @inline(__always)
    func number(_ text: Span<UInt8>, at source: Int, flags: UInt8 = 0) -> Bool {
        let count = text.count
        if let splitter {
            if let element = splitter.elementBuilder(forValueIn: self) {
                return routed(element.number(text, at: source, flags: flags), element) && completed(element, splitter)
            }
            if splitter.discardsEnvelope { return count <= maxNumber || failLimit(.numberTooLong, count, at: source) }
        }
        guard count <= maxNumber else { return failLimit(.numberTooLong, count, at: source) }
        let offset = writer.appendText(text, terminate: true)
        _ = appendValue(TapeEntry(kind: .number, flags: flags, length: UInt32(count), payload: offset, source: source))
        return true
    }

    /// A string value's decoded bytes (`flags` marks property-list dates and data).
    @inline(__always)
    func string(_ bytes: Span<UInt8>, at source: Int, flags: UInt8 = 0) -> Bool {
        if let splitter {
            if let element = splitter.elementBuilder(forValueIn: self) {
                return routed(element.string(bytes, at: source, flags: flags), element) && completed(element, splitter)
            }
            if splitter.discardsEnvelope { return checkText(bytes, at: source) }
        }
        guard let offset = storeText(bytes, at: source) else { return false }
        _ = appendValue(TapeEntry(kind: .string, flags: flags, length: UInt32(bytes.count), payload: offset, source: source))
        return true
    }

    /// An object key's decoded bytes.
    @inline(__always)
    func key(_ bytes: Span<UInt8>, at source: Int) -> Bool {
        let count = bytes.count
        if let splitter {
            if let element = splitter.activeElement { return routed(element.key(bytes, at: source), element) }
            if let error = splitter.envelopeKey(bytes, at: source) { return fail(error) }
            if splitter.discardsEnvelope { return checkText(bytes, at: source) }
        }
        let top = current
        guard top.value.depth > 0, top.value.isObject else {
            return fail(CartographError(.syntax, "a key outside an object", offset: source))
        }
        guard top.value.count < maxKeys else { return failLimit(.tooManyKeys, top.value.count + 1, at: source) }
        guard let offset = storeText(bytes, at: source) else { return false }
        if !UTF8Validation.isASCII(bytes) { top.value.hasNonASCIIKey = true }
        top.value.count += 1
        _ = writer.append(TapeEntry(kind: .key, flags: 0, length: UInt32(count), payload: offset, source: source))
        return true
    }

    /// The checks ``storeText(_:at:)`` makes, for text that is not kept
    /// (a discarded envelope's): its length and its UTF-8.
    private func checkText(_ bytes: Span<UInt8>, at source: Int) -> Bool {
        guard bytes.count <= maxString else { return failLimit(.stringTooLong, bytes.count, at: source) }
        if validatesUTF8, let bad = UTF8Validation.firstInvalid(bytes) {
            failInvalidUTF8(bytes[bad], at: bad, source: source)
            return false
        }
        return true
    }

    @inline(__always)
    private func storeText(_ bytes: Span<UInt8>, at source: Int) -> Int? {
        guard bytes.count <= maxString else {
            _ = failLimit(.stringTooLong, bytes.count, at: source)
            return nil
        }
        if validatesUTF8, let bad = UTF8Validation.firstInvalid(bytes) {
            failInvalidUTF8(bytes[bad], at: bad, source: source)
            return nil
        }
        return writer.appendText(bytes)
    }

    /// Opens an object (`isObject`) or array whose first byte is at `source`.
    @inline(__always)
    func begin(object isObject: Bool, at source: Int) -> Bool {
        if let splitter {
            if let element = splitter.elementBuilder(forValueIn: self) { return routed(element.begin(object: isObject, at: source), element) }
            if splitter.discardsEnvelope, splitter.envelopeDepth >= maxDepth {
                return failLimit(.depthLimitExceeded, splitter.envelopeDepth + 1, at: source)
            }
            splitter.envelopeBegin(isArray: !isObject)
            if splitter.discardsEnvelope { return true }
        }
        let depth = current.value.depth
        guard depth < maxDepth else { return failLimit(.depthLimitExceeded, depth + 1, at: source) }
        let index = appendValue(TapeEntry(kind: isObject ? .object : .array, flags: 0, length: 0, payload: 0, source: source))
        frames.push(current.value)
        current.value = Frame(entry: index, count: 0, isObject: isObject, depth: depth + 1)
        return true
    }

    /// Closes the innermost container.
    @inline(__always)
    func end() -> Bool {
        if let splitter {
            if let element = splitter.activeElement { return routed(element.end(), element) && completed(element, splitter) }
            splitter.envelopeEnd()
            if splitter.discardsEnvelope { return true }
        }
        let frame = current.value
        guard frame.depth > 0, let parent = frames.pop() else {
            return fail(CartographError(.syntax, "a container closed that was never opened"))
        }
        var count = frame.count
        if frame.isObject {
            if count > 1 {
                guard let remaining = resolveDuplicates(inObjectAt: frame.entry, count: count, canonically: frame.hasNonASCIIKey) else {
                    return false
                }
                count = remaining
            }
            if frame.hasNonASCIIKey { writer[frame.entry].flags |= TapeFlags.canonicalKeys }
        }
        writer[frame.entry].length = UInt32(count)
        writer[frame.entry].payload = writer.count
        current.value = parent
        return true
    }

    // MARK: Duplicate keys

    @inline(__always)
    private func sameKey(_ a: Int, _ b: Int) -> Bool {
        writer.sameText(writer[a], writer[b])
    }

    /// Applies the duplicate-key policy to the keys of the object whose
    /// entry is at `objectIndex` (its values are all closed); returns how many
    /// keys remain visible, or nil after a failure.
    ///
    /// Nothing is recorded per key while parsing: keys are found again here by
    /// skipping values. Small objects compare every pair (cheap: lengths
    /// differ first); larger ones go through a seeded hash table, so the work
    /// stays linear even for inputs built to collide.
    ///
    /// With `canonically` (a key has a non-ASCII byte), keys that differ in
    /// bytes but are equal as Swift strings (canonically equivalent:
    /// `"API_\u212AEY"`, with a Kelvin sign, and `"API_KEY"`) are duplicates
    /// too: a `[String: T]`, a `Dictionary` or a plist reader downstream
    /// would see one key, and the policy must decide which, the same way
    /// everywhere.
    func resolveDuplicates(inObjectAt objectIndex: Int, count: Int, canonically: Bool) -> Int? {
        let entries = writer
        let end = writer.count
        // Read once: each read of the lazily made stack through its getter
        // retains and releases it.
        let keyIndices = self.keyIndices
        keyIndices.truncate(to: 0)
        var position = objectIndex + 1
        while position < end {
            keyIndices.push(position)
            let value = entries[position + 1]
            position = value.kind == .array || value.kind == .object ? value.payload : position + 2
        }
        var visible = count
        func handle(_ earlier: Int, _ later: Int) -> Int? {
            switch options.duplicateKeys {
            case .reject:
                let entry = entries[later]
                let name = writer.string(entry)
                fail(CartographError(.duplicateKey, "duplicate key \"\(name)\" in object", offset: entry.source))
                return nil
            case .lastWins:
                entries[earlier].flags |= TapeFlags.shadowed
                visible -= 1
                return later
            case .firstWins:
                entries[later].flags |= TapeFlags.shadowed
                visible -= 1
                return earlier
            }
        }
        let keyCount = keyIndices.count
        if keyCount <= 8 {
            // A signature (length and first bytes) rules out almost every pair
            // without touching the key bytes twice; key `ordinal`'s sits at
            // `keyCount + ordinal` on the same scratch stack.
            for ordinal in 0..<keyCount {
                let key = entries[keyIndices[ordinal]]
                var signature = UInt64(key.length) << 48
                for offset in 0..<min(Int(key.length), 6) { signature |= UInt64(writer.byte(offset, of: key)) << (8 * offset) }
                keyIndices.push(Int(bitPattern: UInt(signature)))
            }
            for later in 1..<keyCount {
                let laterIndex = keyIndices[later]
                let laterSignature = keyIndices[keyCount + later]
                for earlier in 0..<later {
                    let earlierIndex = keyIndices[earlier]
                    guard keyIndices[keyCount + earlier] == laterSignature, entries[earlierIndex].flags & TapeFlags.shadowed == 0,
                        sameKey(earlierIndex, laterIndex)
                    else { continue }
                    guard handle(earlierIndex, laterIndex) != nil else { return nil }
                    break
                }
            }
            return canonically ? resolveCanonicalDuplicates(keyIndices, keyCount, handle) : visible
        }
        let table = duplicateTable.prepare(for: keyCount)
        let mask = table.mask
        for ordinal in 0..<keyCount {
            let keyIndex = keyIndices[ordinal]
            let hash = writer.hash(of: entries[keyIndex], seed: seed)
            var slot = Int(truncatingIfNeeded: hash) & mask
            while true {
                guard let occupant = table.occupant(slot) else {
                    table.set(slot, keyIndex)
                    break
                }
                if sameKey(occupant, keyIndex) {
                    guard let kept = handle(occupant, keyIndex) else { return nil }
                    table.set(slot, kept)
                    break
                }
                slot = (slot + 1) & mask
            }
        }
        return canonically ? resolveCanonicalDuplicates(keyIndices, keyCount, handle) : visible
    }

    /// The second pass of ``resolveDuplicates(inObjectAt:count:canonically:)``
    /// over the keys still visible, comparing them as Swift strings (whose
    /// hashing and equality follow canonical equivalence). Only for objects
    /// holding a non-ASCII key.
    private func resolveCanonicalDuplicates(_ keyIndices: PointerStack<Int>, _ keyCount: Int, _ handle: (Int, Int) -> Int?) -> Int? {
        let entries = writer
        var seen: [String: Int] = [:]
        for ordinal in 0..<keyCount {
            let keyIndex = keyIndices[ordinal]
            let key = entries[keyIndex]
            guard key.flags & TapeFlags.shadowed == 0 else { continue }
            let name = writer.string(key)
            if let earlier = seen[name] {
                guard let kept = handle(earlier, keyIndex) else { return nil }
                seen[name] = kept
            } else {
                seen[name] = keyIndex
            }
        }
        var visible = 0
        for ordinal in 0..<keyCount where entries[keyIndices[ordinal]].flags & TapeFlags.shadowed == 0 { visible += 1 }
        return visible
    }

    /// Replaces the object just closed, if it holds exactly one key and a
    /// scalar value, by that value: how an XML plist spells a UID
    /// (`<dict><key>CF$UID</key><integer>7</integer></dict>`).
    func collapseLastObjectToItsValue() {
        let count = writer.count
        let entries = writer
        let object = count - 3
        guard object >= 0, entries[object].kind == .object, entries[object].length == 1, entries[object + 1].kind == .key else {
            return
        }
        var value = entries[count - 1]
        value.sourceLow = entries[object].sourceLow
        value.sourceHigh = entries[object].sourceHigh
        entries[object] = value
        writer.removeLast(2)
    }

    /// Hands the finished tape over; the builder must not be used afterwards
    /// (unless ``reset()`` finds the Document gone).
    func makeDocument() -> Document {
        let parts = finishedParts()
        return Document(tape: parts.tape, roots: parts.roots)
    }

    /// The finished tape and its roots, what a ``Document`` is made of.
    func finishedParts() -> (tape: Tape, roots: [Int]) {
        if roots.isEmpty, tape.count == 0 {
            // No value (blank NDJSON): `root` reads a null rather than past the tape.
            _ = writer.append(TapeEntry(kind: .null, flags: 0, length: 0, payload: 0, source: 0))
        }
        return (tape, roots)
    }

    /// Empties the builder for the next streamed element, keeping its buffers.
    func reset() {
        writer.removeAll()
        roots.removeAll(keepingCapacity: true)
        madeFrames?.truncate(to: 0)
        current.value = Frame()
        failure = nil
    }
}
