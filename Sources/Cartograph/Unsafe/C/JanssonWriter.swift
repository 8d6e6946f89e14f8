internal import CCartographTape
internal import CJansson

/// The C-facing layer over jansson's encoder: builds a jansson DOM from a
/// ``JSONValue`` or a ``Document`` and dumps it through a callback into a
/// byte buffer.
///
/// Numbers: jansson 2.14 prints reals with `%.17g` (`0.1` becomes
/// `0.10000000000000001`) and has no big integers or exact decimals. So every
/// number goes into the DOM as jansson's null, whose exact text is queued
/// here, and so does every null (its text is `null`); jansson dumps a null
/// as one callback chunk `null` outside any string, in DOM order, and the
/// callback (`dump_sink.c`) writes the next queued text instead. A null is
/// one shared value in jansson: no allocation per number, and no `snprintf`.
/// String values go the same way, their text quoted and escaped by
/// Cartograph's escaper (the native writer's bytes, which the writer tests
/// hold jansson's to); keys stay jansson's to write. String chunks are
/// told apart by jansson's quote chunks (a lone `"` opens and closes every
/// string; a quote inside a string is always the two-byte chunk `\"`).
/// DOM order is dump order because keys are inserted already sorted when
/// sorting is asked for, and jansson (since 2.8) keeps insertion order.
///
/// Ownership: every `json_*` constructor returns a new reference; the
/// `*_new` insertion functions steal the child's reference (even when they
/// fail); the root's reference is released with `json_decref` on every
/// path, except where the DOM was built in the thread's arena
/// (`dom_arena.c`), whose end drops the whole DOM at once.
struct JanssonWriter {
    let options: WriteOptions

    /// Seeds jansson's hash function once per process, before any thread can
    /// build an object (jansson's own lazy seeding is racy).
    private static let seeded: Bool = {
        json_object_seed(0)
        return true
    }()

    /// The texts of the numbers, nulls and string values queued while the
    /// DOM is built, in DOM order, for the dump's C sink (`dump_sink.c`) to
    /// write in place of their placeholders.
    private struct Sink {
        /// The texts, one after another (strings quoted and escaped).
        let text = OutputBuffer(capacity: 4096)
        /// Where each text ends in `text`.
        var ends: [Int] = []

        /// Queues the text written last into `text`.
        mutating func endText() { ends.append(text.count) }
    }

    /// Whether jansson allocates through the DOM arena's functions
    /// (`dom_arena.c`): given to it once per process, and only over its
    /// default `malloc` and `free` (an allocator someone else gave it stays).
    /// Outside an arena scope the functions are `malloc` and `free`, so
    /// jansson used by anything else in the process is served as before.
    private static let arenaInstalled: Bool = {
        var currentMalloc: json_malloc_t?
        var currentFree: json_free_t?
        unsafe json_get_alloc_funcs(&currentMalloc, &currentFree)
        guard unsafe cartograph_dom_arena_is_default(currentMalloc, currentFree) != 0 else { return false }
        unsafe json_set_alloc_funcs(cartograph_dom_arena_malloc, cartograph_dom_arena_free)
        return true
    }()

    /// What string values escape beyond what JSON requires.
    let escaping: StringEscaping

    init(options: WriteOptions) {
        self.options = options
        escaping = StringEscaping(escapeSlashes: options.escapeSlashes, asciiOnly: options.asciiOnly)
        _ = Self.seeded
        _ = Self.arenaInstalled
    }

    /// Runs `body` inside an arena scope on this thread where jansson still
    /// has the arena's functions (`true`: the DOM `body` builds is dropped
    /// at the scope's end, unless the scope overflowed, see ``dump``);
    /// otherwise, or inside a scope already open, `body(false)` releases
    /// its DOM itself.
    private static func withArena<Result>(_ body: (_ inArena: Bool) throws -> Result) throws -> Result {
        var currentMalloc: json_malloc_t?
        var currentFree: json_free_t?
        unsafe json_get_alloc_funcs(&currentMalloc, &currentFree)
        guard arenaInstalled, unsafe cartograph_dom_arena_is_installed(currentMalloc, currentFree) != 0,
            cartograph_dom_arena_begin() != 0
        else { return try body(false) }
        defer { cartograph_dom_arena_end() }
        return try body(true)
    }

