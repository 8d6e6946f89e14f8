import Foundation

/// How every plist reader (binary, XML, libplist's) puts a plist scalar on
/// the tape, so the three give identical Documents: integers as decimal
/// text, reals as their shortest text, dates as ISO 8601 text with
/// every bit of the date (``PlistDate``), data as base64 text, the last two flagged.
enum PlistScalars {
    /// Throws the builder's failure when it refused an event.
    @inline(__always)
    static func accept(_ accepted: Bool, _ builder: DocumentBuilder) throws {
        if !accepted { throw builder.failure ?? CartographError(.syntax, "the plist could not be read") }
    }

    /// An integer given as sign and magnitude.
    static func integer(magnitude: UInt64, negative: Bool, at source: Int, into builder: DocumentBuilder) throws {
        try DecimalText.withDigits(magnitude, negative: negative) { digits in
            try accept(builder.number(digits, at: source), builder)
        }
    }

    /// A real. NaN and the infinities, which a plist holds and JSON does
    /// not, are stored as `Infinity`, `-Infinity`, `NaN` with
    /// ``TapeFlags/nonFinite``: `Double` and `Float` read them, JSON writers
    /// refuse them (or write them as the options say).
    static func real(_ value: Double, at source: Int, into builder: DocumentBuilder) throws {
        guard value.isFinite else {
            var text = value.isNaN ? (value.sign == .minus ? "-NaN" : "NaN") : (value < 0 ? "-Infinity" : "Infinity")
            try text.withUTF8Span { try accept(builder.number($0, at: source, flags: TapeFlags.nonFinite), builder) }
            return
        }
        var text = DoubleFormatting.shortest(value)
        try text.withUTF8Span { try accept(builder.number($0, at: source), builder) }
    }

    /// A date, in seconds since 2001-01-01T00:00:00Z. Only the years 0 to
    /// 9999 have the fixed-width text the tape keeps.
    static func date(secondsSince2001 seconds: Double, at source: Int, into builder: DocumentBuilder) throws {
        guard PlistDate.parts(Date(timeIntervalSinceReferenceDate: seconds)) != nil else {
            throw CartographError(
                .numberOutOfRange, "the plist holds a date outside the years 0 to 9999", offset: source,
                expected: "a date in the years 0 to 9999", found: "date")
        }
        try text(PlistDate.text(secondsSince2001: seconds), flags: TapeFlags.date, at: source, into: builder)
    }

    /// Data, kept as base64 text.
    static func data(_ bytes: Span<UInt8>, at source: Int, into builder: DocumentBuilder) throws {
        let encoded = bytes.isEmpty ? "" : bytes.copiedData.base64EncodedString()
        try text(encoded, flags: TapeFlags.data, at: source, into: builder)
    }

    private static func text(_ text: String, flags: UInt8, at source: Int, into builder: DocumentBuilder) throws {
        var text = text
        try text.withUTF8Span { try accept(builder.string($0, at: source, flags: flags), builder) }
    }

    /// A UID (keyed-archiver reference): an integer, or refused by option.
    static func uid(_ value: UInt64, at source: Int, options: PropertyListOptions, into builder: DocumentBuilder) throws {
        guard options.uids == .integer else {
            throw CartographError(
                .typeMismatch, "the plist holds a UID, which these options reject", offset: source,
                expected: "a property-list value", found: "UID")
        }
        try integer(magnitude: value, negative: false, at: source, into: builder)
    }
}
