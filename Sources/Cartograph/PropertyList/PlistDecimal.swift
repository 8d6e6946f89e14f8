import Foundation

/// A `Decimal` in a property list: Foundation's `PropertyListEncoder` has
/// no form of its own for it and writes what `Decimal.encode(to:)` writes,
/// a dictionary of its fields (`exponent`, `length`, `isNegative`,
/// `isCompact`, `mantissa`: eight 16-bit words). Cartograph's property
/// lists write and read that form, so that each reads the other's files
/// (they wrote a `<real>`, which Foundation cannot read as a `Decimal`).
///
/// The fields are checked before `Decimal.init(from:)` reads them: it takes
/// any values, and an exponent past its 8 bits or a length past 8 words
/// made a different number, silently. Such fields are `dataCorrupted`.
enum PlistDecimal {
    /// Decimal's own coding keys.
    private enum Keys: String, CodingKey {
        case exponent, length, isNegative, isCompact, mantissa
    }

    /// The Decimal at `decoder`'s value, a dictionary of its fields.
    static func read(from decoder: any Decoder) throws -> Decimal {
        let container = try decoder.container(keyedBy: Keys.self)
        let exponent = try container.decode(Int32.self, forKey: .exponent)
        let length = try container.decode(UInt32.self, forKey: .length)
        _ = try container.decode(Bool.self, forKey: .isNegative)
        _ = try container.decode(Bool.self, forKey: .isCompact)
        guard (-128...127).contains(exponent) else {
            throw DecodingError.dataCorruptedError(
                forKey: .exponent, in: container, debugDescription: "a Decimal's exponent is between -128 and 127, not \(exponent)")
        }
        guard length <= 8 else {
            throw DecodingError.dataCorruptedError(
                forKey: .length, in: container, debugDescription: "a Decimal's length is at most 8 words, not \(length)")
        }
        var words = try container.nestedUnkeyedContainer(forKey: .mantissa)
        // Eight words, as Foundation reads them (more are left unread).
        for _ in 0..<8 { _ = try words.decode(UInt16.self) }
        // The fields are in range: Decimal's own reading makes the value.
        return try Decimal(from: decoder)
    }
}
