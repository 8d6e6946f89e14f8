/// Keeps the line and column reached by an incremental parse, so an error in
/// a later chunk can still say `line:column` without the earlier chunks.
struct LineCounter {
    /// Absolute offset of the first byte not yet counted.
    private(set) var offset = 0
    /// 1-based line of `offset`.
    private(set) var line = 1
    /// Unicode scalars between the last line start and `offset`.
    private(set) var column = 0
    /// The last bytes of the current line (at most 80), for excerpts.
    private var lineTail: [UInt8] = []

    mutating func advance(over chunk: UnsafeRawBufferPointer) {
        var lineStart = 0
        for (index, byte) in chunk.enumerated() {
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
    }

    /// The error located within `chunk`, which starts at ``offset``.
    func locate(_ error: CartographError, in chunk: UnsafeRawBufferPointer) -> CartographError {
        guard let absolute = error.offset, error.line == nil else { return error }
        var text = lineTail
        text.append(contentsOf: chunk.prefix(4096))
        let relative = max(-lineTail.count, min(absolute - offset, chunk.count))
        return text.withUnsafeBytes { buffer in
            let location = SourceLocation(offset: lineTail.count + relative, in: buffer)
            var scalarsBefore = 0
            for byte in lineTail where byte & 0xC0 != 0x80 { scalarsBefore += 1 }
            let column = location.line == 1 ? location.column - scalarsBefore + column : location.column
            return CartographError(
                error.kind, error.message, offset: absolute, line: line + location.line - 1, column: column,
                path: error.path, expected: error.expected, found: error.found, excerpt: location.excerpt)
        }
    }
}
