/// Correctly rounded `Double` from a decimal significand of at most 19
/// digits and a power of ten, without `strtod`: the Eisel–Lemire method
/// (Daniel Lemire, "Number Parsing at a Gigabyte per Second", Software:
/// Practice and Experience, 2021), with the 128-bit powers of five in
/// ``PowersOfFive``. With an exact significand (≤ 19 digits) and 128-bit
/// powers the result needs no fallback (Mushtak and Lemire, "Fast Number
/// Parsing Without Fallback", 2023). Checked against glibc's `strtod` on
/// random and edge-case spellings by `NumberConversionTests`.
enum EiselLemire {
    /// `significand × 10^exponent`, rounded to nearest, ties to even;
    /// ±0 below the smallest subnormal and ±infinity beyond the largest
    /// double. `significand` holds the decimal digits exactly.
    static func double(significand: UInt64, exponent: Int, negative: Bool) -> Double {
        let bits = magnitudeBits(significand: significand, exponent: exponent)
        return Double(bitPattern: bits | (negative ? 1 << 63 : 0))
    }

    /// The bit pattern of the positive result.
    private static func magnitudeBits(significand: UInt64, exponent q: Int) -> UInt64 {
        if significand == 0 || q < PowersOfFive.smallestExponent { return 0 }
        if q > PowersOfFive.largestExponent { return 0x7FF << 52 }
        let leadingZeros = significand.leadingZeroBitCount
        let w = significand << UInt64(leadingZeros)
        let index = 2 * (q - PowersOfFive.smallestExponent)
        // The product's top 64 bits and the next 64, with the power's low
        // word added only when the top bits could still change (all nine
        // bits below the 55 that matter are ones).
        var (high, low) = w.multipliedFullWidth(by: PowersOfFive.table[index])
        if high & 0x1FF == 0x1FF {
            let (secondHigh, _) = w.multipliedFullWidth(by: PowersOfFive.table[index + 1])
            let (sum, carry) = low.addingReportingOverflow(secondHigh)
            low = sum
            if carry { high &+= 1 }
        }
        let upperBit = Int(high >> 63)
        let shift = UInt64(upperBit + 9)
        var mantissa = high >> shift
        // floor(q × log2(10)) + 63, exactly for |q| ≤ 350, then the bias.
        var power2 = (((152_170 + 65_536) * q) >> 16) + 63 + upperBit - leadingZeros + 1023
        if power2 <= 0 {
            // Subnormal, or zero.
            if -power2 + 1 >= 64 { return 0 }
            mantissa >>= UInt64(-power2 + 1)
            mantissa += mantissa & 1
            mantissa >>= 1
            // Rounding up may have made it the smallest normal number.
            return mantissa < (1 << 52) ? mantissa : (1 << 52)
        }
        // Exactly halfway between two doubles (only possible for small
        // powers): round to even rather than up.
        if low <= 1, q >= -4, q <= 23, mantissa & 3 == 1, mantissa << shift == high {
            mantissa &= ~1
        }
        mantissa += mantissa & 1
        mantissa >>= 1
        if mantissa >= (2 << 52) {
            mantissa = 1 << 52
            power2 += 1
        }
        mantissa &= ~(1 << 52)
        if power2 >= 0x7FF { return 0x7FF << 52 }
        return UInt64(power2) << 52 | mantissa
    }
}
