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
/// It is a `JSONDecoder` subclass, so it goes wherever one is taken: a
/// Hummingbird request context's or Vapor's content configuration's
/// decoder, AsyncHTTPClient's helpers, any parameter typed `JSONDecoder`.
/// Its settings are Foundation's own properties, read once per decode;
/// only `decode` is overridden.
///
/// Differences are those of ``JSONMapper``'s `Codable` support (the Foundation
/// compatibility article). For Cartograph's own
/// options (lossy arrays, registered mappings, fuzzy keys), use
/// ``JSONMapper`` with ``CodableOptions``.
open class CartographJSONDecoder: JSONDecoder, @unchecked Sendable {
    // @unchecked: as `JSONDecoder`, whose settings sit behind its lock;
    // Cartograph's own one sits behind this one.
    private let cartographParseOptions = Mutex(
        ParseOptions {
            // Foundation's decoder keeps the first of repeated keys and takes
            // trailing commas; so does this one.
            $0.duplicateKeys = .firstWins
            $0.allowsTrailingCommas = true
        })

    /// A decoder with Foundation's defaults.
    public override init() {
        super.init()
    }

    /// Cartograph's parse limits and strictness (an addition to Foundation's
    /// properties). Default: `ParseOptions()` but with `duplicateKeys =
    /// .firstWins` and `allowsTrailingCommas`, as `JSONDecoder` reads JSON.
    /// `allowsJSON5` and `assumesTopLevelDictionary` override the fields of
    /// the same meaning here.
    public var parseOptions: ParseOptions {
        get { cartographParseOptions.withSanitizedLock { $0 } }
        set { cartographParseOptions.withSanitizedLock { $0 = newValue } }
    }

    /// Decodes a value of `type` from JSON `data` (UTF-8, or UTF-16/32 as Foundation detects them).
    open override func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        try decode(type, from: data, addingUserInfo: { $0 })
    }

    /// Decodes a `DecodableWithConfiguration` value with `configuration`.
    open override func decode<T: DecodableWithConfiguration>(_ type: T.Type, from data: Data, configuration: T.DecodingConfiguration) throws -> T {
        try decode(ConfiguredDecoding<T>.self, from: data, addingUserInfo: { ConfiguredDecoding<T>.userInfo($0, configuration) }).value
    }

    /// Decodes a `DecodableWithConfiguration` value with the configuration `provider` gives.
    open override func decode<T, Provider: DecodingConfigurationProviding>(_ type: T.Type, from data: Data, configuration provider: Provider.Type)
        throws -> T
    where T: DecodableWithConfiguration, T.DecodingConfiguration == Provider.DecodingConfiguration {
        try decode(type, from: data, configuration: provider.decodingConfiguration)
    }

    private func decode<T: Decodable>(
        _ type: T.Type, from data: Data,
        addingUserInfo: ([CodingUserInfoKey: Any]) -> [CodingUserInfoKey: Any]
    ) throws -> T {
        var parseOptions = self.parseOptions
        parseOptions.allowsJSON5 = allowsJSON5
        parseOptions.assumesTopLevelObject = assumesTopLevelDictionary
        var options = CodableOptions()
        switch keyDecodingStrategy {
        case .useDefaultKeys: break
        case .convertFromSnakeCase: options.keys = .snakeCase
        case .custom(let convert): options.keys = .codingPath(convert)
        @unknown default: throw Self.unsupported("this KeyDecodingStrategy")
        }
        switch dateDecodingStrategy {
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
        switch dataDecodingStrategy {
        case .base64: options.data = .base64
        case .deferredToData: options.data = .deferredToData
        case .custom(let closure):
            options.data = .custom(decode: closure, encode: { _, _ in throw Self.unsupported("encoding with a decoding strategy") })
        @unknown default: throw Self.unsupported("this DataDecodingStrategy")
        }
        switch nonConformingFloatDecodingStrategy {
        case .throw: options.nonConformingFloats = .throw
        case .convertFromString(let positive, let negative, let nan):
            options.nonConformingFloats = .convertFromString(positiveInfinity: positive, negativeInfinity: negative, nan: nan)
        @unknown default: throw Self.unsupported("this NonConformingFloatDecodingStrategy")
        }
        options.userInfo = addingUserInfo(userInfo)
        return try JSONMapper(options: options, parseOptions: parseOptions).decode(type, from: data)
    }

    static func unsupported(_ what: String) -> DecodingError {
        DecodingError.dataCorrupted(
            DecodingError.Context(
                codingPath: [],
                debugDescription: "\(what) is not supported by Cartograph's JSON coders; use JSONMapper with CodableOptions"))
    }
}
