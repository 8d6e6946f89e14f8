/// Turns a stream of parse events into a ``Document``'s tape, enforcing the
/// limits of ``ParseOptions`` and the duplicate-key policy as it goes.
///
/// Every input format (yajl for JSON, libplist, in-memory values) drives the
/// same builder, so every Document looks the same whatever it was read from.
/// Each event method returns `false` after recording ``failure``; the caller
/// then stops feeding (a yajl callback returns 0, which cancels the parse).
final class DocumentBuilder {
    /// An open container.
    private struct Frame {
        var entry: Int
        var count: Int
        var isObject: Bool
        /// Where this object's keys start in `keys`.
        var firstKey: Int
    }

    /// A key of an open object: its tape index and hash.
    private struct KeyRecord {
        var entry: Int
        var hash: UInt64
    }

    let tape: Tape
    let options: ParseOptions
    private(set) var failure: CartographError?
    private(set) var roots: [Int] = []
    /// Open containers and the keys of open objects: pointer-backed for the
    /// same reason as ``TapeStorage`` (no exclusivity checks per event).
    private let frames = PointerStack<Frame>()
    private let keys = PointerStack<KeyRecord>()
    private let duplicateTable = DuplicateKeyTable()
    private let seed = KeyHash.seed
    private let validatesUTF8: Bool
    private let tapeStorage: UnsafeMutablePointer<TapeStorage>
    private let maxDepth: Int
    private let maxKeys: Int
    private let maxString: Int
    private let maxNumber: Int

    init(options: ParseOptions, expectedInputBytes: Int, validatesUTF8: Bool = true) {
        self.options = options
        self.tape = Tape(expectedInputBytes: expectedInputBytes)
        self.tapeStorage = tape.storage
        self.validatesUTF8 = validatesUTF8
        maxDepth = options.maxDepth
        maxKeys = options.maxKeysPerObject
        maxString = min(options.maxStringBytes, Int(UInt32.max))
        maxNumber = min(options.maxNumberDigits, Int(UInt32.max))
    }

    /// Whether every container opened has been closed and at least one value was read.
    var isComplete: Bool { frames.isEmpty && !roots.isEmpty }

    /// Nesting depth of the value being built.
    var depth: Int { frames.count }

    /// Records a failure; always returns false so callers can `return fail(...)`.
    @discardableResult
    func fail(_ error: CartographError) -> Bool {
        if failure == nil { failure = error }
        return false
    }

    // MARK: Events

    @inline(__always)
    private func appendValue(_ entry: TapeEntry) -> Int {
        let index = tapeStorage.pointee.append(entry)
        if let top = frames.top {
            if !top.pointee.isObject { top.pointee.count += 1 }
        } else {
            roots.append(index)
        }
        return index
    }

    /// `null`, `true` or `false` at `source`.
    @inline(__always)
    func literal(_ kind: TokenKind, at source: Int) -> Bool {
        _ = appendValue(TapeEntry(kind: kind, flags: 0, length: 0, payload: 0, source: source))
        return true
    }

    /// A number's validated JSON text.
    @inline(__always)
    func number(_ text: UnsafePointer<UInt8>, count: Int, at source: Int) -> Bool {
        guard count <= maxNumber else {
            return fail(CartographError(.numberTooLong,
                "number has \(count) characters, more than maxNumberDigits (\(options.maxNumberDigits))",
                offset: source))
        }
        let offset = tapeStorage.pointee.appendBytes(text, count: count, terminate: true)
        _ = appendValue(TapeEntry(kind: .number, flags: 0, length: UInt32(count), payload: offset, source: source))
        return true
    }

    /// A string value's decoded bytes.
    @inline(__always)
    func string(_ bytes: UnsafeRawPointer?, count: Int, at source: Int) -> Bool {
        guard let offset = storeText(bytes, count: count, at: source) else { return false }
        _ = appendValue(TapeEntry(kind: .string, flags: 0, length: UInt32(count), payload: offset, source: source))
        return true
    }

    /// An object key's decoded bytes.
    @inline(__always)
    func key(_ bytes: UnsafeRawPointer?, count: Int, at source: Int) -> Bool {
        guard let top = frames.top, top.pointee.isObject else {
            return fail(CartographError(.syntax, "a key outside an object", offset: source))
        }
        guard top.pointee.count < maxKeys else {
            return fail(CartographError(.tooManyKeys,
                "object has more than maxKeysPerObject (\(options.maxKeysPerObject)) keys", offset: source))
        }
        guard let offset = storeText(bytes, count: count, at: source) else { return false }
        top.pointee.count += 1
        let index = tapeStorage.pointee.append(TapeEntry(kind: .key, flags: 0, length: UInt32(count), payload: offset, source: source))
        keys.push(KeyRecord(entry: index, hash: KeyHash.hash(bytes, count: count, seed: seed)))
        return true
    }

