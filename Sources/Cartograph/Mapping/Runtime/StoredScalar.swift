/// A scalar property (`String`, `Int64?`, `Date`…) of a struct model that a
/// mapping reads straight into the model's memory: the offset comes from
/// `MemoryLayout.offset(of:)`, which answers only for stored properties
/// kept inline in the struct (not computed ones, observed ones or class
/// members), so writing a value of the property's type there is what the
/// key path would do, minus the closures, the generic value copies and the
/// key-path runtime.
///
/// Per scalar property, the codec path costs two closure calls, a generic
/// value copy and a key-path write; this path is one witness call.
final class StoredScalar: @unchecked Sendable {
    // @unchecked: immutable; a metatype and plain values. A class: the
    // rule loop reaches it with one reference instead of copying its fields.
    let offset: Int
    let type: any ScalarValue.Type
    /// The property is `Optional<type>`.
    let optional: Bool
    /// The rule's own lenient choice (the registry's is added when reading).
    let lenient: Bool
    /// The rule's null and absence choices, and what the type allows
    /// (worked out once: asking the type per value costs metadata lookups).
    let required: Bool
    let ignoreNull: Bool?
    let holdsNull: Bool
    let hasZero: Bool
    /// The key to name when a required one is missing and the rule was given none.
    let name: String

    init(
        offset: Int, type: any ScalarValue.Type, optional: Bool, lenient: Bool, required: Bool, ignoreNull: Bool?, holdsNull: Bool,
        hasZero: Bool, name: String
    ) {
        self.offset = offset
        self.type = type
        self.optional = optional
        self.lenient = lenient
        self.required = required
        self.ignoreNull = ignoreNull
        self.holdsNull = holdsNull
        self.hasZero = hasZero
        self.name = name
    }

    /// The slot for a property, or nil when the codec path must run: a class
    /// model, a property the key path reaches through code, a type that is
    /// not a built-in scalar (or an optional of one), array coercion or a sub-mapper.
    static func make<Model, Value>(_ keyPath: WritableKeyPath<Model, Value>, options: ValueOptions, rule: MappingRule<Model>) -> StoredScalar? {
        guard !options.coerceArrays, options.subMapper == nil, let offset = inlineOffset(of: keyPath)
        else { return nil }
        var scalar = Value.self as? any ScalarValue.Type
        var optional = false
        if scalar == nil, let marker = Value.self as? any OptionalMarker.Type {
            scalar = wrappedScalar(marker)
            optional = true
        }
        guard let scalar else { return nil }
        return StoredScalar(
            offset: offset, type: scalar, optional: optional, lenient: options.lenient, required: rule.required,
            ignoreNull: rule.ignoreNull, holdsNull: !optional && scalar.holdsNull, hasZero: optional || scalar.hasZero,
            name: rule.decodeKey?.description ?? rule.property ?? "?")
    }

    private static func wrappedScalar<O: OptionalMarker>(_: O.Type) -> (any ScalarValue.Type)? {
        O.Wrapped.self as? any ScalarValue.Type
    }

    /// The rule loop's path for a plain key: the value at tape `index`
    /// (nil when the key is absent) read straight from the tape when it is
    /// not `null`, with no ``Node`` and no key spec made unless an error or
    /// the null/absence matrix needs them: their reference counts were a
    /// large share of a mapping decode's retains.
    @inline(__always)
    func read(
        index: Int?, in document: Document, at base: UnsafeMutableRawPointer, context: MappingContext, spec: Unmanaged<KeySpec.Storage>,
        mode: ReadMode
    ) throws {
        guard let index, document.entry(index).kind != .null else {
            // The common cells of the null/absence matrix (FoundValue) without
            // a node or a key spec: an absent key leaves the property; a null
            // that is ignored leaves it, an optional's null clears it.
            if !required, !holdsNull {
                guard index != nil else { return }
                if ignoreNull ?? context.session.ignoreNulls { return }
                if optional { return unsafe type.storeEmpty(optional: true, at: base + offset) }
            }
            return unsafe try read(
                index.map { Node(document: document, index: $0) }, at: unsafe base, context: context,
                spec: unsafe KeySpec(storage: spec.takeUnretainedValue()), mode: mode)
        }
        do {
            unsafe try type.store(in: document, at: index, lenient: lenient || context.session.lenientScalars, optional: optional, to: base + offset)
        } catch let error as CartographError {
            throw unsafe error.replacingPath(FoundValue.path(context, KeySpec(storage: spec.takeUnretainedValue())))
        }
    }

    /// Applies what a rule found to the model's memory at `base` (the
    /// model's own address), by the same matrix as the codec path
    /// (``FoundValue``); errors carry the value's path. Not generic over the
    /// model: the rule loop holds the model's address once per object, so
    /// no model metadata or generic pointer call is needed per property
    /// (the generic version called `withUnsafeMutableBytes` unspecialised,
    /// with a closure, for every property).
    func read(_ node: Node?, at base: UnsafeMutableRawPointer, context: MappingContext, spec: KeySpec?, mode: ReadMode) throws {
        let found = try FoundValue.classify(
            node, required: required, mode: mode, ignoreNull: ignoreNull, holdsNull: holdsNull,
            optional: optional, hasZero: hasZero, valueType: type, context: context, spec: { spec }, name: spec?.description ?? name)
        switch found {
        case .leave: return
        case .clear, .reset:
            unsafe type.storeEmpty(optional: optional, at: base + offset)
        case .read(let node):
            do {
                unsafe try type.store(from: node, lenient: lenient || context.session.lenientScalars, optional: optional, at: base + offset)
            } catch let error as CartographError {
                throw error.replacingPath(FoundValue.path(context, spec))
            }
        }
    }
}

/// Where a struct keeps the property a key path names, when it keeps it
/// inline (a stored property, not computed or observed, of a struct, not a
/// class): writing a value of the property's type there is what the key
/// path's setter would do.
func inlineOffset<Model, Value>(of keyPath: WritableKeyPath<Model, Value>) -> Int? {
    Model.self is AnyClass ? nil : MemoryLayout<Model>.offset(of: keyPath)
}

extension ScalarValue {
    static var hasZero: Bool { zero != nil }

    static func store(from node: Node, lenient: Bool, optional: Bool, at address: UnsafeMutableRawPointer) throws {
        unsafe put(try scalar(from: node, lenient: lenient), optional: optional, at: address)
    }

    static func storeEmpty(optional: Bool, at address: UnsafeMutableRawPointer) {
        if optional {
            unsafe address.assumingMemoryBound(to: Optional<Self>.self).pointee = nil
        } else if let zero {
            unsafe address.assumingMemoryBound(to: Self.self).pointee = zero
        }
    }
}
