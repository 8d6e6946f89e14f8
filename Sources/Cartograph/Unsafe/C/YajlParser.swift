internal import CCartographTape
internal import CYajl
import Foundation

/// The C-facing layer over yajl's push parser: owns one `yajl_handle`, feeds
/// it chunks, and turns its callbacks into ``DocumentBuilder`` events.
///
/// Ownership: the handle is created in `init` (`yajl_alloc`, a new handle)
/// and released in `deinit` (`yajl_free`) on every path, errors included.
/// yajl keeps a pointer to the callback table, so the table is a process-wide
/// constant. The parser object reaches the callbacks as an unretained context
/// pointer; it outlives every `yajl_parse` call it makes.
///
/// What yajl does not check is checked here or in the builder: strict UTF-8
/// (yajl's own check is off), unpaired `\u` surrogates (yajl decodes a lone
/// high surrogate to `?`), vertical tab and form feed (yajl takes them as
/// whitespace), and all of ``ParseOptions``' limits.
///
/// Two callback tables: a parse that is not streamed (no splitter) uses the
/// C tape builder of `CCartographTape` (`cartograph_yajl_tape`), whose
/// callbacks append to the builder's tape in C and come back to Swift only
/// to grow it, to locate a string yajl decoded and to resolve an object
/// whose keys may repeat; a streamed parse uses the Swift callbacks below,
/// which route each event through ``DocumentBuilder`` and its splitter.
/// Both do the same checks in the same order, and the whole test suite runs
/// through both (every streaming test feeds the Swift path).
///
/// The C callbacks exist because crossing into Swift for every token was
/// the largest cost of a parse over raw yajl (figures in Benchmarks/HISTORY.md).
@safe final class YajlParser {
    // A parser is driven by one caller at a time (a parse is synchronous),
    // so its stored state below goes without runtime exclusivity checks,
    // which were a visible share of a small document's parse.

    /// The error that stopped parsing, boxed: a `CartographError?` stored
    /// in place is large, and was written and destroyed by copies in every
    /// parser's `init` and `deinit`; a box is one pointer, nil until a failure.
    @exclusivity(unchecked) private var failureBox: FailureBox?
    private var failure: CartographError? {
        get { unsafe failureBox?.error }
        set { unsafe failureBox = newValue.map(FailureBox.init) }
    }

    private final class FailureBox {
        let error: CartographError
        init(_ error: CartographError) { self.error = error }
    }

    /// The options as the parse applies them (``ParseOptions/bounded(streamed:)``).
    let options: ParseOptions
    /// The tape the parse writes (the builder's, once there is a builder).
    private let tape: Tape
    /// The builder of the Swift callbacks, which route every event through
    /// it (nil for the C tape builder's parses).
    private let eventBuilder: DocumentBuilder?
    /// The builder the C tape builder's parse made when it needed one.
    @exclusivity(unchecked) private var madeBuilder: DocumentBuilder?

    /// The builder of the tape. The Swift callbacks' is made with the
    /// parser; a parse through the C tape builder, which writes the tape
    /// itself, makes one only when it needs it (an object whose keys may
    /// repeat, a failure to record, a caller that asks): a whole document
    /// that needs none makes an object and an allocation fewer. A builder made late
    /// takes what the C side has written so far.
    var builder: DocumentBuilder {
        if let eventBuilder { return eventBuilder }
        if let madeBuilder = unsafe madeBuilder { return madeBuilder }
        let made = DocumentBuilder(options: options, tape: tape)
        adoptNative(into: made)
        unsafe madeBuilder = made
        return made
    }

    /// Where the parse is, the limits, and (with the C tape builder) the
    /// tape being written: read on every callback, so it sits behind a
    /// pointer (class properties pay a runtime exclusivity check per access).
    private let native: UnsafeMutablePointer<cartograph_yajl_tape>
    /// Whether yajl's callbacks are the C tape builder's (no splitter).
    private let usesNativeTape: Bool

    private var handle: OpaquePointer? { unsafe native.pointee.handle.map(OpaquePointer.init) }

    /// Whether the C callbacks read yajl's count of consumed bytes in
    /// place rather than through `yajl_get_bytes_consumed`
    /// (`cartograph_yajl_tape_attach`: checked once per process).
    static var readsBytesConsumedInPlace: Bool { cartograph_yajl_reads_consumed_in_place() != 0 }

