// The floor under any `Codable` encoder: an `Encoder` that writes nothing.
//
// A model's `encode(to:)` reaches an encoder through the standard
// library's container boxes (`KeyedEncodingContainer` wraps the encoder's
// container in a class whose methods are generic code compiled once, not
// specialised for the key type: each member asks for the key type's
// witnesses and copies the key through them), and through the code the
// compiler synthesizes, which copies nested model values before handing
// them on. Every `Codable` encoder pays that; what an encoder adds on top
// is its own. This one adds as little as an encoder can: a container per
// key type made once and handed out again, members that do nothing, one
// encoder for every level. Timed on a file's models, it is how fast a
// `Codable` encode could be with a writer that cost nothing.
//
// It sits a little above the true floor: it lets arrays encode themselves
// through the standard library's generic `encode(to:)` (Cartograph's
// writes a model array's elements with the element type known, so on
// canada.json's long arrays this encoder is the slower one), its generic
// code still asks the runtime for the container type's metadata once per
// object (~12% of its instructions on twitter.json), and its two arrays
// are checked for exclusive access at each object.

/// An `Encoder` that writes nothing (see the file's comment). It keeps its
/// keyed containers, so one is made for the run's whole life.
final class NullEncoder: Encoder {
    let codingPath: [any CodingKey] = []
    let userInfo: [CodingUserInfoKey: Any] = [:]
    /// The key types met, beside their containers (in ``Kept`` holders).
    private var keyTypes: [ObjectIdentifier] = []
    private var kept: [AnyObject] = []

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        let identity = ObjectIdentifier(type)
        for index in keyTypes.indices where keyTypes[index] == identity {
            // Not `as?`: its cast asked the runtime for the holder's
            // metadata (a locked hash table), 1.3M more instructions a
            // round of twitter.json. The key type was compared just above.
            return unsafeDowncast(kept[index], to: Kept<KeyedEncodingContainer<Key>>.self).take()
        }
        let container = KeyedEncodingContainer(NullKeyedContainer<Key>(encoder: self))
        keyTypes.append(identity)
        kept.append(Kept(container))
        return container
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer { NullUnkeyedContainer(encoder: self) }
    func singleValueContainer() -> any SingleValueEncodingContainer { NullSingleValueContainer(encoder: self) }
}

/// A keyed container kept by ``NullEncoder`` for its key type.
private final class Kept<Container> {
    private let container: Container
    init(_ container: Container) { self.container = container }
    func take() -> Container { container }
}

private struct NullKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: NullEncoder
    var codingPath: [any CodingKey] { [] }

    mutating func encodeNil(forKey key: Key) throws {}
    mutating func encode(_ value: Bool, forKey key: Key) throws {}
    mutating func encode(_ value: String, forKey key: Key) throws {}
    mutating func encode(_ value: Double, forKey key: Key) throws {}
    mutating func encode(_ value: Float, forKey key: Key) throws {}
    mutating func encode(_ value: Int, forKey key: Key) throws {}
    mutating func encode(_ value: Int8, forKey key: Key) throws {}
    mutating func encode(_ value: Int16, forKey key: Key) throws {}
    mutating func encode(_ value: Int32, forKey key: Key) throws {}
    mutating func encode(_ value: Int64, forKey key: Key) throws {}
    mutating func encode(_ value: UInt, forKey key: Key) throws {}
    mutating func encode(_ value: UInt8, forKey key: Key) throws {}
    mutating func encode(_ value: UInt16, forKey key: Key) throws {}
    mutating func encode(_ value: UInt32, forKey key: Key) throws {}
    mutating func encode(_ value: UInt64, forKey key: Key) throws {}
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws { try value.encode(to: encoder) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        encoder.container(keyedBy: keyType)
    }
    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer { encoder.unkeyedContainer() }
    mutating func superEncoder() -> any Encoder { encoder }
    mutating func superEncoder(forKey key: Key) -> any Encoder { encoder }
}

private struct NullUnkeyedContainer: UnkeyedEncodingContainer, DiscardsUnkeyedValues {
    let encoder: NullEncoder
    var codingPath: [any CodingKey] { [] }
    var count: Int { 0 }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        encoder.container(keyedBy: keyType)
    }
    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { encoder.unkeyedContainer() }
    mutating func superEncoder() -> any Encoder { encoder }
}

private struct NullSingleValueContainer: SingleValueEncodingContainer, DiscardsUnkeyedValues {
    let encoder: NullEncoder
    var codingPath: [any CodingKey] { [] }
}

/// The unkeyed and single-value containers' writes, which have the same
/// shape: scalars dropped, nested values encoded through the one encoder.
private protocol DiscardsUnkeyedValues {
    var encoder: NullEncoder { get }
}

extension DiscardsUnkeyedValues {
    mutating func encodeNil() throws {}
    mutating func encode(_ value: Bool) throws {}
    mutating func encode(_ value: String) throws {}
    mutating func encode(_ value: Double) throws {}
    mutating func encode(_ value: Float) throws {}
    mutating func encode(_ value: Int) throws {}
    mutating func encode(_ value: Int8) throws {}
    mutating func encode(_ value: Int16) throws {}
    mutating func encode(_ value: Int32) throws {}
    mutating func encode(_ value: Int64) throws {}
    mutating func encode(_ value: UInt) throws {}
    mutating func encode(_ value: UInt8) throws {}
    mutating func encode(_ value: UInt16) throws {}
    mutating func encode(_ value: UInt32) throws {}
    mutating func encode(_ value: UInt64) throws {}
    mutating func encode<T: Encodable>(_ value: T) throws { try value.encode(to: encoder) }
}
