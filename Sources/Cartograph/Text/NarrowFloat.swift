/// Number text to `Float` (and `Float16`) correctly rounded, by way of the
/// correctly rounded `Double`.
///
/// Rounding text to `Double` and then to `Float` is wrong only when the
/// `Double` lands exactly on a midpoint between two `Float`s: any other
/// midpoint lies strictly on one side of both the text's value and its
/// nearest `Double` (a midpoint is itself a `Double`, so one between them
/// would have been nearer). So the common case costs one conversion and a
/// comparison; at a midpoint the text's exact decimal value is compared
/// with the midpoint's exact decimal expansion.
///
/// Worked example: `7.038531e-26` is nearest the `Double` 0x3AB5C87FA0000000,
/// exactly halfway between the `Float`s 0x15AE43FD and 0x15AE43FE. The text
/// is below that midpoint, so the answer is 0x15AE43FD; converting the
/// `Double` would tie to even and give 0x15AE43FE. Likewise
/// `3.4028235677973366e38` is nearest the `Double` halfway between
/// `Float.greatestFiniteMagnitude` and 2^128, but below it, so it is the
/// greatest finite `Float`, not infinity.
enum NarrowFloat {
    /// The value of `text` (valid number text whose nearest `Double` is
    /// `nearest`) correctly rounded to `F`.
    static func value<F: BinaryFloatingPoint & LosslessStringConvertible>(_: F.Type, nearest: Double, text: Span<UInt8>) -> F {
        let rounded = F(nearest)
        guard let below = lowerNeighbour(of: nearest, in: F.self) else { return rounded }
        guard let order = compare(text: text, with: nearest.magnitude) else {
            // Text that is not plain decimal (JSON5's hexadecimal integers):
            // the standard library's own parser.
            return F(String(decoding: text.copiedBytes, as: UTF8.self)) ?? rounded
        }
        let chosen: F
        switch order {
        case .below: chosen = below
        case .above: chosen = below.nextUp
        case .equal: chosen = F(nearest.magnitude)
        }
        return nearest < 0 ? -chosen : chosen
    }

    /// Whether converting `value` to `F` is a tie (it lies exactly halfway
    /// between two `F`s, or between the greatest finite one and the next
    /// power of two), where text that rounded to `value` may belong on either side.
    static func isMidpoint<F: BinaryFloatingPoint>(_ value: Double, of _: F.Type) -> Bool {
        lowerNeighbour(of: value, in: F.self) != nil
    }

    /// Whether number text that rounded to `value` must be kept for a
    /// narrower type to be read from it: `value` is a midpoint of `Float`'s
    /// (or, where it exists, `Float16`'s).
    static func needsText(_ value: Double) -> Bool {
        #if !((os(macOS) || targetEnvironment(macCatalyst)) && arch(x86_64))
            if isMidpoint(value, of: Float16.self) { return true }
        #endif
        return isMidpoint(value, of: Float.self)
    }

    /// For a `value` halfway between two `F`s: the magnitude of the lower one; else nil.
    private static func lowerNeighbour<F: BinaryFloatingPoint>(of value: Double, in _: F.Type) -> F? {
        guard value.isFinite else { return nil }
        let magnitude = value.magnitude
        let near = F(magnitude)
        guard Double(near) != magnitude else { return nil }
        let below = Double(near) < magnitude ? near : near.nextDown
        // The value past the greatest finite one, as if the exponent went on.
        let above =
            below == F.greatestFiniteMagnitude
            ? Double(F.greatestFiniteMagnitude) + Double(F.greatestFiniteMagnitude.ulp)
            : Double(below.nextUp)
        return magnitude == (Double(below) + above) / 2 ? below : nil
    }

    enum Order { case below, equal, above }

    /// How the magnitude of decimal `text` compares with `value` (positive,
    /// finite), exactly; nil when the text is not `[+-]digits[.digits][e[+-]digits]`.
    static func compare(text: Span<UInt8>, with value: Double) -> Order? {
        guard let decimal = Decimal10(text: text) else { return nil }
        let exact = Decimal10(exactly: value)
        return decimal.compare(with: exact)
    }
}

/// A non-negative decimal as significant digits `0.d1d2d3… × 10^exponent`,
/// without leading or trailing zeros (no digits: zero).
private struct Decimal10 {
    var digits: [UInt8]
    var exponent: Int

