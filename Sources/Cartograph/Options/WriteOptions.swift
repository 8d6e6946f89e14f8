/// How JSON is written, in one `Sendable` value.
///
/// The default is compact output, keys in their order, non-ASCII written as
/// UTF-8, `/` unescaped, and NaN or infinity an error.
public struct WriteOptions: Sendable, Hashable {
    /// Compact (no whitespace) or pretty (one member per line, indented).
    public var formatting: Formatting = .compact
    /// Sort object keys by their UTF-8 bytes (Unicode code point order). Default `false`: keys keep their order.
    public var sortedKeys: Bool = false
    /// Write `/` as `\/` (for embedding in HTML `<script>`). Default `false`.
    public var escapeSlashes: Bool = false
    /// Escape every non-ASCII character as `\uXXXX` (surrogate pairs beyond U+FFFF). Default `false`.
    public var asciiOnly: Bool = false
    /// What to write for NaN and infinities, which JSON cannot represent. Default ``NonConformingFloatPolicy/throw``.
    public var nonConformingFloats: NonConformingFloatPolicy = .throw
    /// Deepest nesting written; deeper values throw ``CartographError/Kind/depthLimitExceeded``. Default 512.
    public var maxDepth: Int = 512

    /// The defaults described on each property.
    public init() {}

    /// The defaults, with some properties changed.
    public init(_ configure: (inout WriteOptions) -> Void) {
        configure(&self)
    }

    /// Compact output with no whitespace.
    public static let compact = WriteOptions()
    /// Pretty output indented by two spaces.
    public static let pretty = WriteOptions { $0.formatting = .pretty(indent: 2) }

    /// Whitespace in written JSON.
    public enum Formatting: Sendable, Hashable {
        /// No whitespace at all: `{"a":[1,2]}`.
        case compact
        /// One member or element per line, indented by 1 to 31 spaces (values outside are clamped).
        case pretty(indent: Int)
        /// Foundation's `JSONEncoder.OutputFormatting.prettyPrinted` layout,
        /// byte for byte: two spaces, `"key" : value`, an empty container as
        /// `[` and `]` on lines of their own (`[\n\n]`), no final newline —
        /// so golden files written by `JSONEncoder` stay identical.
        /// `CartographJSONEncoder` uses it for `.prettyPrinted`.
        case prettyLikeFoundation
    }
}

/// What the writer does with NaN and infinities.
public enum NonConformingFloatPolicy: Sendable, Hashable {
    /// Throw ``CartographError/Kind/nonFiniteNumber``. The default.
    case `throw`
    /// Write them as these JSON strings, as Foundation's `JSONEncoder` option does.
    case strings(positiveInfinity: String, negativeInfinity: String, nan: String)
    /// Write `null`.
    case null
}
