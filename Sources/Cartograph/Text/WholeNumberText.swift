/// Whole numbers written with a fraction or an exponent (`3.0`, `1e2`,
/// `1.5e1`, `9007199254740993.0`), read exactly from their digits.
///
/// Such text was read through its nearest `Double` and accepted when that
/// was whole and matched the text's `Decimal`: a whole number beyond 2^53
/// (`9007199254740993.0`, `9223372036854775807.0`), which `Double` cannot
/// hold, was refused as out of range, though it fits the integer asked for
/// (Foundation reads it). Here the digits and the exponent decide: the
/// value is the digits with the point moved by the exponent, whole when
/// every digit past the point is zero.
extension NumberText {
    /// The value of number text as `T` when the text is a whole number that
    /// fits `T`; nil when it has a nonzero fraction, does not fit, or is not
    /// number text (digits, an optional fraction and exponent, a sign).
    static func whole<T: FixedWidthInteger>(_ type: T.Type, _ bytes: Span<UInt8>) -> T? {
        guard let text = DecimalDigits(bytes) else { return nil }
        guard let first = text.firstNonzero else { return 0 }
        guard text.isWhole else { return nil }
        // The value is the digits from the first nonzero to the point (zeros past the last digit).
        var value: T = 0
        for position in first..<text.point {
            let next = position < text.count ? T(text.digit(position, bytes)) : 0
            let (shifted, overflow) = value.multipliedReportingOverflow(by: 10)
            guard !overflow else { return nil }
            // Negative values are built downward, so that T.min fits.
            let (added, overflowAdding) = text.negative ? shifted.subtractingReportingOverflow(next) : shifted.addingReportingOverflow(next)
            guard !overflowAdding else { return nil }
            value = added
        }
        return value
    }

    /// Whether number text is a whole number (every digit past the point,
    /// once the exponent has moved it, is zero), whatever its size.
    static func isWhole(_ bytes: Span<UInt8>) -> Bool {
        DecimalDigits(bytes)?.isWhole ?? false
    }

    /// Where the digits of number text lie: the integer digits and the
    /// fraction's, read as one run, and where the exponent puts the point.
    private struct DecimalDigits {
        let negative: Bool
        let integerStart: Int
        let integerCount: Int
        let fractionStart: Int
        /// Integer and fraction digits together.
        let count: Int
        /// The point's place in the run (after `point` digits), the exponent applied.
        let point: Int
        /// The first and last digit other than zero (nil: all zeros).
        private(set) var firstNonzero: Int?
        private(set) var lastNonzero: Int?

        init?(_ bytes: Span<UInt8>) {
            let length = bytes.count
            var index = 0
            var negative = false
            if index < length, bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") {
                negative = bytes[index] == UInt8(ascii: "-")
                index += 1
            }
            let integerStart = index
            while index < length, NumberText.isDigit(bytes[index]) { index += 1 }
            let integerCount = index - integerStart
            var fractionStart = index
            var fractionCount = 0
            if index < length, bytes[index] == UInt8(ascii: ".") {
                index += 1
                fractionStart = index
                while index < length, NumberText.isDigit(bytes[index]) { index += 1 }
                fractionCount = index - fractionStart
            }
            guard integerCount + fractionCount > 0 else { return nil }
            // The exponent, clamped: past ±100,000 it only decides overflow or a fraction.
            var exponent = 0
            if index < length, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
                index += 1
                var exponentNegative = false
                if index < length, bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") {
                    exponentNegative = bytes[index] == UInt8(ascii: "-")
                    index += 1
                }
                let start = index
                while index < length, NumberText.isDigit(bytes[index]) {
                    if exponent < 100_000 { exponent = exponent * 10 + Int(bytes[index] - UInt8(ascii: "0")) }
                    index += 1
                }
                guard index > start else { return nil }
                if exponentNegative { exponent = -exponent }
            }
            guard index == length else { return nil }
            self.negative = negative
            self.integerStart = integerStart
            self.integerCount = integerCount
            self.fractionStart = fractionStart
            count = integerCount + fractionCount
            point = integerCount + exponent
            var first = 0
            while first < count, digit(first, bytes) == 0 { first += 1 }
            guard first < count else { return }
            var last = count - 1
            while digit(last, bytes) == 0 { last -= 1 }
            firstNonzero = first
            lastNonzero = last
        }

        /// No nonzero digit lies past the point.
        var isWhole: Bool { lastNonzero.map { $0 < point } ?? true }

        /// The digit at `position` of the run.
        func digit(_ position: Int, _ bytes: Span<UInt8>) -> UInt8 {
            bytes[position < integerCount ? integerStart + position : fractionStart + position - integerCount] - UInt8(ascii: "0")
        }
    }

    /// Whether a byte is an ASCII digit.
    @inline(__always)
    static func isDigit(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "0") < 10 }
}
