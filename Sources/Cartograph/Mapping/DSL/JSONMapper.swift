import Foundation

/// Decodes models from JSON (and in-memory values) and encodes them back,
/// through a ``ModelRegistry``.
///
/// A mapper is an immutable `Sendable` value: configure it once and share
/// it between any number of concurrent requests.
///
/// ```swift
/// let mapper = JSONMapper(registry: registry)
/// let users = try mapper.decode([User].self, from: body)
/// let found = try mapper.collect(User.self, from: body)      // at any depth
/// try mapper.update(&user, from: patch)                      // absent keys untouched
/// let json = try mapper.encode(user)
/// ```
public struct JSONMapper: Sendable {
    /// The models this mapper may create.
    public let registry: ModelRegistry
    /// Limits and leniencies for reading JSON.
    public var parseOptions: ParseOptions
    /// Formatting for `encode(_:)`.
    public var writeOptions: WriteOptions
    /// Strategies for `Codable` types (keys, dates, data, non-conforming floats, userInfo).
    public var codableOptions = CodableOptions()
    /// Whether the documents decoded are property lists, where an optional
    /// reads the string `$null` as nil (``PlistNull``: an array's nil
    /// element is written so): set by ``PropertyListMapper``.
    var readsPlistNullMarker = false

    /// A mapper over a registry.
    public init(registry: ModelRegistry = ModelRegistry(), parseOptions: ParseOptions = ParseOptions(), writeOptions: WriteOptions = WriteOptions()) {
        self.registry = registry
        self.parseOptions = parseOptions
        self.writeOptions = writeOptions
    }

    // MARK: Sources

    /// Runs `body` on the document of JSON bytes, locating any error in them.
    func withDocument<R>(_ bytes: some ContiguousBytes, _ body: (Document, Span<UInt8>) throws -> R) throws -> R {
        try InputEncoding.withUTF8(bytes) { input in
            let document = try JSONParser.parseWhole(input, options: parseOptions)
            do {
                return try body(document, input)
            } catch let error as CartographError {
                throw error.locating(in: input)
            }
        }
    }

    func withDocument<R>(_ bytes: some ContiguousBytes, _ body: (Document) throws -> R) throws -> R {
        try withDocument(bytes) { document, _ in try body(document) }
    }

    private func context(_ issues: IssueCollector? = nil) -> MappingContext {
        MappingContext(registry: registry, trail: nil, parent: nil, issues: issues, readsNullMarker: readsPlistNullMarker)
    }

    // MARK: Decoding

    /// Decodes a value of any supported type: a registered model, an array,
    /// set, optional or string-keyed dictionary of them, a scalar, or a
    /// `Decodable` type.
    @_disfavoredOverload
    public func decode<Model>(_ type: Model.Type, from bytes: some ContiguousBytes) throws -> Model {
        try withDocument(bytes) { try decode(type, from: $0.root) }
    }

    /// Decodes a model from JSON text (the text is parsed: a `String` is
    /// not taken as a JSON string value).
    @_disfavoredOverload
    public func decode<Model>(_ type: Model.Type, from text: String) throws -> Model {
        try decode(type, from: Array(text.utf8))
    }

    /// Decodes from a node of a parsed ``Document``.
    @_disfavoredOverload
    public func decode<Model>(_ type: Model.Type, from node: Node) throws -> Model {
        do {
            // A subclass's metatype passed as its base's: the subclass's mapping.
            if type != Model.self, let entry = registry.entry(for: type) {
                return try entry.decode(node, context(), as: Model.self)
            }
            return try ValueCodec<Model>.resolve().decode(node, context(), .standard)
        } catch let skip as SkipElement {
            throw skip.error(at: node, path: "$")
        }
    }

    /// Decodes from an in-memory JSON value.
    @_disfavoredOverload
    public func decode<Model>(_ type: Model.Type, from value: JSONValue) throws -> Model {
        try decode(type, from: try Document(value: value).root)
    }

    /// Decodes from a Foundation-style value (`[String: Any]`, `[Any]` …).
    public func decode<Model>(_ type: Model.Type, fromAny value: Any) throws -> Model {
        try decode(type, from: try JSONValue(any: value))
    }

