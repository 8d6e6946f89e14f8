import Foundation

/// A JSON number that keeps its value exactly.
///
/// Integers are stored as `Int64` or `UInt64` (so is a whole number of 16
/// or 17 digits written with a fraction or exponent, `9007199254740993.0`,
/// which a `Double` cannot hold); decimals as `Double` when the text has at most 17
/// significant digits. Up to 15 digits that Double is the text's value: it
/// prints back in shortest form (`0.1` stays `0.1`). With 16 or 17 digits
/// (what a program writes for a `Double`: `-65.613616999999977`) it is the
/// nearest Double, printed back as the shortest text that reads as the same
/// Double (`-65.61361699999998`); a whole number's exact value is kept
/// (above), and text whose nearest Double is whole but which is not
/// (`1.0000000000000001`) is kept as text. Anything else (integers beyond
/// 64 bits, longer decimals, values beyond Double's range) keeps its exact
/// text. Read it as the type you need with ``int64Value``,
/// ``doubleValue``, ``decimalValue`` or ``text``.
public struct JSONNumber: Sendable, Hashable, CustomStringConvertible {
    enum Storage: Sendable {
        case int(Int64)
        case uint(UInt64)
        case double(Double)
        case text(String)
    }
    let storage: Storage

    /// An integer.
    public init(_ value: Int64) { storage = .int(value) }
    /// An integer.
    public init(_ value: Int) { storage = .int(Int64(value)) }
    /// An unsigned integer; stored signed when it fits.
    public init(_ value: UInt64) { storage = value <= UInt64(Int64.max) ? .int(Int64(value)) : .uint(value) }
    /// A double. NaN and infinities are kept but cannot be written as JSON
    /// unless ``WriteOptions/nonConformingFloats`` says how.
    public init(_ value: Double) { storage = .double(value) }
    /// A 128-bit integer (`Int128`, `UInt128`): within 64 bits as an
    /// integer, beyond as its exact decimal text.
    public init<Wide: FixedWidthInteger>(wide value: Wide) {
        if let small = Int64(exactly: value) {
            storage = .int(small)
        } else if let small = UInt64(exactly: value) {
            storage = .uint(small)
        } else {
            storage = .text(String(value))
        }
    }
    /// A `Decimal`, kept as its exact text, written as Foundation's
    /// `JSONEncoder` writes it (`-0.0000000123456`, not `-1.23456e-08`).
    public init(_ value: Decimal) {
        self = JSONNumber(verbatim: value.description) ?? JSONNumber(NSDecimalNumber(decimal: value).doubleValue)
    }

    /// Number text that is written back exactly as it is: stored as usual
    /// when that storage writes the same text (`1`, `0.1`), else as the
    /// text (`1e+10`, as a `Float` spells it; `-0.0000000123456`, as a
    /// `Decimal` does); nil when it is not a JSON number.
    init?(verbatim text: String) {
        guard let number = JSONNumber(text: text) else { return nil }
        self = number.text == text ? number : JSONNumber(storage: .text(text))
    }

    private init(storage: Storage) { self.storage = storage }

    /// A number from JSON number text; nil when the text is not a JSON number.
    public init?(text: String) {
        var text = text
        guard let number = text.withUTF8Span({ NumberGrammar.isValid($0) ? JSONNumber(validText: $0) : nil }) else { return nil }
        self = number
    }

    /// Chooses the storage for validated number text; `terminated` text
    /// has the NUL that ends it as its last byte (as the tape stores numbers).
    init(validText text: Span<UInt8>, terminated: Bool = false) {
        let digits = terminated ? text.extracting(droppingLast: 1) : text
        // Most numbers are integers that fit in Int64: read in one pass,
        // which gives up at the first byte that is not a digit (a fraction
        // or an exponent), before asking what kind of text the rest is.
        if let value = NumberText.int64(digits) {
            // `-0` is the Double negative zero (`0` as an integer would lose the sign).
            storage = value == 0 && digits[0] == UInt8(ascii: "-") ? .double(-0.0) : .int(value)
            return
        }
        if NumberText.isIntegerText(digits) {
            if let value = NumberText.uint64(digits) {
                storage = .uint(value)
                return
            }
        } else {
            let significant = NumberGrammar.significantDigits(digits)
            if significant <= 17 {
                let value = terminated ? NumberText.double(terminated: text) : NumberText.double(digits)
                if value.isFinite, value != 0 || !NumberGrammar.hasNonZeroDigit(digits) {
                    // Up to 15 digits the Double is the text's value, read
                    // back in shortest form. With 16 or 17 it may not be, and
                    // a whole Double is where that shows: `9007199254740993.0`
                    // reads as ...992 and `1.0000000000000001` as 1, which
                    // `int64Value` would have given as exact. Such text is kept
                    // as its exact integer, or as text when it is not whole.
                    if significant > 15, value.rounded(.towardZero) == value {
                        if let whole = NumberText.whole(Int64.self, digits) {
                            storage = .int(whole)
                        } else if let whole = NumberText.whole(UInt64.self, digits) {
                            storage = .uint(whole)
                        } else if !NumberText.isWhole(digits) {
                            storage = .text(digits.decodedString)
                        } else {
                            // Whole beyond 64 bits: no integer accessor can be wrong.
                            storage = .double(value)
                        }
                        return
                    }
                    storage = .double(value)
                    return
                }
            }
        }
        storage = .text(digits.decodedString)
    }

