import Foundation
import Synchronization

/// Converts a property's value to and from its wire form, in both directions.
///
/// Built-ins cover dates (ISO 8601 with or without fractional seconds,
/// seconds or milliseconds since 1970, a format string with a time zone),
/// `URL`, `UUID`, `Data` (base64), `Decimal` and `RawRepresentable` enums
/// (by raw value or by case name). A custom transform is a pair of closures:
///
/// ```swift
/// let cents = Transform<Decimal>(decode: { try Decimal($0.int()) / 100 },
///                                encode: { .number(JSONNumber(NSDecimalNumber(decimal: $0 * 100).int64Value)) })
/// ```
public struct Transform<Value>: @unchecked Sendable {
    // @unchecked: the closures are @Sendable user closures or built-ins that
    // capture only immutable values (codecs, a locked formatter).
    let decode: (Node, MappingContext) throws -> Value
    let encode: (Value, EncodingContext) throws -> EncodedValue
    /// Whether `null` reaches ``decode`` (instead of clearing or being refused).
    var readsNull = false
    /// What the transform reads and writes, for schemas; a transform made
    /// from closures is free-form (`{}`) unless it says (``describing(_:)``).
    var shape: ValueShape = .any

    /// The same transform, described by a JSON Schema in the schemas the
    /// registry generates (``ModelRegistry/jsonSchema(for:direction:)``):
    /// a closure's logic cannot be read, so without this its values are
    /// described as anything.
    ///
    /// ```swift
    /// let cents = Transform<Decimal>(decode: { try Decimal($0.int()) / 100 },
    ///                                encode: { .number(JSONNumber($0 * 100)) })
    ///     .describing(["type": "integer", "description": "an amount in cents"])
    /// ```
    public func describing(_ schema: JSONValue) -> Transform<Value> {
        var described = self
        described.shape = .leaf(schema)
        return described
    }

    /// The same transform with schemas per direction.
    func described(decode: JSONValue, encode: JSONValue) -> Transform<Value> {
        var described = self
        described.shape = .directional(decode: decode, encode: encode)
        return described
    }

    /// A transform from a pair of closures over nodes and JSON values.
    public init(decode: @escaping @Sendable (Node) throws -> Value, encode: @escaping @Sendable (Value) throws -> JSONValue) {
        self.decode = { node, _ in try decode(node) }
        self.encode = { value, _ in EncodedValue(try encode(value)) }
    }

    /// A transform with access to the contexts, writing any encoded value (dates and data included).
    public init(
        decodeWithContext: @escaping @Sendable (Node, MappingContext) throws -> Value,
        encodeWithContext: @escaping @Sendable (Value, EncodingContext) throws -> EncodedValue
    ) {
        self.init(uncheckedDecode: decodeWithContext, encode: encodeWithContext)
    }

    /// A transform that also reads `null` (the closure sees the null node,
    /// where otherwise the property would be cleared or the null refused)
    /// and may leave the key out when encoding by returning nil.
    ///
    /// ```swift
    /// // "N/A" and null both mean "no price"; no price is not written at all.
    /// let price = Transform<Decimal?>(nullable: { $0.isNull || (try? $0.string()) == "N/A" ? nil : try $0.decimal() },
    ///                                 encode: { $0.map { .number(JSONNumber($0)) } })
    /// ```
    public init(nullable decode: @escaping @Sendable (Node) throws -> Value, encode: @escaping @Sendable (Value) throws -> JSONValue?) {
        self.decode = { node, _ in try decode(node) }
        self.encode = { value, _ in
            guard let written = try encode(value) else { throw OmitProperty() }
            return EncodedValue(written)
        }
        readsNull = true
    }

    init(uncheckedDecode decode: @escaping (Node, MappingContext) throws -> Value, encode: @escaping (Value, EncodingContext) throws -> EncodedValue)
    {
        self.decode = decode
        self.encode = encode
    }

