import Foundation

/// Property-list dates on the tape: ISO 8601 text (what JSON sees), read
/// back to the same `Date` the reader found, every bit of it.
///
/// The text holds the whole seconds and at least six digits of fraction
/// (`2026-11-02T09:14:03.250000Z`), more where the date's `Double` needs
/// them to read back exactly (`Date()` on Apple platforms keeps about a
/// tenth of a microsecond: `…03.2500001Z`). The digits are those of the
/// shortest decimal that reads back as the date's seconds since 2001, and
/// they are read as one decimal (``DecimalSeconds``): a date decoded from a
/// binary plist equals the one Foundation's decoder gives. (Kept to the
/// microsecond before, such a date came back up to half a microsecond off.)
enum PlistDate {
    static let referenceOffset = 978_307_200

    /// The tape's text of a date's seconds since 2001 (finite, in the years
    /// 0 to 9999: ``parts(_:)`` says), formatted by hand: `String(format:)`
    /// cost more than the rest of reading a date.
    static func text(secondsSince2001 value: Double) -> String {
        let (whole, fraction) = DecimalSeconds.split(value)
        var bytes: [UInt8] = Array("0000-00-00T00:00:00.".utf8)
        writeCivil(unixSeconds: whole + referenceOffset, into: &bytes)
        bytes += fraction
        if fraction.count < 6 { bytes += repeatElement(UInt8(ascii: "0"), count: 6 - fraction.count) }
        bytes.append(UInt8(ascii: "Z"))
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `YYYY-MM-DDTHH:MM:SS` (proleptic Gregorian) of whole seconds since
    /// 1970, over the first 19 bytes of `bytes`.
    private static func writeCivil(unixSeconds unix: Int, into bytes: inout [UInt8]) {
        let days = Int((Double(unix) / 86_400).rounded(.down))
        let secondOfDay = unix - days * 86_400
        let (year, month, day) = DateFormats.civilFromDays(days)
        put(year, at: 3, digits: 4, into: &bytes)
        put(month, at: 6, digits: 2, into: &bytes)
        put(day, at: 9, digits: 2, into: &bytes)
        put(secondOfDay / 3600, at: 12, digits: 2, into: &bytes)
        put(secondOfDay / 60 % 60, at: 15, digits: 2, into: &bytes)
        put(secondOfDay % 60, at: 18, digits: 2, into: &bytes)
    }

    /// `value`'s last `digits` decimal digits, ending at `end`.
    private static func put(_ value: Int, at end: Int, digits: Int, into bytes: inout [UInt8]) {
        var rest = value
        for position in stride(from: end, to: end - digits, by: -1) {
            bytes[position] = UInt8(ascii: "0") + UInt8(rest % 10)
            rest /= 10
        }
    }

    /// The date of text written by ``text(secondsSince2001:)``.
    static func date(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 27, bytes[19] == UInt8(ascii: "."), bytes.last == UInt8(ascii: "Z") else { return nil }
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
            let minute = number(14, 2), let second = number(17, 2)
        else { return nil }
        let fraction = bytes[20..<(bytes.count - 1)]
        guard fraction.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else { return nil }
        let seconds =
            DateFormats.daysFromCivil(year: year, month: month, day: day) * 86_400 + hour * 3600 + minute * 60 + second
            - referenceOffset
        return Date(timeIntervalSinceReferenceDate: DecimalSeconds.value(whole: seconds, fraction: fraction))
    }

    /// Seconds since 1970 of the dates a plist keeps: the years 0 to 9999
    /// (proleptic Gregorian; year 0 is 1 BC, where `Date.distantPast` falls),
    /// what the tape's fixed-width date text holds.
    static let keptSeconds = DateFormats.daysFromCivil(year: 0, month: 1, day: 1) * 86_400..<DateFormats.writableSeconds.upperBound

    /// XML `<date>` text, as Foundation writes it: whole seconds (the
    /// fraction dropped), the Julian calendar before 1582-10-15, four digits
    /// of year from `0000`.
    static func xmlText(_ date: Date) throws -> String {
        try checkWritable(date)
        var bytes: [UInt8] = Array("0000-00-00T00:00:00Z".utf8)
        writeCivil(unixSeconds: Int(PlistCalendar.textDate(for: date).timeIntervalSince1970.rounded(.down)), into: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The instant of XML `<date>` text, read as Foundation reads it: a
    /// year of any number of digits, every other field two, and fields past
    /// their range rolling over (`2024-01-32` is February 1st, `T25:00:00`
    /// the next day's 01:00); before 1582-10-15 a Julian calendar date.
    /// Foundation reads them so because it once wrote them: a date on the
    /// first of a month came out as the previous month's 32nd
    /// (`2024-01-32T20:43:14Z`; its test `decodingCompatibility_122065123`),
    /// and such files exist. Nil when the text does not have that shape (a
    /// sign before the year included: Foundation reads `-0001` as the year 1).
    static func xmlDate(_ text: Substring) -> Date? {
        let bytes = Array(text.utf8)
        var index = 0
        func digits(_ count: Int?) -> Int? {
            let start = index
            var value = 0
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]), count.map({ index - start < $0 }) ?? true {
                let (shifted, overflow) = value.multipliedReportingOverflow(by: 10)
                guard !overflow, shifted <= Int.max - 9 else { return nil }
                value = shifted + Int(bytes[index] - UInt8(ascii: "0"))
                index += 1
            }
            guard index > start, count.map({ index - start == $0 }) ?? true else { return nil }
            return value
        }
        func expect(_ byte: UInt8) -> Bool {
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }
        guard let year = digits(nil), year <= 1_000_000, expect(UInt8(ascii: "-")), let month = digits(2), expect(UInt8(ascii: "-")),
            let day = digits(2), expect(UInt8(ascii: "T")), let hour = digits(2), expect(UInt8(ascii: ":")), let minute = digits(2),
            expect(UInt8(ascii: ":")), let second = digits(2), expect(UInt8(ascii: "Z")), index == bytes.count
        else { return nil }
        // Month 0 is the year before's December, month 13 the next January;
        // days, hours, minutes and seconds past their range carry over.
        let monthIndex = month - 1
        let normalizedYear = year + (monthIndex >= 0 ? monthIndex / 12 : (monthIndex - 11) / 12)
        let normalizedMonth = (monthIndex % 12 + 12) % 12 + 1
        let julian = (normalizedYear, normalizedMonth) < (1582, 10) || ((normalizedYear, normalizedMonth) == (1582, 10) && day < 15)
        let firstOfMonth =
            julian
            ? PlistCalendar.julianDays(year: normalizedYear, month: normalizedMonth, day: 1)
            : DateFormats.daysFromCivil(year: normalizedYear, month: normalizedMonth, day: 1)
        let seconds = (firstOfMonth + day - 1) * 86_400 + hour * 3600 + minute * 60 + second
        return Date(timeIntervalSince1970: Double(seconds))
    }

    /// Refuses a date the property-list readers would not read back: not
    /// finite, or outside the years 0 to 9999 once rounded to the
    /// microsecond (the range the tape's date text holds; binary plists are
    /// kept to the same range so that both formats read back what they wrote).
    static func checkWritable(_ date: Date) throws {
        guard parts(date) != nil else {
            throw CartographError(
                .numberOutOfRange,
                "the date \(date.timeIntervalSince1970) seconds from 1970 is outside the years 0 to 9999 that property-list dates keep here",
                expected: "a date in the years 0 to 9999", found: "date")
        }
    }

    /// Whole seconds since 2001 and microseconds of a date, or nil when it is
    /// not finite or falls outside the years 0 to 9999 once rounded.
    static func parts(_ date: Date) -> (seconds: Int, microseconds: Int)? {
        let interval = date.timeIntervalSinceReferenceDate
        let range = keptSeconds
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
