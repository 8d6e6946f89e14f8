import Foundation
import Testing

@testable import Cartograph

/// The span helpers the plist and JSON5 readers read their input through
/// answer as the standard library's own operations do, and never read a
/// byte outside the span they are given.
@Suite struct SpanTextTests {
    @Test func decodedStringRepairsInvalidUTF8AsStringDecodingDoes() {
        let bytes: [UInt8] = [0x61, 0xC3, 0xA9, 0xFF, 0x62]
        let check1 = (bytes.span.decodedString == String(decoding: bytes, as: UTF8.self))
        #expect(check1, "bytes.span.decodedString == String(decoding: bytes, as: UTF8.self)")
        let check2 = (bytes.span.decodedString(1..<3) == "é")
        #expect(check2, "bytes.span.decodedString(1..<3) == 'é'")
        let check3 = (bytes.span.decodedString(2..<2) == "")
        #expect(check3, "bytes.span.decodedString(2..<2) == ''")
    }

    /// Every length the word-load comparison treats apart (1–3, 4–7, 8–16,
    /// 17–32, longer), equal and with one byte changed at each position,
    /// against `Array`'s own comparison.
    @Test func elementsEqualAgreesWithArrayEqualityAtEveryLengthAndPosition() {
        for length in 0...40 {
            let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
            let copy = Array(bytes)
            let same = bytes.span.elementsEqual(copy.span)
            let longer = bytes + [0]
            let againstLonger = bytes.span.elementsEqual(longer.span)
            #expect(same, "length \(length)")
            #expect(!againstLonger, "length \(length) against one more")
            for position in 0..<length {
                var changed = bytes
                changed[position] ^= 0x20
                let equal = bytes.span.elementsEqual(changed.span)
                #expect(!equal, "length \(length), byte \(position)")
            }
        }
    }

    @Test func firstIndexFindsTheByteFromTheStartGiven() {
        let bytes = Array("a<b<c".utf8)
        let check4 = (bytes.span.firstIndex(of: UInt8(ascii: "<")) == 1)
        #expect(check4, "bytes.span.firstIndex(of: UInt8(ascii: '<')) == 1")
        let check5 = (bytes.span.firstIndex(of: UInt8(ascii: "<"), from: 2) == 3)
        #expect(check5, "bytes.span.firstIndex(of: UInt8(ascii: '<'), from: 2) == 3")
        let check6 = (bytes.span.firstIndex(of: UInt8(ascii: "<"), from: 4) == nil)
        #expect(check6, "bytes.span.firstIndex(of: UInt8(ascii: '<'), from: 4) == nil")
        let check7 = (bytes.span.firstIndex(of: UInt8(ascii: "<"), from: 5) == nil)
        #expect(check7, "bytes.span.firstIndex(of: UInt8(ascii: '<'), from: 5) == nil")
        // A subspan is searched, not the array around it.
        let check8 = (bytes.span.extracting(0..<1).firstIndex(of: UInt8(ascii: "<")) == nil)
        #expect(check8, "bytes.span.extracting(0..<1).firstIndex(of: UInt8(ascii: '<')) == nil")
        let check9 = ([UInt8]().span.firstIndex(of: 0) == nil)
        #expect(check9, "[UInt8]().span.firstIndex(of: 0) == nil")
    }

    @Test func firstIndexWhereStopsAtTheFirstMatchOrTheEnd() {
        let bytes = Array("key>rest".utf8)
        let check10 = (bytes.span.firstIndex(from: 0) { $0 == UInt8(ascii: ">") } == 3)
        #expect(check10, "bytes.span.firstIndex(from: 0) { $0 == UInt8(ascii: '>') } == 3")
        let check11 = (bytes.span.firstIndex(from: 4) { $0 == UInt8(ascii: ">") } == bytes.count)
        #expect(check11, "bytes.span.firstIndex(from: 4) { $0 == UInt8(ascii: '>') } == bytes.count")
        let check12 = (bytes.span.extracting(0..<2).firstIndex(from: 0) { $0 == UInt8(ascii: ">") } == 2)
        #expect(check12, "bytes.span.extracting(0..<2).firstIndex(from: 0) { $0 == UInt8(ascii: '>') } == 2")
    }

    @Test func matchesComparesTheLiteralAtTheOffsetOnly() {
        let bytes = Array("<!--x-->".utf8)
        let check13 = (bytes.span.matches("<!--", at: 0))
        #expect(check13, "bytes.span.matches('<!--', at: 0)")
        let check14 = (bytes.span.matches("-->", at: 5))
        #expect(check14, "bytes.span.matches('-->', at: 5)")
        let check15 = !(bytes.span.matches("-->", at: 6))
        #expect(check15, "bytes.span.matches('-->', at: 6)")
        let check16 = !(bytes.span.matches("<!--", at: 1))
        #expect(check16, "bytes.span.matches('<!--', at: 1)")
        // Not enough bytes left in the subspan, though the array has them.
        let check17 = !(bytes.span.extracting(0..<3).matches("<!--", at: 0))
        #expect(check17, "bytes.span.extracting(0..<3).matches('<!--', at: 0)")
        #expect(("-->" as StaticString).firstByte == UInt8(ascii: "-"))
    }

    @Test func copiedDataAndWithByteSpanKeepEveryByte() {
        let bytes: [UInt8] = Array(0...255)
        let check18 = (bytes.span.extracting(10..<20).copiedData == Data(bytes[10..<20]))
        #expect(check18, "bytes.span.extracting(10..<20).copiedData == Data(bytes[10..<20])")
        let data = Data(bytes)
        #expect(withByteSpan(data) { $0.copiedBytes } == bytes)
        var text = "plist é"
        #expect(text.withUTF8Span { $0.copiedBytes } == Array("plist é".utf8))
    }

    @Test func bigEndianIntegersOfEveryWidth() {
        let bytes: [UInt8] = [0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09]
        let span = bytes.span
        #expect(span.bigEndianInteger(at: 0, width: 1) == 0x01)
        #expect(span.bigEndianInteger(at: 1, width: 2) == 0x0203)
        #expect(span.bigEndianInteger(at: 1, width: 3) == 0x02_0304)
        #expect(span.bigEndianInteger(at: 5, width: 4) == 0x0607_0809)
        #expect(span.bigEndianInteger(at: 0, width: 6) == 0x0102_0304_0506)
        #expect(span.bigEndianInteger(at: 1, width: 8) == 0x0203_0405_0607_0809)
    }

    @Test func aBigEndianIntegerPastTheEndTraps() async {
        await #expect(processExitsWith: .failure) {
            let bytes: [UInt8] = Array(repeating: 0, count: 16)
            // Bytes 13 to 16 of a 14-byte subspan.
            _ = bytes.span.extracting(0..<14).bigEndianInteger(at: 11, width: 4)
        }
    }

    @Test func aComparisonBeforeTheSpanTraps() async {
        await #expect(processExitsWith: .failure) {
            _ = Array("abc".utf8).span.matches("a", at: -1)
        }
    }

    @Test func aSearchOutsideTheSpanTraps() async {
        await #expect(processExitsWith: .failure) {
            _ = Array("abc".utf8).span.firstIndex(of: 0, from: 4)
        }
    }
}
