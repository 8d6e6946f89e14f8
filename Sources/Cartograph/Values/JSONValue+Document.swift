import Foundation

extension Document {
    /// A Document holding an in-memory value, so that every mapping feature
    /// reads `JSONValue` (and `[String: Any]`, through ``JSONValue/init(any:)``)
    /// exactly as it reads parsed JSON. Source offsets are all 0.
    public convenience init(value: JSONValue, options: ParseOptions = ParseOptions()) throws {
        let builder = DocumentBuilder(options: options, expectedInputBytes: 256, validatesUTF8: false)
        try Document.emit(value, into: builder)
        let document = builder.makeDocument()
        self.init(tape: document.tape, roots: document.roots)
    }

    private static func emit(_ value: JSONValue, into builder: DocumentBuilder) throws {
        func check(_ accepted: Bool) throws {
            if !accepted { throw builder.failure ?? CartographError(.syntax, "the value could not be stored") }
        }
        switch value {
        case .null: try check(builder.literal(.null, at: 0))
        case .bool(let flag): try check(builder.literal(flag ? .true : .false, at: 0))
        case .number(let number):
            guard number.isFinite else {
                throw CartographError(.nonFiniteNumber, "\(number.doubleValue) has no JSON form")
            }
            var text = number.text
            try text.withUTF8 { try check(builder.number($0.baseAddress!, count: $0.count, at: 0)) }
        case .string(var text):
            try text.withUTF8 { try check(builder.string(UnsafeRawPointer($0.baseAddress), count: $0.count, at: 0)) }
        case .array(let elements):
            try check(builder.begin(object: false, at: 0))
            for element in elements { try emit(element, into: builder) }
            try check(builder.end())
        case .object(let object):
            try check(builder.begin(object: true, at: 0))
            for (key, member) in object {
                var key = key
                try key.withUTF8 { try check(builder.key(UnsafeRawPointer($0.baseAddress), count: $0.count, at: 0)) }
                try emit(member, into: builder)
            }
            try check(builder.end())
        }
    }
}

extension Document {
    /// The value at `index` as an encoded value: property-list dates and
    /// data (flagged strings) become `Date` and `Data` again.
    func encodedValue(at index: Int) -> EncodedValue {
        let entry = tape.entries[index]
        switch entry.kind {
        case .null: return .null
        case .true: return .bool(true)
        case .false: return .bool(false)
        case .number:
            return .number(JSONNumber(validText: UnsafePointer(tape.bytes + entry.payload), count: Int(entry.length), terminated: true))
        case .string, .key:
            let text = String(decoding: bytes(of: entry), as: UTF8.self)
            if entry.flags & TapeFlags.date != 0, let date = PlistDate.date(text) { return .date(date) }
            if entry.flags & TapeFlags.data != 0, let data = Data(base64Encoded: text) { return .data(data) }
            return .string(text)
        case .array:
            var elements: [EncodedValue] = []
            var position = index + 1
            while position < entry.payload {
                elements.append(encodedValue(at: position))
                position = next(after: position)
            }
            return .array(elements)
        case .object:
            var members: [(key: String, value: EncodedValue)] = []
            var position = index + 1
            while position < entry.payload {
                let key = tape.entries[position]
                if key.flags & TapeFlags.shadowed == 0 {
                    members.append((String(decoding: bytes(of: key), as: UTF8.self), encodedValue(at: position + 1)))
                }
                position = next(after: position + 1)
            }
            return .object(members)
        }
    }
}
