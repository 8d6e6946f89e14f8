import Cartograph

/// What the samples showed at one place in the documents: how often each
/// kind of value appeared there, the merged shape of array elements and the
/// merged members of objects (in the order keys were first seen).
final class ValueShape {
    /// Values seen here, nulls included.
    private(set) var seen = 0
    private(set) var nulls = 0
    private(set) var bools = 0
    /// Integers that fit `Int` (64 bits).
    private(set) var integers = 0
    /// Integers beyond 64 bits: kept exact as `Decimal`.
    private(set) var bigIntegers = 0
    private(set) var doubles = 0
    private(set) var strings = 0
    /// Strings that read as ISO 8601 dates (or property-list dates).
    private(set) var dates = 0
    /// The distinct strings seen here, in first-seen order, while there are
    /// at most ``enumLimit`` of them (nil after: not a closed set).
    private(set) var stringValues: [String]? = []
    static let enumLimit = 10
    private(set) var arrays = 0
    private(set) var objects = 0
    /// The merged shape of every element of every array seen here.
    private(set) var element: ValueShape?
    /// Members of the objects seen here, in first-seen order.
    private(set) var members: [(key: String, shape: ValueShape)] = []
    private var memberIndex: [String: Int] = [:]

    /// Adds one value.
    func add(_ node: Node) throws {
        seen += 1
        switch node.kind {
        case .null: nulls += 1
        case .bool: bools += 1
        case .number:
            let text = try node.numberText()
            if text.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }) {
                doubles += 1
            } else if (try? node.int64()) != nil {
                integers += 1
            } else {
                bigIntegers += 1
            }
        case .string:
            strings += 1
            if node.isDate || (try? node.date()) != nil { dates += 1 }
            if let values = stringValues, let text = try? node.string(), !values.contains(text) {
                stringValues = values.count < Self.enumLimit ? values + [text] : nil
            }
        case .array:
            arrays += 1
            let shape = element ?? ValueShape()
            element = shape
            for value in try node.array() { try shape.add(value) }
        case .object:
            objects += 1
            for (key, value) in try node.object() { try member(key).add(value) }
        }
    }

    private func member(_ key: String) -> ValueShape {
        if let index = memberIndex[key] { return members[index].shape }
        let shape = ValueShape()
        memberIndex[key] = members.count
        members.append((key, shape))
        return shape
    }

    /// Adds everything `other` saw (for the values of a map, merged into one shape).
    func merge(_ other: ValueShape) {
        seen += other.seen
        nulls += other.nulls
        bools += other.bools
        integers += other.integers
        bigIntegers += other.bigIntegers
        doubles += other.doubles
        strings += other.strings
        dates += other.dates
        if let values = stringValues, let others = other.stringValues {
            let merged = values + others.filter { !values.contains($0) }
            stringValues = merged.count <= Self.enumLimit ? merged : nil
        } else {
            stringValues = nil
        }
        arrays += other.arrays
        objects += other.objects
        if let otherElement = other.element {
            let shape = element ?? ValueShape()
            element = shape
            shape.merge(otherElement)
        }
        for (key, shape) in other.members { member(key).merge(shape) }
    }

    /// Whether the objects seen here are maps (their keys are data: ids,
    /// names of things) rather than records: their values are all of one
    /// kind, and the keys are ids (numbers, UUIDs, hex, or one stem with
    /// varying digits: `user-00017`), or too many to be names (more than
    /// 40), or differ from object to object (three or more objects, each key
    /// in at most half of them on average). Such an object becomes
    /// `[String: Value]` instead of a type with a property per key. One
    /// key is enough when it is an id (`{"337100890": "Seul"}`): no record
    /// names a property so, and as a type it would read only that id.
    var isMap: Bool {
        guard objects > 0, members.count >= 2 || (members.count == 1 && Self.isIdentifier(members[0].key)) else { return false }
        guard let kind = members[0].shape.soleKind, members.allSatisfy({ $0.shape.soleKind == kind }) else { return false }
        let keys = members.map(\.key)
        if keys.allSatisfy(Self.isIdentifier) { return true }
        if keys.count >= 4, keys.allSatisfy({ $0.contains(where: \.isNumber) }),
            Set(keys.map { $0.filter { !$0.isNumber } }).count == 1
        {
            return true
        }
        if members.count > 40 { return true }
        if objects >= 3 {
            let presence = Double(members.reduce(0) { $0 + $1.shape.seen }) / Double(members.count * objects)
            if presence <= 0.5 { return true }
        }
        return false
    }

    /// A key that is an id: a number, a UUID, or 8 or more hexadecimal digits.
    static func isIdentifier(_ key: String) -> Bool {
        let unsigned = key.hasPrefix("-") ? key.dropFirst() : Substring(key)
        if !unsigned.isEmpty, unsigned.allSatisfy({ $0.isASCII && $0.isNumber }) { return true }
        let hex = key.filter { $0 != "-" }
        if hex.count >= 8, hex.allSatisfy(\.isHexDigit), key.count == hex.count || (key.count == 36 && hex.count == 32) { return true }
        return false
    }

    /// Whether the strings seen here are a small closed set worth an enum:
    /// 2 to ``enumLimit`` distinct values, each seen twice on average.
    var isEnumLike: Bool {
        guard let values = stringValues, values.count >= 2, strings >= 2 * values.count, dates < strings else { return false }
        return true
    }

    /// The shape of every value of a map, merged.
    var mapValues: ValueShape {
        let merged = ValueShape()
        for (_, shape) in members { merged.merge(shape) }
        return merged
    }

    /// Whether a member of the objects seen here must be optional: it was
    /// missing from some of them or null in some.
    func isOptional(member shape: ValueShape) -> Bool {
        shape.seen < objects || shape.nulls > 0
    }

    /// The one kind of non-null value seen here, or nil when there were
    /// none or several (which become `JSONValue`).
    var soleKind: JSONKind? {
        let kinds: [(Int, JSONKind)] = [
            (bools, .bool), (integers + bigIntegers + doubles, .number), (strings, .string), (arrays, .array), (objects, .object)
        ]
        let present = kinds.filter { $0.0 > 0 }
        return present.count == 1 ? present[0].1 : nil
    }
}