    func codec() -> ValueCodec<Value> {
        let decode = self.decode
        let encode = self.encode
        // A transform whose type was inferred as an optional (a closure
        // returning `String` for a `String?` property makes a
        // `Transform<String?>`): its property is optional, so `null` clears
        // it (or leaves it, with `ignoreNull`) and nil is written as the
        // property's `nilEncoding` says, as with `Transform<String>`.
        let optional = readsNull ? nil : Value.self as? any OptionalMarker.Type
        return ValueCodec(
            decode: { node, context, _ in
                do { return try decode(node, context) } catch let error as CartographError { throw error.at(path: context.path) }
            },
            encode: { value, context in try encode(value, context) },
            none: optional.map { $0.noneMaker() as! () -> Value },
            isNone: optional.map { $0.noneTest() as! (Value) -> Bool } ?? { _ in false },
            holdsNull: readsNull)
    }

    func arrayCodec() -> ValueCodec<[Value]> { ValueCodec<[Value]>.array(of: codec()) }

    func optionalCodec() -> ValueCodec<Value?> {
        let inner = codec()
        return ValueCodec<Value?>(
            decode: { node, context, options in node.isNull ? nil : try inner.decode(node, context, options) },
            encode: { value, context in
                guard let value else { return .null }
                return try inner.encode(value, context)
            },
            none: { nil }, isNone: { $0 == nil })
    }
}

/// Thrown by a transform's encode to leave the property's key out.
struct OmitProperty: Error {}

private func invalid(_ node: Node, _ expected: String) -> CartographError {
    CartographError(
        .typeMismatch, "expected \(expected), found \(node.kind)\((try? node.string()).map { " \"\($0)\"" } ?? "")",
        offset: node.sourceOffset, expected: expected, found: node.kind.description)
}

extension Transform where Value == Date {
    /// ISO 8601 (`2026-11-02T09:14:03Z`, fractional seconds accepted); written without fractions.
    public static var iso8601: Transform<Date> { iso8601(fractionalSeconds: false) }
    /// ISO 8601 written with milliseconds (`2026-11-02T09:14:03.250Z`) when the date has them.
    public static var iso8601WithFractionalSeconds: Transform<Date> { iso8601(fractionalSeconds: true) }

    private static func iso8601(fractionalSeconds: Bool) -> Transform<Date> {
        Transform<Date>(
            uncheckedDecode: { node, _ in
                guard node.kind == .string, let date = DateFormats.parseISO8601(try node.string()) else { throw invalid(node, "ISO 8601 date") }
                return date
            },
            encode: { date, context in
                context.profile == .json ? .string(try DateFormats.iso8601String(date, fractional: fractionalSeconds)) : .date(date)
            }
        ).describing(["type": "string", "format": "date-time"])
    }

    /// Seconds since 1970 as a number.
    public static var secondsSince1970: Transform<Date> { epoch(scale: 1) }
    /// Milliseconds since 1970 as a number.
    public static var millisecondsSince1970: Transform<Date> { epoch(scale: 1000) }

    private static func epoch(scale: Double) -> Transform<Date> {
        Transform<Date>(
            uncheckedDecode: { node, _ in
                guard node.kind == .number else { throw invalid(node, "number of \(scale == 1 ? "seconds" : "milliseconds") since 1970") }
                return Date(timeIntervalSince1970: try node.double() / scale)
            },
            encode: { date, context in
                guard context.profile == .json else { return .date(date) }
                let value = date.timeIntervalSince1970 * scale
                if let whole = Int64(exactly: value) { return .number(JSONNumber(whole)) }
                return .number(JSONNumber(value))
            }
        ).describing(["type": "number", "description": .string(scale == 1 ? "seconds since 1970" : "milliseconds since 1970")])
    }