    /// Parses plain decimal number text, sign ignored.
    init?(text: Span<UInt8>) {
        var index = 0
        let count = text.count
        if index < count, text[index] == UInt8(ascii: "-") || text[index] == UInt8(ascii: "+") { index += 1 }
        var digits: [UInt8] = []
        var pointShift = 0
        var sawDigit = false
        var sawPoint = false
        while index < count {
            let byte = text[index]
            if byte == UInt8(ascii: ".") {
                if sawPoint { return nil }
                sawPoint = true
            } else if byte &- UInt8(ascii: "0") < 10 {
                let digit = byte &- UInt8(ascii: "0")
                sawDigit = true
                if digits.isEmpty, digit == 0 {
                    // A leading zero: after the point it moves the value down a place.
                    if sawPoint { pointShift -= 1 }
                } else {
                    digits.append(digit)
                    if !sawPoint { pointShift += 1 }
                }
            } else {
                break
            }
            index += 1
        }
        guard sawDigit else { return nil }
        var exponent = 0
        if index < count {
            guard text[index] | 0x20 == UInt8(ascii: "e") else { return nil }
            index += 1
            var negative = false
            if index < count, text[index] == UInt8(ascii: "-") || text[index] == UInt8(ascii: "+") {
                negative = text[index] == UInt8(ascii: "-")
                index += 1
            }
            guard index < count else { return nil }
            while index < count {
                let digit = text[index] &- UInt8(ascii: "0")
                guard digit < 10 else { return nil }
                // Saturated: an exponent this large is beyond every midpoint anyway.
                exponent = min(exponent * 10 + Int(digit), 1 << 40)
                index += 1
            }
            if negative { exponent = -exponent }
        }
        while digits.last == 0 { digits.removeLast() }
        self.digits = digits
        self.exponent = pointShift + exponent
    }

    /// The exact decimal expansion of a positive finite `Double`: its
    /// significand times a power of two, in base 10^9 limbs.
    init(exactly value: Double) {
        var significand = value.significandBitPattern | (value.isNormal ? 1 << 52 : 0)
        var power = Int(value.exponent) - 52
        if !value.isNormal { power = -1074 }
        while significand & 1 == 0, significand != 0 {
            significand >>= 1
            power += 1
        }
        // Little-endian limbs of 10^9.
        var limbs: [UInt64] = [significand % 1_000_000_000, significand / 1_000_000_000 % 1_000_000_000, significand / 1_000_000_000_000_000_000]
        func multiply(by factor: UInt64) {
            var carry: UInt64 = 0
            for index in limbs.indices {
                let product = limbs[index] * factor + carry
                limbs[index] = product % 1_000_000_000
                carry = product / 1_000_000_000
            }
            while carry > 0 {
                limbs.append(carry % 1_000_000_000)
                carry /= 1_000_000_000
            }
        }
        // m × 2^p with p < 0 is m × 5^-p / 10^-p.
        var decimalShift = 0
        if power >= 0 {
            for _ in 0..<power { multiply(by: 2) }
        } else {
            for _ in 0..<(-power) { multiply(by: 5) }
            decimalShift = power
        }
        while limbs.count > 1, limbs.last == 0 { limbs.removeLast() }
        var text: [UInt8] = []
        for (position, limb) in limbs.reversed().enumerated() {
            var chunk = [UInt8](repeating: 0, count: 9)
            var rest = limb
            for place in stride(from: 8, through: 0, by: -1) {
                chunk[place] = UInt8(rest % 10)
                rest /= 10
            }
            if position == 0 { chunk = Array(chunk.drop { $0 == 0 }) }
            text += chunk
        }
        let integerDigits = text.count
        while text.last == 0 { text.removeLast() }
        digits = text
        exponent = integerDigits + decimalShift
    }

    func compare(with other: Decimal10) -> NarrowFloat.Order {
        if digits.isEmpty || other.digits.isEmpty {
            if digits.isEmpty, other.digits.isEmpty { return .equal }
            return digits.isEmpty ? .below : .above
        }
        if exponent != other.exponent { return exponent < other.exponent ? .below : .above }
        for index in 0..<min(digits.count, other.digits.count) where digits[index] != other.digits[index] {
            return digits[index] < other.digits[index] ? .below : .above
        }
        if digits.count == other.digits.count { return .equal }
        return digits.count < other.digits.count ? .below : .above
    }
}
