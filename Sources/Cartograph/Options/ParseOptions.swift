/// Limits and leniencies for reading JSON, in one `Sendable` value.
///
/// The defaults are safe for untrusted input (request bodies from the
/// internet): every limit is finite, and only standard JSON (RFC 8259) is
/// accepted. Every limit turns into a ``CartographError`` with its own kind
/// when exceeded; nothing is truncated silently.
public struct ParseOptions: Sendable, Hashable {
    /// Deepest nesting of arrays and objects. Default 512.
    ///
    /// Exceeding it throws ``CartographError/Kind/depthLimitExceeded``.
    public var maxDepth: Int = 512
    /// Largest input accepted, in bytes. Default 1 GiB; at most 2 GiB (a
    /// larger value acts as 2 GiB: a ``Document`` keeps 32-bit offsets).
    ///
    /// Exceeding it throws ``CartographError/Kind/inputTooLarge``.
    public var maxInputBytes: Int = 1 << 30
    /// Longest string or key after unescaping, in bytes. Default 64 MiB.
    ///
    /// Exceeding it throws ``CartographError/Kind/stringTooLong``.
    public var maxStringBytes: Int = 64 << 20
    /// Most characters in one number (sign, digits, point and exponent). Default 4,096.
    ///
    /// Exceeding it throws ``CartographError/Kind/numberTooLong``. Numbers
    /// within it keep their exact text however many digits they have.
    public var maxNumberDigits: Int = 4_096
    /// Most keys in one object. Default 1,000,000.
    ///
    /// Exceeding it throws ``CartographError/Kind/tooManyKeys``.
    public var maxKeysPerObject: Int = 1_000_000
    /// Most memory one streamed element may take, in bytes of its Document
    /// (tape entries and text). Default 64 MiB; at most 2 GiB.
    ///
    /// A stream (``ModelStream``, ``JSONMapper/models(_:from:path:lossy:)``)
    /// has no total size limit; this bounds what it holds at once. Exceeding
    /// it throws ``CartographError/Kind/inputTooLarge`` while the element is
    /// still arriving.
    public var maxElementBytes: Int = 64 << 20
    /// Most memory a stream's envelope (everything around the streamed
    /// array, kept for ``ModelStream/envelope``) may take, in bytes of its
    /// Document. Default 16 MiB; at most 2 GiB. Exceeding it throws
    /// ``CartographError/Kind/inputTooLarge``; a path that matches nothing
    /// keeps the whole input in the envelope, so this also bounds that.
    public var maxEnvelopeBytes: Int = 16 << 20
    /// Most element errors a lossy stream keeps in ``ModelStream/issues``.
    /// Default 10,000. One more throws ``CartographError/Kind/tooManyIssues``.
    public var maxStreamIssues: Int = 10_000
    /// What to do when an object repeats a key. Default ``DuplicateKeyPolicy/lastWins``.
    public var duplicateKeys: DuplicateKeyPolicy = .lastWins
    /// Accept `//` and `/* */` comments. Default `false` (they are not JSON).
    public var allowComments: Bool = false
    /// Read JSON5 (json5.org) instead of JSON: comments, unquoted and
    /// single-quoted keys, single-quoted strings, trailing commas,
    /// hexadecimal numbers, `+1`, `.5`, `5.`, `Infinity` and `NaN`. Read
    /// whole (a ``JSONParser`` keeps the chunks and reads them at
    /// ``JSONParser/finish()``), in plain Swift rather than yajl. Default
    /// `false`. `CartographJSONDecoder.allowsJSON5` sets it.
    public var allowsJSON5: Bool = false
    /// The text may be an object's members without the braces (`"name":
    /// "x", "size": 2`, or in JSON5 `name: 'x'`), as Foundation's
    /// `assumesTopLevelDictionary`; an empty text is then an empty object,
    /// and a text that starts with `{` is read as it is. Whole inputs only
    /// (a ``JSONParser`` fed in chunks ignores it). Default `false`.
    public var assumesTopLevelObject: Bool = false
    /// Accept a comma after an array's last element or an object's last
    /// member (`[1, 2,]`, `{"a": 1,}`), as Foundation's `JSONDecoder` does;
    /// a comma with nothing before it (`[,]`, `[1,,]`) is still an error.
    /// Whole inputs only (a ``JSONParser`` fed in chunks ignores it).
    /// Default `false` (RFC 8259 has no such comma);
    /// `CartographJSONDecoder` sets it.
    public var allowsTrailingCommas: Bool = false
    /// Accept several top-level values separated by whitespace (NDJSON,
    /// concatenated JSON). Default `false`.
    public var allowMultipleValues: Bool = false
    /// What to do with a UTF-8 byte order mark at the very start. Default ``ByteOrderMarkPolicy/skip``.
    public var byteOrderMark: ByteOrderMarkPolicy = .skip

    /// The defaults described on each property.
    public init() {}

    /// The defaults, with some properties changed.
    public init(_ configure: (inout ParseOptions) -> Void) {
        configure(&self)
    }

    /// The options as a parse applies them: one document's input (not a
    /// stream's, which has no total), a streamed element and a stream's
    /// envelope each held to ``Tape/maxDocumentBytes``, whatever larger
    /// limit was set, so every offset on a tape fits its 32 bits.
    func bounded(streamed: Bool) -> ParseOptions {
        var bounded = self
        if !streamed { bounded.maxInputBytes = min(maxInputBytes, Tape.maxDocumentBytes) }
        bounded.maxElementBytes = min(maxElementBytes, Tape.maxDocumentBytes)
        bounded.maxEnvelopeBytes = min(maxEnvelopeBytes, Tape.maxDocumentBytes)
        return bounded
    }
}

/// What the parser does when one object has the same key twice.
///
/// RFC 8259 says keys *should* be unique and leaves the rest to
/// implementations; JSONTestSuite lists duplicates among the inputs a parser
/// must accept.
public enum DuplicateKeyPolicy: Sendable, Hashable {
    /// Keep the last value, as JavaScript's `JSON.parse` and Foundation's
    /// `JSONSerialization` do. The default, so that Cartograph reads a
    /// document the way the rest of a service's stack reads it.
    case lastWins
    /// Keep the first value.
    case firstWins
    /// Throw ``CartographError/Kind/duplicateKey``: the safest choice when two
    /// parsers in a chain might disagree about which value counts.
    case reject
}

/// What the parser does with a UTF-8 byte order mark (`EF BB BF`) at the start.
public enum ByteOrderMarkPolicy: Sendable, Hashable {
    /// Skip it, as RFC 8259 allows; files saved by some Windows editors carry one. The default.
    case skip
    /// Reject the input with ``CartographError/Kind/syntax``.
    case reject
}
