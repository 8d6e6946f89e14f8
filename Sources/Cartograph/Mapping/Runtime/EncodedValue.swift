import Foundation

/// What encoding a model produces before it becomes JSON bytes, a
/// ``JSONValue`` or `[String: Any]`: JSON's values plus the native leaves the
/// property-list and full profiles keep (`Date`, `Data`, anything else).
public indirect enum EncodedValue: @unchecked Sendable {
    // @unchecked: `native` holds what a transform returned for the `.full`
    // profile; encoded trees are built and consumed on one task.
    /// `null`.
    case null
    /// A bool.
    case bool(Bool)
    /// A number.
    case number(JSONNumber)
    /// A string.
    case string(String)
    /// A date (property-list and full profiles).
    case date(Date)
    /// Bytes (property-list and full profiles).
    case data(Data)
    /// Any other in-memory value (full profile only).
    case native(Any)
    /// An array.
    case array([EncodedValue])
    /// An object, keys in order.
    case object([(key: String, value: EncodedValue)])

    /// A JSON value as an encoded value.
    public init(_ value: JSONValue) {
        switch value {
        case .null: self = .null
        case .bool(let flag): self = .bool(flag)
        case .number(let number): self = .number(number)
        case .string(let text): self = .string(text)
        case .array(let elements): self = .array(elements.map(EncodedValue.init))
        case .object(let object): self = .object(object.members.map { ($0.key, EncodedValue($0.value)) })
        }
    }

    /// The JSON value; dates become ISO 8601 strings and data base64, and
    /// other native values throw (they have no JSON form).
    func jsonValue(path: String = "$") throws -> JSONValue {
        switch self {
        case .null: return .null
        case .bool(let flag): return .bool(flag)
        case .number(let number): return .number(number)
        case .string(let text): return .string(text)
        case .date(let date):
            do { return .string(try DateFormats.iso8601String(date, fractional: true)) } catch let error as CartographError {
                throw error.at(path: path)
            }
        case .data(let data): return .string(data.base64EncodedString())
        case .native(let value):
            throw CartographError(
                .typeMismatch, "\(type(of: value)) has no JSON form; give the property a transform", path: path,
                expected: "a JSON value", found: "\(type(of: value))")
        case .array(let elements):
            return .array(try elements.enumerated().map { try $1.jsonValue(path: PathTrail.appending($0, to: path)) })
        case .object(let members):
            var object = JSONObject()
            object.reserveCapacity(members.count)
            for (key, value) in members {
                object[key] = try value.jsonValue(path: PathTrail.appending(key, to: path))
            }
            return .object(object)
        }
    }

    /// The value as Foundation-style `Any` (`NSNull` for null, `[String: Any]` for objects).
    func anyValue() -> Any {
        switch self {
        case .null: return NSNull()
        case .bool(let flag): return flag
        case .number(let number): return JSONValue.number(number).anyValue
        case .string(let text): return text
        case .date(let date): return date
        case .data(let data): return data
        case .native(let value): return value
        case .array(let elements): return elements.map { $0.anyValue() }
        case .object(let members):
            var dictionary: [String: Any] = [:]
            for (key, value) in members { dictionary[key] = value.anyValue() }
            return dictionary
        }
    }

    /// Whether this is `null`.
    var isNull: Bool {
        if case .null = self { return true }
        return false
    }
}
