/// Keeps the line and column reached by an incremental parse, so an error in
/// a later chunk can still say `line:column` without the earlier chunks.
///
/// An error may also point back into earlier chunks (a string that began
/// there and broke a limit, a grammar error at a token split across
/// chunks). The parser keeps the bytes from the start of the token it has
/// not finished (``YajlParser/retained``); the counter remembers the line
/// and column where those bytes begin (the anchor), and counts on from
/// there.
struct LineCounter {
    /// Absolute offset of the first byte not yet counted.
    private(set) var offset = 0
    /// 1-based line of `offset`.
    private(set) var line = 1
    /// Unicode scalars between the last line start and `offset`.
    private(set) var column = 0
    /// The last bytes of the current line (at most 80), for excerpts.
    private var lineTail: [UInt8] = []
    /// Line and column (scalars since its line start) at an earlier offset.
    private var anchor = (offset: 0, line: 1, column: 0)

    /// Counts a chunk; remembers the line and column at `anchorOffset`
    /// when it lies in the chunk (or at its end).
    mutating func advance(over chunk: UnsafeRawBufferPointer, anchor anchorOffset: Int? = nil) {
        var lineStart = 0
        for (index, byte) in chunk.enumerated() {
            if offset + index == anchorOffset { anchor = (anchorOffset!, line, column) }
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 0
                lineStart = index + 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        if lineStart > 0 { lineTail.removeAll() }
        lineTail.append(contentsOf: chunk[lineStart...].suffix(80))
        if lineTail.count > 80 { lineTail.removeFirst(lineTail.count - 80) }
        offset += chunk.count
        if anchorOffset == offset { anchor = (offset, line, column) }
    }

    /// The error located within `chunk`, which starts at ``offset``, or in
    /// the `retained` bytes the parser still holds from before it.
    func locate(_ error: CartographError, in chunk: UnsafeRawBufferPointer, retained: (base: Int, bytes: [UInt8])? = nil)
        -> CartographError
    {
        guard let absolute = error.offset, error.line == nil else { return error }
        if absolute < offset, let retained, absolute >= anchor.offset, retained.base == anchor.offset,
            absolute < retained.base + retained.bytes.count
        {
            return retained.bytes.withUnsafeBytes { buffer in
                located(error, SourceLocation(offset: absolute - retained.base, in: buffer), from: anchor.line, anchor.column)
            }
        }
        var text = lineTail
        let relative = max(-lineTail.count, min(absolute - offset, chunk.count))
        // Enough of the chunk for the offset and the excerpt after it.
        text.append(contentsOf: chunk.prefix(max(0, relative) + 64))
        var scalarsBefore = 0
        for byte in lineTail where byte & 0xC0 != 0x80 { scalarsBefore += 1 }
        return text.withUnsafeBytes { buffer in
            located(error, SourceLocation(offset: lineTail.count + relative, in: buffer), from: line, column - scalarsBefore)
        }
    }

    /// A location within a text that starts at `line`, `column` scalars into it.
    private func located(_ error: CartographError, _ location: SourceLocation, from line: Int, _ column: Int) -> CartographError {
        let shifted = SourceLocation.shifted(location, line: line, column: column)
        return error.located(at: shifted)
    }
}