    /// One model per element when the top level is an array, or one model
    /// when it is an object.
    public func decodeModels<Model>(_ type: Model.Type, from bytes: some ContiguousBytes) throws -> [Model] {
        try withDocument(bytes) { document in
            document.root.kind == .array
                ? try decode([Model].self, from: document.root)
                : [try decode(Model.self, from: document.root)]
        }
    }

    /// Like `decode(_:from:)`, but an element of an array that fails is
    /// skipped and its error kept, so one pass reports every problem.
    @_disfavoredOverload
    public func decodeLossy<Model>(_ type: Model.Type, from bytes: some ContiguousBytes) throws -> LossyResult<Model> {
        let issues = IssueCollector()
        return try withDocument(bytes) { document, input in
            let value = try ValueCodec<Model>.resolve().decode(document.root, context(issues), .standard)
            issues.locate(in: input)
            return LossyResult(value: value, issues: issues.issues)
        }
    }

    /// Every object anywhere in the input (inside wrappers, envelopes, arrays
    /// of arrays, other models) that class inference identifies as `Model`,
    /// decoded, in document order. With `nested: false`, the search stops at
    /// a match (JSACollection's mode): objects inside a matched object are
    /// not returned again on their own.
    public func collect<Model>(_ type: Model.Type, from bytes: some ContiguousBytes, nested: Bool = true) throws -> [Model] {
        try withDocument(bytes) { try collect(type, in: $0.root, nested: nested) }
    }

    /// ``collect(_:from:nested:)`` over a node.
    public func collect<Model>(_ type: Model.Type, in node: Node, nested: Bool = true) throws -> [Model] {
        var found: [Model] = []
        try collect(node, key: nil, trail: nil, nested: nested, into: &found)
        return found
    }

    private func collect<Model>(_ node: Node, key: String?, trail: PathTrail?, nested: Bool, into found: inout [Model]) throws {
        switch node.kind {
        case .object:
            let object = try node.object()
            if let entry = try registry.candidates(for: object, key: key).first, entry.type == Model.self {
                // A context (a session and its path stack) only for an object that is a model.
                let context = MappingContext(registry: registry, trail: trail, parent: nil, issues: nil, readsNullMarker: readsPlistNullMarker)
                found.append(try entry.decode(node, context, as: Model.self))
                if !nested { return }
            }
            var iterator = object.makeIterator()
            while let (keyNode, value) = iterator.nextNodes() {
                guard value.kind == .object || value.kind == .array else { continue }
                let name = try keyNode.string()
                try collect(value, key: name, trail: PathTrail(parent: trail, component: .key(name)), nested: nested, into: &found)
            }
        case .array:
            for (index, element) in try node.array().enumerated() where element.kind == .object || element.kind == .array {
                try collect(element, key: key, trail: PathTrail(parent: trail, component: .index(index)), nested: nested, into: &found)
            }
        default:
            return
        }
    }

    /// The whole input as a tree in which every identified object is a model
    /// and everything else stays a plain value.
    public func decodeAny(from bytes: some ContiguousBytes) throws -> MappedValue {
        try withDocument(bytes) { try decodeAny($0.root, key: nil, trail: nil) }
    }

    /// ``decodeAny(from:)`` over a node.
    public func decodeAny(in node: Node) throws -> MappedValue {
        try decodeAny(node, key: nil, trail: nil)
    }

    private func decodeAny(_ node: Node, key: String?, trail: PathTrail?) throws -> MappedValue {
        guard StackGuard.hasRoom else { throw StackGuard.exhausted(path: PathTrail.render(trail), offset: node.sourceOffset) }
        switch node.kind {
        case .object:
            let object = try node.object()
            if let entry = try registry.candidates(for: object, key: key).first {
                let context = MappingContext(registry: registry, trail: trail, parent: nil, issues: nil, readsNullMarker: readsPlistNullMarker)
                return .model(try entry.decode(node, context, as: Any.self))
            }
            var members: [(key: String, value: MappedValue)] = []
            var iterator = object.makeIterator()
            while let (keyNode, value) = iterator.nextNodes() {
                let name = try keyNode.string()
                members.append((name, try decodeAny(value, key: name, trail: PathTrail(parent: trail, component: .key(name)))))
            }
            return .object(members)
        case .array:
            return .array(
                try node.array().enumerated().map { index, element in
                    try decodeAny(element, key: key, trail: PathTrail(parent: trail, component: .index(index)))
                })
        default:
            return .value(try node.jsonValue())
        }
    }

