import Foundation
import Testing

@testable import Cartograph

/// Dates read from text are the nearest `Date` to what the text says, and
/// dates a property list holds keep every bit of their `Double` through the
/// tape's text: checked against exact integer arithmetic and against
/// Foundation's decoders.
@Suite struct ExactDateTests {
    private struct Event: Codable {
        var when: Date
    }

    /// Whether `value` is the nearest `Double` to `whole + fraction / 10^digits`
    /// (`fraction` below `10^digits`, `digits` at most 9), by exact integer
    /// arithmetic: no `Double` between is closer, ties to an even significand.
    static func isNearest(_ value: Double, whole: Int, fraction: Int, digits: Int) -> Bool {
        let scale = (0..<digits).reduce(Int128(1)) { product, _ in product * 10 }
        let exact = Int128(whole) * scale + Int128(fraction)
        let candidates = [value, value.nextUp, value.nextDown].filter(\.isNormal)
        guard candidates.first == value else { return false }
        // Each candidate is significand × 2^exponent exactly; its distance
        // to exact / scale, times scale × 2^shift, is an integer.
        let parts = candidates.map { candidate -> (significand: Int128, exponent: Int) in
            let significand = Int128(candidate.significandBitPattern | 1 << 52)
            return (candidate < 0 ? -significand : significand, Int(candidate.exponent) - 52)
        }
        let shift = max(0, parts.map { -$0.exponent }.max()!)
        let distances = parts.map { part in
            (part.significand * scale * (Int128(1) << (shift + part.exponent)) - exact * (Int128(1) << shift)).magnitude
        }
        for neighbour in distances.dropFirst() {
            if neighbour < distances[0] { return false }
            if neighbour == distances[0], value.significandBitPattern & 1 == 1 { return false }
        }
        return true
    }

