/// Seconds as date text holds them: a whole number of seconds and the
/// decimal digits of the fraction after it, read and written exactly.
///
/// A date's `Double` (seconds since 2001) is read from that text as the
/// nearest `Double` to the decimal it spells, as a number is: summing the
/// fraction's digits one by one (`0.1 + 0.02 + 0.003`), then adding the
/// whole seconds and moving from 1970 to 2001, rounded three times and
/// missed the nearest `Double` for about a third of dates with a fraction
/// (Foundation's reader finds it). Written, the fraction has the digits of
/// the shortest decimal that reads back as the same `Double`, so that a
/// date keeps every bit of it through text.
///
/// The whole seconds are the floor of the value: before 2001 the fraction
/// counts up from the second before (`-0.25` is second `-1` and `.75`).
enum DecimalSeconds {
    /// The nearest `Double` to `whole` plus the decimal fraction whose
    /// digits (ASCII, after the point) are `fraction`.
    static func value(whole: Int, fraction: some Collection<UInt8>) -> Double {
        var digits = Array(fraction)
        while digits.last == UInt8(ascii: "0") { digits.removeLast() }
        guard !digits.isEmpty else { return Double(whole) }
        // A negative whole with a fraction: -(|whole| - 1 + (1 - fraction)).
        var text = Array((whole >= 0 ? "\(whole)." : "-\(-(whole + 1)).").utf8)
        text += whole >= 0 ? digits : complement(digits)
        return NumberText.double(text.span)
    }

    /// The floor of `value` and the digits of `value` minus it, from the
    /// shortest decimal that reads back as `value` (no trailing zeros; none
    /// for a whole value). `value` is finite and below 2^53 in magnitude.
    static func split(_ value: Double) -> (whole: Int, fraction: [UInt8]) {
        let (negative, digits, point) = decimal(of: value)
        // The digits before the point make the whole part, those after it the fraction.
        var whole = 0
        var fraction: [UInt8] = []
        for position in 0..<max(point, 0) {
            whole = whole * 10 + Int(position < digits.count ? digits[position] - UInt8(ascii: "0") : 0)
        }
        if point < 0 { fraction = Array(repeating: UInt8(ascii: "0"), count: -point) }
        if point < digits.count { fraction += digits[max(point, 0)...] }
        while fraction.last == UInt8(ascii: "0") { fraction.removeLast() }
        guard negative else { return (whole, fraction) }
        if fraction.isEmpty { return (-whole, []) }
        return (-whole - 1, complement(fraction))
    }

    /// The significant digits of `value`'s shortest decimal (ASCII, no
    /// leading zeros) and where the point falls in them (0: before the
    /// first; negative: that many zeros between the point and the first).
    private static func decimal(of value: Double) -> (negative: Bool, digits: [UInt8], point: Int) {
        // The shortest decimal that reads back: `123.25`, `-0.5`, `1e-05`,
        // `2.5e-07`, `1e+16`.
        let text = Array(DoubleFormatting.shortest(value).utf8)
        var index = 0
        let negative = text.first == UInt8(ascii: "-")
        if negative { index += 1 }
        var digits: [UInt8] = []
        var point: Int?
        while index < text.count, text[index] != UInt8(ascii: "e") {
            if text[index] == UInt8(ascii: ".") {
                point = digits.count
            } else {
                digits.append(text[index])
            }
            index += 1
        }
        var exponent = 0
        if index < text.count {
            index += 1
            var sign = 1
            if text[index] == UInt8(ascii: "-") || text[index] == UInt8(ascii: "+") {
                sign = text[index] == UInt8(ascii: "-") ? -1 : 1
                index += 1
            }
            while index < text.count {
                exponent = exponent * 10 + Int(text[index] - UInt8(ascii: "0"))
                index += 1
            }
            exponent *= sign
        }
        var position = (point ?? digits.count) + exponent
        // Leading zeros are not significant: `0.05` is the digit 5, point at -1.
        while digits.first == UInt8(ascii: "0"), digits.count > 1 {
            digits.removeFirst()
            position -= 1
        }
        return (negative, digits, position)
    }

    /// The digits of one minus the fraction `digits` (not all zero), over
    /// as many places: `25` (0.25) gives `75`, `05` gives `95`.
    private static func complement(_ digits: [UInt8]) -> [UInt8] {
        guard let last = digits.lastIndex(where: { $0 != UInt8(ascii: "0") }) else { return [] }
        var result: [UInt8] = []
        result.reserveCapacity(last + 1)
        for index in 0..<last { result.append(UInt8(ascii: "9") - (digits[index] - UInt8(ascii: "0"))) }
        result.append(UInt8(ascii: "0") + 10 - (digits[last] - UInt8(ascii: "0")))
        return result
    }
}
