import Foundation
import Testing

@testable import Cartograph

/// nil in property lists, as Foundation's coders spell it (`$null`): arrays
/// of optionals keep their positions, and files pass both ways.
@Suite struct PlistNullTests {
    struct Slots: Codable, Equatable {
        var values: [Int?]
        var names: [String?]
        var nested: [[Double?]]
        var explicit: Int?

        enum CodingKeys: String, CodingKey { case values, names, nested, explicit }

        init(values: [Int?], names: [String?], nested: [[Double?]], explicit: Int?) {
            self.values = values
            self.names = names
            self.nested = nested
            self.explicit = explicit
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            values = try container.decode([Int?].self, forKey: .values)
            names = try container.decode([String?].self, forKey: .names)
            nested = try container.decode([[Double?]].self, forKey: .nested)
            explicit = try container.decodeNil(forKey: .explicit) ? nil : try container.decode(Int.self, forKey: .explicit)
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(values, forKey: .values)
            try container.encode(names, forKey: .names)
            try container.encode(nested, forKey: .nested)
            if let explicit { try container.encode(explicit, forKey: .explicit) } else { try container.encodeNil(forKey: .explicit) }
        }
    }

    static let slots = Slots(values: [1, nil, 3], names: [nil, "b"], nested: [[nil], [1.5, nil]], explicit: nil)

