/// What the input holds after the last token yajl reported: whitespace and
/// separators, then perhaps the start of a token that has not ended yet.
///
/// yajl keeps an unfinished token in a buffer and lexes it again from its
/// first byte on every `yajl_parse` call, so a long token fed in small
/// chunks costs time quadratic in its length, and a limit such as
/// ``ParseOptions/maxStringBytes`` is only checked once the token ends.
/// ``YajlParser`` keeps this small state machine over the same bytes, one
/// pass, never rescanned:
///
/// - it refuses a string or number that has passed its limit while the
///   token is still arriving (a string's decoded length is bounded from
///   below: each escape is counted at the fewest bytes it can decode to);
/// - it tells the parser how long the unfinished token is, so the parser
///   can hold back further chunks until they are at least as long as what
///   yajl would rescan (each rescan then pays for itself: linear in total);
/// - it says when everything since the last token is whitespace, comments
///   and at most one separator, which the parser then need not keep.
///
/// ```
/// input   …, "abc\u00e9de    (fed so far; the string has not ended)
/// phase   gap  string
/// start        ^ the opening quote (absolute offset)
/// raw          11 bytes so far   saved 5 (a \u escape decodes to ≥ 1 of its 6)
/// ```
struct PendingToken {
    enum Phase {
        /// Whitespace and separators only.
        case gap
        /// After a `/` in the gap (comments allowed).
        case slash
        case string
        case number
        /// `true`, `false` or `null`, at most five bytes.
        case literal
        case lineComment
        case blockComment
        /// A block comment's `*`, which may end it.
        case blockCommentStar
        /// The token ended in bytes yajl has not been given yet.
        case ended
    }

    private(set) var phase = Phase.gap
    /// Absolute offset just past the token yajl last reported (where this scan began).
    private(set) var origin = 0
    /// Absolute offset of the token's first byte.
    private(set) var start = 0
    /// Bytes of the token so far.
    private(set) var raw = 0
    /// Everything up to this absolute offset has been scanned.
    private(set) var scannedTo = 0
    /// The gap's separator (`,` or `:`; yajl refuses a second), and where it is.
    private(set) var separator: (byte: UInt8, offset: Int)?
    /// Bytes the string's escapes save when decoded (`\n` saves 1, `\u00e9` 5).
    private var saved = 0
    private var afterBackslash = false

    /// Starts over just after a token that ended at `offset`.
    mutating func reset(at offset: Int) {
        self = PendingToken()
        origin = offset
        start = offset
        scannedTo = offset
    }

    /// Whether a token is open (a string, number, literal or comment).
    var isOpen: Bool {
        switch phase {
        case .gap, .slash, .ended: return false
        default: return true
        }
    }

    /// Whether a string or a block comment (or a `/` that might start a
    /// comment) is open: text that cannot end at the end of input. yajl,
    /// after a complete top-level value, takes such a tail for an
    /// unfinished token and lets `yajl_complete_parse` succeed (`9"abc`).
    var isUnterminatedText: Bool {
        switch phase {
        case .string, .slash, .blockComment, .blockCommentStar: return true
        default: return false
        }
    }

    /// Scans `bytes`, which begin at absolute offset `base` (bytes before
    /// ``scannedTo`` are skipped). Returns the limit the token broke, if any.
    mutating func advance(_ bytes: Span<UInt8>, base: Int, options: ParseOptions) -> CartographError? {
        var index = max(0, scannedTo - base)
        let count = bytes.count
        while index < count, phase != .ended {
            // Runs of whitespace in a gap and of plain string bytes are
            // skipped in tight loops, with the limit checked once after.
            if phase == .gap {
                while index < count, bytes[index] == 0x20 || bytes[index] == 0x0A || bytes[index] == 0x0D || bytes[index] == 0x09 {
                    index += 1
                }
                if index == count { break }
            } else if phase == .string, !afterBackslash {
                let from = index
                while index < count, bytes[index] != UInt8(ascii: "\""), bytes[index] != UInt8(ascii: "\\") { index += 1 }
                raw += index - from
                if let error = brokenLimit(options) { return error }
                if index == count { break }
            }
            let byte = bytes[index]
            switch phase {
            case .gap:
                switch byte {
                case 0x20, 0x0A, 0x0D, 0x09: break
                case UInt8(ascii: ","), UInt8(ascii: ":"): separator = (byte, base + index)
                case UInt8(ascii: "/"): phase = .slash
                default: open(byte, at: base + index)
                }
            case .slash:
                phase = byte == UInt8(ascii: "*") ? .blockComment : (byte == UInt8(ascii: "/") ? .lineComment : .ended)
                start = base + index - 1
                raw = 2
            case .string:
                raw += 1
                if afterBackslash {
                    afterBackslash = false
                    saved += byte == UInt8(ascii: "u") ? 5 : 1
                } else if byte == UInt8(ascii: "\\") {
                    afterBackslash = true
                } else if byte == UInt8(ascii: "\"") {
                    phase = .ended
                }
            case .number:
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "."), UInt8(ascii: "e"),
                    UInt8(ascii: "E"):
                    raw += 1
                default: phase = .ended
                }
            case .literal:
                raw += 1
                if raw > 5 { phase = .ended }
            case .lineComment:
                raw += 1
                if byte == 0x0A { endComment() }
            case .blockComment:
                raw += 1
                if byte == UInt8(ascii: "*") { phase = .blockCommentStar }
            case .blockCommentStar:
                raw += 1
                if byte == UInt8(ascii: "/") { endComment() } else if byte != UInt8(ascii: "*") { phase = .blockComment }
            case .ended:
                break
            }
            index += 1
            if let error = brokenLimit(options) { return error }
        }
        scannedTo = max(scannedTo, base + index)
        if phase == .ended { scannedTo = base + bytes.count }
        return nil
    }

    private mutating func open(_ byte: UInt8, at offset: Int) {
        start = offset
        raw = 1
        switch byte {
        case UInt8(ascii: "\""): phase = .string
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): phase = .number
        case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"): phase = .literal
        // A bracket or anything yajl refuses: yajl reports it when given it.
        default: phase = .ended
        }
    }

    /// A comment ended: back to the gap (comments count as whitespace).
    private mutating func endComment() {
        phase = .gap
        raw = 0
    }

    private func brokenLimit(_ options: ParseOptions) -> CartographError? {
        switch phase {
        case .string:
            // The quote is not content; an escape still open may save more.
            let decodedAtLeast = raw - 1 - saved - (afterBackslash ? 5 : 0)
            guard decodedAtLeast > options.maxStringBytes else { return nil }
            return CartographError(
                .stringTooLong,
                "string has more than \(options.maxStringBytes) bytes, more than maxStringBytes (refused while it was still arriving)",
                offset: start)
        case .number:
            guard raw > options.maxNumberDigits else { return nil }
            return CartographError(
                .numberTooLong,
                "number has more than \(options.maxNumberDigits) characters, more than maxNumberDigits (refused while it was still arriving)",
                offset: start)
        default:
            // Comments (opt-in) have no limit of their own, as in a whole
            // parse: the input's size bounds them (in a stream, the bytes a
            // parser may keep, ``ParseOptions/maxElementBytes``).
            return nil
        }
    }
}
