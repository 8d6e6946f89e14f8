import Foundation
import Testing

@testable import Cartograph

/// Cases taken from swift-foundation's `PropertyListEncoderTests.swift`
/// (their inputs and what they check; the code is ours), each run through
/// Foundation's `PropertyListDecoder`/`PropertyListEncoder` and Cartograph's
/// drop-in pair in this process: the same values, both refusing the same
/// inputs, each reading the other's files, and XML bytes equal. Chosen
/// differences are rows that assert them, listed in the Foundation compatibility article ("How it
/// compares with Foundation").
@Suite struct PlistFoundationSuiteTests {
    typealias Case = FoundationSuiteTests.Case
    typealias Format = PropertyListSerialization.PropertyListFormat

    @Test(arguments: PlistFoundationSuiteTests.cases)
    func agreesWithFoundation(_ row: Case) throws { try row.expectAgreement() }

    /// Equal, or both NaN (by description, which keeps the sign).
    static func same<T: Equatable>(_ a: T, _ b: T) -> Bool { a == b || "\(a)" == "\(b)" }

    /// Both decode `input`: equal values, or both throw the same `DecodingError` case.
    /// `damaged`: the input is a damaged plist, which Cartograph reports as
    /// `dataCorrupted` whatever Foundation's lazy reader meets first
    /// (``FoundationDifference/damagedPlistsAreDataCorrupted``).
    static func decodeBoth<T: Decodable & Equatable>(_ type: T.Type, _ input: Data, damaged: Bool = false) -> [String] {
        let theirs = Result { try PropertyListDecoder().decode(T.self, from: input) }
        let ours = Result { try CartographPropertyListDecoder().decode(T.self, from: input) }
        let shown = String(decoding: input.prefix(160), as: UTF8.self).debugDescription
        switch (theirs, ours) {
        case (.success(let a), .success(let b)): return same(a, b) ? [] : ["\(shown) as \(T.self): Cartograph \(b), Foundation \(a)"]
        case (.failure(let a), .failure(let b)):
            let (theirCase, ourCase) = (Differential.shape(a).0, Differential.shape(b).0)
            if theirCase == ourCase || (damaged && ourCase == "dataCorrupted") { return [] }
            return ["\(shown) as \(T.self): Cartograph threw \(ourCase), Foundation \(theirCase)"]
        case (.success(let a), .failure(let b)): return ["\(shown) as \(T.self): Cartograph threw \(b), Foundation read \(a)"]
        case (.failure(let a), .success(let b)): return ["\(shown) as \(T.self): Cartograph read \(b), Foundation threw \(a)"]
        }
    }

    static func decodeBoth<T: Decodable & Equatable>(_ type: T.Type, _ xml: String, damaged: Bool = false) -> [String] {
        decodeBoth(type, Data(xml.utf8), damaged: damaged)
    }

    /// Each encodes `value` in `format`; each reads both files back to the
    /// value; XML files are byte for byte equal. Both refusing to encode agrees.
    static func roundTrip<T: Codable & Equatable>(_ value: T, _ format: Format) -> [String] {
        let foundation = PropertyListEncoder()
        foundation.outputFormat = format
        let cartograph = CartographPropertyListEncoder()
        cartograph.outputFormat = format
        let theirs = Result { try foundation.encode(value) }
        let ours = Result { try cartograph.encode(value) }
        switch (theirs, ours) {
        case (.success(let a), .success(let b)):
            var problems: [String] = []
            if format == .xml, a != b { problems.append("XML differs: Cartograph \(Differential.text(b)), Foundation \(Differential.text(a))") }
            for (label, file) in [("Cartograph's", b), ("Foundation's", a)] {
                do {
                    let back = try CartographPropertyListDecoder().decode(T.self, from: file)
                    if !same(back, value) { problems.append("Cartograph read \(label) \(format) file as \(back), not \(value)") }
                } catch { problems.append("Cartograph could not read \(label) \(format) file: \(error)") }
                do {
                    let back = try PropertyListDecoder().decode(T.self, from: file)
                    if !same(back, value) { problems.append("Foundation read \(label) \(format) file as \(back), not \(value)") }
                } catch { problems.append("Foundation could not read \(label) \(format) file: \(error)") }
            }
            return problems
        case (.failure, .failure): return []
        case (.success, .failure(let b)): return ["\(value) in \(format): Cartograph threw \(b), Foundation wrote it"]
        case (.failure(let a), .success): return ["\(value) in \(format): Cartograph wrote it, Foundation threw \(a)"]
        }
    }

    static func roundTripBoth<T: Codable & Equatable>(_ value: T) -> [String] { roundTrip(value, .xml) + roundTrip(value, .binary) }

    static let header =
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!DOCTYPE plist PUBLIC \"-//Apple//DTD PLIST 1.0//EN\" \"http://www.apple.com/DTDs/PropertyList-1.0.dtd\">\n<plist version=\"1.0\">\n"

    /// Foundation's `Generic_XML_Properties.plist`, written out.
    static let generic =
        header + """
            <dict>
                <key>array1</key>
                <array>
                    <string>arr0</string>
                    <integer>42</integer>
                    <false/>
                    <date>1976-04-01T12:00:00Z</date>
                    <data>
                    qrvM3QARIjM=
                    </data>
                </array>
                <key>item1</key>
                <string>value1</string>
                <key>item2</key>
                <string>value2</string>
            </dict>
            </plist>
            """

