import Foundation
import Testing

@testable import Cartograph

/// The writer's shortest double text (`shortest_double.c`) against the
/// standard library's `description` it replaced (through
/// ``DoubleFormatting/json(_:)``): the same bytes on every class of double
/// and on random ones, and text that reads back as the same double.
@Suite struct ShortestDoubleTests {
    static func written(_ value: Double) -> String {
        let buffer = OutputBuffer(capacity: 16)
        buffer.appendShortest(value)
        return String(decoding: buffer.bytes, as: UTF8.self)
    }

    /// Where the two differ, or nil.
    static func mismatch(_ value: Double) -> String? {
        let ours = written(value)
        let expected = DoubleFormatting.json(value)
        guard ours == expected, Double(ours) == value || (value == 0 && Double(ours) == 0) else {
            return "\(value.bitPattern): wrote \(ours), expected \(expected)"
        }
        return nil
    }

    /// Powers of two and of ten, the ends of each range, the edges of the
    /// plain spelling (1e-4, 2^53) and their neighbours, with both signs.
    static var edges: [Double] {
        var values: [Double] = [
            0, 1, 0.1, 0.2, 0.3, 1.5, 100, 123.456, 1e-4, 1e-5, 9.999999999999999e-5, 0.00011, 1e15, 1e16, 1e21, 1e22, 1e23,
            9_007_199_254_740_992, 9_007_199_254_740_994, 9_007_199_254_740_991, 18_014_398_509_481_984,
            123_456_789_012_345_680, Double(bitPattern: 0x000F_FFFF_FFFF_FFFF), Double(bitPattern: 7), 2.2250738585072014e-308,
            .greatestFiniteMagnitude,
            .leastNormalMagnitude, .leastNonzeroMagnitude, .pi, .ulpOfOne, 1 / 3, 2 / 3, 0.1 + 0.2, 1.7976931348623157e308,
            Double(bitPattern: 1), Double(bitPattern: 2), 299_792_458, 6.02214076e23, 1.602176634e-19
        ]
        for exponent in -1074...1023 { values.append(Double(sign: .plus, exponent: exponent, significand: 1)) }
        for exponent in -323...308 {
            if let power = Double("1e\(exponent)") { values.append(power) }
        }
        var all: [Double] = []
        for value in values where value.isFinite {
            for neighbour in [value, value.nextUp, value.nextDown, value.nextUp.nextUp, value.nextDown.nextDown] where neighbour.isFinite {
                all.append(neighbour)
                all.append(-neighbour)
            }
        }
        return all
    }

    @Test func everyEdgeIsWrittenAsTheStandardLibraryWritesIt() {
        let failures = Self.edges.compactMap(Self.mismatch)
        #expect(failures.isEmpty, "\(failures.count) of \(Self.edges.count): \(failures.prefix(8))")
    }

    @Test func randomBitPatternsAreWrittenAsTheStandardLibraryWritesThem() {
        var generator = SeededGenerator(seed: 0xD0_0B1E)
        var failures: [String] = []
        for _ in 0..<400_000 {
            let value = Double(bitPattern: generator.next())
            guard value.isFinite else { continue }
            if let failure = Self.mismatch(value) { failures.append(failure) }
        }
        #expect(failures.isEmpty, "\(failures.count): \(failures.prefix(8))")
    }

    /// Below 10^8, a value of at most seven decimals takes a shorter way
    /// to its digits (`short_decimal_digits`) than Ryu's: such values at
    /// every number of decimals and magnitude, with their neighbours (which
    /// have more decimals and must not take it), and the range's edges.
    @Test func valuesOfAFewDecimalsAreWrittenAsTheStandardLibraryWritesThem() {
        var generator = SeededGenerator(seed: 0x5E_C1A2)
        var failures: [String] = []
        var values: [Double] = [1e8, 99_999_999.9999999, 99_999_999.999999, 1e-7, 5e-8, 4.9999999e-8, 0.0000001, 0.0001, 12_345_678.1234567]
        for _ in 0..<300_000 {
            let decimals = Int.random(in: 0...8, using: &generator)
            let whole = UInt64.random(in: 0..<100_000_000, using: &generator) >> UInt64.random(in: 0...26, using: &generator)
            let fraction = decimals == 0 ? "" : "." + String(UInt64.random(in: 0..<UInt64(pow(10, Double(decimals))), using: &generator))
            guard let value = Double("\(whole)\(fraction)") else { continue }
            values.append(value)
            // Just above the range, where doubles are further apart than
            // 10^-7 and seven decimals no longer name one value.
            if let above = Double("\(UInt64.random(in: 100_000_000..<10_000_000_000, using: &generator))\(fraction)") { values.append(above) }
        }
        for value in values {
            for neighbour in [value, value.nextUp, value.nextDown, -value] {
                if let failure = Self.mismatch(neighbour) { failures.append(failure) }
            }
        }
        #expect(failures.isEmpty, "\(failures.count): \(failures.prefix(8))")
    }

    /// Runs of values of many decimals (Ryu's way), of few (the shorter
    /// way), and the two mixed, all written into one output as the
    /// standard library writes them.
    @Test func oneOutputWritesRunsOfEitherKindAsTheStandardLibrary() {
        var generator = SeededGenerator(seed: 0x5E_C1A3)
        func many() -> Double { Double.random(in: -180...180, using: &generator) }
        func few() -> Double { Double(Int.random(in: -9_999_999...9_999_999, using: &generator)) / 1_000 }
        var values: [Double] = (0..<2_000).map { _ in many() } + (0..<2_000).map { _ in few() }
        values += (0..<4_000).map { index in index % 3 == 0 ? few() : many() }
        values += (0..<2_000).map { _ in many() } + (0..<500).map { _ in few() }
        let buffer = OutputBuffer(capacity: 16)
        for value in values {
            buffer.appendShortest(value)
            buffer.append(UInt8(ascii: ","))
        }
        let written = String(decoding: buffer.bytes, as: UTF8.self).split(separator: ",").map(String.init)
        #expect(written == values.map(DoubleFormatting.json))
    }

    /// Short decimals and integers: the values whose interval ends or
    /// middle are exact, where the rounding takes its rarer branch.
    @Test func shortDecimalsAndIntegersAreWrittenAsTheStandardLibraryWritesThem() {
        var generator = SeededGenerator(seed: 0x5E_C1A1)
        var failures: [String] = []
        for _ in 0..<200_000 {
            let digits = UInt64.random(in: 1...999_999_999_999, using: &generator) / (UInt64(1) << UInt64.random(in: 0...36, using: &generator))
            let exponent = Int.random(in: -330...310, using: &generator)
            guard let value = Double("\(digits)e\(exponent)"), value.isFinite else { continue }
            if let failure = Self.mismatch(value) { failures.append(failure) }
        }
        for integer in stride(from: 1.0, to: 1e17, by: 1e17 / 50_000) {
            if let failure = Self.mismatch(integer.rounded()) { failures.append(failure) }
        }
        #expect(failures.isEmpty, "\(failures.count): \(failures.prefix(8))")
    }
}
