import Foundation

/// What a keyed container writes through and into: a class, so that a kept
/// container (``RecycledContainers``) can be pointed at the next object.
///
/// It owns both (``owners``) and reads them through unmanaged references
/// on the hot paths (``withTargets(_:)``): a strong reference read from a
/// `var` is retained and released around each use.
@safe class TreeKeyedState {
    @exclusivity(unchecked) private final var owners: (TreeEncoder, EncodingObject)
    @exclusivity(unchecked) private final var encoderRef: Unmanaged<TreeEncoder>
    @exclusivity(unchecked) private final var objectRef: Unmanaged<EncodingObject>

    init(encoder: TreeEncoder, object: EncodingObject) {
        unsafe owners = (encoder, object)
        unsafe encoderRef = unsafe .passUnretained(encoder)
        unsafe objectRef = unsafe .passUnretained(object)
    }

    final func reset(encoder: TreeEncoder, object: EncodingObject) {
        unsafe owners = (encoder, object)
        unsafe encoderRef = unsafe .passUnretained(encoder)
        unsafe objectRef = unsafe .passUnretained(object)
    }

    final var encoder: TreeEncoder { unsafe owners.0 }
    final var object: EncodingObject { unsafe owners.1 }

    /// The encoder and the object, unretained (``owners`` keeps them).
    @inline(__always)
    final func withTargets<Result>(_ body: (TreeEncoder, EncodingObject) throws -> Result) rethrows -> Result {
        unsafe try encoderRef._withUnsafeGuaranteedRef { encoder in
            unsafe try objectRef._withUnsafeGuaranteedRef { object in try body(encoder, object) }
        }
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
