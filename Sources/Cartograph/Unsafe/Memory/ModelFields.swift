/// Struct models' stored properties written in place: what the mapping
/// runtime's fast path does instead of a key-path write per property.
///
/// A ``FieldOffset`` is made only from a `WritableKeyPath` and only when
/// `MemoryLayout.offset(of:)` answers for it, which it does for a stored
/// property kept inline in a struct (not a computed or observed one, not a
/// class's). It records the model's and the property's types beside the
/// offset. ``ModelFields`` is a model's memory for the length of one
/// closure, and writes a value only at a field of that model, of the
/// value's own type: both checks are always on, so a store is what the key
/// path's setter would do, without the key-path runtime's generic call.
///
/// ```swift
/// let field = FieldOffset(\User.name)!        // offset 8, (User, String)
/// ModelFields.with(&user) { $0.store("Ada", at: field) }
/// ```
///
/// The checks are two comparisons of type identities. The closure gives the
/// model's address no way out: `ModelFields` has no public initialiser and
/// is handed only to the body, which must not keep it (the mapping runtime
/// passes it down the rule loop as an argument).
struct FieldOffset: Sendable, Equatable {
    /// The property's offset in the model, in bytes.
    let offset: Int
    /// The model's type.
    let model: ObjectIdentifier
    /// The property's declared type (`String?` for an optional string).
    let value: ObjectIdentifier

    /// The field a key path names, or nil when the model is a class or the
    /// property is not stored inline.
    init?<Model, Value>(_ keyPath: WritableKeyPath<Model, Value>) {
        guard !(Model.self is AnyClass), let offset = MemoryLayout<Model>.offset(of: keyPath) else { return nil }
        self.offset = offset
        model = ObjectIdentifier(Model.self)
        value = ObjectIdentifier(Value.self)
    }

    private init(offset: Int, model: ObjectIdentifier, value: ObjectIdentifier) {
        self.offset = offset
        self.model = model
        self.value = value
    }

    /// A value's whole memory as a field of itself (offset 0, its own
    /// type): for a value held in a local that a scalar's specialised
    /// writer then reads (``ClassScalarWrite``).
    static func whole<Value>(_: Value.Type) -> FieldOffset {
        FieldOffset(offset: 0, model: ObjectIdentifier(Value.self), value: ObjectIdentifier(Value.self))
    }

    /// The value an optional field holds when it is not nil, as a field of
    /// its own at the same offset: an `Optional` keeps its payload at
    /// offset 0 (a single-payload enum's layout, ``LayoutAssumptions``).
    /// Nil when the layout assumptions are off. Read only once the
    /// optional is known not to be nil.
    func payload<Wrapped>(as _: Wrapped.Type) -> FieldOffset? {
        guard LayoutAssumptions.enabled else { return nil }
        return FieldOffset(offset: offset, model: model, value: ObjectIdentifier(Wrapped.self))
    }
}

/// A struct model's memory while the rule loop fills it (see ``FieldOffset``).
@safe struct ModelFields {
    private let base: UnsafeMutableRawPointer
    private let model: ObjectIdentifier

    /// Runs `body` with `model`'s fields; the value handed over is valid
    /// inside `body` only.
    @inline(__always)
    static func with<Model, Result>(_ model: inout Model, _ body: (ModelFields) throws -> Result) rethrows -> Result {
        try unsafe enter(&model, body)
    }

    @inline(__always)
    private static func enter<Model, Result>(
        _ model: UnsafeMutablePointer<Model>, _ body: (ModelFields) throws -> Result
    ) rethrows -> Result {
        try body(unsafe ModelFields(base: UnsafeMutableRawPointer(model), model: ObjectIdentifier(Model.self)))
    }

    private init(base: UnsafeMutableRawPointer, model: ObjectIdentifier) {
        unsafe self.base = base
        self.model = model
    }

    /// The field's memory, after checking that it belongs to this model and holds a `Value`.
    @inline(__always)
    private func address<Value>(of field: FieldOffset, as _: Value.Type) -> UnsafeMutablePointer<Value> {
        precondition(
            field.model == model && field.value == ObjectIdentifier(Value.self), "a field offset used with another model or value type")
        return unsafe (base + field.offset).assumingMemoryBound(to: Value.self)
    }

    /// Replaces the property's value with `value`.
    @inline(__always)
    func store<Value>(_ value: consuming Value, at field: FieldOffset) {
        unsafe address(of: field, as: Value.self).pointee = value
    }

    /// Runs `body` with the whole model as `inout`: the rule loop's general
    /// path, which writes through a rule's closure.
    @inline(__always)
    func withModel<Model, Result>(_: Model.Type, _ body: (inout Model) throws -> Result) rethrows -> Result {
        precondition(ObjectIdentifier(Model.self) == model, "model fields used as another model type")
        return try unsafe body(&base.assumingMemoryBound(to: Model.self).pointee)
    }

    /// Swaps `value` with the property's value (moves both ways: the caller
    /// destroys the old value with its variable).
    @inline(__always)
    func exchange<Value>(_ value: inout Value, at field: FieldOffset) {
        unsafe swap(&address(of: field, as: Value.self).pointee, &value)
    }
}

