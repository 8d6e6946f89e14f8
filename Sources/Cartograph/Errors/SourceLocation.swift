/// Line, column and an excerpt for a byte offset in text input.
///
/// Computed only when an error is reported, never on the hot path.
struct SourceLocation {
    /// 1-based line.
    let line: Int
    /// 1-based column in Unicode scalars.
    let column: Int
    /// The line around the offset (at most 60 bytes of it), and a caret under the offset.
    let excerpt: String

    init(offset rawOffset: Int, in input: UnsafeRawBufferPointer) {
        let offset = min(max(rawOffset, 0), input.count)
        var line = 1
        var lineStart = 0
        var index = 0
        while index < offset {
            if input[index] == UInt8(ascii: "\n") {
                line += 1
                lineStart = index + 1
            }
            index += 1
        }
        var column = 1
        for position in lineStart..<offset where input[position] & 0xC0 != 0x80 {
            column += 1
        }
        var lineEnd = offset
        while lineEnd < input.count, input[lineEnd] != UInt8(ascii: "\n"), input[lineEnd] != UInt8(ascii: "\r") {
            lineEnd += 1
        }
        // Keep the excerpt short: 40 bytes before the offset, 20 after.
        var from = max(lineStart, offset - 40)
        while from > lineStart, from < input.count, input[from] & 0xC0 == 0x80 { from -= 1 }
        var to = min(lineEnd, offset + 20)
        while to < lineEnd, input[to] & 0xC0 == 0x80 { to += 1 }
        let shown = String(decoding: UnsafeRawBufferPointer(rebasing: input[from..<to]), as: UTF8.self)
        var printable = ""
        for scalar in shown.unicodeScalars {
            printable.unicodeScalars.append(scalar.value < 0x20 || scalar.value == 0x7F ? "\u{FFFD}" : scalar)
        }
        var caretColumn = 0
        for position in from..<offset where input[position] & 0xC0 != 0x80 { caretColumn += 1 }
        self.line = line
        self.column = column
        self.excerpt = printable + "\n" + String(repeating: " ", count: caretColumn) + "^"
    }
}
