import Foundation

/// A drop-in for Foundation's `JSONEncoder`: the same properties, taking
/// Foundation's own strategy and formatting types, and `encode(_:) -> Data`,
/// running Cartograph's encoder and writer. Compact output is byte for byte
/// what Foundation writes (including `\/` for `/` unless
/// `.withoutEscapingSlashes`, whole doubles without `.0`, lowercase `\u`
/// escapes), and so is `.prettyPrinted` output
/// (``WriteOptions/Formatting/prettyLikeFoundation``).
///
/// It is a `JSONEncoder` subclass, so it goes wherever one is taken (a
/// Hummingbird request context's or Vapor's response encoder, any
/// parameter typed `JSONEncoder`); its settings are Foundation's own
/// properties, read once per encode.
open class CartographJSONEncoder: JSONEncoder, @unchecked Sendable {
    // @unchecked: as `JSONEncoder`, whose settings sit behind its lock.

    /// An encoder with Foundation's defaults.
    public override init() {
        super.init()
    }

    /// Encodes an `EncodableWithConfiguration` value with `configuration`.
    open override func encode<T: EncodableWithConfiguration>(_ value: T, configuration: T.EncodingConfiguration) throws -> Data {
        try encode(ConfiguredEncoding(value: value, configuration: configuration))
    }

    /// Encodes an `EncodableWithConfiguration` value with the configuration `provider` gives.
    open override func encode<T, Provider: EncodingConfigurationProviding>(_ value: T, configuration provider: Provider.Type) throws -> Data
    where T: EncodableWithConfiguration, T.EncodingConfiguration == Provider.EncodingConfiguration {
        try encode(value, configuration: provider.encodingConfiguration)
    }

    /// Encodes `value` as JSON.
    open override func encode<T: Encodable>(_ value: T) throws -> Data {
        var options = CodableOptions()
        switch keyEncodingStrategy {
        case .useDefaultKeys: break
        case .convertToSnakeCase: options.keys = .snakeCase
        case .custom(let convert): options.keys = .codingPath(convert)
        @unknown default: throw Self.unsupported("this KeyEncodingStrategy", value)
        }
        switch dateEncodingStrategy {
        case .deferredToDate: options.dates = .deferredToDate
        case .secondsSince1970: options.dates = .secondsSince1970
        case .millisecondsSince1970: options.dates = .millisecondsSince1970
        case .iso8601: options.dates = .iso8601(fractionalSeconds: false)
        // `.formatted(_:)` arrives here as `.custom` on Linux (Foundation
        // builds it from the formatter), so it needs no case of its own.
        case .custom(let closure):
            options.dates = .custom(
                decode: { _ in throw CartographJSONDecoder.unsupported("decoding with an encoding strategy") },
                encode: closure)
        @unknown default: throw Self.unsupported("this DateEncodingStrategy", value)
        }
        switch dataEncodingStrategy {
        case .base64: options.data = .base64
        case .deferredToData: options.data = .deferredToData
        case .custom(let closure):
            options.data = .custom(
                decode: { _ in throw CartographJSONDecoder.unsupported("decoding with an encoding strategy") },
                encode: closure)
        @unknown default: throw Self.unsupported("this DataEncodingStrategy", value)
        }
        switch nonConformingFloatEncodingStrategy {
        case .throw: options.nonConformingFloats = .throw
        case .convertToString(let positive, let negative, let nan):
            options.nonConformingFloats = .convertFromString(positiveInfinity: positive, negativeInfinity: negative, nan: nan)
        @unknown default: throw Self.unsupported("this NonConformingFloatEncodingStrategy", value)
        }
        options.userInfo = userInfo
        let formatting = outputFormatting
        let write = WriteOptions {
            $0.formatting = formatting.contains(.prettyPrinted) ? .prettyLikeFoundation : .compact
            $0.sortedKeys = formatting.contains(.sortedKeys)
            $0.escapeSlashes = !formatting.contains(.withoutEscapingSlashes)
        }
        return try JSONMapper(options: options, writeOptions: write).encodeData(value)
    }

    private static func unsupported(_ what: String, _ value: Any) -> EncodingError {
        EncodingError.invalidValue(
            value,
            EncodingError.Context(
                codingPath: [],
                debugDescription: "\(what) is not supported by Cartograph's JSON coders; use JSONMapper with CodableOptions"))
    }
}
