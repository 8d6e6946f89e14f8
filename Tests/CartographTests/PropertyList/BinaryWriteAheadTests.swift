import Foundation
import Testing

@testable import Cartograph

/// The binary writer takes a `Codable` value's scalars as they are encoded
/// (`BinaryWriteAhead`) and keeps its working memory between writes
/// (`BinaryPlistScratch`, `ScalarTable`'s stamps). What the encoder's
/// semantics promise must still hold — a key encoded twice, containers
/// added to after their siblings, nested single values, top-level checks —
/// and no write may see another's objects.
@Suite struct BinaryWriteAheadTests {
    /// Encodes keys twice, reopens nested containers after later siblings,
    /// and writes through a super encoder and single-value containers.
    struct Rewriter: Encodable {
        enum Key: String, CodingKey { case a, b, nested, list, later, wrapped, `super` }
        struct Wrapped: Encodable {
            let text: String
            func encode(to encoder: any Encoder) throws {
                var single = encoder.singleValueContainer()
                try single.encode(text)
            }
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            try container.encode(1, forKey: .a)
            var nested = container.nestedContainer(keyedBy: Key.self, forKey: .nested)
            var list = container.nestedUnkeyedContainer(forKey: .list)
            try container.encode("bee", forKey: .b)
            try container.encode("first", forKey: .later)
            // Written after their siblings: still inside the containers.
            try nested.encode(true, forKey: .a)
            try list.encode(2.5)
            try list.encode("x")
            try list.encodeNil()
            // Encoded twice: the last value, in the first key's place.
            try container.encode("ay", forKey: .a)
            try container.encode(Wrapped(text: "inside"), forKey: .wrapped)
            let superEncoder = container.superEncoder()
            var superValue = superEncoder.singleValueContainer()
            try superValue.encode(Int64.min)
            try nested.encode(UInt64.max, forKey: .b)
            try container.encode("second", forKey: .later)
        }
    }

    @Test func keysEncodedTwiceAndLateWritesLandInTheirContainers() throws {
        let plist = try PropertyListMapper().encode(Rewriter(), format: .binary)
        let foundation = try PropertyListSerialization.propertyList(from: Data(plist), format: nil) as? NSDictionary
        let expected: NSDictionary = [
            "a": "ay", "b": "bee", "later": "second", "wrapped": "inside", "super": NSNumber(value: Int64.min),
            "nested": ["a": true, "b": NSNumber(value: UInt64.max)] as NSDictionary, "list": [2.5, "x", "$null"] as NSArray
        ]
        #expect(foundation == expected)
        // Keys in the order first encoded, as the JSON encoder keeps them.
        let keys = { (node: Node) in try node.object().keys }
        let ours = try keys(PropertyListMapper().document(from: plist).root)
        #expect(ours == ["a", "nested", "list", "b", "later", "wrapped", "super"])
        #expect(try keys(Document(parsing: JSONMapper().encode(Rewriter())).root) == ours)
    }

    /// Foundation's encoder writes the same dictionary.
    @Test func foundationWritesTheSameValues() throws {
        let ours = try PropertyListMapper().encode(Rewriter(), format: .binary)
        let encoder = PropertyListEncoder()
        encoder.outputFormat = .binary
        let theirs = try encoder.encode(Rewriter())
        let read = { (data: Data) in try PropertyListSerialization.propertyList(from: data, format: nil) as? NSDictionary }
        #expect(try read(Data(ours)) == read(theirs))
    }

    struct Scalars: Codable, Equatable {
        var text = "plain"
        var unicode = "naïve café — ✓ 𝄞"
        var long = String(repeating: "long text ", count: 40)
        var date = Date(timeIntervalSinceReferenceDate: 12_345.5)
        var data = Data([0, 1, 2, 255])
        var numbers: [Int64] = [0, 255, 256, 65_535, 65_536, 4_294_967_295, 4_294_967_296, -1, .min, .max]
        var huge: UInt64 = .max
        var reals: [Double] = [0, -0.0, 1.5, .infinity, -.infinity, 1e300]
        var flags = [true, false, true]
        var optional: String?
        var nested: [String: [String]] = ["k": ["v", "v", "plain"]]
    }

    @Test func everyScalarKindReadsBackInFoundationAndCartograph() throws {
        let value = Scalars()
        let plist = Data(try PropertyListMapper().encode(value, format: .binary))
        #expect(try PropertyListDecoder().decode(Scalars.self, from: plist) == value)
        #expect(try PropertyListMapper().decode(Scalars.self, from: plist) == value)
    }