    // MARK: Updating

    /// Applies an object to an existing model: keys absent from the input
    /// leave properties untouched, an explicit `null` clears an optional
    /// property (unless ignore-nulls applies), values replace. When it throws,
    /// a value-type model is left exactly as it was.
    public func update<Model>(_ model: inout Model, from bytes: some ContiguousBytes) throws {
        try withDocument(bytes) { document in try update(&model, from: document.root) }
    }

    /// Applies a patch given as JSON text (see ``update(_:from:)-(Model,_)``).
    public func update<Model>(_ model: inout Model, from text: String) throws {
        try update(&model, from: Array(text.utf8))
    }

    /// Updates a class instance in place from JSON text.
    public func update<Model: AnyObject>(_ model: Model, from text: String) throws {
        try update(model, from: Array(text.utf8))
    }

    /// Updates a class instance in place (see ``update(_:from:)-(Model,_)``).
    public func update<Model: AnyObject>(_ model: Model, from bytes: some ContiguousBytes) throws {
        var reference = model
        try update(&reference, from: bytes)
    }

    /// Applies an object node to an existing model.
    public func update<Model>(_ model: inout Model, from node: Node) throws {
        guard let entry = registry.entry(for: Model.self), entry.canUpdate else {
            throw CartographError(.typeMismatch, "\(Model.self) has no registered mapping to update it with", path: "$")
        }
        guard node.kind == .object else { throw node.mismatch(expected: "object").at(path: "$") }
        // Work on a copy so that a failed update leaves a value-type model as
        // it was (an inout argument is written back even when the call throws).
        // A class instance is changed in place: properties set before the
        // failing one keep their new values.
        if let typed = entry as? TypedModelEntry<Model>, let update = typed.update {
            var copy = model
            try update(&copy, try node.object(), context())
            model = copy
            return
        }
        var erased: Any = model
        try entry.updateAny(&erased, try node.object(), context())
        model = erased as! Model
    }

    // MARK: Encoding

    /// The model (or array, optional … of models) as JSON bytes.
    @_disfavoredOverload
    public func encode<Model>(_ model: Model) throws -> [UInt8] {
        // Written into the array's own storage where it fits (OutputLease.swift).
        try OutputLease.array { lease, finish in
            if let stream = streamed(model, lease: lease) { return finish(stream.sink) }
            // The tree is written as it is: no JSONValue, no jansson DOM in between.
            let tree = try encodeTree(model, profile: .json)
            var writer = NativeJSONWriter(options: writeOptions, lease: lease)
            try writer.write(tree)
            finish(writer.sink)
        }
    }

    /// The writer holding the model streamed as the rules run
    /// (MappingStream.swift); nil if the stream threw, whose bytes are
    /// dropped (the tree path reports the error).
    private func streamed<Model>(_ model: Model, lease: OutputLease?) -> NativeJSONWriter? {
        var stream = NativeJSONWriter(options: writeOptions, lease: lease)
        do {
            try ValueCodec<Model>.resolve().stream(model, EncodingContext(registry: registry, profile: .json), &stream, 0)
        } catch {
            return nil
        }
        stream.endDocument()
        return stream
    }

    /// The model as a ``JSONValue``.
    public func encodeValue<Model>(_ model: Model) throws -> JSONValue {
        try encodeTree(model, profile: .json).jsonValue()
    }

    /// The model as Foundation-style values (`[String: Any]` for a model),
    /// with dates, data and URLs kept as they are (`.full`) or as a property
    /// list allows (`.propertyList`).
    public func encodeAny<Model>(_ model: Model, profile: OutputProfile = .full) throws -> Any {
        try encodeTree(model, profile: profile).anyValue()
    }

    /// The encoded tree before it becomes bytes or values.
    public func encodeTree<Model>(_ model: Model, profile: OutputProfile) throws -> EncodedValue {
        do {
            return try ValueCodec<Model>.resolve().encode(model, EncodingContext(registry: registry, profile: profile))
        } catch let cycle as CycleDetected {
            throw CartographError(
                .cycle, "a class instance contains itself (set MappingOptions.cycles to .skip to leave such references out)",
                path: cycle.path)
        }
    }
}