    @inline(__always)
    private func storeText(_ bytes: UnsafeRawPointer?, count: Int, at source: Int) -> Int? {
        guard count <= maxString else {
            fail(CartographError(.stringTooLong,
                "string has \(count) bytes, more than maxStringBytes (\(options.maxStringBytes))", offset: source))
            return nil
        }
        if validatesUTF8, let bytes, let bad = UTF8Validation.firstInvalid(bytes, count: count) {
            fail(CartographError(.invalidUTF8,
                "invalid UTF-8 in string (byte 0x\(String(bytes.load(fromByteOffset: bad, as: UInt8.self), radix: 16, uppercase: true)) at string byte \(bad))",
                offset: source))
            return nil
        }
        return tapeStorage.pointee.appendBytes(bytes, count: count)
    }

    /// Opens an object (`isObject`) or array whose first byte is at `source`.
    @inline(__always)
    func begin(object isObject: Bool, at source: Int) -> Bool {
        guard frames.count < maxDepth else {
            return fail(CartographError(.depthLimitExceeded,
                "nesting deeper than maxDepth (\(options.maxDepth))", offset: source))
        }
        let index = appendValue(TapeEntry(kind: isObject ? .object : .array, flags: 0, length: 0, payload: 0, source: source))
        frames.push(Frame(entry: index, count: 0, isObject: isObject, firstKey: keys.count))
        return true
    }

    /// Closes the innermost container.
    @inline(__always)
    func end() -> Bool {
        guard let frame = frames.pop() else {
            return fail(CartographError(.syntax, "a container closed that was never opened"))
        }
        var count = frame.count
        if frame.isObject {
            if count > 1 {
                guard let remaining = resolveDuplicates(from: frame.firstKey, count: count) else { return false }
                count = remaining
            }
            keys.truncate(to: frame.firstKey)
        }
        let entries = tapeStorage.pointee.entries
        entries[frame.entry].length = UInt32(count)
        entries[frame.entry].payload = tapeStorage.pointee.count
        return true
    }

    // MARK: Duplicate keys

    private func sameKey(_ a: Int, _ b: Int) -> Bool {
        let first = tape.entries[a]
        let second = tape.entries[b]
        guard first.length == second.length else { return false }
        return memcmpEqual(tape.bytes + first.payload, tape.bytes + second.payload, Int(first.length))
    }

    private func memcmpEqual(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, _ count: Int) -> Bool {
        for index in 0..<count where a[index] != b[index] { return false }
        return true
    }

    /// Applies the duplicate-key policy to the keys `keys[first..<first+count]`;
    /// returns how many keys remain visible, or nil after a failure.
    private func resolveDuplicates(from first: Int, count: Int) -> Int? {
        var visible = count
        // Returns false to stop after a failure. `earlier` and `later` are key-record positions.
        func handle(earlier: Int, later: Int) -> Int? {
            switch options.duplicateKeys {
            case .reject:
                let entry = tape.entries[keys[later].entry]
                let name = String(decoding: UnsafeBufferPointer(start: tape.bytes + entry.payload, count: Int(entry.length)), as: UTF8.self)
                fail(CartographError(.duplicateKey, "duplicate key \"\(name)\" in object", offset: entry.source))
                return nil
            case .lastWins:
                tape.entries[keys[earlier].entry].flags |= TapeFlags.shadowed
                visible -= 1
                return later
            case .firstWins:
                tape.entries[keys[later].entry].flags |= TapeFlags.shadowed
                visible -= 1
                return earlier
            }
        }
        if count <= 8 {
            for later in (first + 1)..<(first + count) {
                let laterKey = keys[later]
                for earlier in first..<later {
                    let a = keys[earlier]
                    guard a.hash == laterKey.hash,
                        tape.entries[a.entry].flags & TapeFlags.shadowed == 0,
                        sameKey(a.entry, laterKey.entry)
                    else { continue }
                    guard handle(earlier: earlier, later: later) != nil else { return nil }
                    break
                }
            }
            return visible
        }
        let table = duplicateTable.prepare(for: count)
        let mask = table.mask
        for position in first..<(first + count) {
            let record = keys[position]
            var slot = Int(truncatingIfNeeded: record.hash) & mask
            while true {
                guard let occupant = table.occupant(slot) else {
                    table.set(slot, position - first)
                    break
                }
                let earlier = occupant + first
                if keys[earlier].hash == record.hash, sameKey(keys[earlier].entry, record.entry) {
                    guard let kept = handle(earlier: earlier, later: position) else { return nil }
                    table.set(slot, kept - first)
                    break
                }
                slot = (slot + 1) & mask
            }
        }
        return visible
    }

    /// Hands the finished tape over; the builder must not be used afterwards.
    func makeDocument() -> Document {
        Document(tape: tape, roots: roots)
    }
}
