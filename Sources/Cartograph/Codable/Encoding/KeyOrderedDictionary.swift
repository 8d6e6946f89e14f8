/// A dictionary a property-list encode writes member by member in key order.
///
/// `Dictionary.encode(to:)` encodes its members in hash order, which Swift
/// seeds per dictionary instance: two equal dictionaries can encode their
/// members in different orders, in one process. The writers sort a
/// property list's keys, but a binary plist numbers its objects as the
/// encode meets them (scalars are written ahead, BinaryWriteAhead.swift), so
/// equal values gave different bytes. Foundation's `PropertyListEncoder`
/// sorts a `[String: Encodable]` before it encodes it for the same reason
/// (its `fauxStability_dict` test); this covers every dictionary the
/// standard library encodes as a keyed container: `String`, `Int` and other
/// `CodingKeyRepresentable` keys.
protocol KeyOrderedDictionary {
    /// Encodes the members into a keyed container of `encoder` as
    /// `Dictionary.encode(to:)` does (the same keys, string and integer
    /// values alike), in the order of their keys' string values.
    func encodeInKeyOrder(to encoder: any Encoder) throws
}

extension Dictionary: KeyOrderedDictionary where Key: CodingKeyRepresentable, Value: Encodable {
    func encodeInKeyOrder(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: MemberKey.self)
        let members = map { (key: MemberKey($0.key.codingKey), value: $0.value) }
        for member in members.sorted(by: { $0.key.stringValue < $1.key.stringValue }) {
            try container.encode(member.value, forKey: member.key)
        }
    }
}

/// A dictionary member's coding key: the key's own `codingKey`, as
/// `Dictionary.encode(to:)` passes it (a `String` key's integer value
/// included, which the standard library reads from its digits).
private struct MemberKey: CodingKey {
    let stringValue: String
    let intValue: Int?

    init(_ key: any CodingKey) {
        stringValue = key.stringValue
        intValue = key.intValue
    }

    init(stringValue: String) {
        self.stringValue = stringValue
        intValue = Int(stringValue)
    }

    init(intValue: Int) {
        stringValue = String(intValue)
        self.intValue = intValue
    }
}

extension TypeAnswers where Answer == Bool {
    /// Whether `type` is a dictionary that can encode its members in key order.
    mutating func isKeyOrderedDictionary<T>(_ type: T.Type) -> Bool {
        answer(for: ObjectIdentifier(type)) { type is any KeyOrderedDictionary.Type }
    }
}
