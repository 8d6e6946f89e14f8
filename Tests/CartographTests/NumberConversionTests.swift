import Foundation
import Testing

@testable import Cartograph

/// Number text to `Double` without `strtod` (Clinger, then Eisel–Lemire):
/// bit for bit what glibc's correctly rounded `strtod` gives, on edge cases
/// and on seeded random spellings (300,000 by default;
/// `CARTOGRAPH_NUMBER_CASES=5000000` for more).
@Suite struct NumberConversionTests {
    static func reference(_ text: String) -> Double { text.withCString { strtod($0, nil) } }

    static func ours(_ text: String) -> Double {
        var text = text
        return text.withUTF8Span { NumberText.double($0) }
    }

    /// The same text read as the tape stores it, its NUL included: the
    /// slow path hands that NUL-terminated span to `strtod` in place.
    static func oursTerminated(_ text: String) -> Double {
        var bytes = Array(text.utf8)
        bytes.append(0)
        return NumberText.double(terminated: bytes.span)
    }

    static func agree(_ text: String) -> Bool {
        let expected = reference(text).bitPattern
        return ours(text).bitPattern == expected && oursTerminated(text).bitPattern == expected
    }

    static let edgeCases = [
        "0", "-0", "0.0", "-0.0", "0e10", "1", "-1", "0.1", "0.2", "0.3", "1e-1", "2e-1", "1e23", "8.98846567431158e307",
        "9007199254740992", "9007199254740993", "9007199254740994", "9007199254740995", "18014398509481985",
        "123456789012345678", "1234567890123456789", "9999999999999999999", "18446744073709551615",
        "4.9406564584124654e-324", "2.4703282292062327e-324", "2.4703282292062328e-324", "5e-324", "3e-324", "1e-323",
        "2.2250738585072011e-308", "2.2250738585072012e-308", "2.2250738585072014e-308", "2.225073858507201e-308",
        "1.7976931348623157e308", "1.7976931348623158e308", "1.7976931348623159e308", "1.8e308", "1e308", "1e309",
        "1e-342", "1e-343", "1e-400", "1e400", "9.5e-325", "7.4109846876186982e-323", "4.35e-322",
        "0.000001", "1e-7", "3.14159265358979323", "2.718281828459045", "1.00000000000000011102230246251565404236316680908203125",
        "7.2057594037927933e16", "5.0216813883093446e-208", "1.448997445238699", "-1.7976931348623157e+308",
        "45.17430996", "-75.7003031", "1090544144181609348835077142190", "4503599627370496.5", "4503599627370497.5",
        "9223372036854775807", "9223372036854775808", "1e22", "1e-22", "123e-22", "123e22", "0.1e-341",
        // Eight digits at a time, and where a run of eight ends early or late.
        "0.12345678", "0.123456789", "0.1234567", "1.12345678e3", "1.1234567e3", "-65.613616999999977", "123456789.12345678",
        "0.1234567812345678", "-0.1234567812345678e-300", "1.2345678E+300",
        // A tail of one to seven digits read in one step (the word ending at the text's end), or not (an exponent follows).
        "12345678.1", "1234567.1234567", "-1234567.7654321", "99999999.9999999", "1.1234567", "12.123456", "0.12345678901234",
        "123.4567e5", "1234.5e-3", "12345678.9e-1", "-0.000000001234567", "1234567890123.123456", "0.100000000000000",
        // A fraction of 1 to 16 digits that ends the text, read as one or two words; 17 takes the loop.
        "1234567.1", "-123456.12", "12345.1234567", "-1.12345678", "1.123456789", "-12.1234567890123", "1.1234567812345678",
        "123.1234567812345678", "0.0000000000000001", "-0.0000000000000001", "9.9999999999999999", "99999999.99999999",
        "1234567890.1234567", "12345678901.12345678", "123456789012345.1", "1234567890123456.12", "43.420273000000009",
        "-0.000000000000001e5", "1.1234567e-5", "1.12345678e+5", "12345678.12345678e-300",
        // Leading zeros are not significant digits: 19 significant digits stay on the fast path, 20 do not.
        "0.00000000000000000000000000001", "0.000000000000000000001234567890123456789", "-0.0000000000000000000012345678901234567891",
        "0.00000000000000000000000000000000000000000000000000000000000000000000000000000001e80", "100000000000000000000.5",
        "0.0000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
            + "000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
            + "00000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000004"
    ]

    @Test func edgeCasesMatchStrtod() {
        for text in Self.edgeCases {
            #expect(Self.agree(text), "\(text): ours \(Self.ours(text)), strtod \(Self.reference(text))")
        }
    }

