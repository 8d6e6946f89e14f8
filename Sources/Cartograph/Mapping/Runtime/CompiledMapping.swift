/// A ``Mapping`` with its keys resolved for one naming strategy: what the
/// registry runs for every object. A class: the registry entry's closures
/// hold one reference, and calling it from unspecialised generic code takes
/// the type from the instance instead of looking up a generic struct's
/// metadata for every object.
final class CompiledMapping<Model>: @unchecked Sendable {
    // @unchecked: every stored property is immutable after init.
    /// A rule with its keys resolved. A class, so the encoder's walk over
    /// the rules for every object retains one reference per rule instead of
    /// copying every field of the rule; the decode loop reads the same
    /// rules as ``DecodeRule``s.
    final class Rule: @unchecked Sendable {
        // @unchecked: immutable.
        let rule: MappingRule<Model>
        /// Where to read; nil when a scanning naming strategy must find the key.
        let decodeSpec: KeySpec?
        /// Where to write.
        let encodeSpec: KeySpec?
        /// Where to read when `decodeSpec` is absent: the property's own name,
        /// for a key derived by a renaming strategy (`created_at`, else `createdAt`).
        let fallbackSpec: KeySpec?
        /// The rule's ``MappingRule/stream`` and ``MappingRule/writesLeaf``,
        /// kept apart: reading them through ``rule`` copied the whole rule
        /// (a retain per closure) per member. (Its nil encoding is read per
        /// member from its ``StreamStep``.)
        let stream: ((Model, EncodingContext, inout NativeJSONWriter, Int) throws -> Bool)?
        let writesLeaf: Bool
        /// A struct's scalar property read through its type's own codec
        /// (``StoredScalar``): the stream writes it straight from the
        /// model's memory, with none of the rule's closures.
        let storedScalar: ScalarRead?
        /// A class's scalar property the rule loop sets through its accessor (``ClassScalarRead``).
        let classScalar: ClassScalarRead?
        /// A class's scalar property the stream writes through its getter (``ClassScalarWrite``).
        let classScalarWrite: ((Model, inout NativeJSONWriter, Int) throws -> Bool)?
        /// A struct's nested model or array of models the stream writes
        /// through its slot, when the slot can (``InPlaceSlot/write(_:_:_:_:)``).
        let streamSlot: InPlaceSlot?

        init(rule: MappingRule<Model>, decodeSpec: KeySpec?, encodeSpec: KeySpec?, fallbackSpec: KeySpec? = nil) {
            self.rule = rule
            self.decodeSpec = decodeSpec
            self.encodeSpec = encodeSpec
            self.fallbackSpec = fallbackSpec
            stream = rule.stream
            writesLeaf = rule.writesLeaf
            storedScalar = rule.writesLeaf && rule.encodes ? rule.stored?.scalar : nil
            classScalar = rule.decodes && rule.role == .property ? rule.makeClassScalar?() : nil
            classScalarWrite = rule.writesLeaf && rule.encodes && rule.role == .property ? rule.makeClassScalarWrite?() : nil
            streamSlot = !rule.writesLeaf && rule.encodes && rule.role == .property ? rule.nested : nil
        }
    }

