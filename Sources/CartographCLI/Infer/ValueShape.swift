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

    /// Whether a member of the objects seen here must be optional: it was
    /// missing from some of them or null in some.
    func isOptional(member shape: ValueShape) -> Bool {
        shape.seen < objects || shape.nulls > 0
    }

    /// The one kind of non-null value seen here, or nil when there were
    /// none or several (which become `JSONValue`).
    var soleKind: JSONKind? {
        let kinds: [(Int, JSONKind)] = [
            (bools, .bool), (integers + bigIntegers + doubles, .number), (strings, .string), (arrays, .array), (objects, .object),
        ]
        let present = kinds.filter { $0.0 > 0 }
        return present.count == 1 ? present[0].1 : nil
    }
}
