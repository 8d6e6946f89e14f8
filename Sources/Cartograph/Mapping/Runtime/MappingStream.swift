// The mapping layer's JSON stream: a model is written as its rules run,
// with no ``EncodedValue`` tree in between.
//
//     struct User { var id: Int; var tags: [String]; var boss: User? }
//     try mapper.encode(User(id: 7, tags: ["a"], boss: nil))
//
// `User`'s compiled mapping opens `{` and runs its rules in order: the `id`
// rule writes `"id":7` (the scalar writes itself, ``ScalarValue/writeJSON(into:depth:)``),
// the `tags` rule `,"tags":["a"]`; the `boss` rule finds nil, so its member
// (begun at `,"boss":`) is cut off again unless `nilEncoding` asks for
// `null`. A nested model is its entry's stream in turn; a struct's nested
// model, array of models or array of scalars is written by the in-place
// slot the decoder fills (``InPlaceSlot/write(_:_:_:_:)``), which runs the
// nested mapping's stream at once. The members come from ``StreamStep``s:
// a stored scalar is written from the model's memory without its rule.
//
// The tree (``CompiledMapping/encode(_:_:)``) stays the definition of what
// an encode writes and throws: anything the stream does not write itself
// (a factory's `encode`, a transform, `Any`, an unregistered `Codable`
// value, a mapping with key paths or repeated keys) is encoded to its tree
// and that tree written in place. And if the stream throws, the caller
// (``JSONMapper/encode(_:)-(Model)``, the `Codable` stream's registered
// models) drops what it wrote and encodes through the tree, which throws
// the error with its path, so the stream never reports an error of its own.
// Rules that leave their member out (``OmitProperty``, a cycle skipped by
// policy) cut their member off, as the tree never adds it.

extension CompiledMapping {
    /// Writes the model as JSON at `depth`: what ``encode(_:_:)`` and then
    /// writing its tree write.
    func stream(_ model: Model, _ context: EncodingContext, _ writer: inout NativeJSONWriter, _ depth: Int) throws {
        if cannotRun, let unnamed { throw unnamed.at(path: context.path) }
        guard let flatKeys else { return try writer.write(encode(model, context), depth: depth, path: "") }
        // Nothing below this model can read a path: none is linked
        // (PathBlindness.swift). A model of scalars links nothing anyway.
        if makesChildContexts, !context.blind, isPathBlind(in: context.session) {
            let blind = context.blinded()
            return try streamRules(model, blind, blind.blindChild(), &writer, depth, flatKeys)
        }
        // A blind context's rules share one child, made once per model: one
        // per rule was a retain and a release of each of its references.
        // A model without children never asks for it (``makesChildContexts``).
        if context.blind {
            if makesChildContexts { return try streamRules(model, context, context.blindChild(), &writer, depth, flatKeys) }
            return try streamRules(model, context, context, &writer, depth, flatKeys)
        }
        // The model's own path step is linked once here if its rules make
        // children, rather than by each child, and cut back when the model
        // is written; without children, whatever a rule's own code linked
        // (a transform encoding through its context) is cut back all the same.
        try context.withOwnStepLinked(makesChildContexts) { try streamRules(model, $0, $0, &writer, depth, flatKeys) }
    }

    /// The members of ``stream(_:_:_:_:)``, one per rule, in `context`
    /// (linked if it must be); `blindChild` is a blind context's child,
    /// which its nested values are written in (`context` itself otherwise).
    private func streamRules(
        _ model: Model, _ context: EncodingContext, _ blindChild: EncodingContext, _ writer: inout NativeJSONWriter, _ depth: Int,
        _ flatKeys: [String?]
    ) throws {
        // Sorted keys: the rules run in their keys' order (fixed when the
        // mapping was compiled), so the members come out as the tree's
        // writer sorts them. The tables go in as arguments, borrowed from
        // this mapping: a local copy of each was a retain and a release
        // per model written, and a span of a class's property cannot
        // outlive the property's access.
        if writer.options.sortedKeys {
            try writeMembers(model, context, blindChild, &writer, depth, flatKeys, sortedStreamSteps, ruleObjects, quotedKeyBytes)
        } else {
            try writeMembers(model, context, blindChild, &writer, depth, flatKeys, streamSteps, ruleObjects, quotedKeyBytes)
        }
    }

