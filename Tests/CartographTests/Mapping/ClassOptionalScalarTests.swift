import Foundation
import Testing

@testable import Cartograph

/// A class model's optional scalars are written through their getters
/// (``ClassScalarWrite``): the same bytes as the same properties of a
/// struct, which are written from the struct's memory, for every kind of
/// scalar, set and nil, in turns.
@Suite struct ClassOptionalScalarTests {
    /// Non-final, as the seeds' models are.
    @Mappable
    class Reading {
        var label: String?
        var count: Int?
        var ratio: Double?
        var on: Bool?
        var small: Int8?
        var big: UInt64?
        var when: Date?
        var link: URL?
        required init() {}
    }

    /// The class's properties again, on purpose: the struct is the
    /// reference the class is compared against.
    @Mappable
    struct Plain {
        var label: String?
        var count: Int?
        var ratio: Double?
        var on: Bool?
        var small: Int8?
        var big: UInt64?
        var when: Date?
        var link: URL?
    }

    @Test func optionalScalarsThroughGettersWriteWhatAStructWrites() throws {
        var readings: [Reading] = []
        var plains: [Plain] = []
        for round in 0..<256 {
            // Each property set or nil by its own bit of the round.
            func set(_ bit: Int) -> Bool { round & (1 << bit) != 0 }
            let reading = Reading()
            var plain = Plain()
            if set(0) { reading.label = "label \(round) \"q\""; plain.label = reading.label }
            if set(1) { reading.count = round - 128; plain.count = reading.count }
            if set(2) { reading.ratio = Double(round) / 8; plain.ratio = reading.ratio }
            if set(3) { reading.on = round % 3 == 0; plain.on = reading.on }
            if set(4) { reading.small = Int8(truncatingIfNeeded: round); plain.small = reading.small }
            if set(5) { reading.big = UInt64.max - UInt64(round); plain.big = reading.big }
            if set(6) { reading.when = Date(timeIntervalSince1970: Double(round) * 1_000); plain.when = reading.when }
            if set(7) { reading.link = URL(string: "https://example.com/\(round)"); plain.link = reading.link }
            readings.append(reading)
            plains.append(plain)
        }
        for nulls in [false, true] {
            let mapper = JSONMapper(registry: ModelRegistry(options: MappingOptions { if nulls { $0.nilEncoding = .null } }))
            #expect(try mapper.encode(readings) == (try mapper.encode(plains)), "nilEncoding null: \(nulls)")
            #expect(try mapper.encodeValue(readings) == (try mapper.encodeValue(plains)))
        }
    }
}
