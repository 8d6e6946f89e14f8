internal import CCartographTape

/// Parses a whole input held in memory in one call into C, making no
/// parser object: the tape, the C tape builder's state (the thread's
/// spare, `cartograph_yajl_tape_create`) and a yajl handle in that state's
/// arena, made and freed inside the call. What a request body takes.
///
/// It answers only for valid input. Anything else — invalid JSON, a broken
/// limit, a repeated key these options refuse, an unpaired surrogate, a
/// byte order mark, a vertical tab — gives nil, and the caller parses the
/// input again on a ``YajlParser``, which finds, words and places every
/// error: an error is reported by one path whatever way the input came.
///
/// It exists because, for a small body, making and releasing a parser
/// object, its fields and its handle was a noticeable share of the parse.
enum WholeInputParse {
    /// What the three ways back into Swift reach: on the caller's stack,
    /// for the one call.
    @safe private struct Context {
        let native: NativeTapeState
        let tape: Tape
        let options: ParseOptions
        /// Made the first time an object needs its keys resolved (a key
        /// repeated, or one that is not ASCII): what applies the
        /// duplicate-key policy and canonical key equality.
        var builder: DocumentBuilder?
    }

    /// The tape and roots of `input` when it is a valid JSON text under
    /// `options` (JSON5 and brace-less objects aside: the caller's), or nil.
    static func parts(of input: Span<UInt8>, options: ParseOptions) -> (tape: Tape, roots: [Int])? {
        unsafe input.withUnsafeBytes { unsafe parts(of: $0, options: options) }
    }

    /// The span form's work, on the bytes of a buffer.
    private static func parts(of input: UnsafeRawBufferPointer, options: ParseOptions) -> (tape: Tape, roots: [Int])? {
        guard let base = input.baseAddress, input.count <= min(options.maxInputBytes, Tape.maxDocumentBytes),
            let native = unsafe cartograph_yajl_tape_create()
        else { return nil }
        defer { unsafe cartograph_yajl_tape_destroy(native) }
        let tape = Tape.make(expectedInputBytes: input.count)
        var context = unsafe Context(native: native, tape: tape, options: options)
        let complete = unsafe withUnsafeMutablePointer(to: &context) { context in
            unsafe native.prepare(toWrite: tape, options: options, context: UnsafeMutableRawPointer(context))
            unsafe native.pointee.grow = { context, entries, bytes in
                let context = unsafe context.unsafelyUnwrapped.assumingMemoryBound(to: Context.self)
                unsafe context.pointee.native.grow(context.pointee.tape, entries: entries, bytes: bytes)
            }
            unsafe native.pointee.escaped_string_start = { context, _, _ in
                unsafe WholeInputParse.stringStart(context.unsafelyUnwrapped.assumingMemoryBound(to: Context.self))
            }
            unsafe native.pointee.resolve_duplicates = { context, entry, count, canonically in
                unsafe WholeInputParse.resolveKeys(
                    context.unsafelyUnwrapped.assumingMemoryBound(to: Context.self), inObjectAt: entry, count: count,
                    canonically: canonically != 0)
            }
            return unsafe cartograph_yajl_tape_parse_whole(
                native, base.assumingMemoryBound(to: UInt8.self), input.count,
                options.allowComments ? 1 : 0, options.allowMultipleValues ? 1 : 0) != 0
        }
        guard complete else { return nil }
        unsafe native.giveCounts(to: tape)
        return unsafe (tape, native.roots)
    }

    /// Where a string yajl decoded or buffered starts; -1 declines the
    /// parse (an unpaired surrogate, which the general path reports).
    private static func stringStart(_ context: UnsafeMutablePointer<Context>) -> Int {
        let native = unsafe context.pointee.native
        let previousTokenEnd = unsafe native.pointee.last_token_end
        let end = unsafe cartograph_yajl_tape_token_end(native)
        guard
            let found = unsafe native.stringInChunk(
                endingAt: end, previousTokenEnd: previousTokenEnd,
                allowComments: context.pointee.options.allowComments), found.unpaired == nil
        else { return -1 }
        return found.start
    }

    /// The duplicate-key policy applied to one object; -1 declines the
    /// parse (a repeated key these options refuse).
    private static func resolveKeys(_ context: UnsafeMutablePointer<Context>, inObjectAt entry: Int, count: Int, canonically: Bool) -> Int {
        unsafe context.pointee.native.giveCounts(to: context.pointee.tape)
        if unsafe context.pointee.builder == nil {
            unsafe context.pointee.builder = unsafe DocumentBuilder(
                options: context.pointee.options.bounded(streamed: false), tape: context.pointee.tape)
        }
        return unsafe context.pointee.builder.unsafelyUnwrapped.resolveDuplicates(inObjectAt: entry, count: count, canonically: canonically) ?? -1
    }
}
