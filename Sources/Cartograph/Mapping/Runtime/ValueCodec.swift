import Foundation

/// Per-property choices that change how a value is read.
struct ValueOptions: Sendable {
    /// Convert scalars between kinds where unambiguous.
    var lenient = false
    /// A single value where an array is expected becomes a one-element
    /// array; an array where one value is expected gives its first element.
    var coerceArrays = false
    /// Read and write the innermost model through this instead of the registry.
    var subMapper: SubMapper?

    static let standard = ValueOptions()
}

/// How one Swift type is read from a node and written back, resolved once
/// per type when a rule is built: scalars, optionals, arrays, sets and
/// string-keyed dictionaries are seen through here; anything else is a model,
/// found in the registry (or through `Codable`) when a value is read.
struct ValueCodec<Value>: @unchecked Sendable {
    // @unchecked: the closures capture only immutable values (other codecs,
    // metatypes, key paths) and user closures that were @Sendable when given.
    let decode: (Node, MappingContext, ValueOptions) throws -> Value
    let encode: (Value, EncodingContext) throws -> EncodedValue
    /// Writes the value as JSON straight into a writer, at a depth: what
    /// ``encode`` and then writing its tree write, byte for byte, with no
    /// tree (MappingStream.swift). Codecs without a stream of their own
    /// (transforms, `Any`, `Codable` fallbacks) write their tree.
    let stream: (Value, EncodingContext, inout NativeJSONWriter, Int) throws -> Void
    /// For optional types: the nil value and a test for it.
    let none: (() -> Value)?
    let isNone: (Value) -> Bool
    /// Arrays and sets (for array coercion).
    let isCollection: Bool
    /// Leaves (scalars): they need their context only to name the path of an error.
    let isLeaf: Bool
    /// The type's zero (empty string, 0, false, empty collection), for
    /// ``NullForNonOptional/resetToDefault``.
    let zero: (() -> Value)?
    /// `null` is one of the type's values (`JSONValue`, `Any`): it is read, not treated as absent.
    let holdsNull: Bool
    /// Scalars, and arrays of them up to two levels: reads a whole array
    /// of the type in one loop per level, specialised for the scalar
    /// (``ScalarValue/scalarArray(in:at:lenient:skippingNulls:)`` and its
    /// nested forms); arguments: the document, the array's tape index,
    /// lenient, leave nulls out.
    let scalarArray: ((Document, Int, Bool, Bool) throws -> [Value])?
    /// For a scalar (`depth` 0) or an array of them (`depth` 1, 2…): the
    /// scalar type, so that an array of `Value` can read itself in one go.
    let scalarNesting: ScalarNesting?
    /// Models, arrays of models and optionals of either: the slot a
    /// struct's rule loop reads such a property through, for the property's
    /// field (``NestedModelSlot``, ``NestedModelArraySlot``).
    let modelSlot: ((FieldOffset) -> NestedModelReader)?
    /// The same for a property of type `Value?`: made here, where `Value`
    /// is concrete, so that the optional's codec needs no generic slot of its own.
    let optionalSlot: ((FieldOffset) -> NestedModelReader)?
    /// Arrays of scalars (and of arrays of them): the slot a struct's rule
    /// loop reads such a property through, for its field and the rule's
    /// `lenient` (``ScalarArraySlot``).
    let arraySlot: ((FieldOffset, Bool) -> InPlaceSlot)?
    /// The same for a property of type `Value?`.
    let optionalArraySlot: ((FieldOffset, Bool) -> InPlaceSlot)?

