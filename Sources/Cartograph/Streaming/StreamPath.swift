/// Which values of the input a stream delivers, one model each.
public enum StreamPath: Sendable, Hashable, ExpressibleByStringLiteral {
    /// Each element of the top-level array.
    case topLevelArray
    /// Each top-level value: NDJSON (blank lines allowed, last newline
    /// optional) and concatenated JSON.
    case values
    /// Each element of the array at a key path inside objects, such as
    /// `$.data.items` (written `"$.data.items"`, `"data.items"` or as keys).
    case array(at: [String])

    /// A path from text: `$` is the top-level array, `$.a.b` the array under keys `a` then `b`.
    public init(_ text: String) {
        var trimmed = Substring(text)
        if trimmed.hasPrefix("$") { trimmed = trimmed.dropFirst() }
        if trimmed.hasPrefix(".") { trimmed = trimmed.dropFirst() }
        self = trimmed.isEmpty ? .topLevelArray : .array(at: trimmed.split(separator: ".").map(String.init))
    }

    /// A path from text (see ``init(_:)``).
    public init(stringLiteral value: String) { self.init(value) }

    var splitterMode: StreamSplitter.Mode {
        switch self {
        case .topLevelArray: return .array(at: [])
        case .values: return .values
        case .array(let keys): return .array(at: keys)
        }
    }
}