    func write(_ value: JSONValue) throws -> [UInt8] {
        unsafe try write { sink in unsafe try build(value, depth: 0, sink: &sink) }
    }

    func write(_ document: Document, at index: Int) throws -> [UInt8] {
        unsafe try write { sink in unsafe try build(document, at: index, depth: 0, sink: &sink) }
    }

    /// Builds a DOM with `build` in the thread's arena and dumps it; a
    /// build error gets its path from the root here (``BuildFailure``).
    private func write(_ build: (inout Sink) throws -> UnsafeMutablePointer<json_t>?) throws -> [UInt8] {
        try Self.withArena { inArena in
            var sink = Sink()
            let built: UnsafeMutablePointer<json_t>?
            do {
                unsafe built = try build(&sink)
            } catch {
                throw BuildFailure.located(error)
            }
            guard let root = unsafe built else {
                throw CartographError(.outOfMemory, "jansson could not allocate a value")
            }
            return unsafe try dump(root, sink: sink, inArena: inArena)
        }
    }

    private var flags: Int {
        var flags = 0
        switch options.formatting {
        case .compact: flags |= Int(JSON_COMPACT)
        case .pretty(let indent): flags |= Int(cartograph_json_indent_flag(Int32(min(max(indent, 1), 31))))
        // Callers write this layout with NativeJSONWriter (JSONEncoding);
        // jansson cannot put a space before the colon.
        case .prettyLikeFoundation: flags |= Int(cartograph_json_indent_flag(2))
        }
        if options.escapeSlashes { flags |= Int(JSON_ESCAPE_SLASH) }
        if options.asciiOnly { flags |= Int(JSON_ENSURE_ASCII) }
        return flags | Int(JSON_ENCODE_ANY)
    }

    /// Dumps the DOM through the C sink, which appends jansson's chunks and
    /// writes the queued number texts and lowercase `\u` hex (see
    /// `dump_sink.c`); a callback in Swift cost a third of the encode.
    /// `inArena`: the DOM was built in an arena scope, which drops it whole
    /// unless some of it went to `malloc` (the scope overflowed): only
    /// then, or outside a scope, is the root released here.
    private func dump(_ root: UnsafeMutablePointer<json_t>, sink: Sink, inArena: Bool) throws -> [UInt8] {
        defer { if !inArena || cartograph_dom_arena_overflowed() != 0 { unsafe cartograph_json_release(root) } }
        var output = unsafe cartograph_dump_sink()
        defer { unsafe cartograph_dump_sink_release(&output) }
        let flags = flags
        let status = unsafe sink.text.withBytes { text in
            unsafe sink.ends.withUnsafeBufferPointer { ends in
                unsafe output.number_text = text.baseAddress?.assumingMemoryBound(to: UInt8.self)
                unsafe output.number_ends = ends.baseAddress
                unsafe output.number_count = ends.count
                return unsafe json_dump_callback(root, cartograph_dump_sink_write, &output, flags)
            }
        }
        guard status == 0, unsafe output.failed == 0, unsafe output.next_number == output.number_count else {
            throw CartographError(.encodingFailed, "jansson could not write the value")
        }
        var bytes = unsafe Array(UnsafeBufferPointer(start: output.output, count: output.count))
        if case .pretty = options.formatting { bytes.append(UInt8(ascii: "\n")) }
        return bytes
    }

    // MARK: Building the DOM

    private func depthError(_ path: String) -> CartographError {
        CartographError(.depthLimitExceeded, "value nests deeper than the writer's maxDepth (\(options.maxDepth))", path: path)
    }