    /// The linked yajl's version as `yajl_version()` gives it (2.1.0 is 20100).
    static var yajlVersion: Int { Int(yajl_version()) }
    private var chunkBase: Int {
        get { unsafe native.pointee.chunk_base }
        set { unsafe native.pointee.chunk_base = newValue }
    }
    private var chunkStart: UnsafePointer<UInt8>? {
        get { unsafe native.pointee.chunk_start }
        set { unsafe native.pointee.chunk_start = unsafe newValue }
    }
    private var chunkCount: Int {
        get { unsafe native.pointee.chunk_count }
        set { unsafe native.pointee.chunk_count = newValue }
    }
    private var lastTokenEnd: Int {
        get { unsafe native.pointee.last_token_end }
        set { unsafe native.pointee.last_token_end = newValue }
    }
    /// Input bytes since the end of the last token, from chunks already
    /// parsed; lets a string that began in an earlier chunk be re-read raw.
    @exclusivity(unchecked) private var carry: [UInt8] = []
    @exclusivity(unchecked) private var carryBase = 0

    /// What follows the last token yajl reported (see ``PendingToken``).
    @exclusivity(unchecked) private var pending = PendingToken()
    /// Chunks held back while a long token is unfinished (see ``hold(_:)``).
    @exclusivity(unchecked) private var held: [UInt8] = []
    /// An unfinished token longer than this holds back further chunks.
    private static let holdThreshold = 64
    /// Bytes of unfinished tokens yajl was given again (it rescans them on
    /// each call); tests check this stays proportional to the input.
    @exclusivity(unchecked) private(set) var rescannedBytes = 0
    /// ``rescannedBytes``, for the layers above (a read, on the parser's one task).
    var bytesRescanned: Int { unsafe rescannedBytes }
    /// Input bytes kept between chunks: the unfinished token and held chunks.
    var retainedBytes: Int { unsafe carry.count + held.count }

    /// The input bytes still kept from earlier chunks (the unfinished token,
    /// then chunks held back), and the absolute offset of the first: errors
    /// that point back into earlier chunks are located in them.
    var retained: (base: Int, bytes: [UInt8]) { unsafe (carryBase, carry + held) }
    /// Where ``retained`` begins (without copying the bytes).
    var retainedBase: Int { unsafe carryBase }

    /// Bytes handed to yajl so far (after a skipped byte order mark).
    @exclusivity(unchecked) private(set) var totalBytes = 0
    /// ``totalBytes``, for the layers above (a read, on the parser's one task).
    var bytesRead: Int { unsafe totalBytes }
    @exclusivity(unchecked) private var byteOrderMarkResolved = false
    @exclusivity(unchecked) private var pendingPrefix: [UInt8] = []

    /// A parser into a new builder. `swiftCallbacks` routes a parse that is
    /// not streamed through the Swift callbacks too (tests compare the two).
    init(options: ParseOptions, expectedInputBytes: Int, splitter: StreamSplitter? = nil, swiftCallbacks: Bool = false) {
        let options = options.bounded(streamed: splitter != nil)
        self.options = options
        tape = Tape.make(expectedInputBytes: expectedInputBytes)
        usesNativeTape = splitter == nil && !swiftCallbacks
        eventBuilder = usesNativeTape ? nil : DocumentBuilder(options: options, tape: tape, splitter: splitter)
        // Made in C, which zeroes only its fields (not the room for scratch
        // and yajl's allocations at its end, about 2 KB).
        guard let state = unsafe cartograph_yajl_tape_create() else {
            fatalError("Cartograph: out of memory for a parser")
        }
        unsafe native = unsafe state
        let context = unsafe Unmanaged.passUnretained(self).toOpaque()
        if usesNativeTape {
            unsafe prepareNativeTape(context: context)
            let table = unsafe cartograph_yajl_tape_callbacks()!.assumingMemoryBound(to: yajl_callbacks.self)
            unsafe native.pointee.handle = unsafe cartograph_yajl_alloc(native, table, UnsafeMutableRawPointer(native))
            unsafe cartograph_yajl_tape_attach(native)
        } else {
            unsafe native.pointee.handle = unsafe cartograph_yajl_alloc(native, YajlParser.callbacks, context)
        }
        if let handle = unsafe handle {
            _ = unsafe cartograph_yajl_config(handle, yajl_dont_validate_strings, 1)
            // A new handle's flags are all off: only those turned on are set.
            if options.allowComments { _ = unsafe cartograph_yajl_config(handle, yajl_allow_comments, 1) }
            if options.allowMultipleValues { _ = unsafe cartograph_yajl_config(handle, yajl_allow_multiple_values, 1) }
        } else {
            failure = CartographError(.outOfMemory, "yajl could not allocate a parser")
        }
    }

    deinit {
        if let handle = unsafe handle { unsafe yajl_free(handle) }
        unsafe cartograph_yajl_tape_destroy(native)
    }

    // MARK: The C tape builder