    init(
        decode: @escaping (Node, MappingContext, ValueOptions) throws -> Value,
        encode: @escaping (Value, EncodingContext) throws -> EncodedValue,
        stream: ((Value, EncodingContext, inout NativeJSONWriter, Int) throws -> Void)? = nil,
        none: (() -> Value)? = nil, isNone: @escaping (Value) -> Bool = { _ in false },
        isCollection: Bool = false, isLeaf: Bool = false, zero: (() -> Value)? = nil, holdsNull: Bool = false,
        scalarArray: ((Document, Int, Bool, Bool) throws -> [Value])? = nil, scalarNesting: ScalarNesting? = nil,
        modelSlot: ((FieldOffset) -> NestedModelReader)? = nil, optionalSlot: ((FieldOffset) -> NestedModelReader)? = nil,
        arraySlot: ((FieldOffset, Bool) -> InPlaceSlot)? = nil, optionalArraySlot: ((FieldOffset, Bool) -> InPlaceSlot)? = nil
    ) {
        self.arraySlot = arraySlot
        self.optionalArraySlot = optionalArraySlot
        self.modelSlot = modelSlot
        self.optionalSlot = optionalSlot
        self.scalarArray = scalarArray
        self.scalarNesting = scalarNesting
        self.isLeaf = isLeaf
        self.zero = zero
        self.holdsNull = holdsNull
        self.decode = decode
        self.encode = encode
        self.stream = stream ?? { value, context, writer, depth in try writer.write(encode(value, context), depth: depth, path: "") }
        self.none = none
        self.isNone = isNone
        self.isCollection = isCollection
    }

    /// The codec for `Value`.
    static func resolve() -> ValueCodec<Value> {
        if Value.self == Any.self { return AnyCodec.codec() as! ValueCodec<Value> }
        // Each helper returns its codec as Any so the existential can be opened.
        if let scalar = Value.self as? any ScalarValue.Type {
            return scalarCodec(scalar) as! ValueCodec<Value>
        }
        if let optional = Value.self as? any OptionalMarker.Type {
            return optionalCodec(optional) as! ValueCodec<Value>
        }
        if let array = Value.self as? any ArrayMarker.Type {
            return arrayCodec(array) as! ValueCodec<Value>
        }
        if let set = Value.self as? any SetMarker.Type {
            return setCodec(set) as! ValueCodec<Value>
        }
        if let dictionary = Value.self as? any StringDictionaryMarker.Type {
            return dictionaryCodec(dictionary) as! ValueCodec<Value>
        }
        if let raw = Value.self as? any RawRepresentable.Type, let codec = rawCodec(raw) {
            return codec as! ValueCodec<Value>
        }
        return modelCodec()
    }

    private static func scalarCodec<S: ScalarValue>(_: S.Type) -> Any {
        ValueCodec<S>(
            decode: { node, context, options in
                do {
                    if options.coerceArrays, node.kind == .array {
                        guard let first = try node.array()[0] else { throw node.mismatch(expected: S.expectedKind) }
                        return try S.scalar(from: first, lenient: options.lenient || context.session.lenientScalars)
                    }
                    return try S.scalar(from: node, lenient: options.lenient || context.session.lenientScalars)
                } catch let error as CartographError {
                    throw error.at(path: context.path)
                }
            },
            encode: { value, context in value.encodedScalar(profile: context.profile) },
            stream: { value, _, writer, depth in try value.writeJSON(into: &writer, depth: depth) },
            isLeaf: true, zero: S.zero.map { zero in { zero } }, holdsNull: S.holdsNull,
            scalarArray: { document, index, lenient, skippingNulls in
                try S.scalarArray(in: document, at: index, lenient: lenient, skippingNulls: skippingNulls)
            }, scalarNesting: ScalarNesting(scalar: S.self, depth: 0))
    }