/// A struct model's memory, read-only, for the length of one closure: what
/// the mapping stream reads scalar properties from, each as its own type
/// (``ScalarValue/writeStored(_:at:optional:into:depth:)``), with the same
/// checks as ``ModelFields``. Not generic, so that the readers are compiled
/// once per scalar type and never look a model's metadata up.
@safe struct ModelView {
    private let base: UnsafeRawPointer
    private let model: ObjectIdentifier

    /// Runs `body` with `model`'s memory; the view is valid inside `body` only.
    @inline(__always)
    static func with<Model, Result>(_ model: borrowing Model, _ body: (ModelView) throws -> Result) rethrows -> Result {
        try unsafe withUnsafePointer(to: model) { pointer in
            try body(unsafe ModelView(base: UnsafeRawPointer(pointer), model: ObjectIdentifier(Model.self)))
        }
    }

    private init(base: UnsafeRawPointer, model: ObjectIdentifier) {
        unsafe self.base = base
        self.model = model
    }

    /// Runs `body` with the property's value lent where it lies
    /// (``LentValue``), after checking that the field belongs to this model
    /// and holds a `Value`.
    @inline(__always)
    func lend<Value>(_ field: FieldOffset, as _: Value.Type, _ body: (Value) throws -> Bool) rethrows -> Bool {
        precondition(
            field.model == model && field.value == ObjectIdentifier(Value.self), "a field offset read from another model or as another value type")
        return try unsafe LentValue.with(at: base + field.offset, as: Value.self, body)
    }
}

extension FieldOffset {
    /// Runs `body` with the property's value in `model`, lent where it lies
    /// (``LentValue``), after the same two checks as a store: what the
    /// mapping stream passes a nested model, an optional or an array on
    /// with, instead of a key-path read (a runtime call per property) or a
    /// read at the offset (a copy of the whole value).
    @inline(__always)
    func lend<Model, Value>(from model: borrowing Model, as _: Value.Type, _ body: (Value) throws -> Bool) rethrows -> Bool {
        try ModelView.with(model) { try $0.lend(self, as: Value.self, body) }
    }
}

/// `value` as `U`, once checked that `T` is `U`: for generic code that has
/// found a model's own type (a registry entry's) and would otherwise cast
/// with `as?`, which looks up `U?`'s metadata on every call.
@inline(__always)
func sameType<T, U>(_ value: T, as _: U.Type) -> U {
    precondition(isSameType(T.self, U.self), "a value cast to a type it is not")
    return unsafe unsafeBitCast(value, to: U.self)
}

/// A class instance held as a `T` whose type is a class (checked), as
/// `AnyObject`. `value as AnyObject` asks the runtime for a bridging cast
/// on every call, which looks up conformances: about 2,000 instructions, a
/// seventh of a small class model's decode. A class reference is already
/// an `AnyObject`'s one word.
@inline(__always)
func classObject<T>(_ value: T) -> AnyObject {
    precondition(T.self is AnyClass, "a value taken as a class instance is not one")
    return unsafe unsafeBitCast(value, to: AnyObject.self)
}

/// The class instance `object` as `T`, a class type it is an instance of
/// (checked: `T` is a class; the caller passes back what ``classObject(_:)``
/// gave it): the reverse of ``classObject(_:)``, with no runtime cast.
@inline(__always)
func classValue<T>(_ object: AnyObject, as _: T.Type) -> T {
    precondition(T.self is AnyClass, "an object taken as a value of a type that is not a class")
    return unsafe unsafeBitCast(object, to: T.self)
}

/// Takes an instance of a class `Sub` as its superclass `Base` with no
/// runtime cast per call: a subclass's mapping runs its superclass's rules
/// (``MappingRule/lifted(to:)``), and `sub as! Base` asked the runtime
/// twice per inherited property per object. Made only once both types are
/// checked to be classes, `Sub` a subclass of `Base`: a subclass instance's
/// reference is then a valid `Base` reference as it is.
struct ClassUpcast<Sub, Base> {
    init?() {
        guard Sub.self is AnyClass, Base.self is AnyClass, Sub.self is Base.Type else { return nil }
    }

    @inline(__always)
    func apply(_ sub: Sub) -> Base {
        unsafe unsafeBitCast(sub, to: Base.self)
    }

    /// Whether `base` is still the instance `sub` is (a rule may replace the model).
    @inline(__always)
    func isSame(_ base: Base, _ sub: Sub) -> Bool {
        unsafe unsafeBitCast(base, to: AnyObject.self) === unsafeBitCast(sub, to: AnyObject.self)
    }
}

/// Whether `first` and `second` are one type. `==` on metatypes takes
/// `Any.Type?` operands, and generic code asks the runtime for that
/// optional's metadata on each call (a tenth of a mapping encode of
/// twitter.json went to such lookups); the metadata's identities compare
/// as two words.
@inline(__always)
func isSameType(_ first: Any.Type, _ second: Any.Type) -> Bool {
    ObjectIdentifier(first) == ObjectIdentifier(second)
}