    /// The root's kind decides whether a top-level scalar is refused, so
    /// the root is never written ahead.
    @Test func topLevelScalarsAreStillRefusedAndNestedOnesWritten() throws {
        let strict = PropertyListMapper(options: PropertyListOptions { $0.allowsTopLevelScalars = false })
        #expect(throws: EncodingError.self) { try strict.encode("alone", format: .binary) }
        #expect(throws: EncodingError.self) { try strict.encode(Date(), format: .binary) }
        #expect(throws: EncodingError.self) { try strict.encode(Rewriter.Wrapped(text: "alone"), format: .binary) }
        let wrapped = try strict.encode(["w": Rewriter.Wrapped(text: "in a dict")], format: .binary)
        #expect(try PropertyListDecoder().decode([String: String].self, from: Data(wrapped)) == ["w": "in a dict"])
        // Allowed by default, and read back.
        let alone = try PropertyListMapper().encode(Rewriter.Wrapped(text: "alone"), format: .binary)
        #expect(try PropertyListMapper().decode(String.self, from: alone) == "alone")
    }

    struct Dated: Encodable {
        let when: Date
    }

    @Test func aDateThePlistCannotHoldNamesItsPath() throws {
        do {
            _ = try PropertyListMapper().encode([Dated(when: Date(timeIntervalSinceReferenceDate: .nan))], format: .binary)
            Issue.record("a NaN date was written")
        } catch let error as EncodingError {
            guard case .invalidValue(_, let context) = error else { Issue.record("\(error)"); return }
            #expect(context.debugDescription.contains("$[0].when"), "\(context.debugDescription)")
        }
    }

    /// Objects of one write never leak into the next: a large write (the
    /// scalar table grows, the buffers are kept) between two small ones
    /// leaves the small one's bytes unchanged, and each write's shared
    /// scalars are counted as Foundation counts them.
    @Test func keptWorkingMemoryChangesNoWrite() throws {
        let small = ["alpha": ["one", "two", "one"], "beta": ["two"]]
        let mapper = PropertyListMapper()
        let before = try mapper.encode(small, format: .binary)
        // 30,000 distinct strings, each twice, and as many integers: the
        // scalar table grows several times and must still share them.
        let strings = (0..<30_000).map { "value \($0)" }
        let large = Large(strings: strings + strings, numbers: (0..<30_000).map { $0 * 7 } + (0..<30_000).map { $0 * 7 })
        let first = try mapper.encode(large, format: .binary)
        let again = try mapper.encode(large, format: .binary)
        let after = try mapper.encode(small, format: .binary)
        #expect(before == after)
        #expect(first == again)
        #expect(try PropertyListDecoder().decode(Large.self, from: Data(first)) == large)
        let encoder = PropertyListEncoder()
        encoder.outputFormat = .binary
        #expect(Self.objectCount(first) == Self.objectCount(Array(try encoder.encode(large))))
        // Keys, the dict, two arrays, 30,000 strings and 30,000 integers (0 … 209,993, distinct).
        #expect(Self.objectCount(first) == 2 + 1 + 2 + 30_000 + 30_000)
    }

    struct Large: Codable, Equatable {
        let strings: [String]
        let numbers: [Int]
    }

    /// The object count in a binary plist's trailer.
    static func objectCount(_ plist: [UInt8]) -> Int {
        plist.suffix(24).prefix(8).reduce(0) { $0 << 8 | Int($1) }
    }

    /// A write whose working memory grew past the bound gives it back.
    @Test func workingMemoryPastItsBoundIsNotKept() {
        var large = BinaryPlistScratch()
        large.references.reserveCapacity(BinaryPlistScratch.maxFootprint / 8 + 1)
        #expect(large.footprint > BinaryPlistScratch.maxFootprint)
        #expect(!BinaryPlistScratch.recycle(large))
        var small = BinaryPlistScratch()
        small.output.reserveCapacity(1 << 20)
        #expect(small.footprint >= 1 << 20 && small.footprint < BinaryPlistScratch.maxFootprint)
    }

