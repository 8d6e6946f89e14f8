import Foundation
import Synchronization

/// A drop-in for Foundation's `JSONDecoder`: the same properties, taking
/// Foundation's own strategy types, and the same `decode(_:from:)`, running
/// Cartograph's decoder. Switching is one line:
///
/// ```swift
/// let decoder = CartographJSONDecoder()        // was: JSONDecoder()
/// decoder.keyDecodingStrategy = .convertFromSnakeCase
/// decoder.dateDecodingStrategy = .iso8601
/// let order = try decoder.decode(Order.self, from: data)
/// ```
///
/// Differences are those of ``JSONMapper``'s `Codable` support (the Foundation
/// compatibility article). For Cartograph's own
/// options (lossy arrays, registered mappings, fuzzy keys), use
/// ``JSONMapper`` with ``CodableOptions``.
public final class CartographJSONDecoder: @unchecked Sendable {
    // @unchecked: the settings sit behind a lock, as Foundation's do.
    private struct Settings {
        var date: JSONDecoder.DateDecodingStrategy = .deferredToDate
        var data: JSONDecoder.DataDecodingStrategy = .base64
        var floats: JSONDecoder.NonConformingFloatDecodingStrategy = .throw
        var keys: JSONDecoder.KeyDecodingStrategy = .useDefaultKeys
        var userInfo: [CodingUserInfoKey: any Sendable] = [:]
        var allowsJSON5 = false
        var assumesTopLevelDictionary = false
        /// Foundation's decoder keeps the first of repeated keys; so does this one.
        var parseOptions = ParseOptions { $0.duplicateKeys = .firstWins }
    }
    private let settings = Mutex(Settings())

    private subscript<Value: Sendable>(setting: WritableKeyPath<Settings, Value>) -> Value {
        get { settings.withLock { $0[keyPath: setting] } }
        set { settings.withLock { $0[keyPath: setting] = newValue } }
    }

    /// A decoder with Foundation's defaults.
    public init() {}

    /// How dates are read (Foundation's type; default `.deferredToDate`).
    public var dateDecodingStrategy: JSONDecoder.DateDecodingStrategy {
        get { self[\.date] }
        set { self[\.date] = newValue }
    }
    /// How `Data` is read (default `.base64`).
    public var dataDecodingStrategy: JSONDecoder.DataDecodingStrategy {
        get { self[\.data] }
        set { self[\.data] = newValue }
    }
    /// How NaN and infinities written as strings are read (default `.throw`).
    public var nonConformingFloatDecodingStrategy: JSONDecoder.NonConformingFloatDecodingStrategy {
        get { self[\.floats] }
        set { self[\.floats] = newValue }
    }
    /// How JSON keys meet coding keys (default `.useDefaultKeys`).
    public var keyDecodingStrategy: JSONDecoder.KeyDecodingStrategy {
        get { self[\.keys] }
        set { self[\.keys] = newValue }
    }
    /// Values handed to `init(from:)` through `userInfo`.
    public var userInfo: [CodingUserInfoKey: any Sendable] {
        get { self[\.userInfo] }
        set { self[\.userInfo] = newValue }
    }
    /// Read JSON5 (default `false`), as Foundation reads it
    /// (``ParseOptions/allowsJSON5``).
    public var allowsJSON5: Bool {
        get { self[\.allowsJSON5] }
        set { self[\.allowsJSON5] = newValue }
    }
    /// The text may be a dictionary's members without the braces (default
    /// `false`), JSON or JSON5, as in Foundation.
    public var assumesTopLevelDictionary: Bool {
        get { self[\.assumesTopLevelDictionary] }
        set { self[\.assumesTopLevelDictionary] = newValue }
    }
    /// Cartograph's parse limits and strictness (an addition to Foundation's
    /// properties). Default: `ParseOptions()` but with `duplicateKeys =
    /// .firstWins`, because `JSONDecoder` keeps the first of repeated keys.
    public var parseOptions: ParseOptions {
        get { self[\.parseOptions] }
        set { self[\.parseOptions] = newValue }
    }

    /// Decodes a value of `type` from JSON `data` (UTF-8, or UTF-16/32 as Foundation detects them).
    public func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        try decode(type, from: data, addingUserInfo: { $0 })
    }

    /// Decodes a `DecodableWithConfiguration` value with `configuration`.
    public func decode<T: DecodableWithConfiguration>(_ type: T.Type, from data: Data, configuration: T.DecodingConfiguration) throws -> T {
        try decode(ConfiguredDecoding<T>.self, from: data, addingUserInfo: { ConfiguredDecoding<T>.userInfo($0, configuration) }).value
    }

    /// Decodes a `DecodableWithConfiguration` value with the configuration `provider` gives.
    public func decode<T, Provider: DecodingConfigurationProviding>(_ type: T.Type, from data: Data, configuration provider: Provider.Type) throws -> T
    where T: DecodableWithConfiguration, T.DecodingConfiguration == Provider.DecodingConfiguration {
        try decode(type, from: data, configuration: provider.decodingConfiguration)
    }

    private func decode<T: Decodable>(_ type: T.Type, from data: Data,
        addingUserInfo: ([CodingUserInfoKey: Any]) -> [CodingUserInfoKey: Any]) throws -> T
    {
        let settings = settings.withLock { $0 }
        var parseOptions = settings.parseOptions
        parseOptions.allowsJSON5 = settings.allowsJSON5
        parseOptions.assumesTopLevelObject = settings.assumesTopLevelDictionary
        var options = CodableOptions()
        switch settings.keys {
        case .useDefaultKeys: break
        case .convertFromSnakeCase: options.keys = .snakeCase
        case .custom(let convert): options.keys = .codingPath(convert)
        @unknown default: throw Self.unsupported("this KeyDecodingStrategy")
        }
        switch settings.date {
        case .deferredToDate: options.dates = .deferredToDate
        case .secondsSince1970: options.dates = .secondsSince1970
        case .millisecondsSince1970: options.dates = .millisecondsSince1970
        case .iso8601: options.dates = .iso8601(fractionalSeconds: false)
        // `.formatted(_:)` arrives here as `.custom` on Linux (Foundation
        // builds it from the formatter), so it needs no case of its own.
        case .custom(let closure):
            options.dates = .custom(decode: closure, encode: { _, _ in throw Self.unsupported("encoding with a decoding strategy") })
        @unknown default: throw Self.unsupported("this DateDecodingStrategy")
        }
        switch settings.data {
        case .base64: options.data = .base64
        case .deferredToData: options.data = .deferredToData
        case .custom(let closure):
            options.data = .custom(decode: closure, encode: { _, _ in throw Self.unsupported("encoding with a decoding strategy") })
        @unknown default: throw Self.unsupported("this DataDecodingStrategy")
        }
        switch settings.floats {
        case .throw: options.nonConformingFloats = .throw
        case .convertFromString(let positive, let negative, let nan):
            options.nonConformingFloats = .convertFromString(positiveInfinity: positive, negativeInfinity: negative, nan: nan)
        @unknown default: throw Self.unsupported("this NonConformingFloatDecodingStrategy")
        }
        options.userInfo = addingUserInfo(settings.userInfo)
        return try JSONMapper(options: options, parseOptions: parseOptions).decode(type, from: data)
    }

    static func unsupported(_ what: String) -> DecodingError {
        DecodingError.dataCorrupted(DecodingError.Context(codingPath: [],
            debugDescription: "\(what) is not supported by Cartograph's JSON coders; use JSONMapper with CodableOptions"))
    }
}
