import Foundation
import Synchronization

/// A drop-in for Foundation's `JSONEncoder`: the same properties, taking
/// Foundation's own strategy and formatting types, and `encode(_:) -> Data`,
/// running Cartograph's encoder and writer. Compact output is byte for byte
/// what Foundation writes (including `\/` for `/` unless
/// `.withoutEscapingSlashes`, whole doubles without `.0`, lowercase `\u`
/// escapes), and so is `.prettyPrinted` output
/// (``WriteOptions/Formatting/prettyLikeFoundation``).
public final class CartographJSONEncoder: @unchecked Sendable {
    // @unchecked: the settings sit behind a lock, as Foundation's do.
    private struct Settings {
        var formatting: JSONEncoder.OutputFormatting = []
        var date: JSONEncoder.DateEncodingStrategy = .deferredToDate
        var data: JSONEncoder.DataEncodingStrategy = .base64
        var floats: JSONEncoder.NonConformingFloatEncodingStrategy = .throw
        var keys: JSONEncoder.KeyEncodingStrategy = .useDefaultKeys
        var userInfo: [CodingUserInfoKey: any Sendable] = [:]
    }
    private let settings = Mutex(Settings())

    private subscript<Value: Sendable>(setting: WritableKeyPath<Settings, Value>) -> Value {
        get { settings.withLock { $0[keyPath: setting] } }
        set { settings.withLock { $0[keyPath: setting] = newValue } }
    }

    /// An encoder with Foundation's defaults.
    public init() {}

    /// Pretty printing, sorted keys, slashes left unescaped.
    public var outputFormatting: JSONEncoder.OutputFormatting {
        get { self[\.formatting] }
        set { self[\.formatting] = newValue }
    }
    /// How dates are written (default `.deferredToDate`).
    public var dateEncodingStrategy: JSONEncoder.DateEncodingStrategy {
        get { self[\.date] }
        set { self[\.date] = newValue }
    }
    /// How `Data` is written (default `.base64`).
    public var dataEncodingStrategy: JSONEncoder.DataEncodingStrategy {
        get { self[\.data] }
        set { self[\.data] = newValue }
    }
    /// What NaN and infinities become (default `.throw`).
    public var nonConformingFloatEncodingStrategy: JSONEncoder.NonConformingFloatEncodingStrategy {
        get { self[\.floats] }
        set { self[\.floats] = newValue }
    }
    /// How coding keys become JSON keys (default `.useDefaultKeys`).
    public var keyEncodingStrategy: JSONEncoder.KeyEncodingStrategy {
        get { self[\.keys] }
        set { self[\.keys] = newValue }
    }
    /// Values handed to `encode(to:)` through `userInfo`.
    public var userInfo: [CodingUserInfoKey: any Sendable] {
        get { self[\.userInfo] }
        set { self[\.userInfo] = newValue }
    }

    /// Encodes an `EncodableWithConfiguration` value with `configuration`.
    public func encode<T: EncodableWithConfiguration>(_ value: T, configuration: T.EncodingConfiguration) throws -> Data {
        try encode(ConfiguredEncoding(value: value, configuration: configuration))
    }

    /// Encodes an `EncodableWithConfiguration` value with the configuration `provider` gives.
    public func encode<T, Provider: EncodingConfigurationProviding>(_ value: T, configuration provider: Provider.Type) throws -> Data
    where T: EncodableWithConfiguration, T.EncodingConfiguration == Provider.EncodingConfiguration {
        try encode(value, configuration: provider.encodingConfiguration)
    }

    /// Encodes `value` as JSON.
    public func encode<T: Encodable>(_ value: T) throws -> Data {
        let settings = settings.withLock { $0 }
        var options = CodableOptions()
        switch settings.keys {
        case .useDefaultKeys: break
        case .convertToSnakeCase: options.keys = .snakeCase
        case .custom(let convert): options.keys = .codingPath(convert)
        @unknown default: throw Self.unsupported("this KeyEncodingStrategy", value)
        }
        switch settings.date {
        case .deferredToDate: options.dates = .deferredToDate
        case .secondsSince1970: options.dates = .secondsSince1970
        case .millisecondsSince1970: options.dates = .millisecondsSince1970
        case .iso8601: options.dates = .iso8601(fractionalSeconds: false)
        // `.formatted(_:)` arrives here as `.custom` on Linux (Foundation
        // builds it from the formatter), so it needs no case of its own.
        case .custom(let closure):
            options.dates = .custom(decode: { _ in throw CartographJSONDecoder.unsupported("decoding with an encoding strategy") },
                encode: closure)
        @unknown default: throw Self.unsupported("this DateEncodingStrategy", value)
        }
        switch settings.data {
        case .base64: options.data = .base64
        case .deferredToData: options.data = .deferredToData
        case .custom(let closure):
            options.data = .custom(decode: { _ in throw CartographJSONDecoder.unsupported("decoding with an encoding strategy") },
                encode: closure)
        @unknown default: throw Self.unsupported("this DataEncodingStrategy", value)
        }
        switch settings.floats {
        case .throw: options.nonConformingFloats = .throw
        case .convertToString(let positive, let negative, let nan):
            options.nonConformingFloats = .convertFromString(positiveInfinity: positive, negativeInfinity: negative, nan: nan)
        @unknown default: throw Self.unsupported("this NonConformingFloatEncodingStrategy", value)
        }
        options.userInfo = settings.userInfo
        let write = WriteOptions {
            $0.formatting = settings.formatting.contains(.prettyPrinted) ? .prettyLikeFoundation : .compact
            $0.sortedKeys = settings.formatting.contains(.sortedKeys)
            $0.escapeSlashes = !settings.formatting.contains(.withoutEscapingSlashes)
        }
        return try JSONMapper(options: options, writeOptions: write).encodeData(value)
    }

    private static func unsupported(_ what: String, _ value: Any) -> EncodingError {
        EncodingError.invalidValue(value, EncodingError.Context(codingPath: [],
            debugDescription: "\(what) is not supported by Cartograph's JSON coders; use JSONMapper with CodableOptions"))
    }
}