    /// Lends the builder's tape to the C side, with the limits and the
    /// three ways back into Swift.
    private func prepareNativeTape(context: UnsafeMutableRawPointer) {
        unsafe native.prepare(toWrite: tape, options: options, context: context)
        unsafe native.pointee.grow = { context, entries, bytes in
            unsafe YajlParser.parser(context)._withUnsafeGuaranteedRef { unsafe $0.native.grow($0.tape, entries: entries, bytes: bytes) }
        }
        unsafe native.pointee.escaped_string_start = { context, bytes, count in
            unsafe YajlParser.parser(context)._withUnsafeGuaranteedRef { unsafe $0.escapedStringStart(bytes, count: count) ?? -1 }
        }
        unsafe native.pointee.resolve_duplicates = { context, entry, count, canonically in
            unsafe YajlParser.parser(context)._withUnsafeGuaranteedRef {
                unsafe $0.native.giveCounts(to: $0.tape)
                return $0.builder.resolveDuplicates(inObjectAt: entry, count: count, canonically: canonically != 0) ?? -1
            }
        }
    }

    /// After each call into yajl: the builder takes the tape's counts and
    /// new roots, and a failure the C side recorded.
    private func syncNativeTape() {
        guard usesNativeTape else { return }
        let tape = unsafe native
        if let madeBuilder = unsafe madeBuilder {
            adoptNative(into: madeBuilder)
        } else {
            unsafe native.giveCounts(to: self.tape)
        }
        let code = unsafe UInt32(bitPattern: tape.pointee.failure)
        guard code != CARTOGRAPH_TAPE_OK.rawValue else { return }
        let source = unsafe tape.pointee.failure_source, value = unsafe tape.pointee.failure_value
        switch code {
        case CARTOGRAPH_TAPE_REPORTED.rawValue: break
        case CARTOGRAPH_TAPE_NUMBER_TOO_LONG.rawValue: _ = builder.failLimit(.numberTooLong, value, at: source)
        case CARTOGRAPH_TAPE_STRING_TOO_LONG.rawValue: _ = builder.failLimit(.stringTooLong, value, at: source)
        case CARTOGRAPH_TAPE_TOO_MANY_KEYS.rawValue: _ = builder.failLimit(.tooManyKeys, value, at: source)
        case CARTOGRAPH_TAPE_TOO_DEEP.rawValue: _ = builder.failLimit(.depthLimitExceeded, value, at: source)
        case CARTOGRAPH_TAPE_INVALID_UTF8.rawValue: unsafe builder.failInvalidUTF8(tape.pointee.failure_byte, at: value, source: source)
        case CARTOGRAPH_TAPE_KEY_OUTSIDE_OBJECT.rawValue:
            builder.fail(CartographError(.syntax, "a key outside an object", offset: source))
        case CARTOGRAPH_TAPE_UNOPENED_CLOSE.rawValue:
            builder.fail(CartographError(.syntax, "a container closed that was never opened"))
        default:
            builder.fail(CartographError(.outOfMemory, "could not allocate memory for the parse", offset: source))
        }
    }

    /// A builder takes the tape's counts and the roots the C side found
    /// (C tape builder parses only: the builder is then `madeBuilder`).
    /// Read field by field: the struct holds its own scratch (kilobytes),
    /// which a copy of it would move.
    private func adoptNative(into builder: DocumentBuilder) {
        unsafe builder.adoptNativeTape(
            count: native.pointee.count, byteCount: native.pointee.byte_count,
            roots: UnsafeBufferPointer(start: native.pointee.roots, count: native.pointee.root_count).span)
    }

    /// The finished parse's tape and roots (``DocumentBuilder/finishedParts()``);
    /// a document of one value parsed by the C tape builder needs no builder.
    func finishedParts() -> (tape: Tape, roots: [Int]) {
        if eventBuilder == nil, unsafe madeBuilder == nil, unsafe native.pointee.root_count == 1, unsafe native.pointee.roots[0] == 0 {
            return (tape, DocumentBuilder.firstEntryOnly)
        }
        return builder.finishedParts()
    }

    /// How many long strings yajl was given as `""` so far, their bodies
    /// read from the input by the C callbacks (tests check that it happens).
    var stringsLeftOut: Int { unsafe native.pointee.elided_total }

    /// How many bytes of input went to yajl through the copy that leaves
    /// out indentation and long strings' bodies (tests check where a
    /// parse of compact text stops copying).
    var bytesCopiedForLexing: Int { unsafe native.pointee.copied_total }

    /// Whether the scan for long strings has given up for this parse.
    var stringScanStopped: Bool { unsafe native.pointee.scan_state == Int32(CARTOGRAPH_SCAN_STOPPED) }

    /// Nesting depth of the value being read.
    private var depth: Int { unsafe usesNativeTape ? cartograph_yajl_tape_depth(native) : eventBuilder.unsafelyUnwrapped.depth }

    /// Whether every container opened has been closed and a value was read.
    private var isComplete: Bool {
        unsafe usesNativeTape ? cartograph_yajl_tape_depth(native) == 0 && native.pointee.root_count > 0 : eventBuilder.unsafelyUnwrapped.isComplete
    }

    /// The error that stopped parsing, if any.
    var error: CartographError? { failure }

