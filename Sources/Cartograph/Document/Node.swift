import Foundation

/// A read-only view of one value in a ``Document``.
///
/// Creating a node allocates nothing; accessors convert on demand and throw
/// ``CartographError`` (kind ``CartographError/Kind/typeMismatch`` or
/// ``CartographError/Kind/numberOutOfRange``) with the value's byte offset
/// when the value is not what was asked for.
public struct Node: Sendable {
    /// The document this node reads.
    public let document: Document
    @usableFromInline let index: Int

    @usableFromInline
    init(document: Document, index: Int) {
        self.document = document
        self.index = index
    }

    @inlinable
    var entry: TapeEntry { document.entry(index) }

    /// The value's kind.
    public var kind: JSONKind {
        switch entry.kind {
        case .null: return .null
        case .true, .false: return .bool
        case .number: return .number
        case .string, .key: return .string
        case .array: return .array
        case .object: return .object
        }
    }

    /// Byte offset of the value's first byte in the input.
    public var sourceOffset: Int { entry.source }

    /// Whether the value is `null`.
    public var isNull: Bool { entry.kind == .null }

    /// Whether this is the string `$null`, a property list's nil (``PlistNull``).
    var isPlistNullMarker: Bool { document.reader.isPlistNullMarker(entry) }

    @usableFromInline
    func mismatch(_ expected: String) -> CartographError {
        CartographError(
            .typeMismatch, "expected \(expected), found \(kind)",
            offset: entry.source, expected: expected, found: kind.description)
    }

    /// The value of a `true` or `false`.
    public func bool() throws -> Bool {
        switch entry.kind {
        case .true: return true
        case .false: return false
        default: throw mismatch("bool")
        }
    }

    /// The string's bytes (UTF-8, unescaped), lent to `body` as a span.
    public func withUTF8Span<R>(_ body: (Span<UInt8>) throws -> R) throws -> R {
        let entry = entry
        guard entry.kind == .string || entry.kind == .key else { throw mismatch("string") }
        return try document.reader.withText(of: entry, body)
    }

    /// The string's bytes (UTF-8, unescaped), valid for the closure's duration.
    public func withUTF8<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) throws -> R {
        let entry = entry
        guard entry.kind == .string || entry.kind == .key else { throw mismatch("string") }
        // A public signature older than `Span`: the buffer starts at the
        // text's place on the tape, an empty string's included.
        return unsafe try body(document.reader.unsafeText(of: entry))
    }

    /// The value of a string.
    public func string() throws -> String {
        let entry = entry
        guard entry.kind == .string || entry.kind == .key else { throw mismatch("string") }
        return document.reader.string(entry)
    }

    /// The exact text of a number, as it appeared in the input.
    public func numberText() throws -> String {
        document.reader.string(try numberEntry())
    }

    /// Whether the number has neither a fraction nor an exponent.
    public var isInteger: Bool {
        let entry = entry
        return entry.kind == .number && document.reader.isIntegerText(entry)
    }

    /// The entry of a number; throws when the value is not one.
    @inlinable
    func numberEntry() throws -> TapeEntry {
        let entry = entry
        guard entry.kind == .number else { throw mismatch("number") }
        return entry
    }

    @usableFromInline
    func outOfRange(_ type: String) -> CartographError {
        let text = (try? numberText()) ?? "?"
        return CartographError(
            .numberOutOfRange, "number \(text) does not fit in \(type)",
            offset: entry.source, expected: type, found: "number")
    }

    /// The value of an integer that fits in `Int64`; exponents and fractions
    /// are accepted when the value is a whole number (`1e2`, `3.0`).
    public func int64() throws -> Int64 {
        try wholeNumber(Int64.self) { $0.int64($1) }
    }

    /// The value of an integer that fits in `UInt64`.
    public func uint64() throws -> UInt64 {
        try wholeNumber(UInt64.self) { $0.uint64($1) }
    }

    /// A whole number as `T`: its integer text read by `integerText`, or
    /// text with a fraction or exponent whose exact value is whole.
    private func wholeNumber<T: FixedWidthInteger>(_ type: T.Type, integerText: (TapeReader, TapeEntry) -> T?) throws -> T {
        let entry = try numberEntry()
        let tape = document.reader
        if let value = integerText(tape, entry) { return value }
        if !tape.isIntegerText(entry), let value = tape.whole(T.self, entry) { return value }
        throw outOfRange("\(T.self)")
    }

    /// The value of an integer that fits in `Int`.
    public func int() throws -> Int {
        guard let value = Int(exactly: try int64()) else { throw outOfRange("Int") }
        return value
    }

    /// The nearest `Double`; throws when the number is beyond Double's range
    /// (`1e400`). Underflow to zero (`1e-400`) is not an error.
    @inlinable
    public func double() throws -> Double {
        let entry = try numberEntry()
        let value = document.reader.double(entry)
        // JSON5's and plists' NaN and infinities are values; any other non-finite result overflowed.
        guard value.isFinite || entry.flags & TapeFlags.nonFinite != 0 else { throw outOfRange("Double") }
        return value
    }

    /// The nearest `Float` to the number's text (rounded once, from the
    /// text, not through `Double`); throws when it is beyond Float's range.
    public func float() throws -> Float {
        try narrowed(Float.self)
    }

    /// The nearest `F` to the number's text; throws beyond `F`'s range.
    func narrowed<F: BinaryFloatingPoint & LosslessStringConvertible>(_ type: F.Type) throws -> F {
        let wide = try double()
        let value = document.reader.narrow(F.self, try numberEntry(), nearest: wide)
        guard value.isFinite || !wide.isFinite else { throw outOfRange("\(F.self)") }
        return value
    }

    /// The exact value as `Decimal`; throws when it has more than 38 significant digits.
    public func decimal() throws -> Decimal {
        guard let value = document.reader.decimal(try numberEntry()) else { throw outOfRange("Decimal") }
        return value
    }

    /// Whether the value is a property-list date (a string to JSON features).
    public var isDate: Bool { entry.kind == .string && entry.flags & TapeFlags.date != 0 }

    /// Whether the value is property-list data (a base64 string to JSON features).
    public var isData: Bool { entry.kind == .string && entry.flags & TapeFlags.data != 0 }

    /// The date of a property-list date, or of an ISO 8601 string.
    public func date() throws -> Date {
        let text = try string()
        if isDate, let date = PlistDate.date(text) { return date }
        if let date = DateFormats.parseISO8601(text) { return date }
        throw CartographError(.typeMismatch, "expected a date, found \"\(text)\"", offset: entry.source, expected: "date", found: kind.description)
    }

    /// The bytes of property-list data, or of a base64 string.
    public func data() throws -> Data {
        let text = try string()
        guard let data = Data(base64Encoded: text) else {
            throw CartographError(
                .typeMismatch, "expected data (base64), found a string that is not base64", offset: entry.source,
                expected: "data", found: kind.description)
        }
        return data
    }

    /// A view of the object; throws when the value is not an object.
    public func object() throws -> ObjectView {
        guard entry.kind == .object else { throw mismatch("object") }
        return ObjectView(document: document, index: index)
    }

    /// A view of the array; throws when the value is not an array.
    @inlinable
    public func array() throws -> ArrayView {
        guard entry.kind == .array else { throw mismatch("array") }
        return ArrayView(document: document, index: index)
    }
}