    private static func optionalCodec<O: OptionalMarker>(_: O.Type) -> Any {
        let wrapped = ValueCodec<O.Wrapped>.resolve()
        return ValueCodec<O>(
            decode: { node, context, options in
                // In a property list, nil is the string `$null` (an array's nil element is written so).
                node.isNull || context.session.readsNullMarker && node.isPlistNullMarker
                    ? O.nothing : O.wrapping(try wrapped.decode(node, context, options))
            },
            encode: { value, context in
                guard let inner = value.wrapped else { return .null }
                return try wrapped.encode(inner, context)
            },
            stream: { value, context, writer, depth in
                let wrote = try value.withWrapped { try wrapped.stream($0, context, &writer, depth) }
                if !wrote { writer.sink.append(contentsOf: .null) }
            },
            none: { O.nothing },
            isNone: { $0.isNothing },
            isCollection: wrapped.isCollection,
            // An optional scalar is a leaf too: nil writes `null` and reads
            // throw only the scalar's own errors, whose path the caller spells.
            isLeaf: wrapped.isLeaf,
            // A model's or an array of models' optional (an optional of an
            // optional is left to the rule): the slot stores `Model?` / `[Model]?`.
            modelSlot: wrapped.none == nil ? wrapped.optionalSlot : nil,
            arraySlot: wrapped.none == nil ? wrapped.optionalArraySlot : nil)
    }

    private static func elements<Collected: ArrayMarker>(
        _ node: Node, _ codec: ValueCodec<Collected.Element>, _ context: MappingContext, _ options: ValueOptions, as _: Collected.Type
    ) throws -> Collected {
        guard node.kind == .array else {
            if options.coerceArrays, !node.isNull { return Collected.make([try codec.decode(node, context.element(0), options)]) }
            throw node.mismatch(expected: "array").at(path: context.path)
        }
        // Scalars (and arrays of them) in one specialised loop per level,
        // unless array coercion or a lossy decode needs each element on its
        // own. Bounded depth: no stack check needed before it.
        if let scalarArray = codec.scalarArray, !options.coerceArrays, context.issues == nil {
            do {
                return Collected.make(
                    try scalarArray(node.document, node.index, options.lenient || context.session.lenientScalars, context.session.ignoreNulls))
            } catch let failure as ScalarElementFailure {
                throw failure.error(in: context)
            }
        }
        guard StackGuard.hasRoom else { throw StackGuard.exhausted(path: context.path, offset: node.sourceOffset) }
        let array = try node.array()
        // The array's own pending path linked once, not once per element.
        let mark = context.linkMark
        let context = context.pendingIndex < 0 ? context : context.materialized()
        defer { context.unlink(to: mark) }
        var result = Collected.collecting(capacity: array.count)
        for (index, element) in array.enumerated() {
            // With ignoreNulls, a null element of a non-optional element type is left out.
            if element.isNull, codec.none == nil, !codec.holdsNull, context.session.ignoreNulls { continue }
            if codec.isLeaf, context.issues == nil {
                // No element context is made for leaves: the path is only spelled out on error.
                do {
                    result.collect(try codec.decode(element, context, options))
                } catch let error as CartographError {
                    throw error.replacingPath(context.element(index).path)
                }
                continue
            }
            do {
                if let issues = context.issues {
                    do {
                        result.collect(try codec.decode(element, context.element(index), options))
                    } catch let error as CartographError {
                        issues.record(error.at(path: context.element(index).path))
                    }
                } else {
                    result.collect(try codec.decode(element, context.element(index), options))
                }
            } catch is SkipElement {
                continue
            }
        }
        return result
    }

    /// An array read and written element by element through `element`
    /// (a transform applied to each element: `[Date]` with a date format).
    static func array<Element>(of element: ValueCodec<Element>) -> ValueCodec<[Element]> {
        ValueCodec<[Element]>(
            decode: { node, context, options in try elements(node, element, context, options, as: [Element].self) },
            encode: { value, context in try encodeElements(value, element, context) },
            stream: { value, context, writer, depth in try streamElements(value, element, context, &writer, depth) },
            isCollection: true, zero: { [] })
    }