    // MARK: Feeding

    /// Parses a whole input, to be followed by ``finish()`` only: the C
    /// tape builder then knows that nothing comes after it.
    func feedWhole(_ input: Span<UInt8>) -> CartographError? {
        unsafe input.withUnsafeBytes { unsafe feedWhole($0) }
    }

    /// Parses the next chunk. After an error, every call returns it again.
    func feed(_ chunk: Span<UInt8>) -> CartographError? {
        unsafe chunk.withUnsafeBytes { unsafe feed($0) }
    }

    /// The span form's work, on the bytes of a buffer.
    private func feedWhole(_ input: UnsafeRawBufferPointer) -> CartographError? {
        unsafe native.pointee.input_complete = 1
        return unsafe feed(input)
    }

    /// The span form's work, on the bytes of a buffer.
    private func feed(_ chunk: UnsafeRawBufferPointer) -> CartographError? {
        if let failure { return failure }
        guard unsafe chunk.count <= options.maxInputBytes - totalBytes - held.count - pendingPrefix.count else {
            return record(
                CartographError(
                    .inputTooLarge,
                    "input is larger than maxInputBytes (\(options.maxInputBytes))", offset: options.maxInputBytes))
        }
        guard unsafe byteOrderMarkResolved else { return unsafe feedPrefix(chunk) }
        return unsafe feedRaw(chunk)
    }

    private static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

    private static func startsWithByteOrderMark(_ bytes: UnsafeRawBufferPointer) -> Bool {
        unsafe bytes.count >= 3 && bytes[0] == byteOrderMark[0] && bytes[1] == byteOrderMark[1] && bytes[2] == byteOrderMark[2]
    }

    /// Collects the first three bytes to decide whether they are a byte order mark.
    private func feedPrefix(_ chunk: UnsafeRawBufferPointer) -> CartographError? {
        if unsafe pendingPrefix.isEmpty, chunk.count >= 3 {
            // The first chunk holds the three bytes (a whole input always
            // does): decided on them in place, and the chunk goes to yajl in
            // one call, not as three bytes and the rest (two calls and two
            // rounds of bookkeeping, a third of a 70-byte document's parse).
            unsafe byteOrderMarkResolved = true
            guard unsafe Self.startsWithByteOrderMark(chunk) else { return unsafe feedRaw(chunk) }
            if let error = skipByteOrderMark() { return error }
            return unsafe chunk.count == 3 ? nil : feedRaw(UnsafeRawBufferPointer(rebasing: chunk[3...]))
        }
        let taken = unsafe min(3 - pendingPrefix.count, chunk.count)
        unsafe pendingPrefix.append(contentsOf: chunk.prefix(taken))
        let rest = unsafe UnsafeRawBufferPointer(rebasing: chunk[taken...])
        if unsafe pendingPrefix.count < 3, unsafe pendingPrefix == Array(Self.byteOrderMark.prefix(pendingPrefix.count)) {
            return nil
        }
        return unsafe resolvePrefix() ?? (rest.isEmpty ? nil : feedRaw(rest))
    }

    /// Starts an object whose braces the input leaves out
    /// (``ParseOptions/assumesTopLevelObject``): yajl is given `{` just
    /// before the input's first byte after `prefix` bytes (a skipped byte
    /// order mark), counted so that every offset stays the input's own. The
    /// caller feeds the input after the prefix, then `}`.
    func beginBracelessObject(after prefix: Int) -> CartographError? {
        unsafe byteOrderMarkResolved = true
        let start = prefix - 1
        chunkBase = start
        unsafe carryBase = start
        lastTokenEnd = start
        unsafe totalBytes = start
        unsafe pending.reset(at: start)
        return unsafe [UInt8(ascii: "{")].withUnsafeBytes { unsafe feedRaw($0) }
    }

    private func resolvePrefix() -> CartographError? {
        unsafe byteOrderMarkResolved = true
        let prefix = unsafe pendingPrefix
        unsafe pendingPrefix = []
        if prefix == Self.byteOrderMark { return skipByteOrderMark() }
        return unsafe prefix.withUnsafeBytes { unsafe feedRaw($0) }
    }

    /// The input's first three bytes are a byte order mark: rejected, or
    /// skipped (offsets stay the input's own).
    private func skipByteOrderMark() -> CartographError? {
        if options.byteOrderMark == .reject {
            return record(CartographError(.syntax, "input starts with a UTF-8 byte order mark, which these options reject", offset: 0))
        }
        chunkBase = 3
        unsafe carryBase = 3
        lastTokenEnd = 3
        unsafe totalBytes = 3
        unsafe pending.reset(at: 3)
        return nil
    }

