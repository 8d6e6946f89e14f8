import Foundation
import Synchronization

/// A drop-in for Foundation's `PropertyListDecoder`: `decode(_:from: Data)`,
/// `userInfo`, and `decode(_:from:format:)` reporting the format read, on
/// Cartograph's plist readers (XML or binary, detected from the bytes).
/// OpenStep plists are not read (Foundation reads them; a decode throws);
/// keyed-archiver UIDs are refused, as Foundation refuses them.
public final class CartographPropertyListDecoder: @unchecked Sendable {
    // @unchecked: the state sits behind a lock, as Foundation's does.
    private let state = Mutex<[CodingUserInfoKey: any Sendable]>([:])

    /// A decoder with Foundation's defaults.
    public init() {}

    /// Values handed to `init(from:)` through `userInfo`.
    public var userInfo: [CodingUserInfoKey: any Sendable] {
        get { state.withLock { $0 } }
        set { state.withLock { $0 = newValue } }
    }

    /// Decodes a value of `type` from a binary or XML property list.
    public func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        var format = PropertyListSerialization.PropertyListFormat.binary
        return try decode(type, from: data, format: &format)
    }

    /// Decodes a value, and reports the property list's format in `format`.
    public func decode<T: Decodable>(_ type: T.Type, from data: Data, format: inout PropertyListSerialization.PropertyListFormat) throws -> T {
        try decode(type, from: data, format: &format, addingUserInfo: { $0 })
    }

    /// Decodes a `DecodableWithConfiguration` value with `configuration`.
    public func decode<T: DecodableWithConfiguration>(_ type: T.Type, from data: Data, configuration: T.DecodingConfiguration) throws -> T {
        var format = PropertyListSerialization.PropertyListFormat.binary
        return try decode(ConfiguredDecoding<T>.self, from: data, format: &format,
            addingUserInfo: { ConfiguredDecoding<T>.userInfo($0, configuration) }).value
    }

    /// Decodes a `DecodableWithConfiguration` value with the configuration `provider` gives.
    public func decode<T, Provider: DecodingConfigurationProviding>(_ type: T.Type, from data: Data, configuration provider: Provider.Type) throws -> T
    where T: DecodableWithConfiguration, T.DecodingConfiguration == Provider.DecodingConfiguration {
        try decode(type, from: data, configuration: provider.decodingConfiguration)
    }

    private func decode<T: Decodable>(_ type: T.Type, from data: Data, format: inout PropertyListSerialization.PropertyListFormat,
        addingUserInfo: ([CodingUserInfoKey: Any]) -> [CodingUserInfoKey: Any]) throws -> T
    {
        let read = Array(data.prefix(8)).withUnsafeBytes { PropertyListFormat.detect($0) }
        format = read == .binary ? .binary : .xml
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
/// sorted, NaN and infinities as reals, and a top-level bool, number,
/// string or date refused, as Foundation does; XML output is Foundation's
/// byte for byte (the Foundation compatibility article).
public final class CartographPropertyListEncoder: @unchecked Sendable {
    // @unchecked: the settings sit behind a lock, as Foundation's do.
    private struct Settings {
        var format: PropertyListSerialization.PropertyListFormat = .binary
        var userInfo: [CodingUserInfoKey: any Sendable] = [:]
    }
    private let settings = Mutex(Settings())

    /// An encoder with Foundation's defaults (binary output).
    public init() {}

    /// `.binary` (the default) or `.xml`.
    public var outputFormat: PropertyListSerialization.PropertyListFormat {
        get { settings.withLock { $0.format } }
        set { settings.withLock { $0.format = newValue } }
    }

    /// Values handed to `encode(to:)` through `userInfo`.
    public var userInfo: [CodingUserInfoKey: any Sendable] {
        get { settings.withLock { $0.userInfo } }
        set { settings.withLock { $0.userInfo = newValue } }
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

    /// Encodes `value` as a property list in ``outputFormat``.
    public func encode<T: Encodable>(_ value: T) throws -> Data {
        let settings = settings.withLock { $0 }
        let format: PropertyListFormat
        switch settings.format {
        case .binary: format = .binary
        case .xml: format = .xml
        default:
            throw EncodingError.invalidValue(value, EncodingError.Context(codingPath: [],
                debugDescription: "Property list format \(settings.format) is not writable (OpenStep plists cannot be written)"))
        }
        let options = CodableOptions { $0.userInfo = settings.userInfo }
        // Foundation's layout and rules: sorted keys, no top-level fragments.
        let plistOptions = PropertyListOptions { $0.sortedKeys = true; $0.allowsTopLevelScalars = false }
        return Data(try PropertyListMapper(options: plistOptions, codableOptions: options).encode(value, format: format))
    }
}