    @Test func seededRandomSpellingsMatchStrtod() {
        let count = ProcessInfo.processInfo.environment["CARTOGRAPH_NUMBER_CASES"].flatMap(Int.init) ?? 300_000
        var generator = SeededGenerator(seed: 0xD0_0B1E)
        var failures: [String] = []
        for round in 0..<count {
            let text: String
            switch round % 4 {
            case 0:
                // A random double's shortest text (canada.json's shape), and its neighbours' digits.
                let value = Double(bitPattern: UInt64.random(in: 0..<0x7FF0_0000_0000_0000, using: &generator))
                text = "\(value)"
            case 1:
                // A random significand of 1 to 19 digits and exponent, the point anywhere.
                let digits = Int.random(in: 1...19, using: &generator)
                var significand = String(UInt64.random(in: 0...UInt64.max, using: &generator) % (digits == 19 ? UInt64.max : Self.pow10(digits)))
                let point = Int.random(in: 0...significand.count, using: &generator)
                if point < significand.count { significand.insert(".", at: significand.index(significand.startIndex, offsetBy: point)) }
                if significand.hasPrefix(".") { significand = "0" + significand }
                if significand.hasSuffix(".") { significand += "0" }
                text = significand + "e" + String(Int.random(in: -360...330, using: &generator))
            case 2:
                // Digits after a run of zeros (significant or not), in runs of eight and not.
                let zeros = String(repeating: "0", count: Int.random(in: 0...40, using: &generator))
                let digits = (0..<Int.random(in: 1...24, using: &generator)).map { _ in String(Int.random(in: 0...9, using: &generator)) }.joined()
                let sign = Bool.random(using: &generator) ? "-" : ""
                let exponent = Bool.random(using: &generator) ? "" : "e" + String(Int.random(in: -300...300, using: &generator))
                text = sign + "0." + zeros + digits + exponent
            default:
                // Halfway and near-halfway cases: a double's exact midpoint with its neighbour, to 17-19 digits.
                let value = Double(bitPattern: UInt64.random(in: 0x0010_0000_0000_0000..<0x7FE0_0000_0000_0000, using: &generator))
                let midpoint = (Decimal(value) + Decimal(value.nextUp)) / 2
                text = "\(midpoint)".prefix(Int.random(in: 17...21, using: &generator)).description
            }
            // (Decimal cannot hold every double: its NaN is skipped.)
            guard let first = text.first, first.isNumber || first == "-", text.last != ".", text.last != "e" else { continue }
            if !Self.agree(text), failures.count < 20 { failures.append(text) }
        }
        #expect(failures.isEmpty, "disagree with strtod: \(failures)")
    }

    /// Text that is not a JSON number, in the shapes the one- and two-word
    /// fraction reads look at: left to `strtod`, never read as digits.
    /// Integer text to `Int64` (the short path up to 18 characters, the
    /// checked one above) against the standard library's `Int64(_:)`, at
    /// every length from 1 to 21 characters, signed and not, at the
    /// boundaries and on seeded random digits; text that is not a plain
    /// integer (a fraction, an exponent, a lone sign) is never a value.
    @Test func int64TextAgreesWithTheStandardLibrary() {
        var seeded = UInt64(0x9E37_79B9_7F4A_7C15)
        func next() -> UInt64 {
            seeded = seeded &* 6364136223846793005 &+ 1442695040888963407
            return seeded >> 11
        }
        var cases = [
            "0", "-0", "1", "-1", "999999999999999999", "-999999999999999999", "1000000000000000000",
            "9223372036854775807", "-9223372036854775808", "9223372036854775808", "-9223372036854775809",
            "99999999999999999999", "1.5", "1e3", "-", "12a", "00", "-01"
        ]
        for length in 1...21 {
            for _ in 0..<200 {
                var digits = String(next() % 9 + 1)
                while digits.count < length { digits += String(next() % 10) }
                cases.append(digits)
                cases.append("-" + digits)
            }
        }
        for text in cases {
            let bytes = Array(text.utf8)
            let ours = NumberText.int64(bytes.span)
            #expect(ours == Int64(text), "\(text): \(String(describing: ours))")
        }
    }

    @Test func fastPathRefusesNonNumberText() {
        let refused = [
            "1.2345678x", "1.x2345678", "-1.234567:", "12.345678/", "1.23456789012345-", "1.2345678901234 5", "12345678.",
            "-", "-.5", ".5", "1.", "1.e5", "1.5e", "1.5e+", "1.12345678e", "1.1234567890123e+", "Infinity", "-Infinity", "NaN",
            "1.234567890123456\u{0}"
        ]
        for text in refused {
            var text = text
            let fast = text.withUTF8Span { NumberText.fastPath($0) }
            #expect(fast == nil, "\(text) read as \(fast.map(String.init(describing:)) ?? "nil")")
        }
    }

    static func pow10(_ digits: Int) -> UInt64 { (0..<digits).reduce(1) { value, _ in value * 10 } }

