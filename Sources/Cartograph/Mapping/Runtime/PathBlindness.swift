import Synchronization

// Which models a stream can write without linking path steps.
//
// The mapping stream links each nested value's step (its key, its position
// in an array) on the session's path stack as it goes, and cuts it back
// after: about a tenth of a mapping encode of twitter.json. The links are
// read in two cases only. An error names its path, but the stream's caller
// encodes again through the tree when the stream throws, and the tree
// throws the same error with its path (MappingStream.swift). And code the
// user wrote may be handed a context and read `path`: a factory's `encode`,
// a transform's `encodeWithContext`, a sub-mapper's factory, a value's own
// `encode(to:)` (whose coding path comes from the context).
//
// So a model whose stream can reach none of those is written with a blind
// context (``EncodingContext/blind``): nothing is linked below it. Whether
// it can is decided from the compiled mappings, never by running anything:
// every rule the stream writes must be a scalar written from the model's
// memory or through its getter, or a value written by its type's own codec
// (no transform, no sub-mapper) whose type is made of scalars, raw-value
// enums, optionals, arrays, sets and string-keyed dictionaries of such, and
// models the registry maps by a mapping that is itself blind, with no
// class inference that could pick another entry. Any other rule (a
// transform, a setter, a factory's model, `Any`, an unregistered
// `Codable` value) keeps the links, for the whole model. Models in a cycle
// of types are taken as blind while the cycle is checked, and are blind if
// nothing else in it sees.

/// A compiled mapping, asked without its model type whether its stream is
/// blind to paths.
protocol PathBlindMapping: AnyObject {
    /// Whether the stream of this mapping, under `registry`, hands no
    /// context to code that could read a path. `visiting` holds the
    /// mappings being decided further up (taken as blind).
    func decidesPathBlind(in registry: ModelRegistry, visiting: inout Set<ObjectIdentifier>) -> Bool
}

/// A mapping's answers: the identity of the registry it was last found
/// blind under, and of the one it was last found seeing under, each read
/// with one atomic load (a registry's identity is never 0).
struct PathBlindness: ~Copyable {
    private let blindFor = Atomic<UInt64>(0)
    private let seeingFor = Atomic<UInt64>(0)

    /// The answer for the registry `identity` names, if it is kept.
    @inline(__always)
    func known(for identity: UInt64) -> Bool? {
        if blindFor.load(ordering: .acquiring) == identity { return true }
        if seeingFor.load(ordering: .acquiring) == identity { return false }
        return nil
    }

    /// Keeps the answer for the registry `identity` names (two threads may
    /// both decide it; they agree).
    func keep(_ blind: Bool, for identity: UInt64) {
        if blind { blindFor.store(identity, ordering: .releasing) } else { seeingFor.store(identity, ordering: .releasing) }
    }
}

extension CompiledMapping {
    /// Whether this mapping's stream is blind to paths under the session's
    /// registry: decided once per registry, then two atomic loads.
    @inline(__always)
    func isPathBlind(in session: EncodingSession) -> Bool {
        if let known = pathBlindness.known(for: session.registryIdentity) { return known }
        return decidePathBlind(in: session)
    }

    @inline(never)
    private func decidePathBlind(in session: EncodingSession) -> Bool {
        var visiting = Set<ObjectIdentifier>()
        let blind = decidesPathBlind(in: session.registry, visiting: &visiting)
        pathBlindness.keep(blind, for: session.registryIdentity)
        return blind
    }
}

extension CompiledMapping: PathBlindMapping {
    func decidesPathBlind(in registry: ModelRegistry, visiting: inout Set<ObjectIdentifier>) -> Bool {
        // A mapping the stream writes through its tree, or cannot run, keeps its links.
        guard flatKeys != nil, !cannotRun else { return false }
        guard visiting.insert(ObjectIdentifier(self)).inserted else { return true }
        for position in streamOrder {
            let compiled = rules[position]
            if compiled.storedScalar != nil || compiled.classScalarWrite != nil { continue }
            guard compiled.rule.role == .property, let value = compiled.rule.ownCodecValue,
                Self.isBlind(value, in: registry, visiting: &visiting)
            else { return false }
        }
        return true
    }

    /// Whether a value of `type`, written by its own codec, hands no
    /// context to user code: the checks of ``ValueCodec/resolve()``, in its order.
    private static func isBlind(_ type: Any.Type, in registry: ModelRegistry, visiting: inout Set<ObjectIdentifier>) -> Bool {
        if type == Any.self { return false }
        if type is any ScalarValue.Type { return true }
        // What a container holds (the shapes' walk, ValueShape.swift, reads it the same way).
        let held: Any.Type? =
            if let optional = type as? any OptionalMarker.Type { ValueShape.wrapped(optional) } else if let array = type as? any ArrayMarker.Type {
                ValueShape.element(array)
            } else if let set = type as? any SetMarker.Type {
                ValueShape.element(set)
            } else if let dictionary = type as? any StringDictionaryMarker.Type { ValueShape.value(dictionary) } else { nil }
        if let held { return isBlind(held, in: registry, visiting: &visiting) }
        // A raw-value enum of a scalar: its raw value written by the scalar's codec.
        if let raw = type as? any RawRepresentable.Type, rawValueIsScalar(raw) { return true }
        // A model: the registry's own mapping of exactly this type, with no
        // class inference that could pick another entry for its values.
        guard !registry.isPolymorphic(type), let entry = registry.entry(for: type), entry.type == type,
            let mapping = entry.compiledMapping as? any PathBlindMapping
        else { return false }
        return mapping.decidesPathBlind(in: registry, visiting: &visiting)
    }

    private static func rawValueIsScalar<R: RawRepresentable>(_: R.Type) -> Bool { R.RawValue.self is any ScalarValue.Type }
}
