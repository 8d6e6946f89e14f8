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
        self = try JSONValue.convert(value, parent: nil, at: nil, depth: 0, levels: TreeStackBudget.unmeasured)
    }

    private static let booleanType = ObjectIdentifier(type(of: NSNumber(value: true)))

    /// The value at component `at` of the container at `parent` (both nil
    /// at the root). A path is rendered only for an error: a trail node is
    /// made per container, none per scalar (paths built as strings for
    /// every element had cost more than the conversion).
    private static func convert(_ value: Any?, parent: PathTrail?, at component: PathTrail.Component?, depth: Int, levels: Int) throws -> JSONValue {
        guard let value else { return .null }
        var levels = levels
        func path() -> String { PathTrail.render(parent, component.map { [$0] } ?? []) }
        func trail() -> PathTrail? { component.map { PathTrail(parent: parent, component: $0) } ?? parent }
        // Foundation's scalars are class instances: known by the metatype
        // (no bridging), they skip the casts to Swift's containers. (The
        // switch's own NSNull and NSNumber cases still take one wrapped in
        // an Optional, whose type is not a class.)
        if type(of: value) is AnyObject.Type {
            if let number = value as? NSNumber { return convertLeaf(number) }
            if value is NSNull { return .null }
        }
        switch value {
        case let value as JSONValue: return value
        case let value as [String: Any?]:
            guard TreeStackBudget.allows(depth: depth, levels: &levels) else { throw StackGuard.exhausted(path: path()) }
            let here = trail()
            var object = JSONObject()
            object.reserveCapacity(value.count)
            for key in value.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
                object.appendUnchecked(key, try convert(value[key]!, parent: here, at: .key(key), depth: depth + 1, levels: levels))
            }
            return .object(object)
        case let value as [Any?]:
            guard TreeStackBudget.allows(depth: depth, levels: &levels) else { throw StackGuard.exhausted(path: path()) }
            let here = trail()
            return .array(try value.enumerated().map { try convert($1, parent: here, at: .index($0), depth: depth + 1, levels: levels) })
        case let value as String: return .string(value)
        case is NSNull: return .null
        case let value as Decimal: return .number(JSONNumber(value))
        case let number as NSNumber: return convertLeaf(number)
        case let value as Bool: return .bool(value)
        case let value as Int: return .number(JSONNumber(value))
        case let value as Int64: return .number(JSONNumber(value))
        case let value as UInt64: return .number(JSONNumber(value))
        case let value as Double: return .number(JSONNumber(value))
        default:
            throw CartographError(
                .typeMismatch, "\(type(of: value)) has no JSON form", path: path(),
                expected: "a JSON-compatible value", found: "\(type(of: value))")
        }
    }

    /// An `NSNumber`: before any Swift number type, since on Linux an
    /// NSNumber casts to Bool, Int and Double alike; its own type code decides.
    private static func convertLeaf(_ number: NSNumber) -> JSONValue {
        if ObjectIdentifier(type(of: number)) == booleanType { return .bool(number.boolValue) }
        return .number(convert(number))
    }

    private static func convert(_ number: NSNumber) -> JSONNumber {
        switch unsafe String(cString: number.objCType) {
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
