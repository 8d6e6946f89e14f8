import Foundation

struct TreeUnkeyedContainer: UnkeyedEncodingContainer {
    let encoder: TreeEncoder
    let array: EncodingArray
    /// The container's coding path (its encoder's: a nested container has
    /// an encoder of its own, ``TreeEncoder/scoped(_:)``; made only if asked).
    var trail: PathTrail? { encoder.trail }

    var codingPath: [any CodingKey] { PathTrail.codingKeys(trail) }
    var count: Int { array.count }

    private func append(_ value: JSONValue) { array.append(encoder.node(value)) }

    mutating func encodeNil() throws { append(encoder.nilValue) }
    mutating func encode(_ value: Bool) throws { append(.bool(value)) }
    mutating func encode(_ value: String) throws { append(.string(value)) }
    mutating func encode(_ value: Double) throws { append(try encoder.double(value, key: IndexKey(count))) }
    mutating func encode(_ value: Float) throws { append(try encoder.float(value, key: IndexKey(count))) }
    mutating func encode(_ value: Int) throws { append(.number(JSONNumber(value))) }
    mutating func encode(_ value: Int8) throws { append(.number(JSONNumber(Int64(value)))) }
    mutating func encode(_ value: Int16) throws { append(.number(JSONNumber(Int64(value)))) }
    mutating func encode(_ value: Int32) throws { append(.number(JSONNumber(Int64(value)))) }
    mutating func encode(_ value: Int64) throws { append(.number(JSONNumber(value))) }
    mutating func encode(_ value: UInt) throws { append(.number(JSONNumber(UInt64(value)))) }
    mutating func encode(_ value: UInt8) throws { append(.number(JSONNumber(UInt64(value)))) }
    mutating func encode(_ value: UInt16) throws { append(.number(JSONNumber(UInt64(value)))) }
    mutating func encode(_ value: UInt32) throws { append(.number(JSONNumber(UInt64(value)))) }
    mutating func encode(_ value: UInt64) throws { append(.number(JSONNumber(value))) }
    mutating func encode(_ value: Int128) throws { append(.number(JSONNumber(wide: value))) }
    mutating func encode(_ value: UInt128) throws { append(.number(JSONNumber(wide: value))) }
    mutating func encode<T: Encodable>(_ value: T) throws {
        array.append(try encoder.encodeValue(value, key: IndexKey(count)))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let nested = EncodingObject()
        let key = IndexKey(count)
        array.append(.object(nested))
        return KeyedEncodingContainer(TreeKeyedContainer<NestedKey>(encoder: encoder.scoped(PathTrail(parent: trail, key: key)), object: nested))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let nested = EncodingArray()
        let key = IndexKey(count)
        array.append(.array(nested))
        return TreeUnkeyedContainer(encoder: encoder.scoped(PathTrail(parent: trail, key: key)), array: nested)
    }

    mutating func superEncoder() -> any Encoder {
        let position = array.count
        array.append(.value(.object(JSONObject())))
        let child = TreeEncoder(run: encoder.run, trail: PathTrail(parent: trail, key: IndexKey(position)), depth: encoder.depth + 1)
        child.commit = { [array] slot in array.replace(position, with: slot) }
        return child
    }
}