    let mapping: Mapping<Model>
    let rules: [Rule]
    /// ``rules`` as the stream walks them: plain `AnyObject`s, each cast
    /// back to a ``Rule`` without a check. Reading `[Rule]` in unspecialised
    /// code asked the runtime for `Rule`'s metadata (for its stride) once
    /// per model written, a hash lookup: a twentieth of a mapping encode.
    let ruleObjects: [AnyObject]
    /// ``rules`` as the decode loop runs them: not generic, so that the
    /// loop asks for no metadata per object (reading a generic rule asked
    /// the runtime for `Rule`'s metadata, a hash lookup, once per object).
    private let decodeRules: [DecodeRule]
    /// Each rule's direct read (``DirectRead/Kind/none`` when it has none):
    /// plain values, so the rule loop copies one out with no reference
    /// count and no metadata asked for.
    private let directs: [DirectRead]
    /// The direct reads' keys, one after another.
    private let directKeys: [UInt8]
    let naming: NamingStrategy
    let options: MappingOptions
    let isClass = Model.self is AnyClass
    /// Why the mapping cannot run: its configuration error (a property rule
    /// that can be given no key, an allow list naming no property).
    let unnamed: CartographError?
    /// Each rule's key when every written rule writes one plain key, all
    /// different (``flatEncodingKeys(_:)``); nil otherwise.
    let flatKeys: [String?]?
    /// The positions of the rules that write (a key in ``flatKeys``), in
    /// rule order and in their keys' byte order (``WriteOptions/sortedKeys``),
    /// for the stream; empty without flat keys.
    let streamOrder: [Int]
    let sortedStreamOrder: [Int]
    /// The members of ``streamOrder`` and ``sortedStreamOrder`` as the rule loop reads them (StreamStep.swift).
    let streamSteps: [StreamStep]
    let sortedStreamSteps: [StreamStep]
    /// Whether the rules make child contexts (a nested model, an array or
    /// dictionary of values that are not leaves; any rule of a mapping
    /// without flat keys): the encode then links the model's own path step
    /// once for all of them.
    let makesChildContexts: Bool
    /// ``flatKeys`` as JSON text, quotes included, one after another, for
    /// the keys that no escaping option changes (printable ASCII but `"`,
    /// `\` and `/`), each framed by a comma and a colon, then padding
    /// (``quotedKeys(_:)``); ``quotedKeyRanges`` says where each quoted key
    /// is (empty: escape it).
    let quotedKeyBytes: [UInt8]
    let quotedKeyRanges: [Range<Int>]
    /// Whether ``unnamed`` holds an error: tested per object instead of
    /// binding the optional error (which copied the whole error struct and
    /// destroyed the copy on every apply).
    let cannotRun: Bool
    /// Whether the stream may leave path steps unlinked below this model,
    /// per registry (PathBlindness.swift).
    let pathBlindness = PathBlindness()

    init(_ mapping: Mapping<Model>, options: MappingOptions) {
        self.mapping = mapping
        self.options = options
        let naming = mapping.naming ?? options.naming
        self.naming = naming
        let given = options.convertsWeakProperties ? mapping.rules : mapping.rules.filter { !$0.weakDefault }
        rules = given.map { rule in
            let derived = rule.property.map { KeySpec.key(naming.outputKey(for: $0)) }
            let decodeSpec = rule.decodeKey ?? (naming.scans ? nil : derived)
            var fallback: KeySpec?
            if rule.decodeKey == nil, !naming.scans, let property = rule.property, naming.outputKey(for: property) != property {
                fallback = .key(property)
            }
            return Rule(rule: rule, decodeSpec: decodeSpec, encodeSpec: rule.encodeKey ?? rule.decodeKey ?? derived, fallbackSpec: fallback)
        }
        ruleObjects = rules.map { $0 as AnyObject }
        decodeRules = rules.map { DecodeRule($0) }
        var directKeys: [UInt8] = []
        directs = rules.map { DirectRead($0, scans: naming.scans, keys: &directKeys) }
        self.directKeys = directKeys
        unnamed = mapping.configurationError
        flatKeys = Self.flatEncodingKeys(rules)
        let writing = flatKeys.map { keys in keys.indices.filter { keys[$0] != nil } } ?? []
        streamOrder = writing
        sortedStreamOrder = flatKeys.map { keys in writing.sorted { (keys[$0] ?? "").utf8.lexicographicallyPrecedes((keys[$1] ?? "").utf8) } } ?? []
        (quotedKeyBytes, quotedKeyRanges) = Self.quotedKeys(flatKeys ?? [])
        let compiledRules = rules
        let ranges = quotedKeyRanges
        let nilEncoding = options.nilEncoding
        let step = { (position: Int) in
            let rule = compiledRules[position]
            return StreamStep(
                position: position, quoted: ranges[position], scalar: rule.storedScalar,
                writesNull: (rule.rule.nilEncoding ?? nilEncoding) == .null)
        }
        streamSteps = streamOrder.map(step)
        sortedStreamSteps = sortedStreamOrder.map(step)
        makesChildContexts = flatKeys == nil || writing.contains { !compiledRules[$0].writesLeaf && compiledRules[$0].encodeSpec != nil }
        cannotRun = unnamed != nil
    }

    /// The keys that identify this model's objects.
    var identifyingKeys: [String] {
        if let keys = mapping.identifyingKeys { return keys }
        return rules.compactMap { rule -> String? in
            guard rule.rule.role == .property, rule.rule.decodes, case .key(let key)? = (rule.decodeSpec ?? rule.encodeSpec)?.components.first
            else { return nil }
            return key
        }
    }

    func make(_ object: ObjectView, _ context: MappingContext) throws -> Model {
        var model = try mapping.construct(object, context)
        try apply(&model, object, context, .create)
        return model
    }

