import Foundation

/// A drop-in for Foundation's `PropertyListDecoder`: `decode(_:from: Data)`,
/// `userInfo`, and `decode(_:from:format:)` reporting the format read, on
/// Cartograph's plist readers (XML or binary, detected from the bytes).
/// OpenStep plists are read too, as Foundation reads them (and reported as
/// `.openStep`); keyed-archiver UIDs are refused, as Foundation refuses them.
///
/// It is a `PropertyListDecoder` subclass, usable wherever one is taken;
/// `userInfo` is Foundation's own property.
open class CartographPropertyListDecoder: PropertyListDecoder, @unchecked Sendable {
    // @unchecked: as `PropertyListDecoder`, whose settings sit behind its lock.

    /// A decoder with Foundation's defaults.
    public override init() {
        super.init()
    }

    /// Decodes a value of `type` from a binary or XML property list.
    open override func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        var format = PropertyListDecoder.PropertyListFormat.binary
        return try decode(type, from: data, format: &format)
    }

    /// Decodes a value, and reports the property list's format in `format`.
    open override func decode<T: Decodable>(_ type: T.Type, from data: Data, format: inout PropertyListDecoder.PropertyListFormat) throws -> T {
        try decode(type, from: data, format: &format, addingUserInfo: { $0 })
    }

    /// Decodes a `DecodableWithConfiguration` value with `configuration`.
    open override func decode<T: DecodableWithConfiguration>(_ type: T.Type, from data: Data, configuration: T.DecodingConfiguration) throws -> T {
        var format = PropertyListDecoder.PropertyListFormat.binary
        return try decode(type, from: data, format: &format, configuration: configuration)
    }

    /// Decodes a `DecodableWithConfiguration` value with `configuration`, and reports the format read.
    open override func decode<T: DecodableWithConfiguration>(
        _ type: T.Type, from data: Data, format: inout PropertyListDecoder.PropertyListFormat,
        configuration: T.DecodingConfiguration
    ) throws -> T {
        try decode(
            ConfiguredDecoding<T>.self, from: data, format: &format,
            addingUserInfo: { ConfiguredDecoding<T>.userInfo($0, configuration) }
        ).value
    }

    /// Decodes a `DecodableWithConfiguration` value with the configuration `provider` gives.
    open override func decode<T, Provider: DecodingConfigurationProviding>(_ type: T.Type, from data: Data, configuration provider: Provider.Type)
        throws -> T
    where T: DecodableWithConfiguration, T.DecodingConfiguration == Provider.DecodingConfiguration {
        try decode(type, from: data, configuration: provider.decodingConfiguration)
    }

    /// Decodes a `DecodableWithConfiguration` value with the configuration `provider` gives, and reports the format read.
    open override func decode<T, Provider: DecodingConfigurationProviding>(
        _ type: T.Type, from data: Data,
        format: inout PropertyListDecoder.PropertyListFormat, configuration provider: Provider.Type
    ) throws -> T
    where T: DecodableWithConfiguration, T.DecodingConfiguration == Provider.DecodingConfiguration {
        try decode(type, from: data, format: &format, configuration: provider.decodingConfiguration)
    }

    private func decode<T: Decodable>(
        _ type: T.Type, from data: Data, format: inout PropertyListDecoder.PropertyListFormat,
        addingUserInfo: ([CodingUserInfoKey: Any]) -> [CodingUserInfoKey: Any]
    ) throws -> T {
        format = withByteSpan(data) { bytes in
            Cartograph.PropertyListFormat.detect(bytes) == .binary ? .binary : PlistInput.isOpenStep(bytes) ? .openStep : .xml
        }
        let options = CodableOptions { $0.userInfo = addingUserInfo(userInfo) }
        // A keyed archiver's UID is not a value Codable can read (Foundation refuses it too).
        let plistOptions = PropertyListOptions { $0.uids = .reject }
        return try PropertyListMapper(options: plistOptions, codableOptions: options).decode(type, from: data)
    }
}

/// A drop-in for Foundation's `PropertyListEncoder`: `outputFormat` (`.xml`
/// or `.binary`; `.openStep` cannot be written, by Foundation either),
/// `userInfo` and `encode(_:) -> Data`, on Cartograph's plist writers. `nil`
/// is written as `$null` and URLs in their `Codable` form, dictionary keys
/// sorted, NaN and infinities as reals, a top-level bool, number, string
/// or date refused (written when encoding with a configuration), and every
/// error given as `EncodingError.invalidValue` of the top-level value, as
/// Foundation does; XML output is Foundation's byte for byte (the
/// Foundation compatibility article).
///
/// It is a `PropertyListEncoder` subclass, usable wherever one is taken;
/// `outputFormat` and `userInfo` are Foundation's own properties.
open class CartographPropertyListEncoder: PropertyListEncoder, @unchecked Sendable {
    // @unchecked: as `PropertyListEncoder`, whose settings sit behind its lock.

    /// An encoder with Foundation's defaults (binary output).
    public override init() {
        super.init()
    }

    /// Encodes an `EncodableWithConfiguration` value with `configuration`.
    /// A top-level bool, number, string or date is written here, as Foundation writes it.
    open override func encode<T: EncodableWithConfiguration>(_ value: T, configuration: T.EncodingConfiguration) throws -> Data {
        try wrappingErrors(of: value) { try write(ConfiguredEncoding(value: value, configuration: configuration), allowsTopLevelScalars: true) }
    }

    /// Encodes an `EncodableWithConfiguration` value with the configuration `provider` gives.
    open override func encode<T, Provider: EncodingConfigurationProviding>(_ value: T, configuration provider: Provider.Type) throws -> Data
    where T: EncodableWithConfiguration, T.EncodingConfiguration == Provider.EncodingConfiguration {
        try encode(value, configuration: provider.encodingConfiguration)
    }

    /// Encodes `value` as a property list in `outputFormat`.
    open override func encode<T: Encodable>(_ value: T) throws -> Data {
        try wrappingErrors(of: value) { try write(value, allowsTopLevelScalars: false) }
    }

    /// Every error of an encode, a value's own included, comes out as
    /// Foundation's encoder gives it: `EncodingError.invalidValue` of the
    /// top-level value, the error underneath.
    private func wrappingErrors(of value: Any, _ body: () throws -> Data) throws -> Data {
        do {
            return try body()
        } catch {
            throw EncodingError.invalidValue(
                value,
                EncodingError.Context(
                    codingPath: [],
                    debugDescription: "Unable to encode the given top-level value as a property list", underlyingError: error))
        }
    }

    private func write<T: Encodable>(_ value: T, allowsTopLevelScalars: Bool) throws -> Data {
        let requested = outputFormat
        let format: Cartograph.PropertyListFormat
        switch requested {
        case .binary: format = .binary
        case .xml: format = .xml
        default:
            throw EncodingError.invalidValue(
                value,
                EncodingError.Context(
                    codingPath: [],
                    debugDescription: "Property list format \(requested) is not writable (OpenStep plists cannot be written)"))
        }
        let options = CodableOptions { $0.userInfo = userInfo }
        // Foundation's layout and rules: sorted keys, top-level fragments only with a configuration.
        let plistOptions = PropertyListOptions {
            $0.sortedKeys = true; $0.allowsTopLevelScalars = allowsTopLevelScalars
        }
        return Data(try PropertyListMapper(options: plistOptions, codableOptions: options).encode(value, format: format))
    }
}
