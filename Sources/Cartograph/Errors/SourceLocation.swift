/// Line, column and an excerpt for a byte offset in text input.
///
/// Computed only when an error leaves Cartograph (or is printed), never on
/// the hot path and never for an error that a `try?`, `@LossyArray` or
/// lossy decode swallows. Many errors of one input are located in one pass
/// (``locateAll(_:in:)``), so 40,000 skipped elements cost one walk over the
/// input, not 40,000.
struct SourceLocation {
    /// 1-based line.
    let line: Int
    /// 1-based column in Unicode scalars.
    let column: Int
    /// The line around the offset (at most 60 bytes of it), and a caret under the offset.
    let excerpt: String

    init(offset: Int, in input: Span<UInt8>) {
        var cursor = Cursor()
        self = cursor.location(of: offset, in: input)
    }

    fileprivate init(line: Int, column: Int, excerpt: String) {
        self.line = line
        self.column = column
        self.excerpt = excerpt
    }

    /// A location found in a text that itself starts at `line`, `column`
    /// scalars into that line.
    static func shifted(_ location: SourceLocation, line: Int, column: Int) -> SourceLocation {
        SourceLocation(
            line: line + location.line - 1, column: location.line == 1 ? location.column + column : location.column,
            excerpt: location.excerpt)
    }

    /// Every error located, in one pass over the input (errors without an
    /// offset, or already located, are returned as they are).
    static func locateAll(_ errors: [CartographError], in input: Span<UInt8>) -> [CartographError] {
        var located = errors
        var cursor = Cursor()
        let order = errors.indices.filter { errors[$0].offset != nil && errors[$0].line == nil }.sorted {
            errors[$0].offset! < errors[$1].offset!
        }
        for index in order {
            let error = errors[index]
            located[index] = error.located(at: cursor.location(of: error.offset!, in: input))
        }
        return located
    }

    /// A position walked forward through the input: line and column of
    /// ``index``, so the next, later offset costs only the bytes between.
    struct Cursor {
        private var index = 0
        private var line = 1
        private var lineStart = 0
        /// Unicode scalars from `lineStart` to `index`.
        private var scalars = 0

        mutating func location(of rawOffset: Int, in input: Span<UInt8>) -> SourceLocation {
            let offset = min(max(rawOffset, 0), input.count)
            if offset < index { self = Cursor() }
            while index < offset {
                let byte = input[index]
                if byte == UInt8(ascii: "\n") {
                    line += 1
                    lineStart = index + 1
                    scalars = 0
                } else if byte & 0xC0 != 0x80 {
                    scalars += 1
                }
                index += 1
            }
            return SourceLocation(line: line, column: scalars + 1, excerpt: Self.excerpt(at: offset, lineStart: lineStart, in: input))
        }

        /// At most 40 bytes before the offset and 20 after, within its line,
        /// control and bidirectional characters shown as U+FFFD (tabs as a space), a caret under the offset.
        private static func excerpt(at offset: Int, lineStart: Int, in input: Span<UInt8>) -> String {
            var lineEnd = offset
            while lineEnd < input.count, lineEnd < offset + 64, input[lineEnd] != UInt8(ascii: "\n"),
                input[lineEnd] != UInt8(ascii: "\r")
            {
                lineEnd += 1
            }
            var from = max(lineStart, offset - 40)
            while from > lineStart, from < input.count, input[from] & 0xC0 == 0x80 { from -= 1 }
            var to = min(lineEnd, offset + 20)
            while to < lineEnd, input[to] & 0xC0 == 0x80 { to += 1 }
            var bytes: [UInt8] = []
            for position in from..<max(from, to) { bytes.append(input[position]) }
            let shown = String(decoding: bytes, as: UTF8.self)
            var printable = ""
            for scalar in shown.unicodeScalars {
                if scalar == "\t" {
                    printable.unicodeScalars.append(" ")
                } else {
                    // One column each, so the caret stays under its place.
                    printable.unicodeScalars.append(ErrorText.isUnsafe(scalar) ? "\u{FFFD}" : scalar)
                }
            }
            var caretColumn = 0
            for position in from..<max(from, offset) where input[position] & 0xC0 != 0x80 { caretColumn += 1 }
            return printable + "\n" + String(repeating: " ", count: caretColumn) + "^"
        }
    }
}