    func apply(_ model: inout Model, _ object: ObjectView, _ context: MappingContext, _ mode: ReadMode) throws {
        if cannotRun, let unnamed { throw unnamed.at(path: context.path) }
        // The model's fields, held for the whole loop: scalars are stored
        // in place without generic calls per property.
        guard isClass else {
            // A struct's properties read in its own context: passed as it is,
            // not copied into a second variable (a retain per reference it holds).
            return try ModelFields.with(&model) { fields in try applyRules(into: fields, object, context, context, mode) }
        }
        let childContext = context.with(parent: classObject(model))
        try ModelFields.with(&model) { fields in try applyRules(into: fields, object, context, childContext, mode) }
    }

    /// The rule loop of ``apply(_:_:_:_:)``.
    private func applyRules(
        into fields: ModelFields, _ object: ObjectView, _ context: MappingContext, _ childContext: MappingContext, _ mode: ReadMode
    ) throws {
        // Nil unless the naming strategy scans (no empty dictionary made per object).
        let scanned = naming.scans ? try scan(object, context) : nil
        var cursor = object.cursor()
        let document = object.document
        let rules = decodeRules
        for position in 0..<rules.count {
            // Lent unretained: the rule array holds the rule for the loop (a
            // retain and a release per property otherwise).
            try Unretained(rules[position]).with { compiled in
                try applyRule(compiled, position, fields, object, &cursor, document, scanned, context, childContext, mode)
            }
        }
    }

    /// One rule of ``applyRules(into:_:_:_:_:)``.
    @inline(__always)
    private func applyRule(
        _ compiled: DecodeRule, _ position: Int, _ fields: ModelFields, _ object: ObjectView, _ cursor: inout ObjectView.Cursor,
        _ document: Document, _ scanned: [Int: (String, Node)]?, _ context: MappingContext, _ childContext: MappingContext, _ mode: ReadMode
    ) throws {
        let direct = directs[position]
        if direct.kind != .none {
            let index = cursor.valueIndex(forKey: directKeys, in: direct.keys)
            if let scalar = direct.scalar {
                if index != nil || !direct.looksFurther {
                    do {
                        if try scalar.read(index: index, in: document, into: fields, context: childContext) { return }
                    } catch let error as CartographError {
                        throw error.replacingPath(FoundValue.path(childContext, compiled.decodeSpec))
                    }
                    // The rest of the null/absence matrix, with a node and the key spec.
                    try compiled.apply(fields, index.map { Node(document: document, index: $0) }, childContext, compiled.decodeSpec!, mode)
                    return
                }
            } else if direct.kind == .classScalar {
                if index != nil || !direct.looksFurther {
                    do {
                        if try compiled.classScalar!.read(index: index, in: document, into: fields, context: childContext) { return }
                    } catch let error as CartographError {
                        throw error.replacingPath(FoundValue.path(childContext, compiled.decodeSpec))
                    }
                    try compiled.apply(fields, index.map { Node(document: document, index: $0) }, childContext, compiled.decodeSpec!, mode)
                    return
                }
            } else {
                // The spec read in place each time (a copy of it is a retain).
                if let index,
                    try compiled.nested!.read(
                        index: index, in: document, into: fields, context: childContext, spec: compiled.decodeSpec!.storage, mode: mode)
                {
                    return
                }
                // Declined (absent, null, another kind, an update…): the rule's
                // own path, with what was found; absent with a fallback key,
                // the general path below looks for it.
                if index != nil || !direct.looksFurther {
                    try compiled.apply(fields, index.map { Node(document: document, index: $0) }, childContext, compiled.decodeSpec!, mode)
                    return
                }
            }
        }
        guard compiled.decodes else { return }
        switch compiled.role {
        case .parent:
            try compiled.read(fields, nil, context, nil, mode)
        case .ignore:
            return
        case .property, .setter:
            if let spec = compiled.decodeSpec {
                var node = spec.lookup(in: object, cursor: &cursor)
                // The common case first: found (or absent with nowhere else to look).
                if node != nil || (compiled.fallbackSpec == nil && !naming.scans) {
                    try compiled.apply(fields, node, childContext, spec, mode)
                    return
                }
                var used = spec
                if node == nil, let fallback = compiled.fallbackSpec, let found = fallback.lookup(in: object, cursor: &cursor) {
                    node = found
                    used = fallback
                }
                // Under a scanning strategy, explicit keys match without regard to case too (JSACollection).
                if node == nil, naming.scans, case .key(let key)? = spec.components.first, spec.components.count == 1,
                    let (found, name) = Self.caseInsensitive(key, in: object)
                {
                    node = found
                    used = .key(name)
                }
                try compiled.apply(fields, node, childContext, used, mode)
            } else if let (key, node) = scanned?[position] {
                try compiled.read(fields, node, childContext, .key(key), mode)
            } else {
                try compiled.read(fields, nil, childContext, .key(compiled.property ?? ""), mode)
            }
        }
    }

