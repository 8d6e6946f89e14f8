import Foundation

/// A streaming array: each element is written as it comes, into the
/// frame the container opened.
struct StreamUnkeyedContainer: UnkeyedEncodingContainer {
    let encoder: StreamEncoder
    /// The array's frame and its generation (-1: handed out after the
    /// stream was abandoned; every write then abandons).
    let frame: Int
    let generation: Int

    var codingPath: [any CodingKey] { encoder.codingPath }

    /// Elements written so far (while the array is open; the last count a
    /// closed one had is not kept, and no write into it can follow).
    var count: Int {
        let run = encoder.run
        return run.state.isOpen(frame, generation) ? run.state.frames[frame].count : 0
    }

    private func put(_ write: (inout NativeJSONWriter) -> Void) throws {
        let run = encoder.run
        guard try run.state.beginMember(frame, generation) >= 0 else { return }
        write(&run.state.writer)
    }

    /// A scalar the writer writes whole (finite: it cannot throw).
    private func putWhole(_ value: JSONValue) throws {
        let run = encoder.run
        guard try run.state.beginMember(frame, generation) >= 0 else { return }
        try run.state.writer.write(value, depth: frame, path: "")
    }

    mutating func encodeNil() throws { try put { $0.sink.append(contentsOf: .null) } }
    mutating func encode(_ value: Bool) throws { try put { $0.sink.append(contentsOf: value ? .true : .false) } }
    mutating func encode(_ value: String) throws { try put { $0.writeString(value) } }
    mutating func encode(_ value: Double) throws {
        guard value.isFinite else {
            guard try isWritable() else { return }
            return try putWhole(try encoder.nonFinite(value, key: IndexKey(count)))
        }
        try put { $0.writeDouble(value) }
    }
    mutating func encode(_ value: Float) throws {
        guard try isWritable() else { return }
        try putWhole(try encoder.float(value, key: IndexKey(count)))
    }

    /// Whether the array takes a value now, checked before a value whose
    /// error names its index: false once the encode has ended; a closed
    /// array abandons (its count is gone, and the tree knows the index).
    private func isWritable() throws -> Bool {
        let run = encoder.run
        if run.state.isOpen(frame, generation) { return true }
        if run.state.ended { return false }
        throw run.state.abandon()
    }
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
    mutating func encode<T: Encodable>(_ value: T) throws {
        let run = encoder.run
        let start = try run.state.beginMember(frame, generation)
        guard start >= 0 else { return }
        // The member just begun: its index is the count before it.
        let key = IndexKey(run.state.frames[frame].count - 1)
        do {
            try encoder.encodeValue(value, key: key, frame: frame)
        } catch {
            run.state.undoMember(frame, from: start, key: nil)
            throw error
        }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let nested = openNested(object: true)
        return KeyedEncodingContainer(StreamKeyedContainer<NestedKey>(encoder: nested.encoder, frame: frame + 1, generation: nested.generation))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let nested = openNested(object: false)
        return StreamUnkeyedContainer(encoder: nested.encoder, frame: frame + 1, generation: nested.generation)
    }

    private func openNested(object: Bool) -> (encoder: StreamEncoder, generation: Int) {
        let run = encoder.run
        let trail = PathTrail(parent: encoder.trail, key: IndexKey(count))
        var nestedGeneration = -1
        if (try? run.state.beginMember(frame, generation)) ?? -1 >= 0, let opened = try? run.state.push(object: object, at: frame + 1) {
            nestedGeneration = opened
        }
        let nested = StreamEncoder(
            run: run, trail: trail, depth: encoder.depth + 1, frame: frame, container: nestedGeneration, isObject: object)
        return (nested, nestedGeneration)
    }

    mutating func superEncoder() -> any Encoder {
        let run = encoder.run
        let trail = PathTrail(parent: encoder.trail, key: IndexKey(count))
        var ticket = -1
        if (try? run.state.beginMember(frame, generation)) ?? -1 >= 0 {
            ticket = run.state.newTicket()
            run.state.setPending(frame, ticket: ticket)
        }
        return StreamEncoder(run: run, trail: trail, depth: encoder.depth + 1, frame: frame, ticket: ticket)
    }
}
