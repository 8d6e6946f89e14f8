import Foundation

/// Conversions from JSON number text (already validated by the parser) to
/// Swift numbers, locale-independent and exact-or-nil.
///
/// Integers are parsed digit by digit with overflow checks. Doubles take
/// Clinger's fast path when the significand fits in 53 bits and the power of
/// ten is exact (|e| ≤ 22), which is exact by construction; otherwise the
/// standard library's correctly rounded parser (C locale) decides.
@usableFromInline
enum NumberText {
    /// Whether number text has neither a fraction nor an exponent. Computed
    /// on demand rather than stored at parse time: the parser's per-number
    /// work is the cost that matters on number-heavy input.
    @inline(__always)
    static func isIntegerText(_ bytes: Span<UInt8>) -> Bool {
        for index in 0..<bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") { return false }
        }
        return true
    }

    /// Whether number text is a zero (no digit 1–9 before its exponent):
    /// a zero `Double` read from other text underflowed, as `2.01e-1234`.
    static func isZeroText(_ bytes: Span<UInt8>) -> Bool {
        for index in 0..<bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "1")...UInt8(ascii: "9"): return false
            case UInt8(ascii: "e"), UInt8(ascii: "E"): return true
            default: continue
            }
        }
        return true
    }

    /// The value of integer text if it fits in `Int64`.
    static func int64(_ bytes: Span<UInt8>) -> Int64? {
        let count = bytes.count
        guard count > 0 else { return nil }
        let negative = bytes[0] == UInt8(ascii: "-")
        var index = negative ? 1 : 0
        guard index < count else { return nil }
        if count <= 18 {
            // At most 18 digits: below 10^18, so no step can overflow, and
            // the checks of the general loop are left out (most integers
            // in JSON are this short).
            var value: Int64 = 0
            while index < count {
                let digit = bytes[index] &- UInt8(ascii: "0")
                guard digit < 10 else { return nil }
                value = value &* 10 &+ Int64(digit)
                index += 1
            }
            return negative ? -value : value
        }
        var magnitude: UInt64 = 0
        while index < count {
            let digit = bytes[index] &- UInt8(ascii: "0")
            guard digit < 10 else { return nil }
            let (times10, overflow1) = magnitude.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times10.addingReportingOverflow(UInt64(digit))
            if overflow1 || overflow2 { return nil }
            magnitude = sum
            index += 1
        }
        if negative {
            if magnitude == UInt64(Int64.max) + 1 { return Int64.min }
            guard magnitude <= UInt64(Int64.max) else { return nil }
            return -Int64(magnitude)
        }
        guard magnitude <= UInt64(Int64.max) else { return nil }
        return Int64(magnitude)
    }

    /// The value of integer text if it fits in `UInt64` (`-0` counts as 0).
    static func uint64(_ bytes: Span<UInt8>) -> UInt64? {
        let count = bytes.count
        guard count > 0 else { return nil }
        if bytes[0] == UInt8(ascii: "-") {
            for index in 1..<count where bytes[index] != UInt8(ascii: "0") { return nil }
            return count > 1 ? 0 : nil
        }
        var magnitude: UInt64 = 0
        for index in 0..<count {
            let digit = bytes[index] &- UInt8(ascii: "0")
            guard digit < 10 else { return nil }
            let (times10, overflow1) = magnitude.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times10.addingReportingOverflow(UInt64(digit))
            if overflow1 || overflow2 { return nil }
            magnitude = sum
        }
        return magnitude
    }

    /// 10^0 through 10^8, for a word of up to eight new digits.
    private static let smallPowers: [UInt64] = [1, 10, 100, 1000, 10000, 100_000, 1_000_000, 10_000_000, 100_000_000]

    private static let exactPowers: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22
    ]

    /// The nearest `Double` to the text (±infinity when it overflows, ±0 when it underflows).
    ///
    /// Up to 19 significant digits (nearly every number in practice):
    /// Clinger's exact fast path when the significand and the power of ten
    /// are both exact doubles, else ``EiselLemire``. More digits, or an
    /// exponent beyond ±400: glibc's `strtod` in the C locale, which is
    /// too slow for coordinate-heavy documents to take every number.
    static func double(_ bytes: Span<UInt8>) -> Double {
        fastPath(bytes) ?? CText.strtodCLocale(copying: bytes)
    }

    /// The nearest `Double` to number text followed by a NUL byte, which
    /// `terminated` includes (as the tape stores numbers): `strtod` reads it
    /// in place, with no copy on the slow path.
    /// Usable from inlined code: ``Node/double()`` is inlinable.
    @usableFromInline
    static func double(terminated bytes: Span<UInt8>) -> Double {
        fastPath(bytes.extracting(droppingLast: 1)) ?? CText.strtodCLocale(terminated: bytes)
    }

    /// Valid JSON number text read without `strtod` (nil: use it).
    ///
    /// The digits are gathered into one 64-bit significand, eight at a time
    /// where eight digits follow (one load and three multiplications, the
    /// SWAR method of Lemire's fast_float) and one at a time elsewhere. Up to
    /// 19 significant digits the significand is exact; leading zeros are
    /// not significant ("0.000123" has three). Anything that is not plain
    /// JSON number text (the non-finite spellings) gives nil.
    static func fastPath(_ bytes: Span<UInt8>) -> Double? {
        let count = bytes.count
        guard count > 0 else { return nil }
        let negative = bytes[0] == UInt8(ascii: "-")
        var index = negative ? 1 : 0
        var significand: UInt64 = 0
        let integerStart = index
        while index < count, case let digit = bytes[index] &- UInt8(ascii: "0"), digit < 10 {
            significand = significand &* 10 &+ UInt64(digit)
            index &+= 1
        }
        var digits = index &- integerStart
        guard digits > 0 else { return nil }
        var exponent = 0
        if index < count, bytes[index] == UInt8(ascii: ".") {
            index &+= 1
            let rest = count &- index
            // The common shape: a fraction of 1 to 16 digits that ends the
            // text, read as at most two words without a loop: the word
            // after the point when there are more than eight, and the word
            // ending at the text's end, whose bytes before the new digits
            // (already read, or the integer part) are taken as '0's.
            // canada.json's coordinates ("-65.613616999999977") are all
            // this shape. Anything else (an exponent follows, more digits)
            // takes the loops below.
            if rest > 0, rest <= 16, count >= 8 {
                let newDigits = rest > 8 ? rest &- 8 : rest
                let last = lastWord(bytes, newDigits: newDigits)
                var valid = isEightDigits(last)
                var head = significand
                if rest > 8 {
                    let first = bytes.word(at: index).littleEndian
                    valid = valid && isEightDigits(first)
                    head = head &* 100_000_000 &+ eightDigitsValue(first)
                }
                if valid {
                    let value = head &* smallPowers[newDigits] &+ eightDigitsValue(last)
                    return assemble(value, exponent: -rest, digits: digits &+ rest, negative: negative, bytes)
                }
            }
            let fractionStart = index
            while count &- index >= 8 {
                let word = bytes.word(at: index).littleEndian
                guard isEightDigits(word) else { break }
                significand = significand &* 100_000_000 &+ eightDigitsValue(word)
                index &+= 8
            }
            while index < count, case let digit = bytes[index] &- UInt8(ascii: "0"), digit < 10 {
                significand = significand &* 10 &+ UInt64(digit)
                index &+= 1
            }
            guard index > fractionStart else { return nil }
            exponent = fractionStart &- index
            digits &+= index &- fractionStart
        }
        if index < count {
            guard bytes[index] | 0x20 == UInt8(ascii: "e") else { return nil }
            index &+= 1
            var exponentNegative = false
            if index < count, bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") {
                exponentNegative = bytes[index] == UInt8(ascii: "-")
                index &+= 1
            }
            guard index < count else { return nil }
            var value = 0
            while index < count {
                let digit = bytes[index] &- UInt8(ascii: "0")
                guard digit < 10 else { return nil }
                value = value &* 10 &+ Int(digit)
                if value > 400 { return nil }
                index &+= 1
            }
            exponent &+= exponentNegative ? -value : value
        }
        return assemble(significand, exponent: exponent, digits: digits, negative: negative, bytes)
    }

    /// The value of `significand × 10^exponent` read from `digits` decimal
    /// digits of the text: nil beyond 19 significant digits (the
    /// significand has wrapped), else exact by Clinger's fast path or
    /// ``EiselLemire``.
    @inline(__always)
    private static func assemble(
        _ significand: UInt64, exponent: Int, digits: Int, negative: Bool, _ bytes: Span<UInt8>
    ) -> Double? {
        if digits > 19 {
            let count = bytes.count
            // Leading zeros (and the point between them) are not significant.
            var significant = digits
            var leading = negative ? 1 : 0
            while leading < count, bytes[leading] == UInt8(ascii: "0") || bytes[leading] == UInt8(ascii: ".") {
                if bytes[leading] == UInt8(ascii: "0") { significant -= 1 }
                leading += 1
            }
            if significant > 19 { return nil }
        }
        if significand == 0 { return negative ? -0.0 : 0 }
        // Clinger: both operands exact, so one IEEE operation rounds correctly.
        if significand <= 1 << 53, exponent >= -22, exponent <= 22 {
            var result = Double(significand)
            if exponent < 0 {
                result /= exactPowers[-exponent]
            } else if exponent > 0 {
                result *= exactPowers[exponent]
            }
            return negative ? -result : result
        }
        return EiselLemire.double(significand: significand, exponent: exponent, negative: negative)
    }

    /// The last eight bytes of the text (`count` ≥ 8) with all but the last
    /// `newDigits` (1 to 8) replaced by '0's: those digits' value through
    /// ``eightDigitsValue(_:)``, whatever came before them.
    @inline(__always)
    private static func lastWord(_ bytes: Span<UInt8>, newDigits: Int) -> UInt64 {
        let word = bytes.word(at: bytes.count &- 8).littleEndian
        let consumed: UInt64 = (1 << (UInt64(8 &- newDigits) &* 8)) &- 1
        return (word & ~consumed) | (0x3030_3030_3030_3030 & consumed)
    }

    /// Whether the eight bytes of `word` (little-endian) are all ASCII digits.
    @inline(__always)
    private static func isEightDigits(_ word: UInt64) -> Bool {
        (word & 0xF0F0_F0F0_F0F0_F0F0) | (((word &+ 0x0606_0606_0606_0606) & 0xF0F0_F0F0_F0F0_F0F0) >> 4) == 0x3333_3333_3333_3333
    }

    /// The value of eight ASCII digits loaded little-endian (first digit in
    /// the low byte): pairs, then quadruples, then the whole, by multiplication.
    @inline(__always)
    private static func eightDigitsValue(_ word: UInt64) -> UInt64 {
        var value = word &- 0x3030_3030_3030_3030
        value = value &* 10 &+ (value >> 8)
        let mask: UInt64 = 0x0000_00FF_0000_00FF
        value = ((value & mask) &* (100 &+ (1_000_000 << 32)) &+ ((value >> 16) & mask) &* (1 &+ (10_000 << 32))) >> 32
        return value & 0xFFFF_FFFF
    }

    /// The exact value as `Decimal`, or nil when the text has more
    /// significant digits than `Decimal` holds (38) or is out of its range.
    static func decimal(_ bytes: Span<UInt8>) -> Decimal? {
        var significant = 0
        var leading = true
        for index in 0..<bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") { break }
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { continue }
            if leading, byte == UInt8(ascii: "0") { continue }
            leading = false
            significant += 1
        }
        guard significant <= 38 else { return nil }
        let text = bytes.decodedString
        return Decimal(string: text, locale: Locale(identifier: "en_US_POSIX"))
    }
}