    /// ``streamRules(_:_:_:_:_:_:)`` with its tables: the steps in the
    /// order they run, the rule objects and the framed keys.
    private func writeMembers(
        _ model: Model, _ context: EncodingContext, _ blindChild: EncodingContext, _ writer: inout NativeJSONWriter, _ depth: Int,
        _ flatKeys: [String?], _ steps: [StreamStep], _ ruleObjects: [AnyObject], _ quotedKeyBytes: [UInt8]
    ) throws {
        try writer.open(UInt8(ascii: "{"), depth: depth, path: "")
        var count = 0
        let ruleSpan = ruleObjects.span
        let quotedKeySpan = quotedKeyBytes.span
        // The model's memory taken once for all its stored scalars
        // (withUnsafePointer per property was a call each).
        try ModelView.with(model) { view in
            let stepSpan = steps.span
            for index in stepSpan.indices {
                let step = stepSpan[index]
                let start = writer.sink.count
                if step.quoted.isEmpty {
                    writer.beginMember(flatKeys[step.position] ?? "", count, depth: depth)
                } else {
                    writer.beginMember(framed: quotedKeySpan, key: step.quoted, count, depth: depth)
                }
                // A struct's stored scalar: written from the model's memory
                // as its own type, with none of the rule's closures (and
                // nothing a scalar write throws is a skip).
                if let scalar = step.scalar {
                    let wrote = try scalar.type.writeStored(view, at: scalar.field, optional: scalar.optional, into: &writer, depth: depth + 1)
                    Self.finishMember(wrote, step, from: start, &count, &writer)
                    continue
                }
                // Lent unretained: the rule array holds the rule, and a retain
                // of the rule and of its closure's context per member was a
                // fifth of a mapping encode's time on twitter.json.
                try Unretained(ruleSpan[step.position]).with(as: Rule.self) { compiled in
                    do {
                        Self.finishMember(
                            try Self.streamRule(compiled, model, view, context, blindChild, &writer, depth + 1), step, from: start, &count, &writer)
                    } catch is CycleDetected where options.cycles == .skip {
                        writer.sink.truncate(to: start)
                    } catch is OmitProperty {
                        writer.sink.truncate(to: start)
                    }
                }
            }
        }
        writer.close(UInt8(ascii: "}"), count: count, depth: depth)
    }

    /// Counts a member whose value was written; for one with nothing to
    /// write (a nil optional), writes `null` or cuts its start off again.
    @inline(__always)
    private static func finishMember(_ wrote: Bool, _ step: StreamStep, from start: Int, _ count: inout Int, _ writer: inout NativeJSONWriter) {
        if wrote {
            count += 1
        } else if step.writesNull {
            writer.sink.append(contentsOf: .null)
            count += 1
        } else {
            writer.sink.truncate(to: start)
        }
    }

    /// Writes one rule's value into the member begun for it; false when the
    /// rule has nothing to write (a nil optional).
    @inline(__always)
    private static func streamRule(
        _ compiled: Rule, _ model: Model, _ view: ModelView, _ context: EncodingContext, _ blindChild: EncodingContext,
        _ writer: inout NativeJSONWriter, _ depth: Int
    ) throws -> Bool {
        // (A struct's stored scalar never gets here: its step writes it.)
        // A class's scalar, through its getter (called through `?`: no retain of the closure).
        if let wrote = try compiled.classScalarWrite?(model, &writer, depth) { return wrote }
        // A scalar runs in the object's context, as in the tree (its path is
        // only made for an error, and errors are the tree's to report).
        // No copy of the context made unless a child is (a copy retains each of its references).
        if compiled.writesLeaf { return try run(compiled, model, context, &writer, depth) }
        // Below a blind model nothing links a step (PathBlindness.swift):
        // the child is one level down, with no key spec read (a retain and
        // a release of its storage) and no link to cut back.
        if context.blind {
            assert(blindChild.depth == context.depth + 1, "a blind model's child context not made (makesChildContexts)")
            return try runChild(compiled, model, view, blindChild, &writer, depth)
        }
        // Every rule the stream runs has a key spec (``streamOrder``).
        guard let spec = compiled.encodeSpec else { return try run(compiled, model, context, &writer, depth) }
        let mark = context.linkMark
        defer { context.unlink(to: mark) }
        return try runChild(compiled, model, view, context.linkedChild(spec: spec), &writer, depth)
    }

    /// Runs a rule whose value is not a leaf in its own context, `child`:
    /// a struct's nested model or array of models through its slot when
    /// the slot can write it (not a factory's model, not a base class's).
    @inline(__always)
    private static func runChild(
        _ compiled: Rule, _ model: Model, _ view: ModelView, _ child: EncodingContext, _ writer: inout NativeJSONWriter, _ depth: Int
    ) throws -> Bool {
        // Called through `?`: binding the slot with `if let` retained it for the call.
        if let wrote = try compiled.streamSlot?.write(view, child, &writer, depth) { return wrote }
        return try run(compiled, model, child, &writer, depth)
    }

