import Foundation

struct TreeSingleValueContainer: SingleValueEncodingContainer {
    let encoder: TreeEncoder

    var codingPath: [any CodingKey] { encoder.codingPath }

    mutating func encodeNil() throws { encoder.storeScalar(encoder.nilValue) }
    mutating func encode(_ value: Bool) throws { encoder.storeScalar(.bool(value)) }
    mutating func encode(_ value: String) throws { encoder.storeScalar(.string(value)) }
    mutating func encode(_ value: Double) throws { encoder.storeScalar(try encoder.double(value, key: nil)) }
    mutating func encode(_ value: Float) throws { encoder.storeScalar(try encoder.float(value, key: nil)) }
    mutating func encode(_ value: Int) throws { encoder.storeScalar(.number(JSONNumber(value))) }
    mutating func encode(_ value: Int8) throws { encoder.storeScalar(.number(JSONNumber(Int64(value)))) }
    mutating func encode(_ value: Int16) throws { encoder.storeScalar(.number(JSONNumber(Int64(value)))) }
    mutating func encode(_ value: Int32) throws { encoder.storeScalar(.number(JSONNumber(Int64(value)))) }
    mutating func encode(_ value: Int64) throws { encoder.storeScalar(.number(JSONNumber(value))) }
    mutating func encode(_ value: UInt) throws { encoder.storeScalar(.number(JSONNumber(UInt64(value)))) }
    mutating func encode(_ value: UInt8) throws { encoder.storeScalar(.number(JSONNumber(UInt64(value)))) }
    mutating func encode(_ value: UInt16) throws { encoder.storeScalar(.number(JSONNumber(UInt64(value)))) }
    mutating func encode(_ value: UInt32) throws { encoder.storeScalar(.number(JSONNumber(UInt64(value)))) }
    mutating func encode(_ value: UInt64) throws { encoder.storeScalar(.number(JSONNumber(value))) }
    mutating func encode(_ value: Int128) throws { encoder.storeScalar(.number(JSONNumber(wide: value))) }
    mutating func encode(_ value: UInt128) throws { encoder.storeScalar(.number(JSONNumber(wide: value))) }
    /// The value takes this encoder's place: one level down, the same path
    /// (its key is not repeated).
    mutating func encode<T: Encodable>(_ value: T) throws { encoder.store(try encoder.encodeNested(value)) }
}
