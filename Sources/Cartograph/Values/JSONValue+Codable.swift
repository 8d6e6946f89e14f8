import Foundation

extension JSONValue: Codable {
    private struct MemberKey: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { return nil }
    }

    /// Decodes any JSON value from any `Decoder`.
    public init(from decoder: any Decoder) throws {
        if let object = try? decoder.container(keyedBy: MemberKey.self) {
            var members = JSONObject()
            for key in object.allKeys {
                members[key.stringValue] = try object.decode(JSONValue.self, forKey: key)
            }
            self = .object(members)
            return
        }
        if var array = try? decoder.unkeyedContainer() {
            var elements: [JSONValue] = []
            while !array.isAtEnd { elements.append(try array.decode(JSONValue.self)) }
            self = .array(elements)
            return
        }
        let single = try decoder.singleValueContainer()
        if single.decodeNil() {
            self = .null
        } else if let value = try? single.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? single.decode(Int64.self) {
            self = .number(JSONNumber(value))
        } else if let value = try? single.decode(UInt64.self) {
            self = .number(JSONNumber(value))
        } else if let value = try? single.decode(Double.self) {
            self = .number(JSONNumber(value))
        } else {
            self = .string(try single.decode(String.self))
        }
    }

    /// Encodes the value to any `Encoder`, keeping key order where the encoder does.
    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .null:
            var single = encoder.singleValueContainer()
            try single.encodeNil()
        case .bool(let value):
            var single = encoder.singleValueContainer()
            try single.encode(value)
        case .number(let number):
            var single = encoder.singleValueContainer()
            switch number.storage {
            case .int(let value): try single.encode(value)
            case .uint(let value): try single.encode(value)
            case .double(let value): try single.encode(value)
            case .text:
                if let decimal = number.decimalValue { try single.encode(decimal) } else { try single.encode(number.doubleValue) }
            }
        case .string(let value):
            var single = encoder.singleValueContainer()
            try single.encode(value)
        case .array(let elements):
            var array = encoder.unkeyedContainer()
            for element in elements { try array.encode(element) }
        case .object(let object):
            var container = encoder.container(keyedBy: MemberKey.self)
            for (key, value) in object { try container.encode(value, forKey: MemberKey(stringValue: key)) }
        }
    }
}