    /// The value of the first key equal to `key` ignoring case, and that key.
    private static func caseInsensitive(_ key: String, in object: ObjectView) -> (Node, String)? {
        let wanted = key.lowercased()
        var iterator = object.makeIterator()
        while let (keyNode, value) = iterator.nextNodes() {
            if let name = try? keyNode.string(), name.lowercased() == wanted { return (value, name) }
        }
        return nil
    }

    /// For scanning strategies: which input key each property rule takes,
    /// by rank (see ``NamingStrategy``), each key going to one property.
    private func scan(_ object: ObjectView, _ context: MappingContext) throws -> [Int: (String, Node)] {
        var best: [Int: (rank: Int, key: String, node: Node)] = [:]
        var iterator = object.makeIterator()
        while let (keyNode, value) = iterator.nextNodes() {
            let key = try keyNode.string()
            for (position, compiled) in rules.enumerated() where compiled.decodeSpec == nil && compiled.rule.decodes {
                guard let property = compiled.rule.property, let rank = naming.rank(key: key, property: property) else { continue }
                if let current = best[position] {
                    if rank > current.rank {
                        best[position] = (rank, key, value)
                    } else if rank == current.rank, options.strictNaming {
                        throw CartographError(
                            .ambiguousKey, "keys \"\(current.key)\" and \"\(key)\" both match property \(property)",
                            offset: value.sourceOffset, path: context.path)
                    }
                } else {
                    best[position] = (rank, key, value)
                }
            }
        }
        // One key feeds one property: the best rank, then the earlier rule.
        var claimed: [String: (position: Int, rank: Int)] = [:]
        for position in best.keys.sorted() {
            let candidate = best[position]!
            if let holder = claimed[candidate.key] {
                if options.strictNaming {
                    throw CartographError(
                        .ambiguousKey,
                        "key \"\(candidate.key)\" matches properties \(rules[holder.position].rule.property ?? "?") and \(rules[position].rule.property ?? "?")",
                        offset: candidate.node.sourceOffset, path: context.path)
                }
                if candidate.rank > holder.rank {
                    best[holder.position] = nil
                    claimed[candidate.key] = (position, candidate.rank)
                } else {
                    best[position] = nil
                }
            } else {
                claimed[candidate.key] = (position, candidate.rank)
            }
        }
        return best.mapValues { ($0.key, $0.node) }
    }

    /// Writes the model: each rule's value at its key path. Index paths
    /// build arrays (a mapping whose keys are all indexes writes an array,
    /// MAXJsonAdapter's `arrayFromObject`); several rules writing the same
    /// key path accumulate into an array in rule order, never overwriting.
    func encode(_ model: Model, _ context: EncodingContext) throws -> EncodedValue {
        if cannotRun, let unnamed { throw unnamed.at(path: context.path) }
        // The model's own path step linked once for the children its rules
        // make, and cut back when the model is written.
        let mark = context.linkMark
        let context = makesChildContexts ? context.materialized() : context
        defer { context.unlink(to: mark) }
        if let flatKeys { return try encodeFlat(model, context, keys: flatKeys) }
        var root: EncodedValue?
        var written: [[KeySpec.Component]: Int] = [:]
        func put(_ value: EncodedValue, at components: [KeySpec.Component]) {
            let count = written[components, default: 0]
            written[components] = count + 1
            var target = root ?? (components.first.map { if case .index = $0 { .array([]) } else { .object([]) } } ?? .object([]))
            switch count {
            case 0: target.insert(value, at: components)
            case 1: target.insert(.array([target.value(at: components) ?? .null, value]), at: components)
            default:
                guard case .array(let earlier)? = target.value(at: components) else { return }
                target.insert(.array(earlier + [value]), at: components)
            }
            root = target
        }
        for compiled in rules where compiled.rule.encodes {
            guard let write = compiled.rule.write, let spec = compiled.encodeSpec else { continue }
            do {
                guard let written = try Self.write(compiled, write, model, context, spec) else {
                    if compiled.rule.nilEncoding ?? options.nilEncoding == .null, context.profile != .propertyList {
                        put(.null, at: spec.components)
                    }
                    continue
                }
                put(written, at: spec.components)
            } catch is CycleDetected where options.cycles == .skip {
                continue
            } catch is OmitProperty {
                continue
            }
        }
        return root ?? .object([])
    }
}

