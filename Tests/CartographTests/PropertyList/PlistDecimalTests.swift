import Foundation
import Testing

@testable import Cartograph

/// A `Decimal` in a property list takes Foundation's form (Decimal's own
/// Codable dictionary) both ways; a `<real>` still reads as a Decimal, and
/// fields out of range are refused, not read as another number.
@Suite struct PlistDecimalTests {
    static func plist(exponent: Int, length: Int, mantissa: [Int]) -> Data {
        let words = mantissa.map { "<integer>\($0)</integer>" }.joined()
        return Data(
            """
            <?xml version="1.0" encoding="UTF-8"?><plist version="1.0"><array><dict><key>exponent</key><integer>\(exponent)</integer>\
            <key>isCompact</key><true/><key>isNegative</key><false/><key>length</key><integer>\(length)</integer>\
            <key>mantissa</key><array>\(words)</array></dict></array></plist>
            """.utf8)
    }

    @Test func decimalsRoundTripThroughBothEncodersInBothFormats() throws {
        let values = [
            Decimal(string: "0.1")!, Decimal(string: "-123.456e-10")!, Decimal(0), Decimal(string: "3.14159265358979323846264338327950288")!, .nan
        ]
        for format in [PropertyListSerialization.PropertyListFormat.xml, .binary] {
            let ours = CartographPropertyListEncoder()
            ours.outputFormat = format
            let theirs = PropertyListEncoder()
            theirs.outputFormat = format
            for file in [try ours.encode(values), try theirs.encode(values)] {
                let mine = try CartographPropertyListDecoder().decode([Decimal].self, from: file)
                let foundation = try PropertyListDecoder().decode([Decimal].self, from: file)
                #expect(mine.count == values.count)
                for (index, value) in values.enumerated() {
                    #expect(mine[index] == value || (mine[index].isNaN && value.isNaN), "\(format) \(value): ours \(mine[index])")
                    #expect(
                        foundation[index] == value || (foundation[index].isNaN && value.isNaN), "\(format) \(value): Foundation \(foundation[index])")
                }
            }
        }
    }

    @Test func aRealReadsAsADecimal() throws {
        let file = Data(
            #"<?xml version="1.0" encoding="UTF-8"?><plist version="1.0"><array><real>0.25</real><integer>7</integer></array></plist>"#.utf8)
        #expect(try CartographPropertyListDecoder().decode([Decimal].self, from: file) == [Decimal(string: "0.25")!, 7])
    }

    @Test func fieldsOutOfRangeAreRefused() throws {
        #expect(
            try CartographPropertyListDecoder().decode([Decimal].self, from: Self.plist(exponent: -1, length: 1, mantissa: [1, 0, 0, 0, 0, 0, 0, 0]))
                == [Decimal(string: "0.1")!])
        for (exponent, length, mantissa) in [
            (100_000, 1, [1, 0, 0, 0, 0, 0, 0, 0]), (200, 1, [1, 0, 0, 0, 0, 0, 0, 0]), (-129, 1, [1, 0, 0, 0, 0, 0, 0, 0]),
            (0, 100, [1, 0, 0, 0, 0, 0, 0, 0])
        ] {
            #expect(throws: DecodingError.self, "exponent \(exponent), length \(length)") {
                try CartographPropertyListDecoder().decode([Decimal].self, from: Self.plist(exponent: exponent, length: length, mantissa: mantissa))
            }
        }
        #expect(throws: DecodingError.self) {
            try CartographPropertyListDecoder().decode([Decimal].self, from: Self.plist(exponent: 0, length: 1, mantissa: [1]))
        }
        #expect(throws: DecodingError.self) {
            try CartographPropertyListDecoder().decode(
                [Decimal].self, from: Self.plist(exponent: 0, length: 1, mantissa: [70_000, 0, 0, 0, 0, 0, 0, 0]))
        }
    }
}
