import Cartograph

/// Reads an object's fields in document order for the hand-written
/// factories: absent keys give the Swift default, `null` gives nil for
/// optionals, a wrong kind throws.
struct FieldReader {
    var cursor: ObjectView.Cursor
    let context: MappingContext

    init(_ object: ObjectView, _ context: MappingContext) {
        cursor = object.cursor()
        self.context = context
    }

    mutating func string(_ key: ObjectView.Key) throws -> String { try cursor(key)?.string() ?? "" }
    mutating func int(_ key: ObjectView.Key) throws -> Int { try cursor(key)?.int() ?? 0 }
    mutating func int64(_ key: ObjectView.Key) throws -> Int64 { try cursor(key)?.int64() ?? 0 }
    mutating func double(_ key: ObjectView.Key) throws -> Double { try cursor(key)?.double() ?? 0 }
    mutating func bool(_ key: ObjectView.Key) throws -> Bool { try cursor(key)?.bool() ?? false }

    mutating func optionalString(_ key: ObjectView.Key) throws -> String? {
        guard let node = cursor(key), !node.isNull else { return nil }
        return try node.string()
    }

    mutating func optionalInt(_ key: ObjectView.Key) throws -> Int? {
        guard let node = cursor(key), !node.isNull else { return nil }
        return try node.int()
    }

    mutating func optionalInt64(_ key: ObjectView.Key) throws -> Int64? {
        guard let node = cursor(key), !node.isNull else { return nil }
        return try node.int64()
    }

    mutating func optionalBool(_ key: ObjectView.Key) throws -> Bool? {
        guard let node = cursor(key), !node.isNull else { return nil }
        return try node.bool()
    }

    mutating func value(_ key: ObjectView.Key) throws -> JSONValue? {
        guard let node = cursor(key), !node.isNull else { return nil }
        return try node.jsonValue()
    }

    mutating func ints(_ key: ObjectView.Key) throws -> [Int] {
        guard let node = cursor(key) else { return [] }
        return try node.array().map { try $0.int() }
    }

    /// A nested value of any type the mapping layer reads (arrays of
    /// scalars, and arrays of those, in one specialised loop per level),
    /// through ``MappingContext/decode(_:from:key:)``; absent or `null` gives nil.
    mutating func decoded<Value>(_ key: ObjectView.Key, as type: Value.Type) throws -> Value? {
        guard let node = cursor(key), !node.isNull else { return nil }
        return try context.decode(type, from: node, key: key.string)
    }

    mutating func model<F: ModelFactory>(_ key: ObjectView.Key, _ factory: F) throws -> F.Model? {
        guard let node = cursor(key), !node.isNull else { return nil }
        return try factory.make(from: node.object(), context: context)
    }

    mutating func models<F: ModelFactory>(_ key: ObjectView.Key, _ factory: F) throws -> [F.Model]? {
        guard let node = cursor(key), !node.isNull else { return nil }
        let array = try node.array()
        var result: [F.Model] = []
        result.reserveCapacity(array.count)
        for element in array { result.append(try factory.make(from: element.object(), context: context)) }
        return result
    }
}