    /// Text of the instant `secondsSince1970` (whole) with fraction digits.
    static func isoText(_ secondsSince1970: Int, fraction: String) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(secondsFromGMT: 0)
        var text = formatter.string(from: Date(timeIntervalSince1970: Double(secondsSince1970)))
        text.removeLast()
        return text + "." + fraction + "Z"
    }

    /// ISO 8601 text with one to nine digits of fraction, from 1906 to 2096:
    /// every date read is the nearest `Date` to the text, and equals
    /// Foundation's `JSONDecoder` wherever Foundation's is the nearest too.
    @Test func isoDatesWithFractionsAreTheNearestDate() throws {
        var generator = SeededGenerator(seed: 0x150_8601)
        let ours = JSONMapper(options: CodableOptions { $0.dates = .iso8601(fractionalSeconds: true) })
        let foundation = JSONDecoder()
        foundation.dateDecodingStrategy = .iso8601
        var agreed = 0
        for round in 0..<3000 {
            let seconds = Int.random(in: -2_000_000_000...4_000_000_000, using: &generator)
            let digits = round < 30 ? 1 + round % 9 : Int.random(in: 1...9, using: &generator)
            let fraction = Int.random(in: 0..<(0..<digits).reduce(1) { product, _ in product * 10 }, using: &generator)
            var fractionText = String(fraction)
            fractionText = String(repeating: "0", count: digits - fractionText.count) + fractionText
            let text = Self.isoText(seconds, fraction: fractionText)
            let json = Array(#"{"when":"\#(text)"}"#.utf8)
            let date = try ours.decode(Event.self, from: json).when
            let reference = date.timeIntervalSinceReferenceDate
            #expect(Self.isNearest(reference, whole: seconds - 978_307_200, fraction: fraction, digits: digits), "\(text): \(reference)")
            let theirs = try foundation.decode(Event.self, from: Data(json)).when.timeIntervalSinceReferenceDate
            if theirs.bitPattern == reference.bitPattern {
                agreed += 1
            } else {
                #expect(
                    !Self.isNearest(theirs, whole: seconds - 978_307_200, fraction: fraction, digits: digits),
                    "\(text): ours \(reference), Foundation \(theirs)")
            }
        }
        #expect(agreed > 2900)
    }

    /// Fractions beyond nine digits, offsets, and dates right at 2001.
    @Test func longFractionsAndOffsetsAreReadAsOneDecimal() throws {
        let cases: [(String, Double)] = [
            ("2001-01-01T00:00:00.5Z", 0.5),
            ("2000-12-31T23:59:59.75Z", -0.25),
            ("2001-01-01T00:00:00.0000001Z", 1e-7),
            ("2000-12-31T23:59:59.9999999Z", -1e-7),
            ("2001-01-01T01:00:00.25+01:00", 0.25),
            ("2017-04-11T00:19:33.160Z", 513_562_773.16),
            ("2017-04-11T00:19:33.16000000000000000000000000001Z", 513_562_773.16),
            ("1915-01-05T17:50:00.61Z", -2_713_586_999.39)
        ]
        for (text, expected) in cases {
            let date = try #require(DateFormats.parseISO8601(text), "\(text)")
            #expect(date.timeIntervalSinceReferenceDate.bitPattern == expected.bitPattern, "\(text): \(date.timeIntervalSinceReferenceDate)")
        }
    }

    /// Seconds since 2001 split into whole seconds and the digits of the
    /// shortest decimal, and read back: every bit kept, before and after
    /// 2001, for values `description` writes with an exponent too.
    @Test func decimalSecondsKeepEveryBit() {
        var generator = SeededGenerator(seed: 0xDEC1_5EC)
        var values: [Double] = [
            0, 0.5, -0.5, 1e-7, -1e-7, .leastNonzeroMagnitude, -.leastNonzeroMagnitude, 2.5e-5, -2.5e-5, 1e-4, 123.25, -4_760_004.536_577_038_5
        ]
        for _ in 0..<5000 {
            let magnitude = Double.random(in: 0..<3e11, using: &generator)
            values.append(Bool.random(using: &generator) ? magnitude : -magnitude)
            values.append(Double(Int.random(in: -1_000_000...1_000_000, using: &generator)) + Double.random(in: 0..<1, using: &generator))
        }
        for value in values {
            let (whole, fraction) = DecimalSeconds.split(value)
            #expect(Double(whole) <= value && value < Double(whole) + 1, "\(value): whole \(whole)")
            #expect(fraction.last != UInt8(ascii: "0"), "\(value)")
            let back = DecimalSeconds.value(whole: whole, fraction: fraction)
            #expect(
                back.bitPattern == value.bitPattern || (back == 0 && value == 0),
                "\(value) → \(whole) . \(String(decoding: fraction, as: UTF8.self)) → \(back)")
        }
    }

    /// Dates a binary property list holds (as `Date()` makes them, with
    /// digits below the microsecond) are decoded as Foundation decodes them,
    /// bit for bit, and written back through a `Document` unchanged.
    @Test func binaryPlistDatesKeepEveryBit() throws {
        var generator = SeededGenerator(seed: 0x0B1_DA7E)
        var seconds: [Double] = [0.25, -0.25, 1e-7, -1e-7, 0.1234567, 786_000_000.123_456_78, -3_000_000_000.000_000_4]
        for _ in 0..<400 { seconds.append(Double.random(in: -3e9..<3e9, using: &generator)) }
        let events = seconds.map { Event(when: Date(timeIntervalSinceReferenceDate: $0)) }
        let encoder = PropertyListEncoder()
        encoder.outputFormat = .binary
        let file = try encoder.encode(events)
        let ours = try PropertyListMapper().decode([Event].self, from: Array(file))
        let theirs = try PropertyListDecoder().decode([Event].self, from: file)
        #expect(ours.count == theirs.count)
        for (index, (mine, foundation)) in zip(ours, theirs).enumerated() {
            #expect(
                mine.when.timeIntervalSinceReferenceDate.bitPattern == foundation.when.timeIntervalSinceReferenceDate.bitPattern,
                "date \(index): \(seconds[index])")
        }
        // Through the tape's text and out again as a binary plist.
        let rewritten = try PropertyListMapper().encode(ours, format: .binary)
        let again = try PropertyListDecoder().decode([Event].self, from: Data(rewritten))
        #expect(
            zip(again, theirs).allSatisfy { $0.when.timeIntervalSinceReferenceDate.bitPattern == $1.when.timeIntervalSinceReferenceDate.bitPattern })
    }

    /// A date on the microsecond keeps the tape's six-digit text.
    @Test func microsecondDatesKeepTheirSixDigitText() {
        #expect(PlistDate.text(secondsSince2001: 0.25) == "2001-01-01T00:00:00.250000Z")
        #expect(PlistDate.text(secondsSince2001: -0.25) == "2000-12-31T23:59:59.750000Z")
        #expect(PlistDate.text(secondsSince2001: 1e-7) == "2001-01-01T00:00:00.0000001Z")
        #expect(PlistDate.date("2000-12-31T23:59:59.750000Z")?.timeIntervalSinceReferenceDate == -0.25)
        #expect(PlistDate.date("2001-01-01T00:00:00.0000001Z")?.timeIntervalSinceReferenceDate == 1e-7)
    }
}
