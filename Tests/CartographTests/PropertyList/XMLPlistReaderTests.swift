import Foundation
import Testing

@testable import Cartograph

/// Cartograph's own XML plist reader: the same Documents as libplist's
/// reader on real files, the XML around plists, every scalar spelling, and
/// errors with their place.
@Suite struct XMLPlistReaderTests {
    let native = PropertyListMapper()
    let libplist = PropertyListMapper(options: PropertyListOptions { $0.reader = .libplist })

    /// `body` inside the usual declaration, DOCTYPE and `<plist>`.
    func plist(_ body: String) -> [UInt8] {
        Array(
            ("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!DOCTYPE plist PUBLIC \"-//Apple//DTD PLIST 1.0//EN\" "
                + "\"http://www.apple.com/DTDs/PropertyList-1.0.dtd\">\n<plist version=\"1.0\">\n\(body)\n</plist>\n").utf8)
    }

    func value(_ body: String) throws -> JSONValue {
        try native.document(from: plist(body)).root.jsonValue()
    }

    func error(_ bytes: [UInt8]) throws -> CartographError {
        try #require(throws: CartographError.self) { try native.document(from: bytes) }
    }

    @Test func realFilesReadTheSameAsWithLibplist() throws {
        let encoder = PropertyListEncoder()
        encoder.outputFormat = .xml
        var settings = PropertyListTests.settings
        settings.name = "tabs\tand\r\nreturns <&> \"quotes\" 😀"
        let files = [
            try Fixtures.bytes("twitter.xml.plist"), try Fixtures.bytes("canada.xml.plist"), Array(try encoder.encode(settings)),
            try native.encode(settings, format: .xml)
        ]
        for (index, bytes) in files.enumerated() {
            #expect(try native.document(from: bytes).root.jsonValue() == libplist.document(from: bytes).root.jsonValue(), "file \(index)")
        }
        #expect(try native.decode(PropertyListTests.Settings.self, from: files[2]) == settings)
        // A keyed archive as Foundation writes it in XML (UIDs as CF$UID dicts) reads as its binary form does.
        let archive = try NSKeyedArchiver.archivedData(withRootObject: ["k": "v", "n": 3] as NSDictionary, requiringSecureCoding: false)
        let xmlArchive = try PropertyListSerialization.data(
            fromPropertyList: try PropertyListSerialization.propertyList(from: archive, format: nil),
            format: .xml, options: 0)
        #expect(String(decoding: xmlArchive, as: UTF8.self).contains("CF$UID"))
        #expect(try native.document(from: xmlArchive).root.jsonValue() == native.document(from: archive).root.jsonValue())
    }

    @Test func textDecodesEntitiesReferencesCDATAAndComments() throws {
        #expect(try value("<string>a &lt;b&gt; &amp; &quot;c&quot; &apos;d&apos; &#65;&#x1F600;</string>") == "a <b> & \"c\" 'd' A😀")
        #expect(try value("<string><![CDATA[<raw> & ]]>tail<!-- note --> end</string>") == "<raw> & tail end")
        #expect(try value("<string>line\r\nkept\r</string>") == "line\r\nkept\r")
        #expect(try value("<dict><key>a&amp;b</key><string/><key/><array/><key>d</key><dict/></dict>") == ["a&b": "", "": [], "d": [:]])
        #expect(try value("<array><true/><false></false><!-- c --><?pi x?></array>") == [true, false])
    }

    @Test func integersInEverySpelling() throws {
        #expect(try value("<integer> 42 </integer>") == 42)
        #expect(try value("<integer>+7</integer>") == 7)
        #expect(try value("<integer>-9223372036854775808</integer>") == .number(JSONNumber(Int64.min)))
        #expect(try value("<integer>18446744073709551615</integer>") == .number(JSONNumber(UInt64.max)))
        #expect(try value("<integer>0x1F</integer>") == 31)
        #expect(try value("<integer>-0</integer>") == 0)
        #expect(try value("<integer>- \t1</integer>") == -1) // whitespace after the sign, as Foundation reads it
        #expect(try error(plist("<integer>18446744073709551616</integer>")).kind == .numberOutOfRange)
        #expect(try error(plist("<integer>-9223372036854775809</integer>")).kind == .numberOutOfRange)
        for bad in ["", "1.5", "12a", "-", "0x", "- 0x"] {
            #expect(try error(plist("<integer>\(bad)</integer>")).kind == .syntax, "\(bad)")
        }
    }

