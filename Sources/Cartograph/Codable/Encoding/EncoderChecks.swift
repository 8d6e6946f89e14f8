import Foundation

/// What both `Codable` encoders (the streaming ``StreamEncoder`` and the
/// tree-building ``TreeEncoder``) decide the same way: how a key is
/// converted, how a double is written, and what is refused with which error.
/// One implementation, so that a value that falls back from one encoder to
/// the other meets the same errors and keys.
protocol EncoderChecks: AnyObject {
    var options: CodableOptions { get }
    /// ``CodableOptions/maxDepth``, read apart: the checks run per nested
    /// value, and reading it through ``options`` copied all the options
    /// (a retain of each closure and of `userInfo`) every time.
    var maxDepth: Int { get }
    var codingPath: [any CodingKey] { get }
    /// Writing a property list, where NaN and the infinities are values.
    var propertyList: Bool { get }
    /// Nesting depth of this encoder's value.
    var depth: Int { get }
}

extension EncoderChecks {
    func invalid(_ value: Any, _ message: String, key: (any CodingKey)?, kind: CartographError.Kind = .encodingFailed) -> EncodingError {
        invalid(value, message, keys: key.map { [$0] } ?? [], kind: kind)
    }

    /// The error for a value `keys` below this encoder's path.
    func invalid(_ value: Any, _ message: String, keys below: [any CodingKey], kind: CartographError.Kind = .encodingFailed) -> EncodingError {
        let keys = codingPath + below
        let error = CartographError(kind, message, path: PathTrail.render(codingKeys: keys))
        return .invalidValue(value, EncodingError.Context(codingPath: keys, debugDescription: error.description, underlyingError: error))
    }

    func double(_ value: Double, key: (any CodingKey)?) throws -> JSONValue {
        // Property lists hold NaN and the infinities, as Foundation writes them.
        guard value.isFinite || propertyList else { return try nonFinite(value, key: key) }
        return .number(JSONNumber(value))
    }

    /// ``double(_:key:)`` for element `index` of a `[Double]` written whole
    /// under `key` (see ``nonFinite(_:key:index:)``).
    func double(_ value: Double, key: (any CodingKey)?, index: Int) throws -> JSONValue {
        guard value.isFinite || propertyList else { return try nonFinite(value, key: key, index: index) }
        return .number(JSONNumber(value))
    }

    /// What a NaN or an infinity becomes in JSON: the strings the options
    /// name, or an error.
    func nonFinite(_ value: Double, key: (any CodingKey)?) throws -> JSONValue {
        try nonFinite(value, keys: key.map { [$0] } ?? [])
    }

    /// ``nonFinite(_:key:)`` for element `index` of a `[Double]` written
    /// whole under `key` (nil: the array is this encoder's own value): the
    /// error's path names both, as `Array.encode(to:)`'s would.
    func nonFinite(_ value: Double, key: (any CodingKey)?, index: Int) throws -> JSONValue {
        try nonFinite(value, keys: key.map { [$0, IndexKey(index)] } ?? [IndexKey(index)])
    }

    private func nonFinite(_ value: Double, keys: [any CodingKey]) throws -> JSONValue {
        guard case .convertFromString(let positive, let negative, let nan) = options.nonConformingFloats else {
            throw invalid(value, "\(value) cannot be written as JSON; set CodableOptions.nonConformingFloats to write it as a string", keys: keys)
        }
        return .string(value.isNaN ? nan : (value > 0 ? positive : negative))
    }

    func float(_ value: Float, key: (any CodingKey)?) throws -> JSONValue {
        // In a property list a Float is the Double of the same value (exact,
        // as Foundation's XML writer writes it: 0.1 as 0.10000000149011612).
        guard value.isFinite, !propertyList else { return try double(Double(value), key: key) }
        // Float's own shortest digits (0.1 stays 0.1), whole values without
        // `.0`, written as Foundation writes them (`1e+10`, `-0`).
        return .number(JSONNumber(verbatim: DoubleFormatting.json(value)) ?? JSONNumber(Double(value)))
    }

    /// Refuses one level more than ``CodableOptions/maxDepth`` or than the stack holds.
    /// Generic, not `Any`: a value passed as `Any` is boxed (a struct larger
    /// than three words copied into a heap box, each reference in it
    /// retained) on every call, though only an error uses it.
    func checkDepth<T>(_ value: T, key: (any CodingKey)?) throws {
        guard hasRoomBelow else { try refuseDepth(value, key: key) }
    }

    /// Whether a value one level below this encoder's may be encoded
    /// (what ``checkDepth(_:key:)`` checks, without a key to make).
    @inline(__always)
    var hasRoomBelow: Bool { depth < maxDepth && (depth < StackGuard.uncheckedLevels || StackGuard.hasRoom) }

    /// The error ``checkDepth(_:key:)`` throws once ``hasRoomBelow`` is
    /// false: the depth limit's, or else the stack's.
    @inline(never)
    func refuseDepth<T>(_ value: T, key: (any CodingKey)?) throws -> Never {
        guard depth < maxDepth else {
            throw invalid(value, "the value nests deeper than CodableOptions.maxDepth (\(maxDepth))", key: key, kind: .depthLimitExceeded)
        }
        throw invalid(value, StackGuard.exhausted().message, key: key, kind: .depthLimitExceeded)
    }
}

/// Keys after a key strategy that works on the key's name alone (snake
/// case, a custom closure), converted once per encode (``ConvertedKeyCache``).
enum KeyConversion {
    static func converted(_ name: String, _ keys: CodableOptions.KeyStrategy, cache: inout ConvertedKeyCache) -> String {
        cache.converted(name) { name in
            switch keys {
            case .custom(let transform): return transform(name)
            case .snakeCaseRoundTrip: return NamingStrategy.snakeCase.outputKey(for: name)
            default: return SnakeCaseKeys.toSnakeCase(name)
            }
        }
    }
}
