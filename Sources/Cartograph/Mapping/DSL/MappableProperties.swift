/// Makes a type a mapped model: writes its property table
/// (``MappableProperties``), the conformance to ``MappableModel`` that lets
/// `ModelRegistry.register(_:)` take the type alone, and, for
/// a class that needs one, `required init() {}`.
///
/// ```swift
/// @Mappable class User {
///     var firstName: String?                          // "firstName", or "first_name" under .snakeCase
///     @Mapped("dob", transform: .iso8601) var birthday: Date?
///     @MapIgnore(.encode) var password: String?
///     weak var manager: User?
/// }
/// @Mappable class Admin: User { var level = 0 }        // User's properties, then level
///
/// registry.register(User.self)                         // every stored property, the registry's naming
/// registry.register(Admin.self)
/// ```
///
/// Works on structs, final classes, non-final classes and their subclasses
/// (a subclass's table starts from its superclass's). The default mapping
/// holds every stored property, under the registry's naming strategy, each
/// adjusted by its ``Mapped(_:required:lenient:coerceArray:ignoreNull:nilEncoding:)``
/// and ``MapIgnore(_:)`` attributes. Computed properties are left out unless
/// marked `@Mapped` (read-only ones are then written, never read); static and
/// lazy properties always are. A hand-written ``Mapping`` of the type names
/// its key-less rules (`Map(\.firstName)`) from the table.
///
/// What a mapping could not fill is a compile-time error that says what to
/// write: a class's `let` property, and a stored property with neither a
/// default value nor an optional type (a mapping makes each model with
/// `init()` and fills what the input has).
@attached(member, conformances: MappableModel, names: named(mappableProperties), named(init))
@attached(extension, conformances: MappableModel)
public macro Mappable() = #externalMacro(module: "CartographMacros", type: "MappableMacro")

/// Adjusts how ``Mappable()``'s default mapping maps one property: its key
/// (a dotted path such as `"geo.lat"` reaches into nested objects), whether
/// it is required, lenient about scalar kinds, accepts one value for an
/// array, keeps its value on `null`, and what a nil becomes when written.
/// The arguments are those of ``Map(_:_:required:lenient:coerceArray:ignoreNull:nilEncoding:)``.
///
/// On a computed property, `@Mapped` asks for it to be mapped at all.
@attached(peer)
public macro Mapped(
    _ key: KeySpec? = nil, required: Bool = false, lenient: Bool = false, coerceArray: Bool = false, ignoreNull: Bool? = nil,
    nilEncoding: NilEncoding? = nil
) = #externalMacro(module: "CartographMacros", type: "MappedAttribute")

/// The property read from one key and written to another (nil: the
/// property's name under the naming strategy); the other arguments are
/// those of ``Map(_:decode:encode:required:lenient:coerceArray:ignoreNull:nilEncoding:)``.
@attached(peer)
public macro Mapped(
    decode: KeySpec?, encode: KeySpec?, required: Bool = false, lenient: Bool = false, coerceArray: Bool = false,
    ignoreNull: Bool? = nil, nilEncoding: NilEncoding? = nil
) = #externalMacro(module: "CartographMacros", type: "MappedAttribute")

/// The property mapped through a value transform (`@Mapped(transform: .iso8601)`;
/// a transform defined for a family of types names its type:
/// `@Mapped(transform: Transform<Status>.rawValue)`). Works on a property
/// of the transform's type, an optional of it or an array of it.
@attached(peer)
public macro Mapped<Value>(
    _ key: KeySpec? = nil, transform: Transform<Value>, required: Bool = false, ignoreNull: Bool? = nil,
    nilEncoding: NilEncoding? = nil
) = #externalMacro(module: "CartographMacros", type: "MappedAttribute")

/// The property mapped through a value transform, read from one key and
/// written to another.
@attached(peer)
public macro Mapped<Value>(
    decode: KeySpec?, encode: KeySpec?, transform: Transform<Value>, required: Bool = false, ignoreNull: Bool? = nil,
    nilEncoding: NilEncoding? = nil
) = #externalMacro(module: "CartographMacros", type: "MappedAttribute")

/// Gives a class model's property a reference to the class model that
/// contains it, in ``Mappable()``'s default mapping (``ParentReference(_:)``;
/// JSACollection's `ASSIGN_PARENT_REFERENCE`). Make it `weak`.
@attached(peer)
public macro MapParent() = #externalMacro(module: "CartographMacros", type: "MappedAttribute")

/// Leaves a property out of ``Mappable()``'s default mapping when reading,
/// writing, or both (the default). It stays in the property table, so a
/// hand-written mapping may still map it.
@attached(peer)
public macro MapIgnore(_ direction: MappingDirection = .both) = #externalMacro(module: "CartographMacros", type: "MappedAttribute")

/// A model whose stored properties are known by name: written by
/// ``Mappable()``, or by hand.
///
/// Mappings name a rule's property from this table (``Map(_:_:required:lenient:coerceArray:ignoreNull:nilEncoding:)``
/// without a key): a key path of the model is looked up here, never guessed
/// by running the model's code.
public protocol MappableProperties {
    /// The properties, in declaration order (a superclass's first).
    static var mappableProperties: [MappableProperty] { get }
}