    private func feedRaw(_ chunk: UnsafeRawBufferPointer) -> CartographError? {
        guard unsafe !chunk.isEmpty else { return failure }
        if unsafe !held.isEmpty || (pending.isOpen && pending.raw > Self.holdThreshold) { return unsafe hold(chunk) }
        return unsafe parse(chunk)
    }

    /// Keeps a chunk back while a long token is unfinished, and hands the
    /// held bytes to yajl once they are at least as long as that token (or
    /// the token ended in them). yajl lexes an unfinished token again from
    /// its first byte on every call, so feeding it each small chunk of a long
    /// token costs quadratic time; with this rule each call's rescan is paid
    /// for by as many new bytes, and the total stays linear. The limits are
    /// checked on the held bytes as they arrive.
    private func hold(_ chunk: UnsafeRawBufferPointer) -> CartographError? {
        let base = unsafe totalBytes + held.count
        if let error = unsafe pending.advance(chunk.assumingMemoryBound(to: UInt8.self).span, base: base, options: options) {
            return record(error)
        }
        unsafe held.append(contentsOf: chunk)
        guard unsafe !pending.isOpen || held.count >= pending.raw else { return nil }
        return releaseHeld()
    }

    private func releaseHeld() -> CartographError? {
        guard unsafe !held.isEmpty else { return failure }
        let bytes = unsafe held
        // Kept on failure: the error may point into them (see `retained`).
        let error = unsafe bytes.withUnsafeBytes { unsafe parse($0) }
        if error == nil { unsafe held = [] }
        return error
    }

    /// Hands one chunk to yajl.
    private func parse(_ chunk: UnsafeRawBufferPointer) -> CartographError? {
        guard unsafe !chunk.isEmpty, let base = chunk.baseAddress, unsafe handle != nil else { return failure }
        if unsafe pending.isOpen { unsafe rescannedBytes += pending.raw }
        // Vertical tab and form feed: yajl skips them as whitespace; JSON does not.
        let bytes = unsafe base.assumingMemoryBound(to: UInt8.self)
        let found = unsafe cartograph_find_vertical_space(bytes, chunk.count)
        let limit = found < 0 ? chunk.count : found
        chunkBase = unsafe totalBytes
        unsafe chunkStart = unsafe bytes
        chunkCount = chunk.count
        defer { unsafe chunkStart = nil }
        if limit > 0 {
            // The C tape builder's parses give yajl the text without its
            // indentation and without long strings' bodies
            // (cartograph_yajl_tape_parse, which reads those from
            // chunkStart); the Swift callbacks' offsets assume the text as it is.
            let status = unsafe yajl_status(rawValue: UInt32(cartograph_yajl_tape_parse(native, bytes, limit, chunkBase, usesNativeTape ? 1 : 0)))
            syncNativeTape()
            if status != yajl_status_ok { return recordYajlFailure(status) }
        }
        if limit < chunk.count {
            return record(
                CartographError(
                    .invalidWhitespace,
                    unsafe "byte 0x\(String(bytes[limit], radix: 16, uppercase: true)) is not JSON whitespace (only space, tab, line feed and carriage return are)",
                    offset: chunkBase + limit))
        }
        // What is left unfinished after the last token: checked against the
        // limits now, and measured for hold(_:).
        if unsafe pending.origin != lastTokenEnd { unsafe pending.reset(at: lastTokenEnd) }
        let buffer = unsafe UnsafeBufferPointer(start: bytes, count: chunk.count)
        if let error = unsafe pending.advance(buffer.span, base: chunkBase, options: options) { return record(error) }
        unsafe keepCarry(buffer)
        unsafe totalBytes += chunk.count
        return nil
    }

    /// Keeps the bytes after the last token (see ``rawByte(_:)``), except a
    /// gap between tokens: its whitespace and comments are forgotten (only
    /// its separator's place is kept, by ``PendingToken``), so that nothing
    /// accumulates between values.
    private func keepCarry(_ chunk: UnsafeBufferPointer<UInt8>) {
        if unsafe pending.phase == .gap {
            unsafe carry.removeAll(keepingCapacity: carry.capacity <= 1 << 16)
            unsafe carryBase = chunkBase + chunk.count
            return
        }
        if lastTokenEnd >= chunkBase {
            unsafe carry.removeAll(keepingCapacity: true)
            unsafe carry.append(contentsOf: chunk[(lastTokenEnd - chunkBase)...])
            unsafe carryBase = lastTokenEnd
        } else {
            unsafe carry.append(contentsOf: chunk)
        }
    }

