/// Decimal text of 64-bit integers without a `String` in between.
enum DecimalText {
    /// Hands the ASCII digits of `magnitude`, after a `-` when `negative` and
    /// not zero, to `body` (the span lives only for the call).
    @inline(__always)
    static func withDigits<Result>(_ magnitude: UInt64, negative: Bool, _ body: (Span<UInt8>) throws -> Result) rethrows -> Result {
        var digits = InlineArray<24, UInt8>(repeating: 0)
        var index = 24
        var rest = magnitude
        repeat {
            index -= 1
            digits[index] = UInt8(ascii: "0") + UInt8(rest % 10)
            rest /= 10
        } while rest > 0
        if negative, magnitude != 0 {
            index -= 1
            digits[index] = UInt8(ascii: "-")
        }
        return try body(digits.span.extracting(index...))
    }
}
