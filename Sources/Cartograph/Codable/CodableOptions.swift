import Foundation

/// How `Codable` values are read and written: a superset of the options of
/// Foundation's `JSONDecoder` and `JSONEncoder`, in one `Sendable` value.
public struct CodableOptions: @unchecked Sendable {
    // @unchecked: custom strategies hold @Sendable closures; userInfo values
    // are the caller's (as with Foundation's coders).

    /// How coding keys find their JSON keys. Default ``KeyStrategy/useDefaultKeys``.
    public var keys: KeyStrategy = .useDefaultKeys
    /// How `Date` is read and written. Default ``DateStrategy/deferredToDate`` (seconds since 2001, as Foundation).
    public var dates: DateStrategy = .deferredToDate
    /// How `Data` is read and written. Default ``DataStrategy/base64``.
    public var data: DataStrategy = .base64
    /// What NaN and infinities become. Default ``NonConformingFloatStrategy/throw``.
    public var nonConformingFloats: NonConformingFloatStrategy = .throw
    /// Deepest nesting the encoder writes; deeper values throw `EncodingError`
    /// (reading is limited by ``ParseOptions/maxDepth``). Default 512.
    public var maxDepth: Int = 512
    /// Values handed to `init(from:)` and `encode(to:)` through `userInfo`.
    public var userInfo: [CodingUserInfoKey: Any] = [:]

    /// The defaults described on each property.
    public init() {}

    /// The defaults, with some properties changed.
    public init(_ configure: (inout CodableOptions) -> Void) {
        configure(&self)
    }

    /// How coding keys map to JSON keys.
    public enum KeyStrategy: Sendable {
        /// The coding key's `stringValue` is the JSON key.
        case useDefaultKeys
        /// Foundation's `convertToSnakeCase` / `convertFromSnakeCase`, exactly:
        /// writing turns `myURLProperty` into `my_url_property`; reading turns
        /// each JSON key into camelCase (`my_url_property` → `myUrlProperty`,
        /// `_id` stays `_id`, `userID` stays `userID`) and compares it with the
        /// coding key, the first of several JSON keys that convert alike
        /// winning. So an acronym property written this way does not read
        /// back (as with Foundation); use ``snakeCaseRoundTrip`` for that.
        /// Keys of `[String: Value]` dictionaries are left as they are, both
        /// ways, as Foundation leaves them.
        case snakeCase
        /// The coding key's words in snake_case are the JSON key, both ways
        /// (`myURLProperty` ↔ `my_url_property`, `createdAt1234` ↔
        /// `created_at_1234`), with the mapping layer's word rules: every key
        /// written reads back. Not Foundation's behaviour.
        case snakeCaseRoundTrip
        /// The mapping engine's fuzzy rules (case-insensitive, snake_case, first word); writes keys unchanged.
        case fuzzy
        /// A closure from a coding key's name to its JSON key, used both ways.
        case custom(@Sendable (String) -> String)
        /// Foundation's `.custom` key strategies: a closure from a coding
        /// path to a key. Reading, it is called with the container's path
        /// and each JSON key, and the `stringValue` it returns is what the
        /// coding keys are compared with (the first JSON key of equal answers
        /// wins, as in Foundation); writing, with the path and each coding
        /// key, and the `stringValue` it returns is written. The paths hold
        /// coding keys (Swift's names), not the JSON keys written.
        case codingPath(@Sendable ([any CodingKey]) -> any CodingKey)

        /// Whether keys are changed at all (dictionary keys never are, then).
        var convertsKeys: Bool {
            if case .useDefaultKeys = self { return false }
            return true
        }
    }

    /// How dates are read and written.
    public enum DateStrategy: Sendable {
        /// Seconds since 2001-01-01, as `Date`'s own Codable conformance.
        case deferredToDate
        /// Seconds since 1970 as a number.
        case secondsSince1970
        /// Milliseconds since 1970 as a number.
        case millisecondsSince1970
        /// ISO 8601; fractional seconds are accepted on reading and written when `fractionalSeconds`.
        case iso8601(fractionalSeconds: Bool)
        /// A `DateFormatter` format string in a time zone (POSIX locale).
        case formatted(String, timeZone: TimeZone)
        /// Custom closures (a decoder's single value, an encoder).
        case custom(decode: @Sendable (any Decoder) throws -> Date, encode: @Sendable (Date, any Encoder) throws -> Void)
    }

    /// How `Data` is read and written.
    public enum DataStrategy: Sendable {
        /// A base64 string.
        case base64
        /// `Data`'s own Codable conformance (an array of bytes).
        case deferredToData
        /// Custom closures.
        case custom(decode: @Sendable (any Decoder) throws -> Data, encode: @Sendable (Data, any Encoder) throws -> Void)
    }

    /// What NaN and infinities become.
    public enum NonConformingFloatStrategy: Sendable, Hashable {
        /// Throw.
        case `throw`
        /// These strings, both ways.
        case convertFromString(positiveInfinity: String, negativeInfinity: String, nan: String)
    }
}