    /// Ends the input: yajl checks that the value is complete.
    func finish() -> CartographError? {
        if let failure { return failure }
        if unsafe !byteOrderMarkResolved, let error = resolvePrefix() { return error }
        if unsafe !held.isEmpty, let error = releaseHeld() { return error }
        guard let handle = unsafe handle else { return failure }
        chunkBase = unsafe totalBytes
        unsafe chunkStart = nil
        chunkCount = 0
        unsafe cartograph_yajl_tape_lex_plain(native, nil, 0, totalBytes)
        // With several values allowed, input that ends between values is
        // complete (yajl would call an empty or blank input "premature EOF");
        // anything still buffered (a final number) needs yajl_complete_parse.
        if options.allowMultipleValues, depth == 0, eventBuilder?.splitter?.activeElement == nil, onlyWhitespacePending {
            return nil
        }
        let status = unsafe yajl_complete_parse(handle)
        syncNativeTape()
        if status != yajl_status_ok { return recordYajlFailure(status) }
        if unsafe pending.isUnterminatedText {
            // After a complete value yajl waits for the rest of an unfinished
            // string or comment and, at the end of input, says nothing: the
            // tail is refused here, as yajl refuses a finished one.
            if options.allowMultipleValues {
                return unsafe record(CartographError(.unexpectedEnd, "the input ended before the value was complete", offset: totalBytes))
            }
            return unsafe record(CartographError(.syntax, "unexpected text after the value", offset: pending.start))
        }
        let splitter = eventBuilder?.splitter
        let streamedEverything = splitter != nil && depth == 0 && splitter?.activeElement == nil
        if !isComplete, !streamedEverything {
            return unsafe record(CartographError(.unexpectedEnd, "the input ended before a value was complete", offset: totalBytes))
        }
        return nil
    }

    /// Whether everything after the last token is whitespace.
    private var onlyWhitespacePending: Bool {
        unsafe pending.separator == nil && carry.allSatisfy { $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }
    }

    /// Every message yajl 2.1 can give, in plain words about the JSON text
    /// (yajl's own wording — "after key and value, inside map, I expect ','
    /// or '}'" — names its parser's states, not the input). A message not
    /// listed here (another yajl version) is passed on as yajl wrote it.
    private static let friendlierMessages: [String: String] = [
        "invalid string in json text": "invalid literal (expected true, false or null)",
        "invalid char in json text": "unexpected character",
        "trailing garbage": "unexpected text after the value",
        "invalid object key (must be a string)": "an object key must be a string",
        "after key and value, inside map, I expect ',' or '}'": "expected ',' or '}' after an object member",
        "after array element, I expect ',' or ']'": "expected ',' or ']' after an array element",
        "object key and value must be separated by a colon (':')": "expected ':' after an object key",
        "unallowed token at this point in JSON text": "unexpected token (a value, ']' or '}' is not allowed here)",
        "invalid bytes in UTF8 string": "invalid UTF-8 in a string",
        "inside a string, '\\' occurs before a character which it may not": "invalid escape sequence in a string",
        "invalid character inside string": "control character in a string (it must be escaped)",
        "invalid (non-hex) character occurs after '\\u' inside string": "invalid \\u escape (four hex digits expected)",
        "malformed number, a digit is required after the exponent": "invalid number (a digit must follow the exponent)",
        "malformed number, a digit is required after the decimal point": "invalid number (a digit must follow the decimal point)",
        "malformed number, a digit is required after the minus sign": "invalid number (a digit must follow the minus sign)",
        "probable comment found in input text, comments are not enabled": "comments are not allowed (ParseOptions.allowComments)",
        "invalid token, internal error": "invalid token"
    ]

    private func record(_ error: CartographError) -> CartographError {
        if unsafe failureBox == nil { failure = error }
        return unsafe failureBox.unsafelyUnwrapped.error
    }

    private func recordYajlFailure(_ status: yajl_status) -> CartographError {
        if status == yajl_status_client_canceled, let error = unsafe (eventBuilder ?? madeBuilder)?.failure {
            return record(error)
        }
        var message = "invalid JSON"
        if let handle = unsafe handle, let text = unsafe yajl_get_error(handle, 0, nil, 0) {
            message = unsafe String(cString: text)
            unsafe yajl_free_error(handle, text)
        }
        message = message.trimmingCharacters(in: .whitespacesAndNewlines)
        // Where the offending token starts is reported for grammar errors and
        // for bad literals or numbers (yajl stops somewhere inside or after
        // them, depending on chunking); errors inside a string keep yajl's
        // position, which points into the string.
        let insideString = message.contains("string") && !message.contains("invalid string in json text")
        let isParseError = !insideString
        for prefix in ["lexical error: ", "parse error: "] where message.hasPrefix(prefix) {
            message.removeFirst(prefix.count)
        }
        if message.hasSuffix(".") { message.removeLast() }
        message = Self.friendlierMessages[message] ?? message
        let consumed = unsafe handle.map { unsafe Int(yajl_get_bytes_consumed($0)) } ?? 0
        var offset = unsafe min(cartograph_yajl_tape_absolute(native, consumed), totalBytes + chunkCount)
        if isParseError {
            // yajl reports a grammar error after reading the offending token,
            // and where that token began depends on how the input was chunked;
            // the token starts at the first non-whitespace byte after the last
            // accepted token.
            // With comments allowed, comments count as whitespace here.
            var position = skipInsignificant(from: lastTokenEnd, before: offset)
            // One separator may stand between the last token and the bad one.
            if position < offset, let byte = rawByte(position), byte == UInt8(ascii: ",") || byte == UInt8(ascii: ":") {
                position = skipInsignificant(from: position + 1, before: offset)
            }
            offset = position
        }
        let kind: CartographError.Kind = message.contains("premature EOF") ? .unexpectedEnd : .syntax
        if kind == .unexpectedEnd { message = "the input ended before the value was complete" }
        return record(CartographError(kind, message, offset: offset))
    }