    @Test func concurrentWritesEachGetTheirOwnBytes() async throws {
        let values = (0..<8).map { index in
            Large(strings: (0..<(500 * (index + 1))).map { "s\($0 % (100 + index))" }, numbers: Array(0..<(index * 300)))
        }
        let expected = try values.map { try PropertyListMapper().encode($0, format: .binary) }
        try await withThrowingTaskGroup(of: (Int, [UInt8]).self) { group in
            for _ in 0..<4 {
                for (index, value) in values.enumerated() {
                    group.addTask { (index, try PropertyListMapper().encode(value, format: .binary)) }
                }
            }
            for try await (index, bytes) in group { #expect(bytes == expected[index], "value \(index)") }
        }
    }

    enum Shade: String, CodingKeyRepresentable, Encodable, Hashable { case red, green, blue, cyan, plum }
    struct Palette: Encodable {
        let names: [String: String]
        let numbers: [Int: Double]
        let shades: [Shade: [String: Int]]
    }

    /// Equal dictionaries give equal bytes: Swift seeds each dictionary's
    /// hash order by its storage, and the binary writer numbers objects as
    /// the encode meets them, so equal dictionaries held at once encoded
    /// their members (and numbered their objects) in different orders.
    /// Foundation's `fauxStability_dict` asks this of `[String: String]`;
    /// integer and `CodingKeyRepresentable` keys have the same shape.
    @Test func equalDictionariesGiveEqualBytes() throws {
        let keys = ["a", "z", "n", "q", "b", "m", "k", "x", "c", "0", "12"]
        let palettes = (0..<64).map { _ in
            Palette(
                names: Dictionary(uniqueKeysWithValues: keys.map { ($0, "v" + $0) }),
                numbers: Dictionary(uniqueKeysWithValues: (0..<9).map { ($0 * 7, Double($0) / 4) }),
                shades: Dictionary(uniqueKeysWithValues: [Shade.red, .green, .blue, .cyan, .plum].map { ($0, ["in": $0.rawValue.count, "out": 1]) }))
        }
        for format in [PropertyListFormat.binary, .xml] {
            let encoder = CartographPropertyListEncoder()
            encoder.outputFormat = format == .binary ? .binary : .xml
            let first = try encoder.encode(palettes[0])
            let differing = try palettes.filter { try encoder.encode($0) != first }.count
            #expect(differing == 0, "\(format): \(differing) of \(palettes.count) encodes differ")
            let dictionaries = palettes.map(\.names)
            let firstDictionary = try encoder.encode(dictionaries[0])
            #expect(try dictionaries.allSatisfy { try encoder.encode($0) == firstDictionary }, "\(format): [String: String]")
            // What Foundation reads back is the value encoded.
            let read = try PropertyListDecoder().decode([String: String].self, from: firstDictionary)
            #expect(read == dictionaries[0])
        }
        // The members' coding keys are the ones Dictionary.encode(to:) gives.
        let keysSeen = try KeyRecorder.keys(of: [3: "three", 11: "eleven"], [Shade.plum: 1], ["7": true, "x": false])
        // In the order of their string values ("11" before "3").
        #expect(keysSeen == ["11/11", "3/3", "plum/-", "7/7", "x/-"])
    }

    /// The member keys (string value / integer value) a property-list
    /// encode hands to the members' `encode(to:)`, in the order it does.
    struct KeyRecorder: Encodable {
        final class Log: @unchecked Sendable { var keys: [String] = [] }
        let log: Log
        func encode(to encoder: any Encoder) throws {
            let key = encoder.codingPath.last!
            log.keys.append("\(key.stringValue)/\(key.intValue.map(String.init) ?? "-")")
            var single = encoder.singleValueContainer()
            try single.encode(0)
        }

        static func keys(of ints: [Int: String], _ shades: [Shade: Int], _ strings: [String: Bool]) throws -> [String] {
            let log = Log()
            let encoder = CartographPropertyListEncoder()
            _ = try encoder.encode(ints.mapValues { _ in KeyRecorder(log: log) })
            _ = try encoder.encode(shades.mapValues { _ in KeyRecorder(log: log) })
            _ = try encoder.encode(strings.mapValues { _ in KeyRecorder(log: log) })
            return log.keys
        }
    }

    /// The table empties by stamp; after the stamps wrap it is cleared for real.
    @Test func scalarTableForgetsEachWriteAcrossStampWraps() {
        // "a" encoded twice: a one-byte ASCII string marker and the byte.
        let bytes: [UInt8] = [0x51, 0x61, 0x51, 0x61, 0x51, 0x62]
        var table = ScalarTable(slotCount: 16)
        // The output as the sink holds it when each scalar has just been written.
        let (first, second, third) = (Array(bytes[0..<2]), Array(bytes[0..<4]), bytes)
        for round in 0..<70_000 {
            #expect(table.object(from: 0, in: first, offsets: [0], next: 0) == 0)
            // The same bytes later: the first object; other bytes: new.
            if table.object(from: 2, in: second, offsets: [0], next: 1) != 0 { Issue.record("round \(round): not shared"); return }
            if table.object(from: 4, in: third, offsets: [0, 2], next: 1) != 1 { Issue.record("round \(round): shared"); return }
            table.reset()
            if table.object(from: 2, in: second, offsets: [0], next: 7) != 7 { Issue.record("round \(round): remembered"); return }
            table.reset()
        }
    }

    @Test func encodedLengthsFollowTheMarkers() {
        var sink = BinaryPlistSink()
        // Each scalar's object is shared when written again, which needs its
        // length when the table grows: 5,000 distinct ones, each twice.
        func writeAll() -> [Int] {
            (0..<5_000).map { index in
                switch index % 6 {
                case 0: return sink.stringObject("ascii \(index) " + String(repeating: "x", count: index % 40))
                case 1: return sink.stringObject("ünï \(index)")
                case 2: return sink.integerObject(Int64(index) * 1_000_003 - 2_000_000)
                case 3: return sink.realObject(Double(index) / 3)
                case 4: return sink.dataObject(Self.data(index))
                default: return sink.unsignedObject(UInt64.max - UInt64(index))
                }
            }
        }
        let objects = writeAll()
        let again = writeAll()
        #expect(objects == again)
        #expect(Set(objects).count == 5_000)
    }

    /// Distinct data for each index, of lengths across the one-byte count's limit.
    static func data(_ index: Int) -> Data { Data(Array("d\(index)".utf8) + Array(repeating: UInt8(index % 256), count: index % 20)) }
}
