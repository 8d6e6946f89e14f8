/// Makes one model type from objects, JSACollection style: the keys that
/// identify its objects, and a function from an object to a model.
///
/// ```swift
/// struct UserFactory: ModelFactory {
///     var keys: [String] { ["userID", "name"] }
///     func make(from object: ObjectView, context: MappingContext) throws -> User {
///         User(id: try object["userID"]!.int(), name: try object["name"]?.string() ?? "")
///     }
/// }
/// ```
public protocol ModelFactory<Model>: Sendable {
    /// The model type this factory makes.
    associatedtype Model
    /// Keys whose presence identifies this model's objects (used by class
    /// inference and ``JSONMapper/collect(_:from:nested:)``).
    var keys: [String] { get }
    /// Makes a model from an object. Throw ``CartographError`` (or any error)
    /// when the object cannot be one; ``MappingContext`` gives the path.
    func make(from object: ObjectView, context: MappingContext) throws -> Model
    /// Writes a model back. The default throws: a factory that only reads is fine.
    func encode(_ model: Model, context: EncodingContext) throws -> EncodedValue
}

extension ModelFactory {
    /// Throws ``CartographError/Kind/encodingFailed``: override to make the model writable.
    public func encode(_ model: Model, context: EncodingContext) throws -> EncodedValue {
        throw CartographError(.encodingFailed, "the factory for \(Model.self) does not encode models", path: context.path)
    }
}

/// A factory made of closures, for one-off models.
public struct ClosureFactory<Model>: ModelFactory {
    /// Identifying keys.
    public let keys: [String]
    let makeModel: @Sendable (ObjectView, MappingContext) throws -> Model
    let encodeModel: (@Sendable (Model, EncodingContext) throws -> EncodedValue)?

    /// A factory from a make closure (and optionally an encode closure).
    public init(
        keys: [String], make: @escaping @Sendable (ObjectView, MappingContext) throws -> Model,
        encode: (@Sendable (Model, EncodingContext) throws -> EncodedValue)? = nil
    ) {
        self.keys = keys
        self.makeModel = make
        self.encodeModel = encode
    }

    /// Calls the make closure.
    public func make(from object: ObjectView, context: MappingContext) throws -> Model { try makeModel(object, context) }

    /// Calls the encode closure, or throws when there is none.
    public func encode(_ model: Model, context: EncodingContext) throws -> EncodedValue {
        guard let encodeModel else {
            throw CartographError(.encodingFailed, "the factory for \(Model.self) does not encode models", path: context.path)
        }
        return try encodeModel(model, context)
    }
}