    /// jansson's null, standing for `text` (see the type's comment).
    private func placeholder(_ text: some Collection<UInt8>, sink: inout Sink) -> UnsafeMutablePointer<json_t>? {
        sink.text.append(contentsOf: text)
        sink.endText()
        return unsafe json_null()
    }

    /// An integer's digits, queued behind a null.
    private func placeholder(_ value: Int64, sink: inout Sink) -> UnsafeMutablePointer<json_t>? {
        sink.text.appendDecimal(value)
        sink.endText()
        return unsafe json_null()
    }

    /// A string's JSON text, quoted and escaped by Cartograph's escaper as
    /// the options say, queued behind a null: jansson escapes a string a
    /// byte at a time (a third of its dump of twitter.json), and a string
    /// value of its own is two allocations.
    private func placeholder(string text: String, sink: inout Sink) -> UnsafeMutablePointer<json_t>? {
        sink.text.appendJSONString(text, escaping)
        sink.endText()
        return unsafe json_null()
    }

    /// ``placeholder(string:sink:)`` for a string's UTF-8 bytes.
    private func placeholder(stringBytes bytes: UnsafeBufferPointer<UInt8>, sink: inout Sink) -> UnsafeMutablePointer<json_t>? {
        unsafe sink.text.appendJSONString(bytes, escaping)
        sink.endText()
        return unsafe json_null()
    }

    /// `path` is built only for an error: building it for every number made deep values quadratic.
    private func number(_ number: JSONNumber, sink: inout Sink, path: @autoclosure () -> String) throws -> UnsafeMutablePointer<json_t>? {
        switch number.storage {
        case .int(let value):
            return unsafe placeholder(value, sink: &sink)
        case .double(let value) where !value.isFinite:
            switch options.nonConformingFloats {
            case .throw:
                throw CartographError(
                    .nonFiniteNumber,
                    "\(value) cannot be written as JSON; set WriteOptions.nonConformingFloats to write it as a string or null",
                    path: path())
            case .null:
                return unsafe placeholder(Self.null, sink: &sink)
            case .strings(let positive, let negative, let nan):
                let text = value.isNaN ? nan : (value > 0 ? positive : negative)
                return unsafe placeholder(string: text, sink: &sink)
            }
        case .double(let value):
            // The native writer's shortest digits (`shortest_double.c`), the
            // same text as `number.text` without a `String` per number.
            var digits: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
            return unsafe withUnsafeMutableBytes(of: &digits) { buffer in
                let base = unsafe buffer.baseAddress!.assumingMemoryBound(to: UInt8.self)
                let count = unsafe cartograph_format_double(value, base)
                return unsafe placeholder(UnsafeBufferPointer(start: base, count: count), sink: &sink)
            }
        default:
            return unsafe placeholder(number.text.utf8, sink: &sink)
        }
    }

    private static let null: [UInt8] = Array("null".utf8)

    /// An error met while a DOM is built, with the steps from the value
    /// that failed out to the one being built: each container adds its own
    /// as the error passes, and `write` spells the path once. Building a
    /// path (a closure per value) for the error that almost never comes,
    /// or handing one down, cost more.
    private struct BuildFailure: Error {
        let error: CartographError
        /// Innermost first.
        var steps: [PathTrail.Component]

        /// `error`, thrown by the child at `step`, with that step added.
        static func adding(_ step: PathTrail.Component, to error: any Error) -> any Error {
            if var failure = error as? BuildFailure {
                failure.steps.append(step)
                return failure
            }
            guard let error = error as? CartographError else { return error }
            return BuildFailure(error: error, steps: [step])
        }

        /// The error with its path from the root.
        static func located(_ error: any Error) -> any Error {
            guard let failure = error as? BuildFailure else { return error }
            return failure.error.replacingPath(PathTrail.render(failure.steps.reversed()))
        }
    }