    @Test(arguments: [PropertyListFormat.xml, .binary])
    func nilsRoundTripAndCrossWithFoundation(_ format: PropertyListFormat) throws {
        let ours = PropertyListMapper()
        let encoder = PropertyListEncoder()
        encoder.outputFormat = format == .xml ? .xml : .binary
        let ourBytes = try ours.encode(Self.slots, format: format)
        let theirBytes = try encoder.encode(Self.slots)
        #expect(try ours.decode(Slots.self, from: ourBytes) == Self.slots)
        #expect(try PropertyListDecoder().decode(Slots.self, from: Data(ourBytes)) == Self.slots)
        #expect(try ours.decode(Slots.self, from: theirBytes) == Self.slots)
        if format == .xml { #expect(String(decoding: ourBytes, as: UTF8.self).contains("<string>$null</string>")) }
    }

    @Test func aTopLevelOptionalArray() throws {
        let values: [Int?] = [nil, 2, nil]
        let bytes = try PropertyListMapper().encode(values, format: .binary)
        #expect(try PropertyListMapper().decode([Int?].self, from: bytes) == values)
        #expect(try PropertyListDecoder().decode([Int?].self, from: Data(bytes)) == values)
    }

    /// What a read of each type reports on `$null`, as Foundation's
    /// `PropertyListDecoder` reports it: a missing value for every type and
    /// container (`Bool` too, which JSON's null makes a type mismatch).
    @Test(arguments: [PropertyListFormat.xml, .binary])
    func nilReadAsAValueOfAnyTypeIsAMissingValue(_ format: PropertyListFormat) throws {
        struct Reads<T: Decodable>: Decodable {
            init(from decoder: any Decoder) throws {
                var container = try decoder.unkeyedContainer()
                _ = try container.decode(T.self)
            }
        }
        func kind(_ read: () throws -> Void) -> String {
            do {
                try read()
                return "read"
            } catch DecodingError.valueNotFound(_, let context) {
                return "valueNotFound at \(context.codingPath.map(\.stringValue))"
            } catch DecodingError.typeMismatch(_, let context) {
                return "typeMismatch at \(context.codingPath.map(\.stringValue))"
            } catch {
                return "\(error)"
            }
        }
        func check<T: Decodable>(_ type: T.Type) throws {
            let bytes = Data(try PropertyListMapper().encode([nil] as [Int?], format: format))
            let ours = kind { _ = try CartographPropertyListDecoder().decode(Reads<T>.self, from: bytes) }
            let theirs = kind { _ = try PropertyListDecoder().decode(Reads<T>.self, from: bytes) }
            #expect(ours == theirs, "\(T.self)")
            #expect(ours.hasPrefix("valueNotFound"), "\(T.self): \(ours)")
        }
        try check(Int.self)
        try check(Bool.self)
        try check(Double.self)
        try check(Float.self)
        try check(UInt8.self)
        try check(Date.self)
        try check(Data.self)
        try check(Decimal.self)
        try check([Int].self)
        try check([String: Int].self)
        try check(Slots.self)
    }

    /// `decodeIfPresent` past the end of an array: `nil`, and the index stays
    /// in a property list (`PropertyListDecoder`) but moves on in JSON
    /// (`JSONDecoder`).
    @Test func decodeIfPresentPastTheEndMovesTheIndexOnlyInJSON() throws {
        struct PastTheEnd: Decodable {
            var index = 0
            init(from decoder: any Decoder) throws {
                var container = try decoder.unkeyedContainer()
                _ = try container.decode(Int.self)
                _ = try container.decodeIfPresent(Int.self)
                index = container.currentIndex
            }
        }
        let plist = Data(try PropertyListMapper().encode([1] as [Int], format: .binary))
        #expect(try CartographPropertyListDecoder().decode(PastTheEnd.self, from: plist).index == 1)
        #expect(try PropertyListDecoder().decode(PastTheEnd.self, from: plist).index == 1)
        #expect(try CartographJSONDecoder().decode(PastTheEnd.self, from: Data("[1]".utf8)).index == 2)
        #expect(try JSONDecoder().decode(PastTheEnd.self, from: Data("[1]".utf8)).index == 2)
    }

    /// A mapped model with optionals in arrays, non-final as the seeds' are.
    @Mappable
    class Readings {
        var samples: [Int?] = []
        var labels: [String?] = []
        var byName: [String: Int?] = [:]
        var note: String?
        required init() {}
    }

    /// The same members as Foundation's `Decodable` reads them.
    struct ReadingsRead: Decodable {
        var samples: [Int?]
        var labels: [String?]
        var byName: [String: Int?]?
    }

    /// A null element of an array is written as `$null`, whatever the
    /// value came from (a `JSONValue`, a Document parsed from JSON, a
    /// mapped model), in both formats and through both writers: left out,
    /// it moved every later element down a place. A null member of a dict
    /// is still left out. Read by Foundation's own readers.
    @Test(arguments: [PropertyListFormat.xml, .binary], [PropertyListOptions.Writer.native, .libplist])
    func nullElementsKeepTheirPlaces(_ format: PropertyListFormat, _ writer: PropertyListOptions.Writer) throws {
        let text = #"{"samples": [1, null, 3], "labels": [null, "b", null], "nested": [[null], {"gone": null, "kept": [null]}], "note": null}"#
        let mapper = PropertyListMapper(options: PropertyListOptions { $0.writer = writer })
        let fromValue = try mapper.encode(try JSONValue(parsing: text), format: format)
        let fromDocument = try mapper.encode(try Document(parsing: text), format: format)
        for bytes in [fromValue, fromDocument] {
            let read = try #require(try PropertyListSerialization.propertyList(from: Data(bytes), format: nil) as? [String: Any])
            #expect(read["samples"] as? [AnyHashable] == [1, "$null", 3])
            #expect(read["labels"] as? [String] == ["$null", "b", "$null"])
            let nested = try #require(read["nested"] as? [Any])
            #expect(nested.first as? [String] == ["$null"])
            #expect((nested.last as? [String: Any])?.keys.sorted() == ["kept"])
            #expect(read.keys.sorted() == ["labels", "nested", "samples"])
            #expect(try PropertyListDecoder().decode(ReadingsRead.self, from: Data(bytes)).samples == [1, nil, 3])
        }

        var registry = ModelRegistry()
        registry.register(Readings.self)
        let models = PropertyListMapper(registry: registry, options: PropertyListOptions { $0.writer = writer })
        let readings = Readings()
        readings.samples = [nil, 2, nil]
        readings.labels = ["a", nil]
        readings.byName = ["gone": nil, "kept": 2]
        let bytes = try models.encode(readings, format: format)
        let back = try models.decode(Readings.self, from: bytes)
        #expect(back.samples == [nil, 2, nil])
        #expect(back.labels == ["a", nil])
        // A dictionary's nil value keeps its entry, as Foundation's encoder writes it.
        #expect(back.byName == ["gone": nil, "kept": 2])
        #expect(back.note == nil)
        let foundation = try PropertyListDecoder().decode(ReadingsRead.self, from: Data(bytes))
        #expect(foundation.samples == [nil, 2, nil])
        #expect(foundation.labels == ["a", nil])
        #expect(foundation.byName == ["gone": nil, "kept": 2])

        // Refused, where asked, with the element's path.
        let strict = PropertyListMapper(
            options: PropertyListOptions {
                $0.writer = writer
                $0.nulls = .reject
            })
        let error = try #require(throws: CartographError.self) { try strict.encode(try JSONValue(parsing: "[1, null]"), format: format) }
        #expect(error.path == "$[1]")
    }

    @Test func jsonIsUnaffected() throws {
        let mapper = JSONMapper()
        #expect(try mapper.encodeString([1, nil] as [Int?]) == "[1,null]")
        #expect(try mapper.decode([String?].self, from: #"["$null"]"#) == ["$null"])
    }
}

/// URLs in property lists take URL's own `Codable` form, as
/// `PropertyListEncoder` writes them; JSON keeps the absolute string.
@Suite struct PlistURLTests {
    struct Link: Codable, Equatable {
        var href: URL
        var relative: URL
    }