    /// An index loop, not `enumerated().map`: in this unspecialised code the
    /// latter asked the runtime for tuple and sequence metadata per element
    /// (about a sixth of a canada.json mapping encode). A scalar needs no
    /// context of its own: its element's path is made only for an error.
    private static func encodeElements<Element>(_ values: [Element], _ codec: ValueCodec<Element>, _ context: EncodingContext) throws -> EncodedValue
    {
        try context.descend()
        var elements: [EncodedValue] = []
        elements.reserveCapacity(values.count)
        if codec.isLeaf {
            for position in 0..<values.count { // not `indices`: see streamElements
                do {
                    elements.append(try codec.encode(values[position], context))
                } catch let error as CartographError {
                    throw error.replacingPath(context.child(.index(position)).path)
                }
            }
        } else {
            let mark = context.linkMark
            let context = context.materialized()
            defer { context.unlink(to: mark) }
            for position in 0..<values.count {
                elements.append(try codec.encode(values[position], context.child(.index(position))))
            }
        }
        return .array(elements)
    }

    private static func arrayCodec<A: ArrayMarker>(_: A.Type) -> Any {
        let element = ValueCodec<A.Element>.resolve()
        // An array of scalars (or of arrays of them) also reads arrays of
        // itself in one go: `[[Double]]` and `[[[Double]]]` properties.
        let nesting = element.scalarNesting.flatMap { $0.depth < 2 ? ScalarNesting(scalar: $0.scalar, depth: $0.depth + 1) : nil }
        let reader = nesting?.arrayReader(of: A.self)
        assert(nesting == nil || reader != nil, "no nested reader for \(A.self)")
        // An array of models (not of optional models) is read in place too,
        // and so is an array of scalars (or of arrays of them).
        let models = element.modelSlot != nil && element.none == nil
        let scalars = element.scalarArray
        // Scalars and arrays of them are written by the scalar's own loops.
        let scalarWriter = nesting?.valueWriter(of: A.self)
        let levels = nesting?.depth ?? 1
        return ValueCodec<A>(
            decode: { node, context, options in try elements(node, element, context, options, as: A.self) },
            encode: { value, context in try encodeElements(value.elements, element, context) },
            stream: { value, context, writer, depth in
                guard let scalarWriter else { return try streamElements(value.elements, element, context, &writer, depth) }
                // The levels the element-by-element stream would check, in one go.
                try context.descend(levels: levels)
                try scalarWriter(value, &writer, depth)
            },
            isCollection: true, zero: { A.make([]) },
            scalarArray: reader, scalarNesting: nesting,
            modelSlot: models ? { field in NestedModelArraySlot<A, A>(field: field, wrap: { $0 }) } : nil,
            optionalSlot: models ? { field in NestedModelArraySlot<A?, A>(field: field, wrap: { $0 }, isNothing: { $0 == nil }) } : nil,
            arraySlot: scalars.map { read in
                { field, lenient in
                    ScalarArraySlot<A, A>(field: field, lenient: lenient, elements: read, wrap: { $0 }, writes: scalarWriter, levels: levels)
                }
            },
            optionalArraySlot: scalars.map { read in
                { field, lenient in
                    ScalarArraySlot<A?, A>(
                        field: field, lenient: lenient, elements: read, wrap: { $0 }, writes: scalarWriter, levels: levels,
                        isNothing: { $0 == nil })
                }
            })
    }

    private static func setCodec<S: SetMarker>(_: S.Type) -> Any {
        let element = ValueCodec<S.Element>.resolve()
        return ValueCodec<S>(
            decode: { node, context, options in S.make(try elements(node, element, context, options, as: [S.Element].self)) },
            encode: { value, context in try encodeElements(value.elements, element, context) },
            stream: { value, context, writer, depth in try streamElements(value.elements, element, context, &writer, depth) },
            isCollection: true, zero: { S.make([]) })
    }