/// A model that can be registered by its type alone
/// (`ModelRegistry.register(_:)` with the type): its table gives the
/// default mapping, `init()` a new model for it to fill. ``Mappable()`` adds
/// the conformance.
///
/// A protocol without `Self` in its requirements' results other than the
/// initializer, so that a non-final class and its subclasses can conform
/// (a subclass inherits `required init()`), which ``Mappable``'s
/// `Mapping<Self>` does not allow.
public protocol MappableModel: MappableProperties {
    /// A model holding the defaults a mapping fills in.
    init()
}

/// One property of a model: its name, its key path, and the rules the
/// default mapping gives it.
public struct MappableProperty: @unchecked Sendable, CustomStringConvertible {
    // @unchecked: a key path, a metatype and a rule maker never change.
    /// The property's name as declared (`firstName`).
    public let name: String
    /// The key path from the model to the property.
    public let keyPath: AnyKeyPath
    /// The property's declared type (`Optional<String>`).
    public let valueType: Any.Type
    /// Whether the property is `weak` or `unowned`.
    public let isWeak: Bool
    /// Whether the property can be written (a `var`, or a computed property with a setter).
    public let isWritable: Bool
    /// The property's rules in the default mapping (`[MappingRule<Root>]`,
    /// type-erased: the table is not generic), made when a mapping is built.
    let makeRules: () -> Any
    /// Gives the ``AccessorSlot`` of a rule for this property this property's
    /// accessors, when the table has them and the slot's types match (nil:
    /// the table gives none).
    let fillSlot: ((AnyObject) -> Void)?

    /// A writable property the default mapping maps in both directions, by name.
    public init<Root, Value>(_ name: String, _ keyPath: WritableKeyPath<Root, Value>, weak: Bool = false) {
        self.init(name, keyPath, weak: weak, writable: true) {
            var rule = Map(keyPath)
            // A weak reference is left to the registry's option.
            rule.weakDefault = weak
            return [rule]
        }
    }

    /// A read-only property (a struct's `let`, a computed property without
    /// a setter): the default mapping writes it and never reads it.
    public init<Root, Value>(_ name: String, _ keyPath: KeyPath<Root, Value>, weak: Bool = false) {
        self.init(name, keyPath, weak: weak, writable: keyPath is WritableKeyPath<Root, Value>) { [readOnlyRule(keyPath)] }
    }

    /// A property with its own rules in the default mapping (what the
    /// `@Mapped` and `@MapIgnore` attributes write); a rule given without a
    /// name takes this property's.
    public init<Root, Value>(
        _ name: String, _ keyPath: KeyPath<Root, Value>, weak: Bool = false, rules: @escaping () -> [MappingRule<Root>]
    ) {
        self.init(name, keyPath, weak: weak, writable: keyPath is WritableKeyPath<Root, Value>, rules)
    }

    /// A writable property of a class with its accessors (what ``Mappable()``
    /// writes for a class): the default mapping maps it in both directions,
    /// calling `get` and `set` rather than applying the key path, which in
    /// a class costs the key-path runtime's projection on every use
    /// (the setter projects a writeback buffer). They must read and write
    /// the property `keyPath` names.
    public init<Root: AnyObject, Value>(
        _ name: String, _ keyPath: ReferenceWritableKeyPath<Root, Value>, weak: Bool = false,
        get: @escaping (Root) -> Value, set: @escaping (Root, Value) -> Void
    ) {
        self.init(name, keyPath, weak: weak, writable: true, accessors: (get, set)) {
            var rule = Map(keyPath)
            rule.weakDefault = weak
            return [rule]
        }
    }

    /// A class's property with its own rules in the default mapping (the
    /// `@Mapped` attribute's), and its accessors, which the rules for
    /// `keyPath` call instead of applying it.
    public init<Root: AnyObject, Value>(
        _ name: String, _ keyPath: ReferenceWritableKeyPath<Root, Value>, weak: Bool = false,
        get: @escaping (Root) -> Value, set: @escaping (Root, Value) -> Void, rules: @escaping () -> [MappingRule<Root>]
    ) {
        self.init(name, keyPath, weak: weak, writable: true, accessors: (get, set), rules)
    }

    private init<Root, Value>(
        _ name: String, _ keyPath: KeyPath<Root, Value>, weak: Bool, writable: Bool,
        accessors: ((Root) -> Value, (Root, Value) -> Void)? = nil, _ rules: @escaping () -> [MappingRule<Root>]
    ) {
        self.name = name
        self.keyPath = keyPath
        self.valueType = Value.self
        self.isWeak = weak
        self.isWritable = writable
        // Handed to the rules for this property when a mapping of the type is
        // built (``Mapping``'s table lookup), the default mapping's included.
        fillSlot = accessors.map { get, set in
            { slot in (slot as? AccessorSlot<Root, Value>)?.fill(get: get, set: set) }
        }
        self.makeRules = {
            rules().map { rule in
                var named = rule
                if named.property == nil, named.role == .property || { if case .ignore = named.role { true } else { false } }() {
                    named.property = name
                }
                return named
            }
        }
    }

    /// Whether the property holds an `Optional`.
    public var isOptional: Bool { valueType is any OptionalMarker.Type }

    /// `name: Type`.
    public var description: String { "\(name): \(valueType)" }
}
