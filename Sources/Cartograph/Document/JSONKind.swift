/// The kind of a value in a ``Document`` or a ``JSONValue``.
public enum JSONKind: String, Sendable, Hashable, CustomStringConvertible {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool
    /// A number, kept as exact text until converted.
    case number
    /// A string.
    case string
    /// An array.
    case array
    /// An object.
    case object

    /// The kind's name as it appears in error messages: `string`, `number` …
    public var description: String { rawValue }
}
