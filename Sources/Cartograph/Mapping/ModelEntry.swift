/// A registered model type with its type erased, as the registry stores it.
struct ModelEntry: @unchecked Sendable {
    // @unchecked: the closures capture a factory (Sendable) or a compiled
    // mapping, which is immutable.
    let type: Any.Type
    let keys: [String]
    let make: (ObjectView, MappingContext) throws -> Any
    let encode: (Any, EncodingContext) throws -> EncodedValue
    /// Applies an object to an existing model (absent keys untouched), for mappings.
    let update: ((inout Any, ObjectView, MappingContext) throws -> Void)?

    var name: String { "\(type)" }

    init<F: ModelFactory>(factory: F) {
        type = F.Model.self
        keys = factory.keys
        make = { object, context in try factory.make(from: object, context: context) }
        encode = { model, context in try factory.encode(model as! F.Model, context: context) }
        update = nil
    }

    init(
        type: Any.Type, keys: [String], make: @escaping (ObjectView, MappingContext) throws -> Any,
        encode: @escaping (Any, EncodingContext) throws -> EncodedValue,
        update: ((inout Any, ObjectView, MappingContext) throws -> Void)?
    ) {
        self.type = type
        self.keys = keys
        self.make = make
        self.encode = encode
        self.update = update
    }

    /// Makes a model from a node that must be an object, as `T`.
    func decode<T>(_ node: Node, _ context: MappingContext, as _: T.Type) throws -> T {
        guard node.kind == .object else {
            throw CartographError(.typeMismatch, "expected an object for \(name), found \(node.kind)", offset: node.sourceOffset,
                path: context.path, expected: "object", found: node.kind.description)
        }
        let made: Any
        let context = context.materialized()
        do {
            made = try make(try node.object(), context)
        } catch let error as CartographError {
            throw error.at(path: context.path)
        }
        guard let model = made as? T else {
            throw CartographError(.typeMismatch, "the object was identified as \(name), which is not a \(T.self)", offset: node.sourceOffset,
                path: context.path, expected: "\(T.self)", found: name)
        }
        return model
    }

    /// Encodes a model, watching for cycles through class instances.
    func encodeValue(_ model: Any, _ context: EncodingContext) throws -> EncodedValue {
        guard Swift.type(of: model) is AnyClass else { return try encode(model, context) }
        let object = model as AnyObject
        if context.visiting.contains(ObjectIdentifier(object)) {
            throw CycleDetected(path: context.path)
        }
        return try encode(model, context.entering(object))
    }
}

/// Thrown when encoding meets an instance it is already inside; mapped to
/// ``CartographError/Kind/cycle`` or to skipping the property by policy.
struct CycleDetected: Error {
    let path: String
}