    @inline(__always)
    private static func run(
        _ compiled: Rule, _ model: Model, _ context: EncodingContext, _ writer: inout NativeJSONWriter, _ depth: Int
    ) throws -> Bool {
        // Called through `?`: binding the closure with `if let` retained its context for the call.
        if let wrote = try compiled.stream?(model, context, &writer, depth) { return wrote }
        guard let write = compiled.rule.write, let written = try write(model, context) else { return false }
        try writer.write(written, depth: depth, path: "")
        return true
    }

    /// ``quotedKeyBytes`` and ``quotedKeyRanges`` for a mapping's flat keys:
    /// each key's JSON text framed by a comma before and a colon after
    /// (the range covers the quoted key), then zeros, so that a member
    /// start is copied in two words (``OutputBuffer/appendMemberStart(framed:key:first:)``).
    static func quotedKeys(_ keys: [String?]) -> ([UInt8], [Range<Int>]) {
        var bytes: [UInt8] = []
        var ranges: [Range<Int>] = []
        for key in keys {
            guard let key,
                key.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") && $0 != UInt8(ascii: "/") })
            else {
                ranges.append(bytes.count..<bytes.count)
                continue
            }
            bytes.append(UInt8(ascii: ","))
            let start = bytes.count
            bytes.append(UInt8(ascii: "\""))
            bytes += key.utf8
            bytes.append(UInt8(ascii: "\""))
            ranges.append(start..<bytes.count)
            bytes.append(UInt8(ascii: ":"))
        }
        bytes += repeatElement(0, count: OutputBuffer.framePadding)
        return (bytes, ranges)
    }
}

extension ModelEntryProtocol {
    /// Writes a model as JSON at `depth`, watching for cycles through class
    /// instances: the stream's ``encodeValue(_:_:)``.
    func streamValue<T>(_ model: T, _ context: EncodingContext, _ writer: inout NativeJSONWriter, _ depth: Int) throws {
        try entering(model, context) { try streamTyped(model, context, &writer, depth) }
    }
}

extension TypedModelEntry {
    /// The stream's ``ModelEntryProtocol/encodeTyped(_:_:)``, a requirement
    /// so that a model declared as `T` reaches the entry of its own class (a
    /// subclass instance in a base-class property) with one dynamic cast of
    /// the value, and no generic metadata looked up for the entry's type.
    func streamTyped<T>(_ model: T, _ context: EncodingContext, _ writer: inout NativeJSONWriter, _ depth: Int) throws {
        // The entry's own type (nearly always): no dynamic cast, whose
        // `Model?` result is a metadata lookup per model.
        if isSameType(T.self, Model.self) { return try streamOwn(sameType(model, as: Model.self), context, &writer, depth) }
        try streamCasting(model, context, &writer, depth)
    }

    /// A model declared as another type (a subclass instance in a base-class
    /// property). Kept out of ``streamTyped(_:_:_:_:)``: a function that
    /// casts to `Model?` sets the optional up on entry, a metadata lookup
    /// per model even where the cast never runs.
    @inline(never)
    private func streamCasting<T>(_ model: T, _ context: EncodingContext, _ writer: inout NativeJSONWriter, _ depth: Int) throws {
        guard let own = model as? Model else { return try writer.write(encodeAny(model, context), depth: depth, path: "") }
        try streamOwn(own, context, &writer, depth)
    }

    private func streamOwn(_ model: Model, _ context: EncodingContext, _ writer: inout NativeJSONWriter, _ depth: Int) throws {
        // Called through `?` (see ``CompiledMapping/run``): no retain of the closure's context.
        guard try stream?(model, context, &writer, depth) != nil else { return try writer.write(encode(model, context), depth: depth, path: "") }
    }
}

extension ValueCodec {
    /// Writes an array's elements through their codec: the stream's
    /// ``encodeElements(_:_:_:)``.
    static func streamElements<Element>(
        _ values: [Element], _ codec: ValueCodec<Element>, _ context: EncodingContext, _ writer: inout NativeJSONWriter, _ depth: Int
    ) throws {
        try context.descendToOpen()
        try writer.open(UInt8(ascii: "["), depth: depth, path: "")
        // Each element lent from the array's buffer (LentValue): the
        // subscript copied a struct element whole, a retain per reference in it.
        if codec.isLeaf {
            try LentValue.forEach(in: values) { position, element in
                writer.beginElement(position, depth: depth)
                try codec.stream(element, context, &writer, depth + 1)
            }
        } else {
            // The array's step linked once.
            try context.withOwnStepLinked { try streamLinkedElements(values, codec, $0, &writer, depth) }
        }
        writer.close(UInt8(ascii: "]"), count: values.count, depth: depth)
    }