extension CompiledMapping {
    /// For a mapping whose written rules each write one plain key, all
    /// different (most mappings): each rule's key, nil for a rule that
    /// does not write. Such an object is its members in rule order, with
    /// no key path to walk and no repeated key to gather into an array.
    static func flatEncodingKeys(_ rules: [Rule]) -> [String?]? {
        var keys: [String?] = []
        var seen = Set<String>()
        for compiled in rules {
            guard compiled.rule.encodes, compiled.rule.write != nil, let spec = compiled.encodeSpec else {
                keys.append(nil)
                continue
            }
            guard spec.components.count == 1, case .key(let key) = spec.components[0], seen.insert(key).inserted else { return nil }
            keys.append(key)
        }
        return keys
    }

    /// Runs a rule's write: a scalar's in the object's context (no path
    /// made unless it fails), anything else in its own.
    @inline(__always)
    static func write(
        _ compiled: Rule, _ write: (Model, EncodingContext) throws -> EncodedValue?, _ model: Model, _ context: EncodingContext,
        _ spec: KeySpec
    ) throws -> EncodedValue? {
        guard compiled.rule.writesLeaf else { return try write(model, context.child(spec: spec)) }
        do {
            return try write(model, context)
        } catch let error as CartographError {
            throw error.replacingPath(context.child(spec: spec).path)
        }
    }

    /// ``encode(_:_:)`` for a mapping with ``flatEncodingKeys(_:)``.
    func encodeFlat(_ model: Model, _ context: EncodingContext, keys: [String?]) throws -> EncodedValue {
        var members: [(key: String, value: EncodedValue)] = []
        members.reserveCapacity(keys.count)
        // By index into a span: `enumerated()` over the generic array asked
        // the runtime for sequence and tuple metadata per object, and the
        // array's own subscript for the rule's.
        let rules = rules
        let ruleSpan = rules.span
        for position in 0..<keys.count {
            guard let key = keys[position] else { continue }
            let compiled = ruleSpan[position]
            guard let write = compiled.rule.write, let spec = compiled.encodeSpec else { continue }
            do {
                guard let written = try Self.write(compiled, write, model, context, spec) else {
                    if compiled.rule.nilEncoding ?? options.nilEncoding == .null, context.profile != .propertyList {
                        members.append((key, .null))
                    }
                    continue
                }
                members.append((key, written))
            } catch is CycleDetected where options.cycles == .skip {
                continue
            } catch is OmitProperty {
                continue
            }
        }
        return .object(members)
    }
}

/// A rule as the decode loop runs it. Not generic: the rule's closure
/// reaches the model through ``ModelFields``, so nothing the loop reads
/// per object needs the model's type.
final class DecodeRule: @unchecked Sendable {
    // @unchecked: immutable; the closure is the rule's own, shared as the rule is.
    let decodes: Bool
    let role: RuleRole
    /// Where to read; nil when a scanning naming strategy must find the key.
    let decodeSpec: KeySpec?
    /// Where to read when `decodeSpec` is absent (see ``CompiledMapping/Rule/fallbackSpec``).
    let fallbackSpec: KeySpec?
    let property: String?
    let stored: StoredScalar?
    let nested: InPlaceSlot?
    let classScalar: ClassScalarRead?
    /// The rule's read, on the model in `fields`.
    let read: (ModelFields, Node?, MappingContext, KeySpec?, ReadMode) throws -> Void

    init<Model>(_ compiled: CompiledMapping<Model>.Rule) {
        decodes = compiled.rule.decodes
        role = compiled.rule.role
        decodeSpec = compiled.decodeSpec
        fallbackSpec = compiled.fallbackSpec
        property = compiled.rule.property
        stored = compiled.rule.stored
        nested = compiled.rule.nested
        classScalar = compiled.classScalar
        let read = compiled.rule.read
        self.read = { fields, node, context, spec, mode in
            try fields.withModel(Model.self) { try read(&$0, node, context, spec, mode) }
        }
    }

    /// Applies the node found at `spec` (nil when absent): in place for
    /// a stored scalar, else through the rule's closure.
    func apply(_ fields: ModelFields, _ node: Node?, _ context: MappingContext, _ spec: KeySpec, _ mode: ReadMode) throws {
        if let stored {
            try stored.read(node, into: fields, context: context, spec: spec, mode: mode)
        } else {
            try read(fields, node, context, spec, mode)
        }
    }
}

