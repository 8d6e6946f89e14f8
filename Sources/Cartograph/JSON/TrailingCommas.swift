/// Trailing commas (`[1, 2,]`, `{"a": 1,}`) for
/// ``ParseOptions/allowsTrailingCommas``: yajl has no such option, so an
/// input that failed to parse is copied with each trailing comma made a
/// space and parsed again. A space keeps every offset, line and column, so
/// an error in the copy is an error at the same place in the input.
///
/// A comma is trailing when a value ends just before it (not `[`, `{`, `,`
/// or `:`) and the bracket that closes its container comes next, whitespace
/// and comments aside: `[,]`, `[1,,]` and `{"a": 1,]` keep their commas and
/// stay errors, as in `JSONDecoder`.
enum TrailingCommas {
    /// A copy of `input` without its trailing commas, or nil when it has none.
    static func blanked(_ input: Span<UInt8>, comments: Bool) -> [UInt8]? {
        var copy: [UInt8]?
        var position = 0
        // The last byte outside strings and comments that is not whitespace.
        var previous: UInt8 = 0
        // Where a comma that follows a value waits for what comes next.
        var pendingComma: Int?
        // The open brackets: a comma before a bracket that does not close
        // the container (`{"a": 1,]`) is left for the parser to report.
        var open: [UInt8] = []
        while position < input.count {
            let byte = input[position]
            switch byte {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"):
                position += 1
                continue
            case UInt8(ascii: "/") where comments && position + 1 < input.count:
                if let end = commentEnd(input, at: position) {
                    position = end
                    continue
                }
            case UInt8(ascii: "\""):
                position = stringEnd(input, after: position)
                pendingComma = nil
                previous = byte
                continue
            case UInt8(ascii: ","):
                let followsValue =
                    previous != 0 && previous != UInt8(ascii: "[") && previous != UInt8(ascii: "{")
                    && previous != UInt8(ascii: ",") && previous != UInt8(ascii: ":")
                pendingComma = followsValue ? position : nil
                previous = byte
                position += 1
                continue
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                open.append(byte)
            case UInt8(ascii: "]"), UInt8(ascii: "}"):
                let opener = open.popLast()
                let closes = opener == (byte == UInt8(ascii: "]") ? UInt8(ascii: "[") : UInt8(ascii: "{"))
                if let comma = pendingComma, closes {
                    if copy == nil { copy = input.copiedBytes }
                    copy![comma] = UInt8(ascii: " ")
                }
            default:
                break
            }
            pendingComma = nil
            previous = byte
            position += 1
        }
        return copy
    }

    /// The position after the string that opens at `start` (the input's end when it is not closed).
    private static func stringEnd(_ input: Span<UInt8>, after start: Int) -> Int {
        var position = start + 1
        while position < input.count {
            switch input[position] {
            case UInt8(ascii: "\\"): position += 2
            case UInt8(ascii: "\""): return position + 1
            default: position += 1
            }
        }
        return input.count
    }

    /// The position after a `//` or `/* */` comment at `start`, or nil when none starts there.
    private static func commentEnd(_ input: Span<UInt8>, at start: Int) -> Int? {
        switch input[start + 1] {
        case UInt8(ascii: "/"):
            var position = start + 2
            while position < input.count, input[position] != UInt8(ascii: "\n") { position += 1 }
            return position
        case UInt8(ascii: "*"):
            var position = start + 2
            while position + 1 < input.count {
                if input[position] == UInt8(ascii: "*"), input[position + 1] == UInt8(ascii: "/") { return position + 2 }
                position += 1
            }
            return input.count
        default:
            return nil
        }
    }
}
