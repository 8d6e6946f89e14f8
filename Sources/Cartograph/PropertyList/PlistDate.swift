import Foundation

/// Property-list dates on the tape: ISO 8601 text with microseconds (what
/// JSON sees), read back to the same `Date` the reader found, to the
/// microsecond (whole seconds since 2001 plus microseconds, computed the
/// same way both times).
enum PlistDate {
    static let referenceOffset = 978_307_200

    /// `2026-11-02T09:14:03.250000Z` from seconds since 2001 and microseconds
    /// (years 1 to 9999), formatted by hand: `String(format:)` cost more than
    /// the rest of reading a date.
    static func text(seconds: Int, microseconds: Int) -> String {
        let unix = seconds + referenceOffset
        let days = Int((Double(unix) / 86_400).rounded(.down))
        let secondOfDay = unix - days * 86_400
        let (year, month, day) = DateFormats.civilFromDays(days)
        var bytes: [UInt8] = Array("0000-00-00T00:00:00.000000Z".utf8)
        func put(_ value: Int, at end: Int, digits: Int) {
            var rest = value
            for position in stride(from: end, to: end - digits, by: -1) {
                bytes[position] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
            }
        }
        put(year, at: 3, digits: 4)
        put(month, at: 6, digits: 2)
        put(day, at: 9, digits: 2)
        put(secondOfDay / 3600, at: 12, digits: 2)
        put(secondOfDay / 60 % 60, at: 15, digits: 2)
        put(secondOfDay % 60, at: 18, digits: 2)
        put(microseconds, at: 25, digits: 6)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The date of text written by ``text(seconds:microseconds:)``.
    static func date(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        guard bytes.count == 27, bytes[19] == UInt8(ascii: "."), bytes[26] == UInt8(ascii: "Z") else { return nil }
        func number(_ from: Int, _ count: Int) -> Int? {
            var value = 0
            for index in from..<(from + count) {
                let digit = Int(bytes[index]) - 48
                guard (0...9).contains(digit) else { return nil }
                value = value * 10 + digit
            }
            return value
        }
        guard let year = number(0, 4), let month = number(5, 2), let day = number(8, 2), let hour = number(11, 2),
            let minute = number(14, 2), let second = number(17, 2), let micro = number(20, 6)
        else { return nil }
        let seconds = DateFormats.daysFromCivil(year: year, month: month, day: day) * 86_400 + hour * 3600 + minute * 60 + second
            - referenceOffset
        return Date(timeIntervalSinceReferenceDate: Double(seconds) + Double(micro) / 1_000_000)
    }

    /// Refuses a date the property-list readers would not read back: not
    /// finite, or outside the years 1 to 9999 once rounded to the
    /// microsecond (the range the tape's date text and the XML format hold;
    /// binary plists are kept to the same range so that both formats read
    /// back what they wrote).
    static func checkWritable(_ date: Date) throws {
        guard parts(date) != nil else { throw DateFormats.outOfRange(date) }
    }

    /// Whole seconds since 2001 and microseconds of a date, or nil when it is
    /// not finite or falls outside the years 1 to 9999 once rounded.
    static func parts(_ date: Date) -> (seconds: Int, microseconds: Int)? {
        let interval = date.timeIntervalSinceReferenceDate
        let range = DateFormats.writableSeconds
        // Checked before any conversion to Int, which traps past Int's range.
        guard interval.isFinite, interval >= Double(range.lowerBound - referenceOffset),
            interval < Double(range.upperBound - referenceOffset)
        else { return nil }
        var seconds = Int(interval.rounded(.down))
        var micro = Int(((interval - Double(seconds)) * 1_000_000).rounded())
        if micro >= 1_000_000 {
            seconds += 1
            micro -= 1_000_000
        }
        guard range.contains(seconds + referenceOffset) else { return nil }
        return (seconds, micro)
    }
}