    private static func dictionaryCodec<D: StringDictionaryMarker>(_: D.Type) -> Any {
        let value = ValueCodec<D.Value>.resolve()
        return ValueCodec<D>(
            decode: { node, context, options in
                guard node.kind == .object else { throw node.mismatch(expected: "object").at(path: context.path) }
                guard StackGuard.hasRoom else { throw StackGuard.exhausted(path: context.path, offset: node.sourceOffset) }
                let object = try node.object()
                // Filled in place (an array of pairs first doubled the peak
                // memory of a large map), members decoded without a context
                // of their own unless they need one: a leaf's path is only
                // spelled out on error, a nested value's is one trail link.
                var dictionary = D.empty(capacity: object.count)
                let mark = context.linkMark
                for (key, member) in object {
                    // Each member's path link is removed once it is read.
                    defer { context.unlink(to: mark) }
                    // With ignoreNulls, a null member of a non-optional value type is left out.
                    if member.isNull, value.none == nil, !value.holdsNull, context.session.ignoreNulls { continue }
                    if value.isLeaf, context.issues == nil {
                        do {
                            dictionary.set(try value.decode(member, context, options), for: key)
                        } catch let error as CartographError {
                            throw error.replacingPath(context.child(key: key).path)
                        }
                        continue
                    }
                    do {
                        dictionary.set(try value.decode(member, context.child(key: key), options), for: key)
                    } catch is SkipElement {
                        continue
                    }
                }
                return dictionary
            },
            encode: { dictionary, context in
                try context.descend()
                let mark = context.linkMark
                return .object(
                    try dictionary.pairs.map { pair in
                        // Each member's key link is removed once it is encoded.
                        defer { context.unlink(to: mark) }
                        // A nil value in a property list is `$null`, as Foundation
                        // writes it: left out (as a plist's null member is), the
                        // entry itself was lost.
                        if context.profile == .propertyList, value.isNone(pair.1) { return (pair.0, .string(PlistNull.marker)) }
                        return (pair.0, try value.encode(pair.1, context.child(.key(pair.0))))
                    })
            },
            stream: { dictionary, context, writer, depth in try streamMembers(dictionary.pairs, value, context, &writer, depth) },
            zero: { D.make([]) })
    }

    private static func rawCodec<R: RawRepresentable>(_: R.Type) -> Any? {
        guard R.RawValue.self is any ScalarValue.Type else { return nil }
        let raw = ValueCodec<R.RawValue>.resolve()
        return ValueCodec<R>(
            decode: { node, context, options in
                let rawValue = try raw.decode(node, context, options)
                guard let value = R(rawValue: rawValue) else {
                    throw CartographError(
                        .typeMismatch, "\(rawValue) is not a \(R.self)", offset: node.sourceOffset, path: context.path,
                        expected: "\(R.self)", found: "\(rawValue)")
                }
                return value
            },
            encode: { value, context in try raw.encode(value.rawValue, context) },
            stream: { value, context, writer, depth in try raw.stream(value.rawValue, context, &writer, depth) },
            // A raw-value enum's errors are its raw scalar's and its own
            // mismatch, both thrown at the context's path for the caller to replace.
            isLeaf: raw.isLeaf)
    }