    /// The elements of an array that are not leaves, each in a context with
    /// its position linked at once and cut back after it (a pending
    /// position made the element's model link it in a second context).
    private static func streamLinkedElements<Element>(
        _ values: [Element], _ codec: ValueCodec<Element>, _ context: EncodingContext, _ writer: inout NativeJSONWriter, _ depth: Int
    ) throws {
        let elementMark = context.linkMark
        try LentValue.forEach(in: values) { position, element in
            writer.beginElement(position, depth: depth)
            defer { context.unlink(to: elementMark) }
            try codec.stream(element, context.linkedChild(index: position), &writer, depth + 1)
        }
    }

    /// Writes a string-keyed dictionary's members (``StringDictionaryMarker/pairs``
    /// are in their keys' byte order, which is also ``WriteOptions/sortedKeys``' order).
    static func streamMembers<Member>(
        _ pairs: [(String, Member)], _ codec: ValueCodec<Member>, _ context: EncodingContext, _ writer: inout NativeJSONWriter, _ depth: Int
    ) throws {
        try context.descendToOpen()
        try writer.open(UInt8(ascii: "{"), depth: depth, path: "")
        try context.withOwnStepLinked { try streamKeyedMembers(pairs, codec, $0, &writer, depth) }
        writer.close(UInt8(ascii: "}"), count: pairs.count, depth: depth)
    }

    /// The members of ``streamMembers(_:_:_:_:_:)``, each lent (a member's
    /// value read out of its pair was a copy) in a context with its key linked.
    private static func streamKeyedMembers<Member>(
        _ pairs: [(String, Member)], _ codec: ValueCodec<Member>, _ context: EncodingContext, _ writer: inout NativeJSONWriter, _ depth: Int
    ) throws {
        let memberMark = context.linkMark
        try LentValue.forEach(in: pairs) { position, pair in
            // Each member's key link is removed once it is written.
            defer { context.unlink(to: memberMark) }
            writer.beginMember(pair.0, position, depth: depth)
            try codec.stream(pair.1, context.child(.key(pair.0)), &writer, depth + 1)
        }
    }

    /// Writes a model through its sub-mapper or registry entry; an
    /// unregistered `Codable` value is encoded to its tree and written.
    /// `dynamicType`: `Value` is a class or an existential, whose values may
    /// be of another type (a struct's value is boxed in `Any` only then).
    static func streamModel(
        _ value: Value, dynamicType: Bool, resolved: ResolvedModelEntry, _ context: EncodingContext, _ writer: inout NativeJSONWriter,
        _ depth: Int
    ) throws {
        if let subMapper = context.subMapper {
            return try subMapper.entry(for: context.registry).streamValue(value, context.leavingSubMapper(), &writer, depth)
        }
        // A struct registered by a mapping: straight into its compiled
        // mapping, which takes the value as it is. The entry's generic
        // stream cast it to the entry's type, a copy of the whole struct
        // (a retain per string in it) for every nested model. The entry
        // would check the depth and run this same mapping's stream: only a
        // class instance can be of a subclass or in a cycle.
        if !dynamicType {
            let streamed: Void? = try resolved.withCompiledMapping(for: Value.self, in: context.registry) { (compiled: CompiledMapping<Value>) in
                try context.descendToOpen()
                try compiled.stream(value, context, &writer, depth)
            }
            if streamed != nil { return }
        }
        let type: Any.Type = dynamicType ? Swift.type(of: value as Any) : Value.self
        if let entry = context.session.entry(for: type) ?? context.session.entry(for: Value.self) {
            return try entry.streamValue(value, context, &writer, depth)
        }
        if let encodable = value as? any Encodable {
            return try writer.write(CodableFallback.encode(encodable, context: context), depth: depth, path: "")
        }
        throw CartographError(.encodingFailed, "no factory or mapping is registered for \(Swift.type(of: value as Any))", path: context.path)
    }
}

extension ScalarValue {
    static func writeJSONArray(_ values: [Self], into writer: inout NativeJSONWriter, depth: Int) throws {
        try writer.open(UInt8(ascii: "["), depth: depth, path: "")
        for position in values.indices {
            writer.beginElement(position, depth: depth)
            try values[position].writeJSON(into: &writer, depth: depth + 1)
        }
        writer.close(UInt8(ascii: "]"), count: values.count, depth: depth)
    }

    static func writeJSONMatrix(_ values: [[Self]], into writer: inout NativeJSONWriter, depth: Int) throws {
        try writer.open(UInt8(ascii: "["), depth: depth, path: "")
        for position in values.indices {
            writer.beginElement(position, depth: depth)
            try writeJSONArray(values[position], into: &writer, depth: depth + 1)
        }
        writer.close(UInt8(ascii: "]"), count: values.count, depth: depth)
    }
}