/// How the rule loop reads a rule in place under one plain key: a stored
/// scalar (what most properties are) or a slot (a nested model, an array
/// of models or of scalars), with no ``Node`` or key spec made per property
/// unless the null matrix or an error needs one.
struct DirectRead {
    enum Kind: UInt8 {
        /// The rule takes the general path.
        case none
        /// ``scalar`` reads it.
        case scalar
        /// The rule's in-place slot reads it.
        case slot
        /// The rule's ``ClassScalarRead`` sets it.
        case classScalar
    }

    let kind: Kind
    /// Where the key's UTF-8 bytes sit in the compiled mapping's key bytes.
    let keys: Range<Int>
    /// A stored scalar's read (nil for other kinds).
    let scalar: ScalarRead?
    /// With the key absent, the rule's fallback key (the property's own name
    /// under a renaming strategy) or a scanning strategy may still find it.
    let looksFurther: Bool

    /// The direct read of a rule, its key appended to `keys`.
    init<Model>(_ compiled: CompiledMapping<Model>.Rule, scans: Bool, keys: inout [UInt8]) {
        looksFurther = compiled.fallbackSpec != nil || scans
        let rule = compiled.rule
        guard rule.decodes, rule.role == .property, let key = compiled.decodeSpec?.storage.singleKey,
            rule.stored != nil || compiled.classScalar != nil || (rule.nested != nil && !scans) // a scanning strategy finds keys itself
        else {
            kind = .none
            self.keys = 0..<0
            scalar = nil
            return
        }
        self.keys = keys.count..<keys.count + key.count
        keys += key
        if let stored = rule.stored {
            kind = .scalar
            scalar = stored.scalar
        } else if compiled.classScalar != nil {
            kind = .classScalar
            scalar = nil
        } else {
            kind = .slot
            scalar = nil
        }
    }
}

extension Mapping {
    /// The registry entry for this mapping under the given options.
    func compile(options: MappingOptions) -> ModelEntry {
        let compiled = CompiledMapping(self, options: options)
        return TypedModelEntry<Model>(
            keys: compiled.identifyingKeys,
            make: { object, context in try compiled.make(object, context) },
            encode: { model, context in try compiled.encode(model, context) },
            stream: { model, context, writer, depth in try compiled.stream(model, context, &writer, depth) },
            update: { model, object, context in try compiled.apply(&model, object, context, .update) },
            keyNaming: compiled.naming, compiledMapping: compiled)
    }
}

extension EncodedValue {
    /// Puts a value at a key path inside object members, creating the
    /// objects (and arrays, for index components) on the way.
    static func insert(_ value: EncodedValue, at components: [KeySpec.Component], into members: inout [(key: String, value: EncodedValue)]) {
        guard case .key(let key)? = components.first else { return }
        let rest = Array(components.dropFirst())
        let position = members.firstIndex { $0.key == key }
        if rest.isEmpty {
            if let position { members[position].value = value } else { members.append((key, value)) }
            return
        }
        var child = position.map { members[$0].value } ?? .null
        child.insert(value, at: rest)
        if let position { members[position].value = child } else { members.append((key, child)) }
    }

    /// The value at a key path, if there is one.
    func value(at components: [KeySpec.Component]) -> EncodedValue? {
        guard let first = components.first else { return self }
        let rest = Array(components.dropFirst())
        switch (first, self) {
        case (.key(let key), .object(let members)): return members.first { $0.key == key }?.value.value(at: rest)
        case (.index(let index), .array(let elements)): return index < elements.count ? elements[index].value(at: rest) : nil
        default: return nil
        }
    }

    /// Puts a value at a key path, creating objects and arrays on the way.
    mutating func insert(_ value: EncodedValue, at components: [KeySpec.Component]) {
        guard let first = components.first else {
            self = value
            return
        }
        switch first {
        case .key:
            var members: [(key: String, value: EncodedValue)] = []
            if case .object(let existing) = self { members = existing }
            EncodedValue.insert(value, at: components, into: &members)
            self = .object(members)
        case .index(let index):
            var elements: [EncodedValue] = []
            if case .array(let existing) = self { elements = existing }
            while elements.count <= index { elements.append(.null) }
            elements[index].insert(value, at: Array(components.dropFirst()))
            self = .array(elements)
        }
    }
}