    /// The value as `Int64`, when it is a whole number in range.
    public var int64Value: Int64? {
        switch storage {
        case .int(let value): return value
        case .uint: return nil
        case .double(let value): return Int64(exactly: value)
        // Exact text: whole when its digits say so (`9223372036854775807.0`).
        case .text(var text): return text.withUTF8Span { NumberText.whole(Int64.self, $0) }
        }
    }

    /// The value as `UInt64`, when it is a whole non-negative number in range.
    public var uint64Value: UInt64? {
        switch storage {
        case .int(let value): return UInt64(exactly: value)
        case .uint(let value): return value
        case .double(let value): return UInt64(exactly: value)
        case .text(var text): return text.withUTF8Span { NumberText.whole(UInt64.self, $0) }
        }
    }

    /// The nearest `Double` (±infinity for text beyond Double's range).
    public var doubleValue: Double {
        switch storage {
        case .int(let value): return Double(value)
        case .uint(let value): return Double(value)
        case .double(let value): return value
        case .text(var text): return text.withUTF8Span { NumberText.double($0) }
        }
    }

    /// The exact value as `Decimal`, when it has at most 38 significant digits.
    public var decimalValue: Decimal? {
        switch storage {
        case .int(let value): return Decimal(value)
        case .uint(let value): return Decimal(value)
        case .double(let value): return value.isFinite ? Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")) : nil
        case .text(var text): return text.withUTF8Span { NumberText.decimal($0) }
        }
    }

    /// Whether the number is a whole number stored as an integer.
    public var isInteger: Bool {
        switch storage {
        case .int, .uint: return true
        case .double: return false
        case .text(let text): return !text.contains(where: { $0 == "." || $0 == "e" || $0 == "E" })
        }
    }

    /// Whether the value is finite (only a `Double` can be NaN or infinite).
    public var isFinite: Bool {
        if case .double(let value) = storage { return value.isFinite }
        return true
    }

    /// The number as JSON text: integers in decimal, doubles in the shortest
    /// form that reads back to the same double, exact text as it was.
    public var text: String {
        switch storage {
        case .int(let value): return String(value)
        case .uint(let value): return String(value)
        case .double(let value): return DoubleFormatting.json(value)
        case .text(let text): return text
        }
    }

    /// Same as ``text``.
    public var description: String { text }

    /// Numbers are equal when their values are: `1` equals `1.0`; exact text
    /// equals only the same text.
    public static func == (lhs: JSONNumber, rhs: JSONNumber) -> Bool {
        switch (lhs.storage, rhs.storage) {
        case (.text(let a), .text(let b)): return a == b
        case (.text, _), (_, .text): return false
        case (.int(let a), .int(let b)): return a == b
        case (.uint(let a), .uint(let b)): return a == b
        case (.int, .uint), (.uint, .int): return false
        case (.double(let a), .double(let b)): return a == b || (a.isNaN && b.isNaN)
        case (.double(let a), .int(let b)), (.int(let b), .double(let a)): return Int64(exactly: a) == b
        case (.double(let a), .uint(let b)), (.uint(let b), .double(let a)): return UInt64(exactly: a) == b
        }
    }

    /// Hashes consistently with `==`.
    public func hash(into hasher: inout Hasher) {
        switch storage {
        case .int(let value): hasher.combine(value)
        case .uint(let value): hasher.combine(value)
        case .double(let value):
            if let whole = Int64(exactly: value) {
                hasher.combine(whole)
            } else if let whole = UInt64(exactly: value) {
                hasher.combine(whole)
            } else {
                hasher.combine(value.isNaN ? .nan : value)
            }
        case .text(let text): hasher.combine(text)
        }
    }
}