    /// The DOM of `value`. Its elements and members are lent from their
    /// arrays (``LentValue``): a copy of each retained its payload and
    /// released it again. An error thrown from here has no path yet (see
    /// ``BuildFailure``).
    private func build(_ value: JSONValue, depth: Int, sink: inout Sink) throws -> UnsafeMutablePointer<json_t>? {
        switch value {
        case .null: return unsafe placeholder(Self.null, sink: &sink)
        case .bool(let flag): return unsafe flag ? json_true() : json_false()
        case .number(let number): return unsafe try self.number(number, sink: &sink, path: "$")
        case .string(let text): return unsafe placeholder(string: text, sink: &sink)
        case .array(let elements):
            guard depth < options.maxDepth else { throw depthError("$") }
            guard StackGuard.hasRoom else { throw StackGuard.exhausted(path: "$") }
            guard let array = unsafe json_array() else { return nil }
            var appended = true
            do {
                try LentValue.forEach(in: elements) { position, element in
                    guard appended else { return }
                    let child: UnsafeMutablePointer<json_t>?
                    do {
                        unsafe child = try build(element, depth: depth + 1, sink: &sink)
                    } catch {
                        throw BuildFailure.adding(.index(position), to: error)
                    }
                    appended = unsafe json_array_append_new(array, child) == 0
                }
            } catch {
                unsafe cartograph_json_release(array)
                throw error
            }
            guard appended else {
                unsafe cartograph_json_release(array)
                return nil
            }
            return unsafe array
        case .object(let object):
            guard depth < options.maxDepth else { throw depthError("$") }
            guard StackGuard.hasRoom else { throw StackGuard.exhausted(path: "$") }
            guard let target = unsafe json_object() else { return nil }
            let members = object.members
            var inserted = true
            do {
                // Inserted in the order they are written (jansson keeps it); an
                // index array is made only to sort.
                if options.sortedKeys {
                    var order = Array(members.indices)
                    order.sort { members[$0].key.utf8.lexicographicallyPrecedes(members[$1].key.utf8) }
                    for position in order where inserted {
                        inserted = unsafe try insertBuilt(members[position], into: target, depth: depth, sink: &sink)
                    }
                } else {
                    try LentValue.forEach(in: members) { _, member in
                        guard inserted else { return }
                        inserted = unsafe try insertBuilt(member, into: target, depth: depth, sink: &sink)
                    }
                }
            } catch {
                unsafe cartograph_json_release(target)
                throw error
            }
            guard inserted else {
                unsafe cartograph_json_release(target)
                return nil
            }
            return unsafe target
        }
    }

    /// Builds `member`'s value one level below `depth` and inserts it into
    /// `target` under its key; false when jansson fails. An error gets the
    /// member's key as its step.
    private func insertBuilt(
        _ member: JSONObject.Member, into target: UnsafeMutablePointer<json_t>, depth: Int, sink: inout Sink
    ) throws -> Bool {
        let child: UnsafeMutablePointer<json_t>?
        do {
            unsafe child = try build(member.value, depth: depth + 1, sink: &sink)
        } catch {
            throw BuildFailure.adding(.key(member.key), to: error)
        }
        return unsafe insert(child, key: member.key, into: target)
    }

    /// Inserts `child` (its reference is stolen) under a ``JSONObject``'s
    /// `key`; false when jansson fails. A `JSONObject`'s keys differ from
    /// one another (as `String`s, so also as bytes): jansson never replaces
    /// a value here, and the object's size need not be checked.
    private func insert(_ child: UnsafeMutablePointer<json_t>?, key: String, into object: UnsafeMutablePointer<json_t>) -> Bool {
        // A native key is read in place, and the closure captures nothing
        // of the writer: one that called an instance method copied the
        // writer (a retain of each of its references) per member.
        let insert = { (buffer: UnsafeBufferPointer<UInt8>) in
            unsafe Self.withCText(buffer) { unsafe json_object_setn_new_nocheck(object, $0, $1, child) == 0 }
        }
        if let done = unsafe key.utf8.withContiguousStorageIfAvailable(insert) { return done }
        var copy = key
        return copy.withUTF8(insert)
    }

