import Cartograph
import Foundation

/// How a corpus file spells keys and dates, and the coders set up to read
/// and write it alike: Foundation's `JSONDecoder` and `JSONEncoder` and
/// Cartograph's ``JSONMapper`` with the matching ``CodableOptions``.
public struct CorpusWire: Sendable {
    /// snake_case JSON keys for camelCase properties (Foundation's
    /// `convertFromSnakeCase` and `convertToSnakeCase`).
    public var snakeCaseKeys: Bool
    /// ISO 8601 dates (Foundation's `.iso8601`).
    public var iso8601Dates: Bool

    /// Keys as the coding keys spell them, dates in `Date`'s own form.
    public static let plain = CorpusWire(snakeCaseKeys: false, iso8601Dates: false)

    public init(snakeCaseKeys: Bool, iso8601Dates: Bool) {
        self.snakeCaseKeys = snakeCaseKeys
        self.iso8601Dates = iso8601Dates
    }

    /// Cartograph's options for this spelling.
    public var options: CodableOptions {
        CodableOptions {
            if snakeCaseKeys { $0.keys = .snakeCase }
            if iso8601Dates { $0.dates = .iso8601(fractionalSeconds: false) }
        }
    }

    /// A Cartograph mapper set up for this spelling.
    public func mapper() -> JSONMapper {
        var mapper = JSONMapper()
        mapper.codableOptions = options
        return mapper
    }

    /// Foundation's decoder (or `decoder`, a subclass) set up for this spelling.
    public func jsonDecoder(_ decoder: JSONDecoder = JSONDecoder()) -> JSONDecoder {
        if snakeCaseKeys { decoder.keyDecodingStrategy = .convertFromSnakeCase }
        if iso8601Dates { decoder.dateDecodingStrategy = .iso8601 }
        return decoder
    }

    /// Foundation's encoder (or `encoder`, a subclass) set up for this spelling.
    public func jsonEncoder(_ encoder: JSONEncoder = JSONEncoder()) -> JSONEncoder {
        if snakeCaseKeys { encoder.keyEncodingStrategy = .convertToSnakeCase }
        if iso8601Dates { encoder.dateEncodingStrategy = .iso8601 }
        return encoder
    }
}
