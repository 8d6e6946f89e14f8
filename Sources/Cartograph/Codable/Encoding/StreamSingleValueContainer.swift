import Foundation

/// A streaming encoder's single value: written into the encoder's place,
/// once (a second value, which the tree encoder would put in place of the
/// first, abandons the stream).
struct StreamSingleValueContainer: SingleValueEncodingContainer {
    let encoder: StreamEncoder

    var codingPath: [any CodingKey] { encoder.codingPath }

    private func put(_ write: (inout NativeJSONWriter) -> Void) throws {
        guard try encoder.beginSingleValue() else { return }
        write(&encoder.run.state.writer)
    }

    /// A scalar the writer writes whole (finite: it cannot throw).
    private func putWhole(_ value: JSONValue) throws {
        guard try encoder.beginSingleValue() else { return }
        try encoder.run.state.writer.write(value, depth: encoder.frame, path: "")
    }

    mutating func encodeNil() throws { try put { $0.sink.append(contentsOf: .null) } }
    mutating func encode(_ value: Bool) throws { try put { $0.sink.append(contentsOf: value ? .true : .false) } }
    mutating func encode(_ value: String) throws { try put { $0.writeString(value) } }
    mutating func encode(_ value: Double) throws {
        guard value.isFinite else { return try putWhole(try encoder.nonFinite(value, key: nil)) }
        try put { $0.writeDouble(value) }
    }
    mutating func encode(_ value: Float) throws { try putWhole(try encoder.float(value, key: nil)) }
    mutating func encode(_ value: Int) throws { try put { $0.writeInteger(Int64(value)) } }
    mutating func encode(_ value: Int8) throws { try put { $0.writeInteger(Int64(value)) } }
    mutating func encode(_ value: Int16) throws { try put { $0.writeInteger(Int64(value)) } }
    mutating func encode(_ value: Int32) throws { try put { $0.writeInteger(Int64(value)) } }
    mutating func encode(_ value: Int64) throws { try put { $0.writeInteger(value) } }
    mutating func encode(_ value: UInt) throws { try putWhole(.number(JSONNumber(UInt64(value)))) }
    mutating func encode(_ value: UInt8) throws { try put { $0.writeInteger(Int64(value)) } }
    mutating func encode(_ value: UInt16) throws { try put { $0.writeInteger(Int64(value)) } }
    mutating func encode(_ value: UInt32) throws { try put { $0.writeInteger(Int64(value)) } }
    mutating func encode(_ value: UInt64) throws { try putWhole(.number(JSONNumber(value))) }
    mutating func encode(_ value: Int128) throws { try putWhole(.number(JSONNumber(wide: value))) }
    mutating func encode(_ value: UInt128) throws { try putWhole(.number(JSONNumber(wide: value))) }
    mutating func encode<T: Encodable>(_ value: T) throws { try encoder.encodeNested(value) }
}
