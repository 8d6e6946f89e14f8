import Foundation
import Testing

@testable import Cartograph

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `Float` (and `Float16`) read from text are rounded once, from the text,
/// on every path: through `Double` they were rounded twice, and a `Double`
/// that lands exactly between two `Float`s tied to even whichever side the
/// text was on. The reference is C's `strtof`, which rounds once.
@Suite struct FloatRoundingTests {
    /// The nearest `Float` by C's `strtof`.
    static func strtofValue(_ text: String) -> Float {
        text.withCString { strtof($0, nil) }
    }

    /// `%.<precision>e` of `value`, by C's printer (exact digits).
    static func scientific(_ value: Double, digitsAfterPoint precision: Int) -> String {
        var buffer = [CChar](repeating: 0, count: 512)
        let length = withVaList([value]) { vsnprintf(&buffer, buffer.count, "%.\(precision)e", $0) }
        return String(decoding: buffer[0..<Int(length)].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Spellings near the midpoints between random adjacent `Float`s: the
    /// midpoint's shortest `Double` text, its 17- to 20-digit roundings, its
    /// exact expansion, and the shortest text of the `Double`s on either side.
    static func spellings(count: Int, seed: UInt64) -> [String] {
        var generator = SeededGenerator(seed: seed)
        var texts: [String] = []
        texts.reserveCapacity(count * 9)
        for _ in 0..<count {
            // Every finite positive Float, subnormals included, equally likely by bits.
            let float = Float(bitPattern: UInt32.random(in: 0..<0x7F80_0000, using: &generator))
            let next = float == .greatestFiniteMagnitude ? Double(Float.greatestFiniteMagnitude) + Double(float.ulp) : Double(float.nextUp)
            let midpoint = (Double(float) + next) / 2
            texts.append("\(midpoint)")
            for digits in 16...19 { texts.append(scientific(midpoint, digitsAfterPoint: digits)) }
            texts.append(scientific(midpoint, digitsAfterPoint: 120))
            texts.append("\(midpoint.nextUp)")
            texts.append("\(midpoint.nextDown)")
            texts.append("-\(midpoint)")
        }
        return texts
    }

    /// Spellings against `strtof`, straight through the rounding the
    /// decoders share: nine per random midpoint, 12,000 midpoints on every
    /// run (a debug build reads about 25,000 spellings a second), as many as
    /// `CARTOGRAPH_FLOAT_MIDPOINTS` says when set (Tests/README.md gives the
    /// largest run made).
    @Test func narrowingMatchesStrtofOnMidpointsAndTheirNeighbours() throws {
        let midpoints = ProcessInfo.processInfo.environment["CARTOGRAPH_FLOAT_MIDPOINTS"].flatMap { Int($0) } ?? 12_000
        var mismatches: [String] = []
        var checked = 0
        for text in Self.spellings(count: midpoints, seed: 0xF10A7) {
            checked += 1
            let expected = Self.strtofValue(text)
            let wide = Double(text)!
            let ours = NarrowFloat.value(Float.self, nearest: wide, text: Array(text.utf8).span)
            if ours.bitPattern != expected.bitPattern, mismatches.count < 10 { mismatches.append(text) }
        }
        #expect(mismatches.isEmpty, "differ from strtof: \(mismatches)")
        #expect(checked == midpoints * 9)
    }

    /// The review's two cases, on every decoding path.
    @Test(arguments: [
        ("7.038531e-26", UInt32(0x15AE_43FD)), ("3.4028235677973366e38", Float.greatestFiniteMagnitude.bitPattern),
        ("-7.038531e-26", UInt32(0x95AE_43FD))
    ])
    func reviewedValuesRoundOnceOnEveryPath(text: String, bits: UInt32) throws {
        #expect(Self.strtofValue(text).bitPattern == bits)
        for (path, value) in try Self.everyPath(text) {
            #expect(value.bitPattern == bits, "\(path) read \(text) as \(String(value.bitPattern, radix: 16))")
        }
    }

    /// A sample of the generated spellings on every path.
    @Test func everyPathMatchesStrtof() throws {
        for text in Self.spellings(count: 300, seed: 0x5EED) {
            let expected = Self.strtofValue(text)
            for (path, value) in try Self.everyPath(text) {
                #expect(value.bitPattern == expected.bitPattern, "\(path) read \(text)")
            }
        }
    }

    struct Holder: Codable { var value: Float }

    struct Measured: Mappable {
        var value: Float = 0
        static let mapping = Mapping<Measured>({ Measured() }) { Map(\.value, "value") }
    }

    /// The value of `text` read as a `Float` by every decoder.
    static func everyPath(_ text: String) throws -> [(String, Float)] {
        let json = Array(#"{"value": \#(text)}"#.utf8)
        let plist = Array(
            #"<?xml version="1.0" encoding="UTF-8"?><plist version="1.0"><dict><key>value</key><real>\#(text)</real></dict></plist>"#.utf8)
        var registry = ModelRegistry()
        registry.register(Measured.self)
        return [
            ("Codable", try JSONMapper().decode(Holder.self, from: json).value),
            ("Codable array", try JSONMapper().decode([Float].self, from: Array("[\(text)]".utf8))[0]),
            ("drop-in decoder", try CartographJSONDecoder().decode(Holder.self, from: Data(json)).value),
            ("mapping", try JSONMapper(registry: registry).decode(Measured.self, from: json).value),
            ("Node", try Document(parsing: json).root.object()["value"]!.float()),
            ("plist real", try PropertyListMapper().decode(Holder.self, from: plist).value),
            ("drop-in plist decoder", try CartographPropertyListDecoder().decode(Holder.self, from: Data(plist)).value)
        ]
    }

    /// Every finite Float's own text reads back as itself (the round trip
    /// the double rounding broke).
    @Test func floatsRoundTripThroughCartographsOwnText() throws {
        var generator = SeededGenerator(seed: 0xF1)
        let floats = (0..<50_000).map { _ in
            Float(bitPattern: UInt32.random(in: 0..<0x7F80_0000, using: &generator)) * (Bool.random(using: &generator) ? 1 : -1)
        }
        let back = try JSONMapper().decode([Float].self, from: JSONMapper().encode(floats))
        #expect(zip(floats, back).allSatisfy { $0.bitPattern == $1.bitPattern })
    }

    #if !((os(macOS) || targetEnvironment(macCatalyst)) && arch(x86_64))
        /// `Float16` at its midpoints: text just below, exactly at and just above
        /// each (digits built from the midpoint's exact expansion, so the
        /// expected value is known by construction), read through `Codable`.
        @Test func float16RoundsOnceFromTheText() throws {
            var checked = 0
            for bits in stride(from: UInt16(1), to: 0x7BFF, by: 37) {
                let low = Float16(bitPattern: bits)
                let high = low.nextUp
                let midpoint = (Double(low) + Double(high)) / 2
                let exact = Self.scientific(midpoint, digitsAfterPoint: 60)
                let (mantissa, exponent) = Self.split(exact)
                let above = mantissa + "0000000000000000000001" + exponent
                let below = Self.decremented(mantissa) + "9999999999999999999999" + exponent
                let even = low.bitPattern & 1 == 0 ? low : high
                let values = try JSONMapper().decode([Float16].self, from: Array("[\(below), \(mantissa + exponent), \(above)]".utf8))
                #expect(values.map(\.bitPattern) == [low.bitPattern, even.bitPattern, high.bitPattern], "around \(exact)")
                checked += 1
            }
            #expect(checked > 800)
            // 65520 is halfway between 65504 and 65536 (past the greatest): below it is finite.
            #expect(try JSONMapper().decode([Float16].self, from: Array("[65519.999999999]".utf8)) == [Float16.greatestFiniteMagnitude])
            #expect(throws: DecodingError.self) { try JSONMapper().decode([Float16].self, from: Array("[65520]".utf8)) }
        }
    #endif

    /// `1.2345000e-5` as ("1.2345000", "e-5"), trailing zeros of the mantissa dropped.
    static func split(_ text: String) -> (String, String) {
        let parts = text.split(separator: "e")
        var mantissa = String(parts[0])
        while mantissa.hasSuffix("0") { mantissa.removeLast() }
        return (mantissa, "e" + parts[1])
    }

    /// The mantissa with its last digit one lower (its last digit is not zero).
    static func decremented(_ mantissa: String) -> String {
        var characters = Array(mantissa)
        let last = characters.count - 1
        characters[last] = Character(String(characters[last].wholeNumberValue! - 1))
        return String(characters)
    }
}