    private func insert(
        _ child: UnsafeMutablePointer<json_t>?, key: UnsafePointer<CChar>, count: Int,
        into object: UnsafeMutablePointer<json_t>
    ) -> Bool {
        let before = unsafe json_object_size(object)
        // A repeated key would replace a value and desynchronise the number queue.
        return unsafe json_object_setn_new_nocheck(object, key, count, child) == 0 && json_object_size(object) == before + 1
    }

    private func build(_ document: Document, at index: Int, depth: Int, sink: inout Sink) throws -> UnsafeMutablePointer<json_t>? {
        let tape = document.tape
        let entry = unsafe tape.entries[index]
        switch entry.kind {
        case .null: return unsafe placeholder(Self.null, sink: &sink)
        case .true: return unsafe json_true()
        case .false: return unsafe json_false()
        case .number where entry.flags & TapeFlags.nonFinite != 0:
            return unsafe try number(document.jsonNumber(entry), sink: &sink, path: "$")
        case .number:
            // The tape holds JSON number text (JSON5's forms are rewritten
            // on the way in), which is what is written: an integer's text
            // is already its digits, so it is not read and printed again.
            return unsafe placeholder(UnsafeBufferPointer(start: tape.bytes + entry.payload, count: Int(entry.length)), sink: &sink)
        case .string, .key:
            return unsafe placeholder(stringBytes: document.reader.unsafeText(of: entry), sink: &sink)
        case .array:
            guard depth < options.maxDepth else { throw depthError("$") }
            guard StackGuard.hasRoom else { throw StackGuard.exhausted(path: "$") }
            guard let array = unsafe json_array() else { return nil }
            var position = index + 1
            var ordinal = 0
            while position < entry.payload {
                do {
                    let child = unsafe try build(document, at: position, depth: depth + 1, sink: &sink)
                    guard unsafe json_array_append_new(array, child) == 0 else {
                        unsafe cartograph_json_release(array)
                        return nil
                    }
                } catch {
                    unsafe cartograph_json_release(array)
                    throw BuildFailure.adding(.index(ordinal), to: error)
                }
                position = document.next(after: position)
                ordinal += 1
            }
            return unsafe array
        case .object:
            guard depth < options.maxDepth else { throw depthError("$") }
            guard StackGuard.hasRoom else { throw StackGuard.exhausted(path: "$") }
            guard let target = unsafe json_object() else { return nil }
            var members: [Int] = []
            var position = index + 1
            while position < entry.payload {
                if unsafe tape.entries[position].flags & TapeFlags.shadowed == 0 { members.append(position) }
                position = document.next(after: position + 1)
            }
            if options.sortedKeys {
                members.sort {
                    unsafe document.reader.unsafeText(of: tape.entries[$0]).lexicographicallyPrecedes(
                        document.reader.unsafeText(of: tape.entries[$1]))
                }
            }
            for keyIndex in members {
                let keyText = unsafe document.reader.unsafeText(of: tape.entries[keyIndex])
                do {
                    let child = unsafe try build(document, at: keyIndex + 1, depth: depth + 1, sink: &sink)
                    let inserted = unsafe Self.withCText(keyText) { unsafe insert(child, key: $0, count: $1, into: target) }
                    guard inserted else {
                        unsafe cartograph_json_release(target)
                        return nil
                    }
                } catch {
                    unsafe cartograph_json_release(target)
                    throw unsafe BuildFailure.adding(.key(String(decoding: keyText, as: UTF8.self)), to: error)
                }
            }
            return unsafe target
        }
    }

    /// Calls `body` with a non-null C pointer to the bytes (jansson rejects a
    /// null pointer even for an empty string) and their count.
    private static func withCText<R>(_ bytes: UnsafeBufferPointer<UInt8>, _ body: (UnsafePointer<CChar>, Int) -> R) -> R {
        if let base = bytes.baseAddress {
            return unsafe base.withMemoryRebound(to: CChar.self, capacity: bytes.count) { unsafe body($0, bytes.count) }
        }
        var empty: CChar = 0
        return unsafe body(&empty, 0)
    }
}
