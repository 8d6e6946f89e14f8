import Foundation

/// The calendar of XML property-list `<date>` text, as Foundation writes and
/// reads it: Gregorian from 1582-10-15, Julian before (the hybrid calendar
/// Foundation's formatters use; in proleptic Gregorian terms a date in the
/// year 1000 reads five days apart). Binary plists hold seconds and are not
/// affected; JSON's ISO 8601 text stays proleptic Gregorian, as ISO 8601 asks.
enum PlistCalendar {
    /// 1582-10-15T00:00:00Z, the first Gregorian day, in days since 1970.
    static let cutoverDay = DateFormats.daysFromCivil(year: 1582, month: 10, day: 15)

    /// The date whose XML text reads as `date` in proleptic Gregorian
    /// terms: unchanged from the cutover on; before it, moved so that the
    /// Gregorian text of the result spells the Julian calendar date.
    static func textDate(for date: Date) -> Date {
        let unix = date.timeIntervalSince1970
        let day = Int((unix / 86_400).rounded(.down))
        guard day < cutoverDay else { return date }
        let (year, month, dayOfMonth) = julianCivil(fromDays: day)
        let gregorian = DateFormats.daysFromCivil(year: year, month: month, day: dayOfMonth)
        return date.addingTimeInterval(Double(gregorian - day) * 86_400)
    }

    /// The instant of XML text that was parsed as proleptic Gregorian into
    /// `parsed`: before the cutover, the text is a Julian calendar date.
    static func instant(forText parsed: Date) -> Date {
        let unix = parsed.timeIntervalSince1970
        let day = Int((unix / 86_400).rounded(.down))
        guard day < cutoverDay else { return parsed }
        let (year, month, dayOfMonth) = DateFormats.civilFromDays(day)
        return parsed.addingTimeInterval(Double(julianDays(year: year, month: month, day: dayOfMonth) - day) * 86_400)
    }

    /// Days since 1970-01-01 of a Julian calendar date (via its Julian Day Number).
    static func julianDays(year: Int, month: Int, day: Int) -> Int {
        let a = (14 - month) / 12
        let y = year + 4800 - a
        let m = month + 12 * a - 3
        let julianDayNumber = day + (153 * m + 2) / 5 + 365 * y + floorDivide(y, 4) - 32_083
        return julianDayNumber - 2_440_588
    }

    /// The Julian calendar date of a day since 1970-01-01.
    static func julianCivil(fromDays days: Int) -> (Int, Int, Int) {
        let c = days + 2_440_588 + 32_082
        let d = floorDivide(4 * c + 3, 1461)
        let e = c - floorDivide(1461 * d, 4)
        let m = (5 * e + 2) / 153
        return (d - 4800 + m / 10, m + 3 - 12 * (m / 10), e - (153 * m + 2) / 5 + 1)
    }

    private static func floorDivide(_ a: Int, _ b: Int) -> Int { a >= 0 ? a / b : -((-a + b - 1) / b) }
}