    // MARK: Offsets

    /// Absolute offset just past the token yajl has read.
    @inline(__always)
    private func tokenEnd() -> Int {
        unsafe cartograph_yajl_tape_token_end(native)
    }

    /// The first offset at or after `start` (and before `limit`) that is not
    /// whitespace or, when comments are allowed, inside a comment.
    private func skipInsignificant(from start: Int, before limit: Int) -> Int {
        let slash = UInt8(ascii: "/"), star = UInt8(ascii: "*")
        var position = start
        while position < limit, let byte = rawByte(position) {
            if byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 {
                position += 1
            } else if options.allowComments, byte == slash, let next = rawByte(position + 1), next == slash || next == star {
                position += 2
                if next == slash {
                    while position < limit, let byte = rawByte(position), byte != 0x0A { position += 1 }
                } else {
                    while position < limit, rawByte(position) != nil, !(rawByte(position) == star && rawByte(position + 1) == slash) {
                        position += 1
                    }
                    position = min(position + 2, limit)
                }
            } else {
                break
            }
        }
        return position
    }

    private func rawByte(_ absolute: Int) -> UInt8? {
        if let chunkStart = unsafe chunkStart, absolute >= chunkBase, absolute < chunkBase + chunkCount {
            return unsafe chunkStart[absolute - chunkBase]
        }
        // The gap keepCarry(_:) forgot: whitespace (comments read as such) and a separator.
        if absolute >= lastTokenEnd, unsafe absolute < carryBase {
            if let separator = unsafe pending.separator, separator.offset == absolute { return separator.byte }
            return 0x20
        }
        if unsafe absolute >= carryBase, unsafe absolute < carryBase + carry.count {
            return unsafe carry[absolute - carryBase]
        }
        return nil
    }

    /// The absolute offset of the opening quote of a string token ending
    /// at `end` that does not lie wholly in the current chunk (see
    /// ``NativeTapeState/stringInChunk(endingAt:previousTokenEnd:allowComments:)``
    /// for one that does, and why the scans go as they go).
    private func openingQuote(endingAt end: Int, previousTokenEnd: Int, decodedLength: Int) -> Int {
        if !options.allowComments {
            var position = previousTokenEnd
            while position < end - 1, let byte = rawByte(position) {
                if byte == UInt8(ascii: "\"") { return position }
                position += 1
            }
        }
        var position = end - 2
        while let byte = rawByte(position) {
            if byte == UInt8(ascii: "\"") {
                var backslashes = 0
                while rawByte(position - 1 - backslashes) == UInt8(ascii: "\\") { backslashes += 1 }
                if backslashes % 2 == 0 { return position }
            }
            position -= 1
        }
        return max(0, end - decodedLength - 2)
    }

    /// Where a string or key token starts, checking its raw escapes when the
    /// decoded text could hide an unpaired surrogate. Nil after a failure.
    @inline(__always)
    private func stringStart(_ pointer: UnsafePointer<UInt8>?, count: Int) -> Int? {
        if let pointer = unsafe pointer, let chunkStart = unsafe native.pointee.chunk_start, unsafe pointer >= chunkStart,
            unsafe pointer < chunkStart + native.pointee.chunk_count
        {
            // Raw text in the chunk: the quotes are right around it, no need to ask yajl.
            let start = unsafe native.pointee.chunk_base + (pointer - chunkStart) - 1
            unsafe native.pointee.last_token_end = start + count + 2
            return start
        }
        return unsafe escapedStringStart(pointer, count: count)
    }