    @Test func theTableMatchesItsDefinition() {
        #expect(PowersOfFive.table.count == 2 * (PowersOfFive.largestExponent - PowersOfFive.smallestExponent + 1))
        // 5^0 and 5^1 normalised, 5^-1 rounded up.
        func entry(_ q: Int) -> (UInt64, UInt64) {
            let index = 2 * (q - PowersOfFive.smallestExponent)
            return (PowersOfFive.table[index], PowersOfFive.table[index + 1])
        }
        #expect(entry(0) == (1 << 63, 0))
        #expect(entry(1) == (0xA000_0000_0000_0000, 0))
        #expect(entry(-1) == (0xCCCC_CCCC_CCCC_CCCC, 0xCCCC_CCCC_CCCC_CCCD))
        for q in PowersOfFive.smallestExponent...PowersOfFive.largestExponent { #expect(entry(q).0 >> 63 == 1, "5^\(q)") }
    }

    static func whole<T: FixedWidthInteger>(_ type: T.Type, _ text: String) -> T? {
        var text = text
        return text.withUTF8Span { NumberText.whole(T.self, $0) }
    }

    /// Whole numbers with a fraction or an exponent are read from their
    /// digits: beyond 2^53 too, at both ends of each type's range; a
    /// nonzero digit past the point, or a value out of range, is nil.
    @Test func wholeNumberTextIsReadExactly() {
        #expect(Self.whole(Int64.self, "9007199254740993.0") == 9_007_199_254_740_993)
        #expect(Self.whole(Int64.self, "9223372036854775807.000") == .max)
        #expect(Self.whole(Int64.self, "-9223372036854775808.0") == .min)
        #expect(Self.whole(Int64.self, "-922337203685477580.8e1") == .min)
        #expect(Self.whole(Int64.self, "9223372036854775808.0") == nil)
        #expect(Self.whole(Int64.self, "-9223372036854775809e0") == nil)
        #expect(Self.whole(UInt64.self, "18446744073709551615.0") == .max)
        #expect(Self.whole(UInt64.self, "1.8446744073709551615e19") == .max)
        #expect(Self.whole(UInt64.self, "1.8446744073709551616e19") == nil)
        #expect(Self.whole(UInt64.self, "-1.0") == nil)
        #expect(Self.whole(UInt64.self, "-0.0") == 0)
        #expect(Self.whole(Int64.self, "1.5e1") == 15)
        #expect(Self.whole(Int64.self, "150e-1") == 15)
        #expect(Self.whole(Int64.self, "1.55e1") == nil)
        #expect(Self.whole(Int64.self, "1e19") == nil)
        #expect(Self.whole(UInt64.self, "1e19") == 10_000_000_000_000_000_000)
        #expect(Self.whole(Int64.self, "0.000e999999999") == 0)
        #expect(Self.whole(Int64.self, "1e-999999999") == nil)
        #expect(Self.whole(Int64.self, "1e999999999") == nil)
        #expect(Self.whole(Int64.self, "1e-400") == nil)
        #expect(Self.whole(Int64.self, "1.0000000000000000000000000000000000000001") == nil)
        #expect(Self.whole(Int64.self, "+5.0") == 5)
        #expect(Self.whole(Int64.self, "5.") == 5)
        #expect(Self.whole(Int64.self, ".5e1") == 5)
        #expect(Self.whole(Int64.self, "00012.000") == 12)
        #expect(Self.whole(Int8.self, "-1.28e2") == -128)
        #expect(Self.whole(Int8.self, "1.28e2") == nil)
        #expect(Self.whole(Int128.self, "1e30") == Int128(1_000_000_000_000_000) * 1_000_000_000_000_000)
        #expect(Self.whole(UInt128.self, "340282366920938463463374607431768211455.0") == .max)
        #expect(Self.whole(Int64.self, "e5") == nil)
        #expect(Self.whole(Int64.self, "1e") == nil)
        #expect(Self.whole(Int64.self, "0x10") == nil)
        #expect(Self.whole(Int64.self, "") == nil)
    }

    /// Random integers written with the point moved and an exponent to
    /// match, with zeros added, read back as the integer; with a nonzero
    /// digit after them, not.
    @Test func wholeNumbersInEverySpellingReadBack() {
        var generator = SeededGenerator(seed: 0x3_40_1E)
        for _ in 0..<5000 {
            let value = Int64.random(in: .min ... .max, using: &generator) >> Int64.random(in: 0...62, using: &generator)
            let digits = String(value.magnitude)
            let sign = value < 0 ? "-" : ""
            let shift = Int.random(in: 0...digits.count, using: &generator)
            let zeros = String(repeating: "0", count: Int.random(in: 0...3, using: &generator))
            // digits = head.tail, so value = head.tail × 10^shift.
            let head = digits.prefix(digits.count - shift)
            let tail = digits.suffix(shift)
            let text = "\(sign)\(head.isEmpty ? "0" : head).\(tail)\(zeros)e\(shift)"
            #expect(Self.whole(Int64.self, text) == value, "\(text)")
            #expect(Self.whole(Int64.self, "\(sign)\(head.isEmpty ? "0" : head).\(tail)\(zeros)1e\(shift)") == nil || value == 0)
        }
    }
}
