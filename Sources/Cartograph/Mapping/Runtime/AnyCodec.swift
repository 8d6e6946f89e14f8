import Foundation

/// Properties typed `Any` (and `Any?`, `[Any]`, `[String: Any]`, which see
/// `Any` through their element): plain values stay plain values and
/// identified objects become models, at any depth — JAGPropertyConverter's
/// heterogeneous arrays and dictionaries.
///
/// Reading: an object that class inference identifies becomes its model; any
/// other object a `[String: Any]`, an array an `[Any]`, a string a `String`,
/// a boolean a `Bool`, an integer an `Int` (a `UInt64` above `Int.max`), any
/// other number a `Double`, and `null` an `NSNull` (the Foundation convention
/// for a null inside a collection; an `Any?` property is `nil` for `null`).
///
/// Writing: a registered model through its entry; `NSNull` and `nil` as
/// `null`; scalars (strings, numbers, booleans, dates, URLs, UUIDs, data,
/// `Decimal`, `JSONValue`) as themselves; arrays and string-keyed
/// dictionaries element by element; other `Encodable` values through
/// `Codable`.
enum AnyCodec {
    static func codec() -> ValueCodec<Any> {
        ValueCodec<Any>(
            decode: { node, context, _ in try decode(node, context) }, encode: { value, context in try encode(value, context) },
            holdsNull: true)
    }

    static func decode(_ node: Node, _ context: MappingContext) throws -> Any {
        switch node.kind {
        case .object:
            let object = try node.object()
            if let entry = try context.registry.classify(object, key: context.key, as: Any.self) {
                return try entry.decode(node, context, as: Any.self)
            }
            var members: [String: Any] = [:]
            var iterator = object.makeIterator()
            let mark = context.linkMark
            while let (keyNode, value) = iterator.nextNodes() {
                // Each member's path link is removed once it is read.
                defer { context.unlink(to: mark) }
                let key = try keyNode.string()
                members[key] = try decode(value, context.child(key: key))
            }
            return members
        case .array:
            guard StackGuard.hasRoom else { throw StackGuard.exhausted(path: context.path, offset: node.sourceOffset) }
            let mark = context.linkMark
            return try node.array().enumerated().map { index, element in
                defer { context.unlink(to: mark) }
                return try decode(element, context.element(index).materialized())
            }
        case .string:
            return try node.string()
        case .bool:
            return try node.bool()
        case .null:
            return NSNull()
        case .number:
            if let value = try? node.int64(), let exact = Int(exactly: value) { return exact }
            if let value = try? node.uint64() { return value }
            return try node.double()
        }
    }

    static func encode(_ value: Any, _ context: EncodingContext) throws -> EncodedValue {
        // By its type: `value is NSNull` on a Swift array or dictionary
        // bridges it to `NSArray`/`NSDictionary`, all the way down, at every
        // level (see JSONValue(any:)).
        if type(of: value) is NSNull.Type { return .null }
        let mirror = Mirror(reflecting: value)
        if mirror.displayStyle == .optional {
            guard let wrapped = mirror.children.first?.value else { return .null }
            return try encode(wrapped, context)
        }
        if let entry = context.session.entry(for: type(of: value)) { return try entry.encodeValue(value, context) }
        if let scalar = value as? any ScalarValue { return scalar.encodedScalar(profile: context.profile) }
        if let dictionary = value as? [String: Any] {
            try context.descend()
            let mark = context.linkMark
            return .object(
                try dictionary.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }.map { key, member in
                    defer { context.unlink(to: mark) }
                    return (key, try encode(member, context.child(.key(key))))
                })
        }
        if let array = value as? [Any] {
            try context.descend()
            let mark = context.linkMark
            return .array(
                try array.enumerated().map { index, element in
                    defer { context.unlink(to: mark) }
                    return try encode(element, context.child(.index(index)))
                })
        }
        if let encodable = value as? any Encodable { return try CodableFallback.encode(encodable, context: context) }
        throw CartographError(
            .encodingFailed, "\(type(of: value)) has no JSON form: register it or make it Encodable", path: context.path,
            expected: "a model, a plain value or a collection of them", found: "\(type(of: value))")
    }
}
