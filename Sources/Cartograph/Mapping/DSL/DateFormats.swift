import Foundation

/// ISO 8601 reading and writing without `DateFormatter` (which is slow and
/// locale-dependent): `2026-11-02T09:14:03Z`, with optional fractional
/// seconds and a `Z` or `±hh:mm` offset.
enum DateFormats {
    /// Parses an ISO 8601 date-time; nil when the text is not one.
    static func parseISO8601(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        func number(_ from: Int, _ count: Int) -> Int? {
            guard from + count <= bytes.count else { return nil }
            var value = 0
            for index in from..<(from + count) {
                let digit = Int(bytes[index]) - 48
                guard (0...9).contains(digit) else { return nil }
                value = value * 10 + digit
            }
            return value
        }
        guard bytes.count >= 20, let year = number(0, 4), bytes[4] == 45, let month = number(5, 2), bytes[7] == 45,
            let day = number(8, 2), bytes[10] == 84 || bytes[10] == 116 || bytes[10] == 32, let hour = number(11, 2), bytes[13] == 58,
            let minute = number(14, 2), bytes[16] == 58, let second = number(17, 2),
            (1...12).contains(month), (1...daysInMonth(year: year, month: month)).contains(day), hour < 24, minute < 60,
            second <= 60
        else { return nil }
        var index = 19
        var fraction = 0..<0
        if index < bytes.count, bytes[index] == 46 {
            index += 1
            let start = index
            while index < bytes.count, (48...57).contains(bytes[index]) { index += 1 }
            guard index > start else { return nil }
            fraction = start..<index
        }
        guard index < bytes.count else { return nil }
        var offset = 0
        if bytes[index] == 90 || bytes[index] == 122 {
            index += 1
        } else if bytes[index] == 43 || bytes[index] == 45 {
            let sign = bytes[index] == 45 ? -1 : 1
            guard let hours = number(index + 1, 2) else { return nil }
            var minutes = 0
            if index + 3 < bytes.count, bytes[index + 3] == 58, let value = number(index + 4, 2) {
                minutes = value
                index += 6
            } else if let value = number(index + 3, 2) {
                minutes = value
                index += 5
            } else {
                index += 3
            }
            // Offsets run from -23:59 to +23:59 (real ones stay within ±14:00).
            guard hours < 24, minutes < 60 else { return nil }
            offset = sign * (hours * 3600 + minutes * 60)
        } else {
            return nil
        }
        guard index == bytes.count else { return nil }
        let days = daysFromCivil(year: year, month: month, day: day)
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offset
        // The nearest Date to the text: whole seconds since 2001 and the
        // fraction's digits read as one decimal (DecimalSeconds).
        return Date(timeIntervalSinceReferenceDate: DecimalSeconds.value(whole: seconds - PlistDate.referenceOffset, fraction: bytes[fraction]))
    }

    /// `2026-11-02T09:14:03Z`, or with `.250` milliseconds when `fractional` and the date has them.
    ///
    /// - Throws: ``CartographError/Kind/numberOutOfRange`` for a date that
    ///   is not finite or falls outside the years 1 to 9999 once rounded:
    ///   four-digit ISO 8601 text cannot hold it, and the readers would refuse
    ///   what a wider format wrote.
    static func iso8601String(_ date: Date, fractional: Bool) throws -> String {
        guard let text = iso8601Text(date, fractional: fractional) else { throw outOfRange(date) }
        return text
    }

    /// The error for a date no Cartograph date text can hold.
    static func outOfRange(_ date: Date) -> CartographError {
        CartographError(
            .numberOutOfRange,
            "the date \(date.timeIntervalSince1970) seconds from 1970 is outside the years 1 to 9999 that date text can hold",
            expected: "a date in the years 1 to 9999", found: "date")
    }

    /// Whole seconds since 1970 of 0001-01-01T00:00:00Z and of 10000-01-01T00:00:00Z.
    static let writableSeconds = -62_135_596_800..<253_402_300_800

    private static func iso8601Text(_ date: Date, fractional: Bool) -> String? {
        let interval = date.timeIntervalSince1970
        // Checked before any conversion to Int, which traps past Int's range.
        guard interval.isFinite, interval >= Double(writableSeconds.lowerBound), interval < Double(writableSeconds.upperBound) else {
            return nil
        }
        var seconds = Int(interval.rounded(.down))
        var millis = fractional ? Int(((interval - Double(seconds)) * 1000).rounded()) : 0
        if millis == 1000 {
            seconds += 1
            millis = 0
        }
        guard writableSeconds.contains(seconds) else { return nil }
        let days = Int((Double(seconds) / 86_400).rounded(.down))
        let secondOfDay = seconds - days * 86_400
        let (year, month, day) = civilFromDays(days)
        // Written byte by byte: String(format:) and interpolation were a
        // tenth of an XML plist encode of activity.json (a date a record).
        let withMillis = fractional && millis != 0
        return unsafe String(unsafeUninitializedCapacity: withMillis ? 24 : 20) { text in
            var end = 0
            func digits(_ value: Int, _ count: Int) {
                var value = value
                for position in stride(from: end + count - 1, through: end, by: -1) {
                    unsafe text[position] = UInt8(truncatingIfNeeded: 0x30 + value % 10)
                    value /= 10
                }
                end += count
            }
            func byte(_ value: UInt8) {
                unsafe text[end] = value
                end += 1
            }
            digits(year, 4)
            byte(0x2D)
            digits(month, 2)
            byte(0x2D)
            digits(day, 2)
            byte(0x54)
            digits(secondOfDay / 3600, 2)
            byte(0x3A)
            digits(secondOfDay / 60 % 60, 2)
            byte(0x3A)
            digits(secondOfDay % 60, 2)
            if withMillis {
                byte(0x2E)
                digits(millis, 3)
            }
            byte(0x5A)
            return end
        }
    }

    /// Days in a month of the proleptic Gregorian calendar.
    static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    static func civilFromDays(_ days: Int) -> (Int, Int, Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
