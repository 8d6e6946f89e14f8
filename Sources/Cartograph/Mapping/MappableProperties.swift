/// Writes the model's property table (``MappableProperties``): the names and
/// key paths of its stored properties, as the compiler sees them.
///
/// ```swift
/// @Mappable class User {
///     var firstName: String?
///     var address: Address?
///     weak var manager: User?
///     required init() {}
/// }
/// registry.register(Mapping<User>(User.init) {
///     Map(\.firstName)          // named "firstName" by the table, then by the registry's naming strategy
///     Map(\.address)
/// })
/// ```
///
/// Works on structs, final classes, non-final classes and their subclasses
/// (a subclass's table starts from its superclass's). Computed and static
/// properties are not listed. A class's `let` property, and a stored
/// property with neither a default value nor an optional type (when the
/// type declares no `init()`), are compile-time errors that say what to
/// write: a mapping makes the model with `init()` and fills what the input has.
@attached(member, conformances: MappableProperties, names: named(mappableProperties))
@attached(extension, conformances: MappableProperties)
public macro Mappable() = #externalMacro(module: "CartographMacros", type: "MappableMacro")

/// A model whose stored properties are known by name: written by
/// ``Mappable()``, or by hand.
///
/// Mappings name a rule's property from this table (``Map(_:_:required:lenient:coerceArray:ignoreNull:nilEncoding:)``
/// without a key): a key path of the model is looked up here, never guessed
/// by running the model's code.
public protocol MappableProperties {
    /// The stored properties, in declaration order (a superclass's first).
    static var mappableProperties: [MappableProperty] { get }
}

/// One stored property of a model: its name and key path.
public struct MappableProperty: @unchecked Sendable, CustomStringConvertible {
    // @unchecked: a key path and a metatype never change.
    /// The property's name as declared (`firstName`).
    public let name: String
    /// The key path from the model to the property.
    public let keyPath: AnyKeyPath
    /// The property's declared type (`Optional<String>`).
    public let valueType: Any.Type
    /// Whether the property is `weak` or `unowned`.
    public let isWeak: Bool

    /// A property named `name` at `keyPath`.
    public init<Root, Value>(_ name: String, _ keyPath: KeyPath<Root, Value>, weak: Bool = false) {
        self.name = name
        self.keyPath = keyPath
        self.valueType = Value.self
        self.isWeak = weak
    }

    /// Whether the property holds an `Optional`.
    public var isOptional: Bool { valueType is any OptionalMarker.Type }

    /// `name: Type`.
    public var description: String { "\(name): \(valueType)" }
}
