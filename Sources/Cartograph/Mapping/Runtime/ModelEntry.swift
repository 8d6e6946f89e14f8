/// A registered model type, as the registry stores it: the type erased for
/// class inference and `decodeAny`, with a typed implementation
/// (``TypedModelEntry``) so that decoding a known type needs no boxing in
/// `Any` and no dynamic cast.
typealias ModelEntry = any ModelEntryProtocol

protocol ModelEntryProtocol: AnyObject, Sendable {
    var type: Any.Type { get }
    var keys: [String] { get }
    /// How an object's keys match ``keys`` for class inference: the naming
    /// strategy of the mapping (a scanning one matches `First_Name` to
    /// `firstName`), or nil for exact keys.
    var keyNaming: NamingStrategy? { get }
    func makeAny(_ object: ObjectView, _ context: MappingContext) throws -> Any
    func encodeAny(_ model: Any, _ context: EncodingContext) throws -> EncodedValue
    /// Writes a model as JSON at a depth, through the entry's stream where it
    /// has one (MappingStream.swift).
    func streamTyped<T>(_ model: T, _ context: EncodingContext, _ writer: inout NativeJSONWriter, _ depth: Int) throws
    var canUpdate: Bool { get }
    func updateAny(_ model: inout Any, _ object: ObjectView, _ context: MappingContext) throws
    /// The `CompiledMapping<type>` behind the entry, when a ``Mapping``
    /// (not a factory) makes its models: nested model properties run it directly.
    var compiledMapping: AnyObject? { get }
    /// Throws the configuration error of the entry's mapping, if any (a factory has none).
    func validate() throws
}

extension ModelEntryProtocol {
    var name: String { "\(type)" }

    /// Whether the object has every identifying key (through the naming
    /// strategy when it scans, so keys derived from names match as reading does).
    func isIdentified(by object: ObjectView) -> Bool {
        guard !keys.isEmpty else { return false }
        guard let naming = keyNaming, naming.scans else { return keys.allSatisfy { object.contains($0) } }
        let present = object.compactMap { key, _ in key }
        return keys.allSatisfy { property in object.contains(property) || present.contains { naming.rank(key: $0, property: property) != nil } }
    }

    /// Makes a model from a node that must be an object, as `T`.
    func decode<T>(_ node: Node, _ context: MappingContext, as _: T.Type) throws -> T {
        guard node.kind == .object else {
            throw CartographError(
                .typeMismatch, "expected an object for \(name), found \(node.kind)", offset: node.sourceOffset,
                path: context.path, expected: "object", found: node.kind.description)
        }
        return try context.makingObject(at: node.sourceOffset) { context in
            // The entry's own type: no dynamic cast to the generic class
            // (which would look up `TypedModelEntry<T>`'s metadata per object).
            if isSameType(type, T.self) {
                return unsafe try unsafeDowncast(self, to: TypedModelEntry<T>.self).make(try node.object(), context)
            }
            return try decodeAsOtherType(node, context, as: T.self)
        }
    }

    /// An entry of a subclass or conforming type read as `T`. Kept out of
    /// ``decode(_:_:as:)`` so that the common path does not set up an
    /// `Optional<T>` (a metadata lookup per object) for the cast.
    @inline(never)
    private func decodeAsOtherType<T>(_ node: Node, _ context: MappingContext, as _: T.Type) throws -> T {
        let made = try makeAny(try node.object(), context)
        guard let model = made as? T else {
            throw CartographError(
                .typeMismatch, "the object was identified as \(name), which is not a \(T.self)",
                offset: node.sourceOffset, path: context.path, expected: "\(T.self)", found: name)
        }
        return model
    }

    /// Encodes a model, watching for cycles through class instances.
    func encodeValue<T>(_ model: T, _ context: EncodingContext) throws -> EncodedValue {
        try entering(model, context) { try encodeTyped(model, context) }
    }

    /// Runs `body`, which encodes `model`, one level down (within the depth
    /// limits) and, for a class instance, inside the set of instances being
    /// encoded: an instance met again inside itself throws ``CycleDetected``.
    /// Only a class or a protocol-typed `T` can hold an instance, so a struct
    /// is not boxed in `Any` to ask (a copy, and an allocation past three words).
    func entering<T, Result>(_ model: T, _ context: EncodingContext, _ body: () throws -> Result) throws -> Result {
        try context.descend()
        let object: AnyObject
        if T.self is AnyClass {
            object = classObject(model)
        } else if MetadataKind.isExistential(T.self), Swift.type(of: model as Any) is AnyClass {
            object = model as AnyObject
        } else {
            return try body()
        }
        guard context.visiting.enter(object) else { throw CycleDetected(path: context.path) }
        defer { context.visiting.leave(object) }
        return try body()
    }

    func encodeTyped<T>(_ model: T, _ context: EncodingContext) throws -> EncodedValue {
        if let typed = self as? TypedModelEntry<T> { return try typed.encode(model, context) }
        return try encodeAny(model, context)
    }
}

/// A registry entry for one model type.
final class TypedModelEntry<Model>: ModelEntryProtocol, @unchecked Sendable {
    // @unchecked: immutable after registration; the closures capture a
    // factory (Sendable) or a compiled mapping (immutable).
    let type: Any.Type = Model.self
    let keys: [String]
    let make: (ObjectView, MappingContext) throws -> Model
    let encode: (Model, EncodingContext) throws -> EncodedValue
    /// The mapping's JSON stream (MappingStream.swift); nil for a factory,
    /// whose `encode` makes a tree.
    let stream: ((Model, EncodingContext, inout NativeJSONWriter, Int) throws -> Void)?
    let update: ((inout Model, ObjectView, MappingContext) throws -> Void)?
    let keyNaming: NamingStrategy?
    let compiledMapping: AnyObject?

    init(
        keys: [String], make: @escaping (ObjectView, MappingContext) throws -> Model,
        encode: @escaping (Model, EncodingContext) throws -> EncodedValue,
        stream: ((Model, EncodingContext, inout NativeJSONWriter, Int) throws -> Void)? = nil,
        update: ((inout Model, ObjectView, MappingContext) throws -> Void)?, keyNaming: NamingStrategy? = nil,
        compiledMapping: CompiledMapping<Model>? = nil
    ) {
        self.compiledMapping = compiledMapping
        self.keys = keys
        self.keyNaming = keyNaming
        self.make = make
        self.encode = encode
        self.stream = stream
        self.update = update
    }

    func validate() throws {
        if let compiled = compiledMapping as? CompiledMapping<Model>, let error = compiled.unnamed { throw error }
    }

    convenience init<F: ModelFactory>(factory: F) where F.Model == Model {
        self.init(
            keys: factory.keys, make: { try factory.make(from: $0, context: $1) },
            encode: { try factory.encode($0, context: $1) }, update: nil)
    }

    func makeAny(_ object: ObjectView, _ context: MappingContext) throws -> Any { try make(object, context) }
    func encodeAny(_ model: Any, _ context: EncodingContext) throws -> EncodedValue { try encode(model as! Model, context) }
    var canUpdate: Bool { update != nil }
    func updateAny(_ model: inout Any, _ object: ObjectView, _ context: MappingContext) throws {
        guard let update else { return }
        var typed = model as! Model
        try update(&typed, object, context)
        model = typed
    }
}

/// Thrown when encoding meets an instance it is already inside; mapped to
/// ``CartographError/Kind/cycle`` or to skipping the property by policy.
struct CycleDetected: Error {
    let path: String
}
