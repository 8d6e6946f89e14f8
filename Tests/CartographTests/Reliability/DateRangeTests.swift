import Foundation
import Testing

@testable import Cartograph

/// Every date either encodes and reads back equal, or is refused with a typed
/// error — never a trap; date readers refuse dates that do not exist.
@Suite struct DateRangeTests {
    private struct Event: Codable, Equatable {
        var when: Date
    }

    /// Each way a date can be written, and how it is read back.
    private static let writers: [(name: String, write: @Sendable (Event) throws -> [UInt8], read: @Sendable ([UInt8]) throws -> Event)] = [
        (
            "json iso8601", { try JSONMapper(options: CodableOptions { $0.dates = .iso8601(fractionalSeconds: false) }).encode($0) },
            { try JSONMapper(options: CodableOptions { $0.dates = .iso8601(fractionalSeconds: false) }).decode(Event.self, from: $0) }
        ),
        (
            "json iso8601 fractional", { try JSONMapper(options: CodableOptions { $0.dates = .iso8601(fractionalSeconds: true) }).encode($0) },
            { try JSONMapper(options: CodableOptions { $0.dates = .iso8601(fractionalSeconds: true) }).decode(Event.self, from: $0) }
        ),
        ("xml plist", { try PropertyListMapper().encode($0, format: .xml) }, { try PropertyListMapper().decode(Event.self, from: $0) }),
        ("binary plist", { try PropertyListMapper().encode($0, format: .binary) }, { try PropertyListMapper().decode(Event.self, from: $0) }),
        (
            "libplist writer", { try PropertyListMapper(options: PropertyListOptions { $0.writer = .libplist }).encode($0, format: .binary) },
            { try PropertyListMapper().decode(Event.self, from: $0) }
        )
    ]

    private static let hostileDates: [Date] = [
        Date(timeIntervalSinceReferenceDate: 1e20), Date(timeIntervalSinceReferenceDate: -1e20),
        Date(timeIntervalSinceReferenceDate: .greatestFiniteMagnitude), Date(timeIntervalSinceReferenceDate: -.greatestFiniteMagnitude),
        Date(timeIntervalSinceReferenceDate: .infinity), Date(timeIntervalSinceReferenceDate: -.infinity),
        Date(timeIntervalSinceReferenceDate: .nan), Date.distantPast, Date.distantFuture,
        Date(timeIntervalSince1970: -62_135_596_800.5), Date(timeIntervalSince1970: 253_402_300_799.9996)
    ]

