/// Supplies the value a ``Default``-family property wrapper uses when the
/// input does not give one.
///
/// ```swift
/// enum Unnamed: DefaultValueProvider { static var defaultValue: String { "(unnamed)" } }
/// struct User: Codable {
///     @Default<Unnamed> var name: String          // missing, null or invalid → "(unnamed)"
///     @DefaultOnMissing<DefaultValues.Zero<Int>> var visits: Int // missing → 0; null or a string still throw
/// }
/// ```
///
/// Synthesized `Codable` ignores property initializers; these wrappers are
/// how a `Codable` property gets a default, separately for a missing key
/// (``DefaultOnMissing``), `null` (``DefaultOnNull``), a value of the wrong
/// kind (``DefaultOnInvalid``), or all three (``Default``). They work with
/// Foundation's coders too.
public protocol DefaultValueProvider {
    /// The property's type.
    associatedtype Value: Codable
    /// The default.
    static var defaultValue: Value { get }
}

/// The usual defaults, in a namespace so that short names such as `True`
/// and `Empty` cannot clash with a user's own types.
///
/// ```swift
/// @DefaultOnMissing<DefaultValues.Zero<Int>> var visits: Int
/// @DefaultOnNull<DefaultValues.Empty<[String]>> var tags: [String]
/// @DefaultOnInvalid<DefaultValues.False> var active: Bool
/// ```
public enum DefaultValues {
    /// `0` for any numeric type.
    public enum Zero<Number: Numeric & Codable>: DefaultValueProvider {
        /// Zero.
        public static var defaultValue: Number { 0 }
    }

    /// An empty string, array or other collection.
    public enum Empty<Collection: RangeReplaceableCollection & Codable>: DefaultValueProvider {
        /// An empty collection.
        public static var defaultValue: Collection { Collection() }
    }

    /// `false`.
    public enum False: DefaultValueProvider {
        /// False.
        public static var defaultValue: Bool { false }
    }

    /// `true`.
    public enum True: DefaultValueProvider {
        /// True.
        public static var defaultValue: Bool { true }
    }
}

/// Whether a decoding error means "the value is there but of the wrong kind".
func isInvalidValue(_ error: any Error) -> Bool {
    guard let error = error as? DecodingError else { return false }
    switch error {
    case .typeMismatch, .dataCorrupted: return true
    default: return false
    }
}

/// The default when the key is missing, when it is `null`, and when its value is invalid.
@propertyWrapper
public struct Default<Provider: DefaultValueProvider>: Codable {
    /// The value.
    public var wrappedValue: Provider.Value

    /// A value given in code.
    public init(wrappedValue: Provider.Value) { self.wrappedValue = wrappedValue }
    /// The default.
    public init() { wrappedValue = Provider.defaultValue }

    /// Reads the value, or the default for `null` and for an invalid value.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            wrappedValue = Provider.defaultValue
            return
        }
        do {
            wrappedValue = try container.decode(Provider.Value.self)
        } catch  where isInvalidValue(error) {
            wrappedValue = Provider.defaultValue
        }
    }

    /// Writes the value.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(wrappedValue)
    }
}

/// The default when the key is missing; `null` and invalid values throw as usual.
@propertyWrapper
public struct DefaultOnMissing<Provider: DefaultValueProvider>: Codable {
    /// The value.
    public var wrappedValue: Provider.Value
    /// A value given in code.
    public init(wrappedValue: Provider.Value) { self.wrappedValue = wrappedValue }
    /// The default.
    public init() { wrappedValue = Provider.defaultValue }
    /// Reads the value.
    public init(from decoder: any Decoder) throws { wrappedValue = try decoder.singleValueContainer().decode(Provider.Value.self) }
    /// Writes the value.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(wrappedValue)
    }
}

/// The default when the value is `null`; a missing key and invalid values throw as usual.
@propertyWrapper
public struct DefaultOnNull<Provider: DefaultValueProvider>: Codable {
    /// The value.
    public var wrappedValue: Provider.Value
    /// A value given in code.
    public init(wrappedValue: Provider.Value) { self.wrappedValue = wrappedValue }
    /// Reads the value, or the default for `null`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        wrappedValue = container.decodeNil() ? Provider.defaultValue : try container.decode(Provider.Value.self)
    }
    /// Writes the value.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(wrappedValue)
    }
}

/// The default when the value has the wrong kind or does not fit; a missing
/// key and `null` throw as usual.
@propertyWrapper
public struct DefaultOnInvalid<Provider: DefaultValueProvider>: Codable {
    /// The value.
    public var wrappedValue: Provider.Value
    /// A value given in code.
    public init(wrappedValue: Provider.Value) { self.wrappedValue = wrappedValue }
    /// Reads the value, or the default when it is invalid.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            throw DecodingError.valueNotFound(
                Provider.Value.self,
                DecodingError.Context(
                    codingPath: decoder.codingPath,
                    debugDescription: "expected \(Provider.Value.self), found null at \(PathTrail.render(codingKeys: decoder.codingPath))"))
        }
        do {
            wrappedValue = try container.decode(Provider.Value.self)
        } catch  where isInvalidValue(error) {
            wrappedValue = Provider.defaultValue
        }
    }
    /// Writes the value.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(wrappedValue)
    }
}

extension KeyedDecodingContainer {
    /// A missing key gives ``Default``'s default.
    public func decode<P>(_ type: Default<P>.Type, forKey key: Key) throws -> Default<P> {
        try decodeIfPresent(type, forKey: key) ?? Default()
    }

    /// A missing key gives ``DefaultOnMissing``'s default.
    public func decode<P>(_ type: DefaultOnMissing<P>.Type, forKey key: Key) throws -> DefaultOnMissing<P> {
        contains(key) ? try decodeValue(type, forKey: key) : DefaultOnMissing()
    }

    private func decodeValue<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try decode(type, forKey: key)
    }
}
