import Foundation

/// Property-list dates on the tape: ISO 8601 text with microseconds (what
/// JSON sees), read back to the same `Date` libplist gave (whole seconds
/// since 2001 plus microseconds, computed the same way both times).
enum PlistDate {
    static let referenceOffset = 978_307_200

    /// `2026-11-02T09:14:03.250000Z` from seconds since 2001 and microseconds.
    static func text(seconds: Int, microseconds: Int) -> String {
        let unix = seconds + referenceOffset
        let days = Int((Double(unix) / 86_400).rounded(.down))
        let secondOfDay = unix - days * 86_400
        let (year, month, day) = DateFormats.civilFromDays(days)
        return String(format: "%04d-%02d-%02dT%02d:%02d:%02d.%06dZ", year, month, day, secondOfDay / 3600, secondOfDay / 60 % 60,
            secondOfDay % 60, microseconds)
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

    /// Whole seconds since 2001 and microseconds of a date (for writing).
    static func parts(_ date: Date) -> (seconds: Int, microseconds: Int) {
        let interval = date.timeIntervalSinceReferenceDate
        var seconds = Int(interval.rounded(.down))
        var micro = Int(((interval - Double(seconds)) * 1_000_000).rounded())
        if micro >= 1_000_000 {
            seconds += 1
            micro -= 1_000_000
        }
        return (seconds, micro)
    }
}