    @Test func aHugeDateFromTheWireIsRefusedWhenWrittenNotATrap() throws {
        // Decoded as seconds since 2001 (deferredToDate), then written back in
        // each format a server might pick from the client's Accept header.
        let event = try JSONMapper().decode(Event.self, from: Array(#"{"when":1e20}"#.utf8))
        for writer in Self.writers {
            #expect(throws: (any Error).self, "\(writer.name)") { try writer.write(event) }
        }
        // As a number it is fine.
        #expect(try JSONMapper().encodeString(event) == #"{"when":1e+20}"# || JSONMapper().encodeString(event) == #"{"when":100000000000000000000}"#)
    }

    @Test func everyDateEncodesAndReadsBackEqualOrIsRefusedWithATypedError() {
        for date in Self.hostileDates {
            for writer in Self.writers {
                let written: [UInt8]
                do {
                    written = try writer.write(Event(when: date))
                } catch let error as EncodingError {
                    guard case .invalidValue(_, let context) = error, context.underlyingError is CartographError else {
                        Issue.record("\(writer.name) \(date.timeIntervalSince1970): \(error)")
                        continue
                    }
                    continue
                } catch {
                    #expect(error is CartographError, "\(writer.name) \(date.timeIntervalSince1970): \(error)")
                    continue
                }
                // Written: it must read back (to the format's precision).
                do {
                    let back = try writer.read(written)
                    let precision = writer.name.contains("fractional") ? 0.0005 : (writer.name == "binary plist" ? 0 : 1)
                    #expect(abs(back.when.timeIntervalSince(date)) <= precision, "\(writer.name) \(date.timeIntervalSince1970)")
                } catch {
                    Issue.record("\(writer.name) wrote \(date.timeIntervalSince1970) but could not read it back: \(error)")
                }
            }
        }
    }

    @Test func theEdgesOfTheWritableRangeRoundTripInEveryFormat() throws {
        let first = Date(timeIntervalSince1970: -62_135_596_800) // 0001-01-01T00:00:00Z
        let last = Date(timeIntervalSince1970: 253_402_300_799) // 9999-12-31T23:59:59Z
        for date in [first, last] {
            // libplist 2.2 holds only 1932–2069 (its writer refuses the rest).
            for writer in Self.writers where writer.name != "libplist writer" {
                #expect(try writer.read(writer.write(Event(when: date))) == Event(when: date), "\(writer.name)")
            }
        }
        #expect(try DateFormats.iso8601String(first, fractional: false) == "0001-01-01T00:00:00Z")
        #expect(try DateFormats.iso8601String(last, fractional: false) == "9999-12-31T23:59:59Z")
    }

    /// The ISO 8601 text Cartograph writes (JSON's `.iso8601`, XML plist
    /// dates) against Foundation's `ISO8601DateFormatter` on seeded random
    /// dates from 1582-10-15 to 9999, whole seconds and milliseconds. (Before
    /// that day Foundation's formatter spells Julian calendar dates; JSON's
    /// ISO 8601 stays proleptic Gregorian, as the standard says, and XML
    /// plists convert first: the Foundation compatibility article.)
    @Test func iso8601TextMatchesFoundationsFormatter() throws {
        let gregorianCutover = -12_219_292_800
        let whole = ISO8601DateFormatter()
        let fractional = ISO8601DateFormatter()
        fractional.formatOptions.insert(.withFractionalSeconds)
        var generator = SeededGenerator(seed: 0x1508_0601)
        for _ in 0..<20_000 {
            let seconds = Int.random(in: gregorianCutover..<DateFormats.writableSeconds.upperBound, using: &generator)
            let date = Date(timeIntervalSince1970: Double(seconds))
            let expected = whole.string(from: date)
            let written = try DateFormats.iso8601String(date, fractional: false)
            #expect(written == expected, "\(seconds)")
            #expect(try DateFormats.iso8601String(date, fractional: true) == expected, "\(seconds)")
            let millis = Int.random(in: 1...999, using: &generator)
            let precise = Date(timeIntervalSince1970: Double(seconds) + Double(millis) / 1000)
            let expectedPrecise = fractional.string(from: precise)
            let writtenPrecise = try DateFormats.iso8601String(precise, fractional: true)
            #expect(writtenPrecise == expectedPrecise, "\(seconds).\(millis)")
        }
    }

    @Test func mappingTransformsRefuseUnwritableDatesWithAPath() throws {
        struct Log: Mappable {
            var at = Date()
            static let mapping = Mapping<Log>({ Log() }) {
                Map(\.at, "at", transform: .iso8601)
            }
        }
        var registry = ModelRegistry()
        registry.register(Log.self)
        let mapper = JSONMapper(registry: registry)
        #expect(throws: CartographError.self) { try mapper.encode(Log(at: Date(timeIntervalSince1970: 1e18))) }
        #expect(throws: CartographError.self) { try mapper.encode(Log(at: Date(timeIntervalSince1970: .nan))) }
    }

    @Test func xmlPlistsRefuseNULInsteadOfWritingWhatNoReaderReads() throws {
        struct Note: Codable, Equatable { var text: String }
        let note = Note(text: "a\u{0}b")
        #expect(throws: (any Error).self) { try PropertyListMapper().encode(note, format: .xml) }
        let binary = try PropertyListMapper().encode(note, format: .binary)
        #expect(try PropertyListMapper().decode(Note.self, from: binary) == note)
    }

    @Test func iso8601ReadersRefuseDatesThatDoNotExist() throws {
        for text in [
            "2024-02-30T00:00:00Z", "2023-02-29T00:00:00Z", "2024-04-31T00:00:00Z", "2024-01-01T00:00:00+99:99",
            "2024-01-01T00:00:00+24:00", "2024-01-01T00:00:00-05:60", "2024-13-01T00:00:00Z", "2024-00-10T00:00:00Z"
        ] {
            #expect(DateFormats.parseISO8601(text) == nil, "\(text)")
            let json = Array(#"{"when":"\#(text)"}"#.utf8)
            #expect(throws: DecodingError.self, "\(text)") {
                try JSONMapper(options: CodableOptions { $0.dates = .iso8601(fractionalSeconds: false) }).decode(Event.self, from: json)
            }
        }
        #expect(DateFormats.parseISO8601("2024-02-29T00:00:00Z") != nil)
        #expect(DateFormats.parseISO8601("2000-02-29T12:00:00-05:30") == Date(timeIntervalSince1970: 951_845_400))
        #expect(DateFormats.parseISO8601("1900-02-29T00:00:00Z") == nil)
        // XML plist dates are read as Foundation reads them: their fields
        // roll over (an older Foundation wrote `2024-01-32` for February 1st).
        let plist = Array(
            """
            <?xml version="1.0" encoding="UTF-8"?><plist version="1.0"><dict><key>when</key><date>2024-02-30T00:00:00Z</date></dict></plist>
            """.utf8)
        #expect(try PropertyListMapper().decode(Event.self, from: plist).when == Date(timeIntervalSince1970: 1_709_251_200))
    }
}