    @inline(never)
    private func escapedStringStart(_ pointer: UnsafePointer<UInt8>?, count: Int) -> Int? {
        let previousTokenEnd = lastTokenEnd
        let end = tokenEnd()
        let start: Int
        let bad: Int?
        if let found = unsafe native.stringInChunk(endingAt: end, previousTokenEnd: previousTokenEnd, allowComments: options.allowComments) {
            (start, bad) = found
        } else {
            // Carried over from earlier chunks: copied out only when the
            // decoded text could hide an unpaired surrogate.
            start = openingQuote(endingAt: end, previousTokenEnd: previousTokenEnd, decodedLength: count)
            if count > 0, let pointer = unsafe pointer, unsafe SurrogateCheck.needsRawCheck(UnsafeBufferPointer(start: pointer, count: count).span) {
                var raw: [UInt8] = []
                raw.reserveCapacity(end - start)
                for position in (start + 1)..<(end - 1) {
                    guard let byte = rawByte(position) else { break }
                    raw.append(byte)
                }
                bad = SurrogateCheck.firstUnpaired(in: raw.span).map { start + 1 + $0 }
            } else {
                bad = nil
            }
        }
        if let bad {
            builder.fail(
                CartographError(
                    .invalidEscape,
                    "unpaired UTF-16 surrogate in a \\u escape (a high surrogate \\uD800-\\uDBFF must be followed by a low one \\uDC00-\\uDFFF)",
                    offset: bad))
            return nil
        }
        return start
    }

    // MARK: Callbacks

    private func onLiteral(_ kind: TokenKind, length: Int) -> Int32 {
        unsafe eventBuilder.unsafelyUnwrapped.literal(kind, at: tokenEnd() - length) ? 1 : 0
    }

    private func onNumber(_ text: UnsafePointer<CChar>?, _ count: Int) -> Int32 {
        guard let text = unsafe text else { return 0 }
        let bytes = unsafe UnsafeRawPointer(text).assumingMemoryBound(to: UInt8.self)
        let start: Int
        if let chunkStart = unsafe native.pointee.chunk_start, unsafe bytes >= chunkStart, unsafe bytes < chunkStart + native.pointee.chunk_count {
            start = unsafe native.pointee.chunk_base + (bytes - chunkStart)
            unsafe native.pointee.last_token_end = start + count
        } else {
            start = tokenEnd() - count
        }
        return unsafe eventBuilder.unsafelyUnwrapped.number(UnsafeBufferPointer(start: bytes, count: count).span, at: start) ? 1 : 0
    }

    private func onString(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
        guard let start = unsafe stringStart(bytes, count: count) else { return 0 }
        return unsafe eventBuilder.unsafelyUnwrapped.string(UnsafeBufferPointer(start: bytes, count: count).span, at: start) ? 1 : 0
    }

    private func onKey(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
        guard let start = unsafe stringStart(bytes, count: count) else { return 0 }
        return unsafe eventBuilder.unsafelyUnwrapped.key(UnsafeBufferPointer(start: bytes, count: count).span, at: start) ? 1 : 0
    }

    private func onBegin(object: Bool) -> Int32 {
        unsafe eventBuilder.unsafelyUnwrapped.begin(object: object, at: tokenEnd() - 1) ? 1 : 0
    }

    private func onEnd() -> Int32 {
        _ = tokenEnd()
        return unsafe eventBuilder.unsafelyUnwrapped.end() ? 1 : 0
    }

    private static func parser(_ context: UnsafeMutableRawPointer?) -> Unmanaged<YajlParser> {
        unsafe Unmanaged<YajlParser>.fromOpaque(context!)
    }

    /// The callback table: yajl keeps a pointer to it, so it lives for the process.
    /// The typed integer and double callbacks stay nil so that yajl hands over
    /// the raw number text.
    nonisolated(unsafe) private static let callbacks: UnsafeMutablePointer<yajl_callbacks> = {
        let table = UnsafeMutablePointer<yajl_callbacks>.allocate(capacity: 1)
        unsafe table.initialize(
            to: yajl_callbacks(
                yajl_null: { context in unsafe parser(context)._withUnsafeGuaranteedRef { $0.onLiteral(.null, length: 4) } },
                yajl_boolean: { context, value in
                    unsafe parser(context)._withUnsafeGuaranteedRef {
                        value != 0 ? $0.onLiteral(.true, length: 4) : $0.onLiteral(.false, length: 5)
                    }
                },
                yajl_integer: nil,
                yajl_double: nil,
                yajl_number: { context, text, count in unsafe parser(context)._withUnsafeGuaranteedRef { unsafe $0.onNumber(text, count) } },
                yajl_string: { context, bytes, count in unsafe parser(context)._withUnsafeGuaranteedRef { unsafe $0.onString(bytes, count) } },
                yajl_start_map: { context in unsafe parser(context)._withUnsafeGuaranteedRef { $0.onBegin(object: true) } },
                yajl_map_key: { context, bytes, count in unsafe parser(context)._withUnsafeGuaranteedRef { unsafe $0.onKey(bytes, count) } },
                yajl_end_map: { context in unsafe parser(context)._withUnsafeGuaranteedRef { $0.onEnd() } },
                yajl_start_array: { context in unsafe parser(context)._withUnsafeGuaranteedRef { $0.onBegin(object: false) } },
                yajl_end_array: { context in unsafe parser(context)._withUnsafeGuaranteedRef { $0.onEnd() } }
            ))
        return unsafe table
    }()
}
