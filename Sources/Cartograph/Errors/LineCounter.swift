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

    /// Newlines counted a word at a time, the last one found with `memrchr`,
    /// scalars after it counted a word at a time (every byte that is not a
    /// UTF-8 continuation byte).
    private mutating func count(_ bytes: Span<UInt8>) {
        guard !bytes.isEmpty else { return }
        var lineStart = -1
        if let last = Self.lastNewline(in: bytes) {
            line += Self.newlines(in: bytes)
            lineStart = last + 1
        }
        if lineStart >= 0 {
            column = 0
            lineTail.removeAll()
        }
        let tail = bytes.extracting(max(lineStart, 0)...)
        column += Self.scalars(in: tail)
        tail.extracting(last: 80).append(to: &lineTail)
        if lineTail.count > 80 { lineTail.removeFirst(lineTail.count - 80) }
        offset += bytes.count
    }

    /// The offset of the last `\n`, looking a word at a time from the end.
    private static func lastNewline(in bytes: Span<UInt8>) -> Int? {
        var end = bytes.count
        while end >= 8 {
            let word = bytes.word(at: end - 8) ^ 0x0A0A_0A0A_0A0A_0A0A
            let nonzero = ((word & 0x7F7F_7F7F_7F7F_7F7F) &+ 0x7F7F_7F7F_7F7F_7F7F) | word
            if nonzero & 0x8080_8080_8080_8080 != 0x8080_8080_8080_8080 { break }
            end -= 8
        }
        var index = end - 1
        while index >= 0 {
            if bytes[index] == 0x0A { return index }
            index -= 1
        }
        return nil
    }

    /// Bytes equal to `\n`: in each word, a byte is zero after the XOR
    /// exactly when its high bit stays clear in `((x & 0x7F…) + 0x7F…) | x`.
    private static func newlines(in bytes: Span<UInt8>) -> Int {
        var count = 0
        var index = 0
        while index + 8 <= bytes.count {
            let word = bytes.word(at: index) ^ 0x0A0A_0A0A_0A0A_0A0A
            let nonzero = ((word & 0x7F7F_7F7F_7F7F_7F7F) &+ 0x7F7F_7F7F_7F7F_7F7F) | word
            count += 8 - (nonzero & 0x8080_8080_8080_8080).nonzeroBitCount
            index += 8
        }
        while index < bytes.count {
            if bytes[index] == 0x0A { count += 1 }
            index += 1
        }
        return count
    }

    /// Unicode scalars in valid UTF-8: bytes that are not `10xxxxxx`.
    private static func scalars(in bytes: Span<UInt8>) -> Int {
        var continuation = 0
        var index = 0
        while index + 8 <= bytes.count {
            let word = bytes.word(at: index)
            continuation += (word & ~(word << 1) & 0x8080_8080_8080_8080).nonzeroBitCount
            index += 8
        }
        while index < bytes.count {
            if bytes[index] & 0xC0 == 0x80 { continuation += 1 }
            index += 1
        }
        return bytes.count - continuation
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