    struct Generic: Codable, Equatable {
        var array1: [Item]
        var item1: String
        var item2: String
        enum Item: Codable, Equatable {
            case string(String), integer(Int), bool(Bool), date(Date), data(Data)
            init(from decoder: any Decoder) throws {
                let container = try decoder.singleValueContainer()
                if let value = try? container.decode(Int.self) {
                    self = .integer(value)
                } else if let value = try? container.decode(Bool.self) {
                    self = .bool(value)
                } else if let value = try? container.decode(Date.self) {
                    self = .date(value)
                } else if let value = try? container.decode(Data.self) {
                    self = .data(value)
                } else {
                    self = .string(try container.decode(String.self))
                }
            }
            func encode(to encoder: any Encoder) throws {
                var container = encoder.singleValueContainer()
                switch self {
                case .string(let value): try container.encode(value)
                case .integer(let value): try container.encode(value)
                case .bool(let value): try container.encode(value)
                case .date(let value): try container.encode(value)
                case .data(let value): try container.encode(value)
                }
            }
        }
    }

    /// Any plist value (for comparing what two files hold).
    enum PlistAny: Decodable, Equatable {
        case int(Int), string(String), array([PlistAny]), dict([String: PlistAny])
        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let value = try? container.decode(Int.self) {
                self = .int(value)
            } else if let value = try? container.decode(String.self) {
                self = .string(value)
            } else if let value = try? container.decode([PlistAny].self) {
                self = .array(value)
            } else {
                self = .dict(try container.decode([String: PlistAny].self))
            }
        }
    }

    /// What an OpenStep plist holds: strings, data, arrays and dictionaries.
    indirect enum OpenStep: Decodable, Equatable {
        case string(String), data(Data), array([OpenStep]), dict([String: OpenStep])
        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let value = try? container.decode(String.self) {
                self = .string(value)
            } else if let value = try? container.decode(Data.self) {
                self = .data(value)
            } else if let value = try? container.decode([OpenStep].self) {
                self = .array(value)
            } else {
                self = .dict(try container.decode([String: OpenStep].self))
            }
        }
    }

    struct Pair: Codable, Equatable { var first: Int; var second: String? }
    enum Switch: String, Codable { case on, off }
    final class Counter: Codable, Equatable {
        var count = 3
        static func == (a: Counter, b: Counter) -> Bool { a.count == b.count }
    }

    /// `[42, 314, 0xFF]` as a binary plist, the file Foundation's corruption
    /// tests start from (bytes from swift-foundation's
    /// `PropertyListEncoderTests.swift`); `corrupt` changes it.
    static func smallBplist(_ corrupt: (inout [UInt8]) -> Void = { _ in }) -> Data {
        var bytes: [UInt8] = [
            0x62, 0x70, 0x6c, 0x69, 0x73, 0x74, 0x30, 0x30, 0xa3, 0x01, 0x02, 0x03, 0x10, 0x2a, 0x11, 0x01, 0x3a, 0x10, 0xff,
            0x08, 0x0c, 0x0e, 0x11,
            0, 0, 0, 0, 0, 0, 0x01, 0x01, 0, 0, 0, 0, 0, 0, 0, 0x04, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x13
        ]
        corrupt(&bytes)
        return Data(bytes)
    }

    // MARK: The table

    static let cases: [Case] = [
        Case(name: "xmlIntegerEdgeCases") {
            func integer<T: Decodable & Equatable>(_ text: String, _: T.Type) -> [String] { decodeBoth(T.self, "<integer>\(text)</integer>") }
            var problems: [String] = []
            let int8s = ["127", "-128", "0x7f", "-0x80", "128", "-129", "0x80", "-0x81"]
            let int16s = ["32767", "-32768", "0x7fff", "-0x8000", "32768", "-32769", "0x8000", "-0x8001"]
            let int32s = ["2147483647", "-2147483648", "0x7fffffff", "-0x80000000", "2147483648", "-2147483649"]
            let int64s = [
                "9223372036854775807", "-9223372036854775808", "0x7fffffffffffffff", "-0x8000000000000000", "9223372036854775808",
                "-9223372036854775809", "0x8000000000000000", "-0x8000000000000001"
            ]
            for text in int8s { problems += integer(text, Int8.self) }
            for text in int16s { problems += integer(text, Int16.self) }
            for text in int32s { problems += integer(text, Int32.self) }
            for text in int64s { problems += integer(text, Int64.self) }
            for text in ["255", "256"] { problems += integer(text, UInt8.self) }
            for text in ["65535", "65536"] { problems += integer(text, UInt16.self) }
            for text in ["4294967295", "4294967296"] { problems += integer(text, UInt32.self) }
            for text in ["18446744073709551615", "18446744073709551616"] { problems += integer(text, UInt64.self) }
            return problems
        },
        Case(name: "issue6164184 (hexadecimal integers)") {
            decodeBoth([Int].self, "<plist><array><integer>0x721B</integer><integer>0x1111</integer><integer>-0xFFFF</integer></array></plist>")
        },
        Case(name: "xmlIntegerWhitespace") {
            decodeBoth([Int].self, "<array><integer> +\t42</integer><integer>\t-   99</integer><integer> -\t0xFACE</integer></array>")
        },
        Case(name: "xmlReals / bad_XMLReals") {
            let reals =
                "<plist><array><real>1.5</real><real>2</real><real>  -3.14</real><real>1.000000000000000000000001</real>"
                + "<real>31415.9e-4</real><real>-iNf</real><real>infInItY</real></array></plist>"
            return decodeBoth([Float].self, reals) + decodeBoth([Double].self, reals)
                + decodeBoth([Float].self, "<array><real>nAn</real><real>NAN</real><real>nan</real></array>")
                + ["0x10", "notanumber", "infinite", "1.2.3", "1.e", "1.5  ", ""].flatMap { decodeBoth(Float.self, "<real>\($0)</real>") }
        },
        Case(name: "binaryNumberEdgeCases") {
            var problems = roundTrip([Int8.max], .binary) + roundTrip([Int8.min], .binary)
            problems += roundTrip([Int16.min], .binary) + roundTrip([Int32.min], .binary)
            problems += roundTrip([Int64.max], .binary) + roundTrip([Int64.min], .binary)
            problems += roundTrip([UInt8.max], .binary) + roundTrip([UInt32.max], .binary) + roundTrip([UInt64.max], .binary)
            problems += roundTripBoth([Float.greatestFiniteMagnitude, -.greatestFiniteMagnitude, .infinity, -.infinity])
            problems += roundTripBoth([Double.greatestFiniteMagnitude, -.greatestFiniteMagnitude, .infinity, -.infinity])
            problems += roundTripBoth([Double.nan]) + roundTripBoth([Float.nan])
            return problems
        },
        Case(name: "binaryReals / realEncodeRemoveZeroSuffix") {
            let floats: [Float] = [
                1.5, 2, -3.14, 1.000000000000000000000001, 31415.9e-4, -.infinity, .infinity, 0.1, 16_777_216, .leastNonzeroMagnitude
            ]
            let doubles: [Double] = [1.5, 2, -5, -3.14, 31415.9e-4, -.infinity, .infinity, 0.1, 0.5, -0.0, .leastNonzeroMagnitude]
            return roundTripBoth(floats) + roundTripBoth(doubles)
        },
        Case(name: "xmlErrors", differences: [.damagedPlistsAreDataCorrupted]) {
            var broken = [
                String(generic.dropFirst()), generic.replacingOccurrences(of: "<dict>", with: "<-- unending comment\n<dict>"),
                generic.replacingOccurrences(of: "DOCTYPE", with: "foobar"), String(generic[..<generic.range(of: "//EN")!.lowerBound]),
                generic.replacingOccurrences(of: "<!DOCTYPE", with: "<?DOCTYPE"),
                generic.replacingOccurrences(of: "</array>", with: "</somethingelse>"),
                generic.replacingOccurrences(of: "<array>", with: "<invalidtag>"),
                generic.replacingOccurrences(of: "</plist>", with: "<string>hello</string>\n</plist>"),
                generic.replacingOccurrences(of: "<key>array1</key>", with: "<string>hello</string>\n<key>array1</key>"),
                generic.replacingOccurrences(of: "<string>value1</string>", with: ""), "<plist></plist>",
                generic.replacingOccurrences(of: "<date>1976-04-01T12:00:00Z</date>", with: "<date></date>"),
                generic.replacingOccurrences(
                    of: "PUBLIC \"-//Apple//DTD PLIST 1.0//EN\" \"http://www.apple.com/DTDs/PropertyList-1.0.dtd\"",
                    with: "[<!ELEMENT foo (#PCDATA)>]")
            ]
            for replacement in [
                "<real>abc123</real>", "<integer></integer>", "<integer>42q</integer>", "<integer>42A</integer>",
                "<integer>99999999999999999999999999999999999999999</integer>", "<real></real>"
            ] {
                broken.append(generic.replacingOccurrences(of: "<integer>42</integer>", with: replacement))
            }
            var problems = decodeBoth(Generic.self, generic) + decodeBoth(Generic.self, Data())
            for xml in broken {
                problems += decodeBoth(Generic.self, xml, damaged: true)
                if (try? CartographPropertyListDecoder().decode(Generic.self, from: Data(xml.utf8))) != nil { problems.append("read: \(xml)") }
            }
            return problems
        },
        Case(name: "encodingTopLevelSingleValue / Empty / Nullable / Structured") {
            var problems = roundTripBoth(Switch.on) + roundTripBoth(42) + roundTripBoth("text")
            problems += roundTripBoth(Optional<Int>.none) + roundTripBoth(FoundationCases.Empty())
            problems += roundTripBoth(Pair(first: 1, second: nil)) + roundTripBoth([Pair(first: 2, second: "x")])
            problems += roundTripBoth(Counter()) + roundTripBoth([[1], [], [2, 3]]) + roundTripBoth(["k": ["a": 1]])
            return problems
        },
        Case(name: "unkeyedContainerContainingNulls / decodeIfPresent") {
            roundTripBoth([1, nil, 3] as [Int?]) + roundTripBoth([nil] as [String?])
                + decodeBoth(Pair.self, "<dict><key>first</key><integer>1</integer></dict>")
                + decodeBoth(Pair.self, "<dict><key>first</key><integer>1</integer><key>second</key><string>$null</string></dict>")
        },
        Case(name: "typeCoercion / integerRealCoercion", differences: [.plistFloatOverflow]) {
            var problems = decodeBoth([Int].self, "<array><true/><false/></array>")
            problems += decodeBoth([Bool].self, "<array><integer>0</integer><integer>1</integer></array>")
            problems += decodeBoth([Double].self, "<array><integer>2</integer><integer>-5</integer></array>")
            problems += decodeBoth([Int].self, "<array><real>2.0</real><real>-5</real></array>")
            problems += decodeBoth([Int].self, "<array><real>2.5</real></array>")
            problems += decodeBoth([UInt8].self, "<array><real>255.0</real></array>")
            // A chosen difference (the Foundation compatibility article): a real too large for Float is
            // infinity in Foundation, an error here (as both do in JSON).
            if (try? PropertyListDecoder().decode([Float].self, from: Data("<array><real>1e39</real></array>".utf8))) != [.infinity] {
                problems.append("Foundation no longer reads 1e39 as Float infinity")
            }
            if (try? CartographPropertyListDecoder().decode([Float].self, from: Data("<array><real>1e39</real></array>".utf8))) != nil {
                problems.append("Cartograph read 1e39 as a Float")
            }
            return problems
        },
        Case(name: "typeCoercion (an inexact Float in a binary plist)", differences: [.binaryPlistInexactFloat]) {
            // The listed difference: Foundation's binary reader wants a Float
            // that holds the 8-byte real exactly; its XML reader, and both
            // JSON decoders, read the nearest one.
            var problems: [String] = []
            let binary = try PropertyListSerialization.data(fromPropertyList: [0.1, 0.5], format: .binary, options: 0)
            let xml = Data("<plist><array><real>0.1</real><real>0.5</real></array></plist>".utf8)
            if (try? PropertyListDecoder().decode([Float].self, from: binary)) != nil {
                problems.append("Foundation now reads 0.1 from a binary plist as a Float")
            }
            if (try? PropertyListDecoder().decode([Float].self, from: xml)) != [0.1, 0.5] {
                problems.append("Foundation no longer reads XML's 0.1 as a Float")
            }
            for (format, bytes) in [("binary", binary), ("XML", xml)]
            where (try? CartographPropertyListDecoder().decode([Float].self, from: bytes)) != [0.1, 0.5] {
                problems.append("Cartograph did not read the \(format) plist's 0.1 as the nearest Float")
            }
            // A real a Float holds exactly reads alike.
            problems += decodeBoth([Float].self, "<array><real>0.5</real><real>-2.25</real></array>")
            return problems
        },
        Case(name: "interceptDate / reallyOldDates / badDates / farFutureDates", differences: [.plistDatesOutOfRange]) {
            // Foundation's dates: the 1970s, fractions, year 1 (`Date.distantPast`,
            // Julian 0001-01-01), year 0 (its "all-zero" date), the last second of 9999.
            let dates = [
                Date(timeIntervalSince1970: 1_000), Date(timeIntervalSinceReferenceDate: 0.5), Date.distantPast, Date.distantFuture,
                Date(timeIntervalSinceReferenceDate: -62_135_596_800 + 86_400), Date(timeIntervalSince1970: 253_402_300_799),
                Date(timeIntervalSinceReferenceDate: -13_197_600_000)
            ]
            var problems = dates.flatMap { roundTripBoth([$0]) }
            // The listed difference: dates outside the years 0 to 9999
            // (Foundation's far-future test date, year 33658; its "all-zero"
            // date, Julian 0000-01-02, which is 2 BC in proleptic terms) are refused, not written.
            for format in [Format.xml, .binary] {
                let encoder = CartographPropertyListEncoder()
                encoder.outputFormat = format
                for date in [Date(timeIntervalSince1970: 999_999_999_999), Date(timeIntervalSinceReferenceDate: -63_145_612_800)] {
                    if (try? encoder.encode([date])) != nil { problems.append("\(date) was written in \(format)") }
                }
            }
            // Foundation's reading of `<date>` text: any number of year digits, the Julian calendar before 1582-10-15.
            for text in [
                "0000-12-30T00:00:00Z", "0099-01-01T00:00:00Z", "99-01-01T00:00:00Z", "1500-02-29T00:00:00Z", "1582-10-04T23:59:59Z",
                "1582-10-15T00:00:00Z", "1582-10-10T00:00:00Z", "2024-1-01T00:00:00Z", "2024-01-01T00:00:00", "2024-01-01 00:00:00Z",
                "2024-01-01T00:00:00.5Z", "2024-02-29T23:59:59Z"
            ] {
                problems += decodeBoth(Date.self, "<plist><date>\(text)</date></plist>")
            }
            return problems
                + decodeBoth(Date.self, header + "<date>0009-09-15T23:16:13Z</date>\n</plist>")
                + decodeBoth(Date.self, "<date>1976-04-01T12:00:00Z</date>")
        },
        Case(name: "encode_122065123 / decodingCompatibility_122065123 (fields that roll over)") {
            // An older Foundation wrote the first of a month as the previous
            // month's 32nd; Foundation reads such text, rolling fields over, and so does Cartograph.
            var problems: [String] = []
            for text in [
                "2024-01-32T20:43:14Z", "2024-13-01T00:00:00Z", "2024-02-30T25:61:61Z", "2024-00-00T00:00:00Z", "2023-02-29T00:00:00Z",
                "1900-02-29T00:00:00Z", "2024-01-01T24:00:00Z", "1500-02-30T00:00:00Z", "2024-12-99T99:99:99Z"
            ] {
                problems += decodeBoth(Date.self, "<plist><date>\(text)</date></plist>")
            }
            let read = try CartographPropertyListDecoder().decode(Date.self, from: Data("<plist><date>2024-01-32T20:43:14Z</date></plist>".utf8))
            if read.timeIntervalSinceReferenceDate != 728_512_994 { problems.append("2024-01-32T20:43:14Z read as \(read)") }
            let encoder = CartographPropertyListEncoder()
            encoder.outputFormat = .xml
            let written = String(decoding: try encoder.encode([Date(timeIntervalSinceReferenceDate: 728_512_994)]), as: UTF8.self)
            if !written.contains("<date>2024-02-01T20:43:14Z</date>") { problems.append("written as \(written)") }
            return problems
        },
        Case(name: "NUL in XML plist strings and keys", differences: [.nulInXMLPlists]) {
            let value = ["a\u{0}b": "c\u{0}d"]
            var problems = roundTrip(value, .binary)
            let foundation = PropertyListEncoder()
            foundation.outputFormat = .xml
            let cartograph = CartographPropertyListEncoder()
            cartograph.outputFormat = .xml
            let theirs = try foundation.encode(value)
            if try PropertyListDecoder().decode([String: String].self, from: theirs) != value {
                problems.append("Foundation no longer reads its NUL")
            }
            if (try? cartograph.encode(value)) != nil { problems.append("Cartograph wrote a NUL into XML") }
            do {
                _ = try CartographPropertyListDecoder().decode([String: String].self, from: theirs)
                problems.append("Cartograph read a NUL from XML")
            } catch DecodingError.dataCorrupted {
            } catch { problems.append("Cartograph threw \(error)") }
            return problems
        },
        Case(name: "interceptData / encodingTopLevelData") {
            roundTripBoth(Data([0xAA, 0xBB, 0xCC])) + roundTripBoth([Data(), Data(repeating: 7, count: 100)])
        },
        Case(name: "multibyteCharacters_escaped_noencoding / escapedCharacters / plistWithEscapedCharacters / decodingEmoji") {
            decodeBoth(String.self, "<plist><string>These are copyright signs &#169; &#xA9; blah blah blah.</string></plist>")
                + decodeBoth(String.self, "<plist><string>&amp;&apos;&lt;&gt;&quot;</string></plist>")
                + decodeBoth(
                    [String: String].self,
                    header
                        + "<dict><key>com.apple.security.temporary-exception.sbpl</key><string>(allow mach-lookup (global-name-regex #&quot;^[0-9]+$&quot;))</string></dict></plist>"
                )
                + decodeBoth([String: String].self, header + "<dict><key>emoji</key><string>&#128664;</string></dict></plist>")
        },
        Case(name: "decodingTooManyCharactersError") {
            decodeBoth([String: String].self, "<plist><dict><key>emoji</key><string>&#12341234128664;</string></dict></plist>")
                + decodeBoth([String: String].self, "<plist><dict><key>emoji</key><string>&#12866411;</string></dict></plist>")
        },
        Case(name: "roundTripEmoji / roundTripEscapedStrings") {
            roundTripBoth(["🚘", "👩‍👩‍👧‍👧", "&", "<", ">", "]]>", "\"'", "tab\there", "é"])
        },
        Case(name: "unterminatedComment / incompleteOpenTag / garbageCharactersAfterXMLTagName") {
            decodeBoth([String].self, "<array><!-- comment -->") + decodeBoth([String].self, "<array")
                + decodeBoth([String: String].self, "<plist><dict><key>bar</key><stringGARBAGE>foo</string></dict></plist>")
                + decodeBoth([String: String].self, "<plist><dict><key>bar</key><string      >foo</string></dict></plist>")
        },
        Case(name: "CDATA_section") {
            decodeBoth(String.self, "<string><![CDATA[Test &amp; &33; <![CDATA[]]]> outside</string>")
        },
        Case(name: "dataWithBOM_utf8 / utf32be / utf32le", differences: [.utf32LittleEndianMark]) {
            let body = "<plist version=\"1.0\">\n<string>hello</string>\n</plist>"
            let utf8 = Data([0xEF, 0xBB, 0xBF]) + Data(("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" + body).utf8)
            let utf32be = Data([0, 0, 0xFE, 0xFF]) + ("<?xml version=\"1.0\" encoding=\"UTF-32BE\"?>\n" + body).data(using: .utf32BigEndian)!
            let utf32le = Data([0xFF, 0xFE, 0, 0]) + ("<?xml version=\"1.0\" encoding=\"UTF-32LE\"?>\n" + body).data(using: .utf32LittleEndian)!
            let utf16 = ("<?xml version=\"1.0\" encoding=\"UTF-16\"?>\n" + body).data(using: .utf16)!
            var problems = [utf8, utf32be, utf16].flatMap { decodeBoth(String.self, $0) }
            // A chosen difference (the Foundation compatibility article, as for JSON): FF FE 00 00 is the
            // UTF-32LE mark; Foundation takes it for UTF-16LE and refuses the file.
            if (try? CartographPropertyListDecoder().decode(String.self, from: utf32le)) != "hello" { problems.append("UTF-32LE not read") }
            if (try? PropertyListDecoder().decode(String.self, from: utf32le)) != nil { problems.append("Foundation now reads UTF-32LE") }
            return problems
        },
        Case(name: "plistWithBadUTF8") {
            decodeBoth([String].self, Data("<plist><array><string>".utf8) + Data([0xC3, 0x28, 0xFF]) + Data("</string></array></plist>".utf8))
        },
        Case(name: "nonStringDictionaryKey") {
            roundTripBoth([1: "one", 2: "two"]) + roundTripBoth([Switch.on.rawValue: 1])
        },
        Case(
            name: "badReferenceIndex / badTopObjectIndex / outOfBoundsObjectOffset / nonTopObjectOffsetBelowHeader / "
                + "outOfBoundsOffsetTableStart / tooLargeObjectCount", differences: [.damagedPlistsAreDataCorrupted]
        ) {
            var problems = decodeBoth([Int].self, smallBplist())
            if (try? CartographPropertyListDecoder().decode([Int].self, from: smallBplist())) != [42, 314, 255] { problems.append("the intact file") }
            let corruptions: [(inout [UInt8]) -> Void] = [
                { $0[11] = 0xBD }, { $0[39...46] = [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF] }, { $0[22] = 0xEE }, { $0[20] = 0x03 },
                { $0[47...54] = [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF] }, { $0[31...38] = [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF] }
            ]
            for corrupt in corruptions {
                let file = smallBplist(corrupt)
                problems += decodeBoth([Int].self, file, damaged: true)
                if (try? CartographPropertyListDecoder().decode([Int].self, from: file)) != nil { problems.append("read a corrupt file") }
            }
            return problems
        },
        Case(name: "bplist version bytes (bplist0x headers)") {
            ["0", "1", "x", "?"].flatMap { version in decodeBoth([Int].self, smallBplist { $0[7] = Character(version).asciiValue! }) }
                + decodeBoth([Int].self, smallBplist { $0[6] = UInt8(ascii: "1") })
        },
        Case(name: "uid") {
            decodeBoth([String: Int32].self, "<plist><dict><key>CF$UID</key><integer>1</integer></dict></plist>")
                + decodeBoth(
                    [Int32].self,
                    Data([
                        0x62, 0x70, 0x6c, 0x69, 0x73, 0x74, 0x30, 0x30, 0xa1, 0x01, 0x80, 0x01, 0x08, 0x0a,
                        0, 0, 0, 0, 0, 0, 0x01, 0x01, 0, 0, 0, 0, 0, 0, 0, 0x02, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x0c
                    ]))
        },
        Case(name: "encodingTopLevel… / supers / multipleDecodeOptions / encode_122065123 / fauxStability") {
            let company = FoundationCoderSuiteTests.Company(
                address: .init(street: "1 Infinite Loop", city: "Cupertino", zip: nil, country: "US"),
                employees: [.init(name: "Johnny", email: "j@apple.com")], founded: Date(timeIntervalSinceReferenceDate: 728_512_994), tags: ["b"])
            var problems = roundTripBoth(company) + roundTripBoth([Date(timeIntervalSinceReferenceDate: 728_512_994)])
            problems += roundTripBoth(FoundationCoderSuiteTests.Level1(level2: .init(name: "l")))
            problems += roundTripBoth([Generic.Item.integer(1), .string("1.2"), .string("foo"), .bool(true)])
            let encoder = CartographPropertyListEncoder()
            let first = try encoder.encode(["a": "a", "z": "z", "n": "n"])
            for _ in 0..<50 where try encoder.encode(["a": "a", "z": "z", "n": "n"]) != first { problems.append("binary bytes changed between runs") }
            for (format, theirs) in [(Format.xml, PropertyListEncoder()), (.binary, PropertyListEncoder())] {
                theirs.outputFormat = format
                let ours = CartographPropertyListEncoder()
                ours.outputFormat = format
                for file in [try theirs.encode(FoundationCoderSuiteTests.SuperEncoders()), try ours.encode(FoundationCoderSuiteTests.SuperEncoders())]
                {
                    let read = try PropertyListDecoder().decode([String: PlistAny].self, from: file)
                    let ourRead = try CartographPropertyListDecoder().decode([String: PlistAny].self, from: file)
                    if read != ourRead { problems.append("\(format) super encoders: \(ourRead) vs \(read)") }
                }
            }
            return problems
        },
        Case(name: "supers") {
            // `$null` read through super decoders: an element shifted after it was a wrong value.
            roundTripBoth(UsesSupers())
        },
        Case(name: "encoderStateThrowOnEncode (errors wrapped)") {
            // Foundation gives every error of an encode, a value's own too,
            // as `EncodingError.invalidValue` of the top-level value.
            var problems: [String] = []
            for format in [Format.xml, .binary] {
                for value in [[Throwing()], [Throwing(code: -1)]] {
                    let theirs = PropertyListEncoder()
                    theirs.outputFormat = format
                    let ours = CartographPropertyListEncoder()
                    ours.outputFormat = format
                    let shapes = [Result { try theirs.encode(value) }, Result { try ours.encode(value) }].map { result -> String in
                        guard case .failure(let error) = result else { return "wrote" }
                        guard case .invalidValue(_, let context) = error as? EncodingError else { return "\(type(of: error))" }
                        return
                            "invalidValue at [\(context.codingPath.map(\.stringValue).joined(separator: ","))] over \(type(of: context.underlyingError.map { $0 as Any } ?? "nothing"))"
                    }
                    if shapes[0] != shapes[1] { problems.append("\(format): Cartograph \(shapes[1]), Foundation \(shapes[0])") }
                }
            }
            return problems
        },
        Case(name: "encodingTopLevelWithConfiguration (scalars)") {
            // With a configuration Foundation writes a top-level scalar; without one it refuses it.
            var problems: [String] = []
            for format in [Format.xml, .binary] {
                let theirs = PropertyListEncoder()
                theirs.outputFormat = format
                let ours = CartographPropertyListEncoder()
                ours.outputFormat = format
                let a = try theirs.encode(Scalar(value: 41), configuration: Scalar.Provider.self)
                let b = try ours.encode(Scalar(value: 41), configuration: Scalar.Provider.self)
                if format == .xml, a != b { problems.append("XML: \(Differential.text(b)) vs \(Differential.text(a))") }
                for file in [a, b] {
                    if try PropertyListDecoder().decode(Scalar.self, from: file, configuration: Scalar.Provider.self) != Scalar(value: 41) {
                        problems.append("\(format): Foundation read a file wrongly")
                    }
                    if try CartographPropertyListDecoder().decode(Scalar.self, from: file, configuration: Scalar.Provider.self) != Scalar(value: 41) {
                        problems.append("\(format): Cartograph read a file wrongly")
                    }
                }
                if (try? ours.encode(41)) != nil { problems.append("\(format): a plain top-level scalar was written") }
            }
            return problems
        },
        Case(name: "oldStylePlist_invalid / errors / dictionary / stringsFileFormat / comments / data (OpenStep)") {
            struct Thing: Decodable, Equatable { var hello: String }
            struct Values: Decodable, Equatable {
                let testKey: String, testData: Data, nestedArray: [String]
                enum CodingKeys: String, CodingKey { case testKey = "test key", testData, nestedArray = "nested array" }
            }
            var problems =
                decodeBoth(String.self, "goodbye cruel world".data(using: .utf16)!)
                + decodeBoth(Thing.self, "{ hello = there; }\r\nextra stuff at end".data(using: .ascii)!)
                + decodeBoth(Thing.self, "{ hello = there; }")
                + decodeBoth(
                    Values.self, "{ \"test key\" = value;\n  testData = <feed face>;\n  \"nested array\" = (a, b, c); }".data(using: .utf16)!)
            let strings = "string1 = \"Good morning\";\nstring2 = \"Good afternoon\";\nstring3 = \"Good evening\";"
            let comments =
                "// Initial comment */\nstring1 = /*Test*/ \"Good morning\";  // Test\nstring2 = \"Good afternoon\" /*Test// */;\n"
                + "string3 = \"Good evening\"; // Test"
            for text in [strings, comments] {
                problems += decodeBoth([String: String].self, text.data(using: .utf16)!) + decodeBoth([String: String].self, text)
            }
            problems += decodeBoth([String: Data].self, "data1 = <7465\n73 74\n696E67                31\n\n323334>;".data(using: .utf16)!)
            for text in [
                "(a, b, c,)", "()", "{}", "( { a = (1, '2'); b = {}; }, <>, <00ff>, \"\" )", "(a$/:.-_9, 'x')", "(a+b)", "(a b)", "{a = b}",
                "{a b;}", "(<0f0>)", "(<xy>)", "((((((((((a))))))))))", "{ a = b; a = c; }", "/* only a comment */", "", "  ", "a", "'a", "(a,,)",
                "(,)",
                "(\"\\U00e9\\U00E9\\u00e9\")", "'\\UD83D\\UDE00'", "'\\UD83D'", "'\\UDE00\\UD83D'", "'\\U'"
            ] {
                problems += decodeBoth(OpenStep.self, text)
            }
            var theirs = Format.xml
            var ours = Format.xml
            _ = try PropertyListDecoder().decode([String: String].self, from: Data(strings.utf8), format: &theirs)
            _ = try CartographPropertyListDecoder().decode([String: String].self, from: Data(strings.utf8), format: &ours)
            if theirs != ours { problems.append("format: Cartograph \(ours), Foundation \(theirs)") }
            return problems
        },
        Case(name: "oldStylePlist_getSlashedChars_octal / unicode / literals / variableSize / unicode_invalid (OpenStep)") {
            // Every octal escape of one to three digits (`\0` … `\777`),
            // and `\U` escapes of one to four digits over the whole range
            // (a sample: every 97th unit, all below 0x100, the surrogates' edges).
            var octal: [String] = []
            for value in 0...0o777 {
                let digits = String(value, radix: 8)
                octal.append(digits)
                if value < 0o100 { octal.append("0" + digits) }
                if value < 0o10 { octal.append("00" + digits) }
            }
            var problems = decodeBoth([String].self, "(" + octal.map { "'\\\($0)'" }.joined(separator: ",") + ")")
            var units: [Int] = Array(0..<0x100)
            units += Array(stride(from: 0x100, through: 0xFFFF, by: 97))
            units += [0xD7FF, 0xD800, 0xDBFF, 0xDC00, 0xDFFF, 0xE000, 0xFFFF]
            var unicode: [String] = []
            for unit in units {
                let hex = String(unit, radix: 16)
                for width in hex.count...4 { unicode.append(String(repeating: "0", count: width - hex.count) + hex) }
            }
            problems += decodeBoth([String].self, "(" + unicode.map { "'\\U\($0)'" }.joined(separator: ",") + ")")
            problems += decodeBoth([String].self, "('\\a', '\\b', '\\f', '\\n', '\\r', '\\t', '\\v', '\\\"', '\\\\n', '\\q', '\\\n')")
            problems += decodeBoth([String].self, #"('\U1z', '\U12z', '\U123z', '\U1234')"#)
            for example in [#"'\U"#, #"'\U'"#, #"'\Ux'"#, #"'\Uxx'"#, #"'\Uxxx'"#, #"'\Uxxxx'"#] { problems += decodeBoth(String.self, example) }
            return problems
        },
        Case(name: "OpenStep files as the Swift toolchain ships them (SwiftBuild's .xcspec and .strings)") {
            let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent("Fixtures/OpenStep")
            var files = try FileManager.default.contentsOfDirectory(at: fixtures, includingPropertiesForKeys: nil)
            // Every such file of the toolchain this runs on, when it has them.
            let toolchain = URL(fileURLWithPath: "/opt/swift/usr/share/pm")
            if let bundles = try? FileManager.default.contentsOfDirectory(at: toolchain, includingPropertiesForKeys: nil) {
                for bundle in bundles {
                    let inside = (try? FileManager.default.subpathsOfDirectory(atPath: bundle.path)) ?? []
                    files += inside.filter { $0.hasSuffix(".xcspec") || $0.hasSuffix(".strings") }.map { bundle.appendingPathComponent($0) }
                }
            }
            var problems: [String] = []
            for file in files {
                let data = try Data(contentsOf: file)
                let theirs = Result { try PropertyListDecoder().decode(OpenStep.self, from: data) }
                let ours = Result { try CartographPropertyListDecoder().decode(OpenStep.self, from: data) }
                switch (theirs, ours) {
                case (.success(let a), .success(let b)): if a != b { problems.append("\(file.lastPathComponent) read differently") }
                case (.failure, .failure): break
                case (.success, .failure(let error)): problems.append("\(file.lastPathComponent): Cartograph threw \(error)")
                case (.failure(let error), .success): problems.append("\(file.lastPathComponent): Foundation threw \(error)")
                }
            }
            if files.count < 3 { problems.append("only \(files.count) files") }
            return problems
        },
        Case(
            name: "tooLargeOffset / tooLargeIndex / invalidNSDataKey_82142612 / nonStringDictionaryKey", differences: [.damagedPlistsAreDataCorrupted]
        ) {
            let tooLargeOffset: [UInt8] = [
                0x62, 0x70, 0x6c, 0x69, 0x73, 0x74, 0x30, 0x30, 0xa3, 0x01, 0x02, 0x03, 0x10, 0x2a, 0x11, 0x01, 0x3a, 0x10, 0xff,
                0, 0, 0, 0, 0, 0, 0, 0x08, 0, 0, 0, 0, 0, 0, 0, 0x0c, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0, 0, 0, 0, 0x11,
                0, 0, 0, 0, 0, 0, 0x08, 0x01, 0, 0, 0, 0, 0, 0, 0, 0x04, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x13
            ]
            let tooLargeIndex: [UInt8] = [
                0x62, 0x70, 0x6c, 0x69, 0x73, 0x74, 0x30, 0x30, 0xa3, 0, 0, 0, 0, 0, 0, 0, 0x01,
                0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0, 0, 0, 0, 0x03, 0x10, 0x2a, 0x11, 0x01, 0x3a, 0x10, 0xff, 0x08, 0x21, 0x23,
                0x26,
                0, 0, 0, 0, 0, 0, 0x01, 0x08, 0, 0, 0, 0, 0, 0, 0, 0x04, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x28
            ]
            var problems = decodeBoth([Int].self, Data(tooLargeOffset), damaged: true) + decodeBoth([Int].self, Data(tooLargeIndex), damaged: true)
            problems += decodeBoth([String: String].self, "<plist><dict><data>abcd</data><string>xyz</string></dict></plist>", damaged: true)
            problems += decodeBoth([String: String].self, "<plist><dict><string>abcd</string><string>xyz</string></dict></plist>", damaged: true)
            // A binary dictionary whose key is a bool, not a string.
            let encoder = PropertyListEncoder()
            encoder.outputFormat = .binary
            var nonStringKey = try encoder.encode(["abcd": "xyz"])
            if let tag = nonStringKey.firstIndex(of: 0b0101_0100) { nonStringKey[tag] = 0b0000_1001 }
            problems += decodeBoth([String: String].self, nonStringKey, damaged: true)
            return problems
        },
        Case(name: "customSubclass") {
            // A subclass's own `outputFormat` is the one an encode reads.
            final class XMLOnly: CartographPropertyListEncoder, @unchecked Sendable {
                override var outputFormat: PropertyListDecoder.PropertyListFormat {
                    get { .xml }
                    set {}
                }
            }
            let encoder = XMLOnly()
            encoder.outputFormat = .binary
            let written = String(decoding: try encoder.encode(["hello": "world"]), as: UTF8.self)
            return written.hasPrefix("<?xml") ? [] : ["the subclass's format was not used: \(written.prefix(20))"]
        },
        Case(name: "returnRightFormatFromParse") {
            var problems: [String] = []
            for format in [Format.xml, .binary] {
                let encoder = PropertyListEncoder()
                encoder.outputFormat = format
                let file = try encoder.encode([1])
                var theirs = Format.openStep
                var ours = Format.openStep
                _ = try PropertyListDecoder().decode([Int].self, from: file, format: &theirs)
                _ = try CartographPropertyListDecoder().decode([Int].self, from: file, format: &ours)
                if theirs != ours { problems.append("\(format): Cartograph says \(ours), Foundation \(theirs)") }
            }
            return problems
        }
    ]

    /// Foundation's `UsesSupers`: nil, super encoders under keys and in an
    /// unkeyed container, read back in order (a failed check is kept, not thrown).
    struct UsesSupers: Codable, Equatable {
        var failure: String?
        enum CodingKeys: String, CodingKey { case a, b, unkeyed }
        init() {}
        func encode(to encoder: any Encoder) throws {
            var keyed = encoder.container(keyedBy: CodingKeys.self)
            try keyed.encodeNil(forKey: .a)
            var b = keyed.superEncoder(forKey: .b).singleValueContainer()
            try b.encode("b")
            var main = keyed.superEncoder().singleValueContainer()
            try main.encode("super")
            var unkeyed = keyed.superEncoder(forKey: .unkeyed).unkeyedContainer()
            try unkeyed.encodeNil()
            let inUnkeyed = unkeyed.superEncoder()
            try unkeyed.encode("final")
            var middle = inUnkeyed.singleValueContainer()
            try middle.encode("middle")
        }
        init(from decoder: any Decoder) throws {
            let keyed = try decoder.container(keyedBy: CodingKeys.self)
            var read: [String] = []
            read.append(try keyed.decodeNil(forKey: .a) ? "nil" : "not nil")
            read.append(try keyed.superDecoder(forKey: .b).singleValueContainer().decode(String.self))
            read.append(try keyed.superDecoder().singleValueContainer().decode(String.self))
            var unkeyed = try keyed.superDecoder(forKey: .unkeyed).unkeyedContainer()
            read.append(try unkeyed.decodeNil() ? "nil" : "not nil")
            read.append(try unkeyed.superDecoder().singleValueContainer().decode(String.self))
            read.append(try unkeyed.decode(String.self))
            let expected = ["nil", "b", "super", "nil", "middle", "final"]
            failure = read == expected ? nil : "read \(read)"
        }
    }

    /// Throws its own error from `encode(to:)`.
    struct Throwing: Encodable {
        struct Failure: Error {}
        var code = 0
        func encode(to encoder: any Encoder) throws {
            if code < 0 {
                throw EncodingError.invalidValue(code, EncodingError.Context(codingPath: encoder.codingPath, debugDescription: "negative"))
            }
            throw Failure()
        }
    }

    /// A top-level number written through a configuration.
    struct Scalar: CodableWithConfiguration, Equatable {
        enum Provider: EncodingConfigurationProviding, DecodingConfigurationProviding {
            static let encodingConfiguration = 1
            static let decodingConfiguration = 1
        }
        var value: Int
        init(value: Int) { self.value = value }
        func encode(to encoder: any Encoder, configuration: Int) throws {
            var container = encoder.singleValueContainer()
            try container.encode(value + configuration)
        }
        init(from decoder: any Decoder, configuration: Int) throws {
            value = try decoder.singleValueContainer().decode(Int.self) - configuration
        }
    }

}
