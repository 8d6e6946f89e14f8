import Foundation

/// Foundation's `EncodableWithConfiguration` / `DecodableWithConfiguration`
/// through the drop-in coders (`encode(_:configuration:)`,
/// `decode(_:from:configuration:)`): the value rides in a wrapper that is an
/// ordinary `Encodable`/`Decodable` to the coder and calls the value's own
/// configured method on the same encoder or decoder, so nothing about
/// paths, strategies or errors changes.
struct ConfiguredEncoding<Value: EncodableWithConfiguration>: Encodable {
    let value: Value
    let configuration: Value.EncodingConfiguration

    func encode(to encoder: any Encoder) throws {
        try value.encode(to: encoder, configuration: configuration)
    }
}

/// The decoding side: the configuration reaches `init(from:)` through
/// `userInfo` under ``key`` (set by the coder for this decode only).
struct ConfiguredDecoding<Value: DecodableWithConfiguration>: Decodable {
    static var key: CodingUserInfoKey { CodingUserInfoKey(rawValue: "Cartograph.decodingConfiguration")! }

    let value: Value

    init(from decoder: any Decoder) throws {
        guard let configuration = decoder.userInfo[Self.key] as? Value.DecodingConfiguration else {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(
                    codingPath: decoder.codingPath,
                    debugDescription: "no \(Value.DecodingConfiguration.self) was given for \(Value.self)"))
        }
        value = try Value(from: decoder, configuration: configuration)
    }

    /// `userInfo` with the configuration added.
    static func userInfo(_ userInfo: [CodingUserInfoKey: Any], _ configuration: Value.DecodingConfiguration) -> [CodingUserInfoKey: Any] {
        var userInfo = userInfo
        userInfo[key] = configuration
        return userInfo
    }
}
