import Foundation

/// A JSON number that keeps its value exactly.
///
/// Integers are stored as `Int64` or `UInt64`; decimals as `Double` when the
/// text has at most 17 significant digits (every such text's nearest double
/// prints back in shortest form: `0.1` stays `0.1`); anything else (integers
/// beyond 64 bits, longer decimals, values beyond Double's range) keeps its
/// exact text. Read it as the type you need with ``int64Value``,
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
    /// A `Decimal`, kept as its exact text.
    public init(_ value: Decimal) {
        let text = value.description
        self = JSONNumber(text: text) ?? JSONNumber(NSDecimalNumber(decimal: value).doubleValue)
    }

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
            storage = .int(value)
            return
        }
        if NumberText.isIntegerText(digits) {
            if let value = NumberText.uint64(digits) {
                storage = .uint(value)
                return
            }
        } else if NumberGrammar.significantDigits(digits) <= 17 {
            let value = terminated ? NumberText.double(terminated: text) : NumberText.double(digits)
            if value.isFinite, value != 0 || !NumberGrammar.hasNonZeroDigit(digits) {
                storage = .double(value)
                return
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
        case .text: return nil
        }
    }

    /// The value as `UInt64`, when it is a whole non-negative number in range.
    public var uint64Value: UInt64? {
        switch storage {
        case .int(let value): return UInt64(exactly: value)
        case .uint(let value): return value
        case .double(let value): return UInt64(exactly: value)
        case .text: return nil
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