    @Test func realsInEverySpelling() throws {
        for (text, expected) in [
            ("0.1", 0.1), ("+1.5", 1.5), (".5", 0.5), ("1.", 1), ("1E5", 100_000), ("-2.5e-3", -0.0025), (" 3", 3),
            ("inf", .infinity), ("-infinity", -.infinity), ("+Infinity", .infinity), ("-iNf", -.infinity)
        ] {
            #expect(try native.document(from: plist("<real>\(text)</real>")).root.double() == expected, "\(text)")
        }
        #expect(try native.document(from: plist("<real>nan</real>")).root.double().isNaN)
        // As Foundation: no trailing whitespace, no hexadecimal.
        for text in ["one", "3 ", "0x10", "-0x1p3", ""] {
            #expect(try error(plist("<real>\(text)</real>")).kind == .syntax, "\(text)")
        }
    }

    @Test func datesAndData() throws {
        let date = try native.document(from: plist("<date>2026-11-21T10:30:00Z</date>")).root
        #expect(date.isDate)
        #expect(try date.date() == Date(timeIntervalSince1970: 1_795_257_000))
        let early = try native.document(from: plist("<date>1850-01-01T00:00:00Z</date>")).root
        #expect(try early.date() == Date(timeIntervalSince1970: -3_786_825_600))
        #expect(try error(plist("<date>yesterday</date>")).kind == .syntax)
        let data = try native.document(from: plist("<data>\n\tAAEC\n\t/v8=\n</data>")).root
        #expect(data.isData)
        #expect(try data.data() == Data([0, 1, 2, 254, 255]))
        #expect(try native.document(from: plist("<data/>")).root.data() == Data())
        for bad in ["AAE*", "AA=A", "A"] {
            #expect(try error(plist("<data>\(bad)</data>")).kind == .syntax, "\(bad)")
        }
    }

    @Test func cfUIDDictsAreUIDs() throws {
        let uid = plist("<dict><key>$top</key><dict><key>root</key><dict><key>CF$UID</key><integer>1</integer></dict></dict></dict>")
        #expect(try native.document(from: uid).root.jsonValue() == ["$top": ["root": 1]])
        // libplist 2.2 leaves them as dicts in XML (it reads binary UIDs as UIDs).
        #expect(try libplist.document(from: uid).root.jsonValue() == ["$top": ["root": ["CF$UID": 1]]])
        let strict = PropertyListMapper(options: PropertyListOptions { $0.uids = .reject })
        #expect(throws: CartographError.self) { try strict.document(from: uid) }
        // Not a UID: another key beside it, or a value that is not an integer.
        #expect(try value("<dict><key>CF$UID</key><integer>1</integer><key>b</key><true/></dict>") == ["CF$UID": 1, "b": true])
        #expect(try value("<dict><key>CF$UID</key><string>1</string></dict>") == ["CF$UID": "1"])
    }

    @Test func aBareValueMayBeTheRoot() throws {
        #expect(try native.document(from: Array("<array><integer>1</integer></array>".utf8)).root.jsonValue() == [1])
        #expect(try native.document(from: Array("\u{FEFF}<?xml version=\"1.0\"?><string>x</string>".utf8)).root.jsonValue() == "x")
    }

    @Test func malformedPlistsSayWhatAndWhere() throws {
        let cases: [(String, String)] = [
            ("<dict><key>a</key></dict>", "has no value"),
            ("<dict><string>a</string></dict>", "where a <key> belongs"),
            ("<array><key>a</key></array>", "outside a <dict>"),
            ("<array><integer>1</integer></dict>", "closes an <array>"),
            ("<array>text</array>", "text outside an element"),
            ("<thing/>", "not a property-list element"),
            ("<string>a<b/>c</string>", "an element inside <string>"),
            ("<string>&bogus;</string>", "not one of XML's five"),
            ("<string>&#0;</string>", "NUL"),
            ("<true>yes</true>", "holds text"),
            ("<string>a</string><string>b</string>", "more than one value")
        ]
        for (body, message) in cases {
            let failure = try error(plist(body))
            #expect(failure.message.contains(message), "\(body): \(failure.message)")
            #expect(failure.line == 4 && failure.column != nil, "\(body)")
        }
        #expect(try error(Array("<plist><array><string>a</string>".utf8)).kind == .unexpectedEnd)
        #expect(try error(Array("<plist><string>a</string></plist><string>b</string>".utf8)).message.contains("after the plist"))
        #expect(try error(Array("<plist><string>a</string></plist>trailing".utf8)).message.contains("text outside an element"))
        #expect(try error(Array("<plist/>".utf8)).message.contains("no value"))
        #expect(try error(Array("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><plist/>".utf8)).message.contains("UTF-8"))
        // UTF-16 is read (converted), as Foundation reads it; a NUL in UTF-8 is not.
        #expect(try native.document(from: "<plist><string>é</string></plist>".data(using: .utf16LittleEndian)!).root.string() == "é")
        #expect(try error(Array("<plist><string>a\0</string></plist>".utf8)).message.contains("NUL"))
        #expect(try error(plist("<string>\u{FF}</string>").map { $0 == 0xC3 ? 0xFF : $0 }).kind == .invalidUTF8)
    }
}
