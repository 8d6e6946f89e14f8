internal import CCartographTape

/// The parse state of the C tape builder (`cartograph_yajl_tape`), as both
/// of its Swift drivers use it: ``YajlParser`` (chunks, and every error)
/// and ``WholeInputParse`` (a whole valid input in one call). Everything
/// here reads or writes the struct in place: it holds kilobytes of scratch,
/// which a copy would move.
typealias NativeTapeState = UnsafeMutablePointer<cartograph_yajl_tape>

extension UnsafeMutablePointer where Pointee == cartograph_yajl_tape {
    /// Lends `tape`'s buffers to the C side with the limits of `options`
    /// (as ``ParseOptions/bounded(streamed:)`` gives them) and the
    /// context its three ways back into Swift receive.
    func prepare(toWrite tape: Tape, options: ParseOptions, context: UnsafeMutableRawPointer) {
        unsafe lend(tape)
        unsafe pointee.max_depth = options.maxDepth
        unsafe pointee.max_keys = options.maxKeysPerObject
        unsafe pointee.max_string = min(options.maxStringBytes, Int(UInt32.max))
        unsafe pointee.max_number = min(options.maxNumberDigits, Int(UInt32.max))
        unsafe pointee.seed = KeyHash.seed
        unsafe pointee.context = unsafe context
    }

    /// Points the C side at the tape's current buffers.
    func lend(_ tape: Tape) {
        let storage = unsafe tape.storage
        unsafe pointee.entries = unsafe UnsafeMutableRawPointer(storage.pointee.entries)
        unsafe pointee.count = unsafe storage.pointee.count
        unsafe pointee.capacity = unsafe storage.pointee.capacities.entries
        unsafe pointee.bytes = unsafe storage.pointee.bytes
        unsafe pointee.byte_count = unsafe storage.pointee.byteCount
        unsafe pointee.byte_capacity = unsafe storage.pointee.capacities.bytes
    }

    /// The tape takes the counts of entries and bytes the C side wrote.
    func giveCounts(to tape: Tape) {
        unsafe tape.storage.pointee.adoptCounts(count: pointee.count, byteCount: pointee.byte_count)
    }

    /// The `grow` callback's work: room for `entries` more entries and
    /// `bytes` more bytes, lent back to the C side.
    func grow(_ tape: Tape, entries: Int, bytes: Int) {
        unsafe giveCounts(to: tape)
        unsafe tape.storage.pointee.reserve(entries: entries, bytes: bytes)
        unsafe lend(tape)
    }

    /// The roots the C side found, as a document keeps them: one shared
    /// array for a document of one value (nearly every document).
    var roots: [Int] {
        if unsafe pointee.root_count == 1, unsafe pointee.roots[0] == 0 { return DocumentBuilder.firstEntryOnly }
        return unsafe Array(UnsafeBufferPointer(start: pointee.roots, count: pointee.root_count))
    }

    /// For a string token yajl decoded (it had escapes) or buffered, whose
    /// raw text lies wholly in the chunk being parsed: where its opening
    /// quote is, and the offset (in the input) of its first `\u` escape of
    /// a surrogate that does not pair up, if any. Nil when the chunk does
    /// not hold the token; the caller then looks in what earlier chunks
    /// left. `previousTokenEnd` is where the last token before it ended.
    ///
    /// Without comments only whitespace, `,` and `:` can stand between the
    /// previous token and this one, so the first quote after the previous
    /// token is the opening one. With comments, a comment may hold a quote:
    /// the scan goes back from the closing quote instead, counting
    /// backslashes.
    func stringInChunk(endingAt end: Int, previousTokenEnd: Int, allowComments: Bool) -> (start: Int, unpaired: Int?)? {
        guard let chunk = unsafe pointee.chunk_start else { return nil }
        let base = unsafe pointee.chunk_base, count = unsafe pointee.chunk_count
        guard end - 1 > base, end <= base + count else { return nil }
        var start: Int?
        if !allowComments, previousTokenEnd >= base {
            var position = previousTokenEnd
            while position < end - 1 {
                if unsafe chunk[position - base] == UInt8(ascii: "\"") {
                    start = position
                    break
                }
                position += 1
            }
        } else if allowComments {
            var index = end - 1 - base - 1
            while index >= 0 {
                if unsafe chunk[index] == UInt8(ascii: "\"") {
                    var backslashes = 0
                    while index - 1 - backslashes >= 0, unsafe chunk[index - 1 - backslashes] == UInt8(ascii: "\\") { backslashes += 1 }
                    // A run reaching the chunk's start has unknown parity.
                    if index - 1 - backslashes < 0 { break }
                    if backslashes % 2 == 0 {
                        start = base + index
                        break
                    }
                }
                index -= 1
            }
        }
        guard let start else { return nil }
        // The raw text is at hand: the search for `\u` answers alone, and
        // faster than asking first whether the decoded text could hide a case.
        let raw = unsafe UnsafeBufferPointer(start: chunk + (start + 1 - base), count: end - start - 2)
        return unsafe (start, SurrogateCheck.firstUnpaired(in: raw.span).map { start + 1 + $0 })
    }
}
