import Foundation

extension JSONValue {
    /// Converts a Foundation-style value (`[String: Any]`, `[Any]`, `String`,
    /// `Bool`, any integer or floating-point type, `Decimal`, `NSNumber`,
    /// `NSNull`, `nil`, or a `JSONValue`) into a `JSONValue`.
    ///
    /// Dictionary keys are sorted by code point, since `Dictionary` order is
    /// not stable between runs.
    /// - Throws: ``CartographError/Kind/typeMismatch`` naming the path of a
    ///   value that has no JSON form (a `Date`, a custom object…);
    ///   ``CartographError/Kind/depthLimitExceeded`` for one nested deeper
    ///   than this thread's stack can build and release (as
    ///   ``Node/jsonValue()``).
    public init(any value: Any?) throws {
        self = try JSONValue.convert(value, path: "$", depth: 0, levels: TreeStackBudget.unmeasured)
    }

    private static let booleanType = ObjectIdentifier(type(of: NSNumber(value: true)))

    private static func convert(_ value: Any?, path: String, depth: Int, levels: Int) throws -> JSONValue {
        guard let value else { return .null }
        var levels = levels
        // Containers first: casting a Swift array or dictionary to a class
        // (`NSNull`, `NSNumber`) bridges it to `NSArray`/`NSDictionary`,
        // element by element and down every level, before the class is
        // compared: work in proportion to everything below, at every level,
        // and a recursion that ran a 512 KiB thread's stack out on a
        // 1,000-level array.
        switch value {
        case let value as JSONValue: return value
        case let value as [String: Any?]:
            guard TreeStackBudget.allows(depth: depth, levels: &levels) else { throw StackGuard.exhausted(path: path) }
            var object = JSONObject()
            for key in value.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
                object.appendUnchecked(key, try convert(value[key]!, path: PathText.appending(key, to: path), depth: depth + 1, levels: levels))
            }
            return .object(object)
        case let value as [Any?]:
            guard TreeStackBudget.allows(depth: depth, levels: &levels) else { throw StackGuard.exhausted(path: path) }
            return .array(try value.enumerated().map { try convert($1, path: PathText.appending($0, to: path), depth: depth + 1, levels: levels) })
        case let value as String: return .string(value)
        case is NSNull: return .null
        case let value as Decimal: return .number(JSONNumber(value))
        case let number as NSNumber:
            // Before any Swift number type: on Linux an NSNumber casts to Bool,
            // Int and Double alike, so its own type code decides.
            if ObjectIdentifier(type(of: number)) == booleanType { return .bool(number.boolValue) }
            return .number(convert(number))
        case let value as Bool: return .bool(value)
        case let value as Int: return .number(JSONNumber(value))
        case let value as Int64: return .number(JSONNumber(value))
        case let value as UInt64: return .number(JSONNumber(value))
        case let value as Double: return .number(JSONNumber(value))
        default:
            throw CartographError(.typeMismatch, "\(type(of: value)) has no JSON form", path: path,
                expected: "a JSON-compatible value", found: "\(type(of: value))")
        }
    }

    private static func convert(_ number: NSNumber) -> JSONNumber {
        switch String(cString: number.objCType) {
        case "d", "f": return JSONNumber(number.doubleValue)
        case "Q", "L", "I", "S", "C": return JSONNumber(number.uint64Value)
        default: return JSONNumber(number.int64Value)
        }
    }

    /// The value as Foundation-style `Any`: `NSNull`, `Bool`, `Int` (or
    /// `UInt64`, `Double`, `Decimal` when the number needs it), `String`,
    /// `[Any]` and `[String: Any]`, as `JSONSerialization` uses them.
    public var anyValue: Any {
        switch self {
        case .null: return NSNull()
        case .bool(let value): return value
        case .number(let number):
            switch number.storage {
            case .int(let value): return Int(exactly: value) ?? Double(value)
            case .uint(let value): return value
            case .double(let value): return value
            case .text: return number.decimalValue ?? number.doubleValue
            }
        case .string(let value): return value
        case .array(let elements): return elements.map(\.anyValue)
        case .object(let object):
            var dictionary = [String: Any](minimumCapacity: object.count)
            for (key, value) in object { dictionary[key] = value.anyValue }
            return dictionary
        }
    }
}
