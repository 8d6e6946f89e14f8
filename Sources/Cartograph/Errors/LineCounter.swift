import Foundation

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
    mutating func advance(over chunk: Span<UInt8>, anchor anchorOffset: Int? = nil) {
        if let anchorOffset, anchorOffset >= offset, anchorOffset <= offset + chunk.count {
            let split = anchorOffset - offset
            count(chunk.extracting(..<split))
            anchor = (anchorOffset, line, column)
            count(chunk.extracting(split...))
        } else {
            count(chunk)
        }
    }

    /// Counts `bytes` in one pass (``CText/lineCounts(in:)``): lines by their
    /// breaks, the column by the scalars after the last one.
    private mutating func count(_ bytes: Span<UInt8>) {
        guard !bytes.isEmpty else { return }
        let counts = CText.lineCounts(in: bytes)
        var lineStart = 0
        if let last = counts.lastNewline {
            line += counts.newlines
            lineStart = last + 1
            column = 0
            lineTail.removeAll()
        }
        column += counts.scalarsAfter
        bytes.extracting(lineStart...).extracting(last: 80).append(to: &lineTail)
        if lineTail.count > 80 { lineTail.removeFirst(lineTail.count - 80) }
        offset += bytes.count
    }

    /// The error located within `chunk`, which starts at ``offset``, or in
    /// the `retained` bytes the parser still holds from before it.
    func locate(_ error: CartographError, in chunk: Span<UInt8>, retained: (base: Int, bytes: [UInt8])? = nil)
        -> CartographError
    {
        guard let absolute = error.offset, error.line == nil, error.kind.isLocatedInText else { return error }
        if absolute < offset, let retained, absolute >= anchor.offset, retained.base == anchor.offset,
            absolute < retained.base + retained.bytes.count
        {
            return located(error, SourceLocation(offset: absolute - retained.base, in: retained.bytes.span), from: anchor.line, anchor.column)
        }
        var text = lineTail
        let relative = max(-lineTail.count, min(absolute - offset, chunk.count))
        // Enough of the chunk for the offset and the excerpt after it.
        chunk.extracting(first: max(0, relative) + 64).append(to: &text)
        var scalarsBefore = 0
        for byte in lineTail where byte & 0xC0 != 0x80 { scalarsBefore += 1 }
        return located(error, SourceLocation(offset: lineTail.count + relative, in: text.span), from: line, column - scalarsBefore)
    }

    /// A location within a text that starts at `line`, `column` scalars into it.
    private func located(_ error: CartographError, _ location: SourceLocation, from line: Int, _ column: Int) -> CartographError {
        let shifted = SourceLocation.shifted(location, line: line, column: column)
        return error.located(at: shifted)
    }
}
