import Foundation

/// What a keyed container writes through and into: a class, so that a kept
/// container (``RecycledContainers``) can be pointed at the next object.
///
/// Its targets are an ``ExclusiveState``, read in place on the hot paths
/// (``withTargets(_:)``): a strong reference read from a class's `var` is
/// otherwise retained and released around each use, beside the
/// exclusivity check.
class TreeKeyedState: ExclusiveState<TreeKeyedTargets> {
    init(encoder: TreeEncoder, object: EncodingObject) {
        super.init(state: TreeKeyedTargets(encoder: encoder, object: object))
    }

    final func reset(encoder: TreeEncoder, object: EncodingObject) {
        state = TreeKeyedTargets(encoder: encoder, object: object)
    }

    final var encoder: TreeEncoder { state.encoder }
    final var object: EncodingObject { state.object }

    /// The encoder and the object, borrowed for `body` (no reference counting).
    @inline(__always)
    final func withTargets<Result>(_ body: (TreeEncoder, EncodingObject) throws -> Result) rethrows -> Result {
        try state.with(body)
    }
}

/// The encoder a keyed container writes through and the object it fills.
struct TreeKeyedTargets {
    let encoder: TreeEncoder
    let object: EncodingObject

    @inline(__always)
    func with<Result>(_ body: (TreeEncoder, EncodingObject) throws -> Result) rethrows -> Result {
        try body(encoder, object)
    }
}

final class TreeKeyedContainer<Key: CodingKey>: TreeKeyedState, KeyedEncodingContainerProtocol {
    /// The container's coding path (its encoder's: a nested container has
    /// an encoder of its own, ``TreeEncoder/scoped(_:)``; made only if asked).
    var trail: PathTrail? { encoder.trail }

    var codingPath: [any CodingKey] { PathTrail.codingKeys(trail) }

    private func put(_ value: JSONValue, _ key: Key) { withTargets { encoder, object in object.set(encoder.jsonKey(key), encoder.node(value)) } }

    func encodeNil(forKey key: Key) throws { put(encoder.nilValue, key) }
    func encode(_ value: Bool, forKey key: Key) throws { put(.bool(value), key) }
    func encode(_ value: String, forKey key: Key) throws { put(.string(value), key) }
    func encode(_ value: Double, forKey key: Key) throws { put(try encoder.double(value, key: key), key) }
    func encode(_ value: Float, forKey key: Key) throws { put(try encoder.float(value, key: key), key) }
    func encode(_ value: Int, forKey key: Key) throws { put(.number(JSONNumber(value)), key) }
    func encode(_ value: Int8, forKey key: Key) throws { put(.number(JSONNumber(Int64(value))), key) }
    func encode(_ value: Int16, forKey key: Key) throws { put(.number(JSONNumber(Int64(value))), key) }
    func encode(_ value: Int32, forKey key: Key) throws { put(.number(JSONNumber(Int64(value))), key) }
    func encode(_ value: Int64, forKey key: Key) throws { put(.number(JSONNumber(value)), key) }
    func encode(_ value: UInt, forKey key: Key) throws { put(.number(JSONNumber(UInt64(value))), key) }
    func encode(_ value: UInt8, forKey key: Key) throws { put(.number(JSONNumber(UInt64(value))), key) }
    func encode(_ value: UInt16, forKey key: Key) throws { put(.number(JSONNumber(UInt64(value))), key) }
    func encode(_ value: UInt32, forKey key: Key) throws { put(.number(JSONNumber(UInt64(value))), key) }
    func encode(_ value: UInt64, forKey key: Key) throws { put(.number(JSONNumber(value)), key) }
    func encode(_ value: Int128, forKey key: Key) throws { put(.number(JSONNumber(wide: value)), key) }
    func encode(_ value: UInt128, forKey key: Key) throws { put(.number(JSONNumber(wide: value)), key) }
    func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        // The value first, then its key: a custom key strategy's closure is
        // called in the order Foundation calls it (innermost keys first).
        try withTargets { encoder, object in
            let slot = try encoder.encodeValue(value, key: key)
            object.set(encoder.jsonKey(key), slot)
        }
    }

    /// The protocol's own default, with the value lent where the optional
    /// lies (``LentValue``): the default's `if let`, in unspecialised code,
    /// copied a nested struct whole (a retain per reference in it).
    func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
        _ = try LentValue.withWrapped(value) { try encode($0, forKey: key) }
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        let name = encoder.jsonKey(key)
        let nested: EncodingObject
        if case .object(let existing)? = object.node(name) {
            nested = existing
        } else {
            nested = EncodingObject()
            object.set(name, .object(nested))
        }
        return KeyedEncodingContainer(TreeKeyedContainer<NestedKey>(encoder: encoder.scoped(PathTrail(parent: trail, key: key)), object: nested))
    }

    func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let name = encoder.jsonKey(key)
        let nested: EncodingArray
        if case .array(let existing)? = object.node(name) {
            nested = existing
        } else {
            nested = EncodingArray()
            object.set(name, .array(nested))
        }
        return TreeUnkeyedContainer(encoder: encoder.scoped(PathTrail(parent: trail, key: key)), array: nested)
    }

    /// An encoder for the value under `"super"` (Foundation's spelling; the
    /// key need not be one of `Key`'s cases).
    func superEncoder() -> any Encoder { superEncoder(for: StringKey("super")) }

    func superEncoder(forKey key: Key) -> any Encoder { superEncoder(for: key) }

    /// The key holds `{}` until the super encoder writes something (as in
    /// Foundation), keeping its place among the keys.
    private func superEncoder(for key: some CodingKey) -> any Encoder {
        let name = encoder.jsonKey(key)
        object.set(name, .value(.object(JSONObject())))
        let child = TreeEncoder(run: encoder.run, trail: PathTrail(parent: trail, key: key), depth: encoder.depth + 1)
        child.commit = { [object] slot in object.set(name, slot) }
        return child
    }
}