    static let link = Link(
        href: URL(string: "https://swift.org/a?b=c")!,
        relative: URL(string: "docs/index.html", relativeTo: URL(string: "https://example.com/base/"))!)

    @Test(arguments: [PropertyListFormat.xml, .binary])
    func urlsCrossWithFoundation(_ format: PropertyListFormat) throws {
        let encoder = PropertyListEncoder()
        encoder.outputFormat = format == .xml ? .xml : .binary
        let ours = try PropertyListMapper().encode(Self.link, format: format)
        let theirs = try encoder.encode(Self.link)
        let fromOurs = try PropertyListDecoder().decode(Link.self, from: Data(ours))
        let fromTheirs = try PropertyListMapper().decode(Link.self, from: theirs)
        #expect(fromOurs.href.absoluteString == Self.link.href.absoluteString)
        #expect(fromOurs.relative.absoluteString == Self.link.relative.absoluteString)
        #expect(fromTheirs.relative.absoluteString == Self.link.relative.absoluteString)
        #expect(try PropertyListMapper().decode(Link.self, from: ours).relative.absoluteString == Self.link.relative.absoluteString)
        if format == .xml {
            // The same XML but for key order: Foundation sorts plist dictionary keys.
            let document = try PropertyListMapper().document(from: ours)
            #expect(try document.root.jsonValue() == (try PropertyListMapper().document(from: theirs).root.jsonValue()))
        }
    }

    @Test func jsonStillWritesTheAbsoluteString() throws {
        #expect(try JSONMapper().encodeString([URL(string: "https://swift.org")!]) == #"["https://swift.org"]"#)
    }
}

/// XML plist `<date>` text in Foundation's calendar: Julian before
/// 1582-10-15, Gregorian after — the same text as `PropertyListEncoder`,
/// and the same instants read back from its files.
@Suite struct PlistCalendarTests {
    @Test func julianTextBeforeTheCutoverAsFoundationWritesIt() throws {
        var generator = SeededGenerator(seed: 1582)
        let encoder = PropertyListEncoder()
        encoder.outputFormat = .xml
        // From the year 2 (Julian 0001 lies partly in Gregorian year 0) to 9999, whole seconds.
        let low = -63_082_540_800.0, high = 252_423_993_599.0
        var dates = [-13_197_600_000.0, -13_197_686_400.0, -31_588_099_200.0, -12_649_219_200.0, 0].map(Date.init(timeIntervalSinceReferenceDate:))
        dates += (0..<400).map { _ in Date(timeIntervalSinceReferenceDate: Double.random(in: low...high, using: &generator).rounded(.down)) }
        for date in dates {
            let theirs = try encoder.encode([date])
            let ours = try PropertyListMapper().encode([date], format: .xml)
            #expect(String(decoding: ours, as: UTF8.self) == String(decoding: theirs, as: UTF8.self), "\(date.timeIntervalSinceReferenceDate)")
            #expect(try PropertyListMapper().decode([Date].self, from: theirs) == [date], "\(date.timeIntervalSinceReferenceDate)")
            #expect(try PropertyListDecoder().decode([Date].self, from: Data(ours)) == [date])
        }
    }

    @Test func julianDayArithmetic() {
        // 1582-10-04 (Julian) is the day before 1582-10-15 (Gregorian).
        #expect(PlistCalendar.julianDays(year: 1582, month: 10, day: 4) + 1 == PlistCalendar.cutoverDay)
        for day in stride(from: -719_000, to: PlistCalendar.cutoverDay, by: 997) {
            let (y, m, d) = PlistCalendar.julianCivil(fromDays: day)
            #expect(PlistCalendar.julianDays(year: y, month: m, day: d) == day)
        }
    }
}