    /// A registered model, a polymorphic type resolved by class inference, or `Codable`.
    private static func modelCodec() -> ValueCodec<Value> {
        let resolved = ResolvedModelEntry()
        // Only a class or a protocol-typed value can be of another type than
        // `Value` at run time: for a struct the stream needs no box to ask.
        let dynamicType = Value.self is AnyClass || MetadataKind.isExistential(Value.self)
        return ValueCodec<Value>(
            decode: { node, context, options in
                // An array where one model is expected: its first element.
                var node = node
                if options.coerceArrays, node.kind == .array {
                    guard let first = try node.array()[0] else { throw node.mismatch(expected: "\(Value.self)").at(path: context.path) }
                    node = first
                }
                if let subMapper = options.subMapper {
                    return try subMapper.entry(for: context.registry).decode(node, context, as: Value.self)
                }
                // The common case, resolved once per registry: the type's own entry, no inference.
                if let entry = resolved.entry(for: Value.self, in: context.registry) {
                    return try entry.decode(node, context, as: Value.self)
                }
                let declared = context.registry.entry(for: Value.self)
                // A declared base class or protocol: class inference may pick a
                // subclass or a conforming model (never another type).
                if let declared, node.kind == .object, context.registry.isPolymorphic(Value.self) {
                    let picked: ModelEntry?
                    do {
                        picked = try context.registry.classify(try node.object(), key: context.key, as: Value.self)
                    } catch let error as CartographError {
                        throw error.at(path: context.path)
                    }
                    return try (picked ?? declared).decode(node, context, as: Value.self)
                }
                if let declared { return try declared.decode(node, context, as: Value.self) }
                if node.kind == .object {
                    let entry: ModelEntry?
                    do {
                        entry = try context.registry.classify(try node.object(), key: context.key, as: Value.self)
                    } catch let error as CartographError {
                        throw error.at(path: context.path)
                    }
                    if let entry { return try entry.decode(node, context, as: Value.self) }
                }
                if let decodable = Value.self as? any Decodable.Type {
                    return try CodableFallback.decode(decodable, from: node, context: context) as! Value
                }
                throw CartographError(
                    .typeMismatch,
                    "no factory or mapping is registered for \(Value.self), and no identify rule picked a model for this object",
                    offset: node.sourceOffset, path: context.path, expected: "\(Value.self)", found: node.kind.description)
            },
            encode: { value, context in
                if let subMapper = context.subMapper {
                    return try subMapper.entry(for: context.registry).encodeValue(value, context.leavingSubMapper())
                }
                if let entry = context.session.entry(for: type(of: value as Any)) ?? context.session.entry(for: Value.self) {
                    return try entry.encodeValue(value, context)
                }
                if let encodable = value as? any Encodable {
                    return try CodableFallback.encode(encodable, context: context)
                }
                throw CartographError(.encodingFailed, "no factory or mapping is registered for \(type(of: value as Any))", path: context.path)
            },
            stream: { value, context, writer, depth in
                try streamModel(value, dynamicType: dynamicType, resolved: resolved, context, &writer, depth)
            },
            modelSlot: { field in NestedModelSlot<Value, Value>(field: field, wrap: { $0 }, nothing: nil) },
            optionalSlot: { field in NestedModelSlot<Value?, Value>(field: field, wrap: { $0 }, nothing: { nil }, isNothing: { $0 == nil }) })
    }
}

/// `Codable` types inside a mapped model that are not registered: they go
/// through Cartograph's own `Decoder` and `Encoder` on the same Document.
enum CodableFallback {
    static func decode<T: Decodable>(_ type: T.Type, from node: Node, context: MappingContext) throws -> T {
        do {
            // A lossy decode's issues recorded inside the value (by registered
            // models within it) have paths from the value: put under its own.
            return try IssueCollector.placing(context.issues, under: { context.path }) {
                try context.session.withFallbackDecoder(document: node.document, index: node.index) { try $0.decodeTopLevel(type) }
            }
        } catch let error as DecodingError {
            let underlying = DecodingErrors.cartographError(error)
            let suffix = underlying?.path.map { String($0.dropFirst()) } ?? ""
            throw CartographError(
                underlying?.kind ?? .typeMismatch, underlying?.message ?? "\(T.self) could not be decoded: \(error)",
                offset: underlying?.offset ?? node.sourceOffset, path: context.path + suffix,
                expected: underlying?.expected ?? "\(T.self)", found: underlying?.found ?? node.kind.description)
        }
    }

    static func encode<T: Encodable>(_ value: T, context: EncodingContext) throws -> EncodedValue {
        // For plists, dates and data stay dates and data, as in a plain `Codable` encode.
        guard context.profile == .propertyList else {
            return EncodedValue(try TreeEncoder(options: CodableOptions(), registry: context.registry).encodeRoot(value))
        }
        return try TreeEncoder(options: CodableOptions(), registry: context.registry, propertyList: true).encodeRootNode(value).encoded
    }
}