    /// A `DateFormatter` format string (`"yyyy-MM-dd HH:mm"`) in a time zone, with the POSIX locale.
    public static func format(_ format: String, timeZone: TimeZone = TimeZone(identifier: "UTC")!) -> Transform<Date> {
        let formatter = LockedFormatter(format: format, timeZone: timeZone)
        return Transform<Date>(
            uncheckedDecode: { node, _ in
                guard node.kind == .string, let date = formatter.date(from: try node.string()) else { throw invalid(node, "date as \"\(format)\"") }
                return date
            },
            encode: { date, context in context.profile == .json ? .string(formatter.string(from: date)) : .date(date) }
        ).describing(["type": "string", "description": .string("a date as \"\(format)\" (\(timeZone.identifier))")])
    }
}

/// A `DateFormatter` (not thread-safe) shared safely between tasks.
final class LockedFormatter: Sendable {
    private let formatter: Mutex<DateFormatter>

    init(format: String, timeZone: TimeZone) {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = timeZone
        formatter.dateFormat = format
        self.formatter = Mutex(formatter)
    }

    func date(from text: String) -> Date? { formatter.withSanitizedLock { $0.date(from: text) } }
    func string(from date: Date) -> String { formatter.withSanitizedLock { $0.string(from: date) } }
}

extension Transform where Value == URL {
    /// A URL from a string.
    public static var url: Transform<URL> {
        Transform(
            uncheckedDecode: { node, _ in try URL.scalar(from: node, lenient: false) },
            encode: { url, _ in .string(url.absoluteString) }
        ).describing(["type": "string", "format": "uri-reference"])
    }
}

extension Transform where Value == UUID {
    /// A UUID from its string form.
    public static var uuid: Transform<UUID> {
        Transform(
            uncheckedDecode: { node, _ in try UUID.scalar(from: node, lenient: false) },
            encode: { uuid, _ in .string(uuid.uuidString) }
        ).describing(["type": "string", "format": "uuid"])
    }
}

extension Transform where Value == Data {
    /// Bytes from base64 text (plist data stays data in the property-list profile).
    public static var base64: Transform<Data> {
        Transform(
            uncheckedDecode: { node, _ in try Data.scalar(from: node, lenient: false) },
            encode: { data, context in context.profile == .json ? .string(data.base64EncodedString()) : .data(data) }
        ).describing(["type": "string", "contentEncoding": "base64"])
    }
}

extension Transform where Value == Decimal {
    /// An exact decimal from a number or a numeric string; written as a number.
    public static var decimal: Transform<Decimal> {
        Transform(
            uncheckedDecode: { node, _ in try Decimal.scalar(from: node, lenient: true) },
            encode: { value, _ in .number(JSONNumber(value)) }
        ).described(decode: ["type": ["number", "string"], "description": "an exact decimal number, or a numeric string"], encode: ["type": "number"])
    }
}

extension Transform where Value: RawRepresentable, Value.RawValue: Sendable {
    /// An enum by its raw value.
    public static var rawValue: Transform<Value> {
        let raw = ValueCodec<Value.RawValue>.resolve()
        var transform = Transform(
            uncheckedDecode: { node, context in
                let rawValue = try raw.decode(node, context, .standard)
                guard let value = Value(rawValue: rawValue) else { throw invalid(node, "a \(Value.self) raw value") }
                return value
            },
            encode: { value, context in try raw.encode(value.rawValue, context) })
        transform.shape = ValueShape.rawShape(Value.self) ?? ValueShape.of(Value.RawValue.self)
        return transform
    }
}

extension Transform where Value: CaseIterable {
    /// An enum by its case name (`"active"` for `.active`).
    public static var caseName: Transform<Value> {
        Transform(
            uncheckedDecode: { node, _ in
                guard node.kind == .string else { throw invalid(node, "a \(Value.self) case name") }
                let name = try node.string()
                guard let value = Value.allCases.first(where: { "\($0)" == name }) else { throw invalid(node, "a \(Value.self) case name") }
                return value
            },
            encode: { value, _ in .string("\(value)") }
        ).describing(["type": "string", "enum": .array(Value.allCases.map { .string("\($0)") })])
    }
}
