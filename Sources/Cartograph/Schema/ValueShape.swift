import Foundation

/// What a rule's value looks like on the wire, for schemas: worked out from
/// the property's declared type (and its transform or sub-mapper) when the
/// rule is made, from type metadata only — no model code runs.
///
/// ```swift
/// Map(\.tags, "tags")                          // [String]  → .array(.leaf(string))
/// Map(\.opened, "opened_at", transform: .iso8601)   // Date → .leaf(string, date-time)
/// Map(\.owner, "owner")                        // User?     → .optional(.model(User))
/// ```
indirect enum ValueShape: @unchecked Sendable {
    // @unchecked: the metatypes and sub-mappers it holds are immutable.
    /// Anything: a `JSONValue`, a value encoded by its own `Codable`
    /// conformance, a transform that does not describe itself.
    case any
    /// A fixed schema.
    case leaf(JSONValue)
    /// Different schemas for what is read and what is written (a `Date`
    /// read as ISO 8601 text or seconds, written as ISO 8601).
    case directional(decode: JSONValue, encode: JSONValue)
    /// An optional: `null` where the null policy lets it through.
    case optional(ValueShape)
    /// An array (a set: unique items).
    case array(ValueShape, unique: Bool)
    /// A `[String: Value]` dictionary.
    case dictionary(ValueShape)
    /// A model the registry reads (by its entry, with class inference).
    case model(Any.Type)
    /// A model read by a rule's own sub-mapper, described in place.
    case submapped(SubMapper)

    /// The shape of values of `type`, as ``ValueCodec/resolve()`` reads them
    /// (the same order of checks); models found inside are read by
    /// `subMapper` when one is given.
    static func of(_ type: Any.Type, subMapper: SubMapper? = nil) -> ValueShape {
        if type == Any.self { return .any }
        if let scalar = scalarShape(type) { return scalar }
        if let optional = type as? any OptionalMarker.Type { return .optional(of(wrapped(optional), subMapper: subMapper)) }
        if let array = type as? any ArrayMarker.Type { return .array(of(element(array), subMapper: subMapper), unique: false) }
        if let set = type as? any SetMarker.Type { return .array(of(element(set), subMapper: subMapper), unique: true) }
        if let dictionary = type as? any StringDictionaryMarker.Type { return .dictionary(of(value(dictionary), subMapper: subMapper)) }
        if let subMapper { return .submapped(subMapper) }
        if let raw = type as? any RawRepresentable.Type, let shape = rawShape(raw) { return shape }
        return .model(type)
    }

    /// The type a container type holds (for the walks over types here and in PathBlindness.swift).
    static func wrapped<O: OptionalMarker>(_: O.Type) -> Any.Type { O.Wrapped.self }
    static func element<A: ArrayMarker>(_: A.Type) -> Any.Type { A.Element.self }
    static func element<S: SetMarker>(_: S.Type) -> Any.Type { S.Element.self }
    static func value<D: StringDictionaryMarker>(_: D.Type) -> Any.Type { D.Value.self }

    /// A raw-value enum read through its raw value (as the codec does for
    /// the raw types it reads), listing the raw values of a `CaseIterable` one.
    static func rawShape<R: RawRepresentable>(_: R.Type) -> ValueShape? {
        guard R.RawValue.self == String.self || R.RawValue.self is any IntegerScalar.Type || R.RawValue.self == Double.self,
            case .leaf(var schema)? = scalarShape(R.RawValue.self)
        else { return nil }
        if let cases = R.self as? any CaseIterable.Type {
            schema = schema.adding("enum", .array(rawValues(cases).compactMap(Self.json)))
        }
        return .leaf(schema)
    }

    private static func rawValues<C: CaseIterable>(_: C.Type) -> [Any] {
        C.allCases.compactMap { ($0 as? any RawRepresentable)?.rawValue }
    }

    /// A raw value as JSON (strings and numbers only).
    static func json(_ value: Any) -> JSONValue? {
        switch value {
        case let text as String: return .string(text)
        case let number as Double: return .number(JSONNumber(number))
        case let number as any FixedWidthInteger: return integerJSON(number)
        default: return nil
        }
    }

    private static func integerJSON<I: FixedWidthInteger>(_ number: I) -> JSONValue { .number(JSONNumber(wide: number)) }

    /// The built-in leaf types (``ScalarValue``), as the mapping layer reads and writes them.
    static func scalarShape(_ type: Any.Type) -> ValueShape? {
        switch type {
        case is String.Type: return .leaf(["type": "string"])
        case is Bool.Type: return .leaf(["type": "boolean"])
        case is Double.Type: return .leaf(["type": "number", "format": "double"])
        case is Float.Type: return .leaf(["type": "number", "format": "float"])
        case is Decimal.Type: return .leaf(["type": "number"])
        case is JSONValue.Type: return .any
        case is UUID.Type: return .leaf(["type": "string", "format": "uuid"])
        case is URL.Type: return .leaf(["type": "string", "format": "uri-reference"])
        case is Data.Type: return .leaf(["type": "string", "contentEncoding": "base64"])
        case is Date.Type:
            // Without a transform a date is read from ISO 8601 text or
            // seconds since 1970, and written as ISO 8601 text.
            return .directional(
                decode: ["anyOf": [["type": "string", "format": "date-time"], ["type": "number"]]],
                encode: ["type": "string", "format": "date-time"])
        // The integer types the mapping layer reads itself (``IntegerScalar``);
        // `Int128` and the like go through their own `Codable` conformance.
        case let integer as any IntegerScalar.Type: return .leaf(integerSchema(integer))
        default: return nil
        }
    }

    private static func integerSchema<I: FixedWidthInteger>(_: I.Type) -> JSONValue {
        var schema: JSONValue = ["type": "integer"]
        if I.bitWidth == 64 && I.isSigned { return schema.adding("format", "int64") }
        if I.bitWidth == 32 && I.isSigned { return schema.adding("format", "int32") }
        schema = schema.adding("minimum", .number(JSONNumber(wide: I.min)))
        return schema.adding("maximum", .number(JSONNumber(wide: I.max)))
    }
}

extension JSONValue {
    /// The object with one more member (or a member replaced); a value that
    /// is not an object is returned as it is.
    func adding(_ key: String, _ value: JSONValue) -> JSONValue {
        guard case .object(var object) = self else { return self }
        object[key] = value
        return .object(object)
    }
}
