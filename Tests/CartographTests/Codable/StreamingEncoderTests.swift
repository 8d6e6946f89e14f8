import CorpusModels
import Foundation
import Testing

@testable import Cartograph

/// The streaming encoder against the tree encoder it replaces on the common
/// path: byte-identical output under every writer option, values that
/// write out of order handed to the tree (and written as it writes them),
/// and errors that a caller catches leaving nothing half-written.
@Suite struct StreamingEncoderTests {
    /// What the stream writes (nil: it gave the value up) and what the tree writes.
    static func both<T: Encodable>(_ value: T, _ mapper: JSONMapper) throws -> (stream: [UInt8]?, tree: [UInt8]) {
        let stream = try StreamEncoder.encode(value, options: mapper.codableOptions, writeOptions: mapper.writeOptions, registry: mapper.registry)
        return (stream, try mapper.encodeThroughTree(value))
    }

    /// The stream writes the value, byte for byte as the tree does.
    static func expectStreamed<T: Encodable>(
        _ value: T, _ mapper: JSONMapper, _ comment: String = "", sourceLocation: Testing.SourceLocation = #_sourceLocation
    )
        throws
    {
        let (stream, tree) = try both(value, mapper)
        let text = stream.map { String(decoding: $0, as: UTF8.self) }
        #expect(text == String(decoding: tree, as: UTF8.self), "\(comment)", sourceLocation: sourceLocation)
        #expect(try mapper.encode(value) == tree, sourceLocation: sourceLocation)
    }

    /// The stream gives the value up, and the mapper writes what the tree writes.
    static func expectHandedToTheTree<T: Encodable>(
        _ value: T, _ mapper: JSONMapper = JSONMapper(), sourceLocation: Testing.SourceLocation = #_sourceLocation
    )
        throws -> String
    {
        let (stream, tree) = try both(value, mapper)
        #expect(stream == nil, "streamed: \(stream.map { String(decoding: $0, as: UTF8.self) } ?? "")", sourceLocation: sourceLocation)
        let encoded = try mapper.encode(value)
        #expect(encoded == tree, sourceLocation: sourceLocation)
        return String(decoding: encoded, as: UTF8.self)
    }

    /// Every layout and escaping option the writer has.
    static let writeOptions: [WriteOptions] = [
        WriteOptions(),
        WriteOptions { $0.formatting = .pretty(indent: 2) },
        WriteOptions { $0.formatting = .pretty(indent: 4) },
        WriteOptions { $0.formatting = .prettyLikeFoundation },
        WriteOptions { $0.escapeSlashes = true },
        WriteOptions {
            $0.asciiOnly = true
            $0.formatting = .prettyLikeFoundation
        }
    ]

    @Test(arguments: 0..<writeOptions.count)
    func corpusModelsStreamAsTheTreeWritesThem(_ option: Int) throws {
        let reader = JSONMapper()
        let twitter = try reader.decode(TwitterResponse.self, from: try Fixtures.bytes("twitter.json"))
        let canada = try reader.decode(FeatureCollection.self, from: try Fixtures.bytes("canada.json"))
        // Twitter's text under every option and both key strategies; canada's
        // numbers once compact and once pretty (a debug build encodes it
        // slowly, and the suite shares two cores with live servers).
        let keys: CodableOptions.KeyStrategy = option.isMultiple(of: 2) ? .useDefaultKeys : .snakeCase
        let mapper = JSONMapper(options: CodableOptions { $0.keys = keys }, writeOptions: Self.writeOptions[option])
        try Self.expectStreamed(twitter, mapper, "twitter")
        if option == 0 || option == 3 { try Self.expectStreamed(canada, mapper, "canada") }
    }

    @Test(arguments: 0..<24)
    func seededRandomValuesStreamAsTheTreeWritesThem(_ seed: Int) throws {
        var generator = SeededGenerator(seed: UInt64(seed) &+ 7000)
        let value = CodableEquivalenceTests.random(&generator)
        let dates: [CodableOptions.DateStrategy] = [.deferredToDate, .secondsSince1970, .millisecondsSince1970, .iso8601(fractionalSeconds: true)]
        let data: [CodableOptions.DataStrategy] = [.base64, .deferredToData]
        let mapper = JSONMapper(
            options: CodableOptions {
                $0.dates = dates[seed % dates.count]
                $0.data = data[seed % data.count]
                $0.keys = seed % 3 == 0 ? .snakeCase : .useDefaultKeys
            }, writeOptions: Self.writeOptions[seed % Self.writeOptions.count])
        try Self.expectStreamed(value, mapper, "seed \(seed)")
        try Self.expectStreamed([value, value], mapper, "seed \(seed), twice")
    }

    struct Scalars: Encodable {
        var values: [Double] = [1, -0.0, 1e300, .leastNonzeroMagnitude, .nan, .infinity, -.infinity, 0.1]
        var float: Float = .nan
        var floats: [Float] = [0.1, .infinity, 3]
        var big: UInt64 = .max
        var wide: Int128 = .min
        var uwide: UInt128 = .max
        var small: Int8 = -128
        var json: JSONValue = ["a": [1, "x\u{1F}/é", nil, true]]
        var decimal = Decimal(string: "3.14159265358979323846")!
        var url = URL(string: "https://example.com/a?b=c")!
        var date = Date(timeIntervalSince1970: 1_234_567_890.5)
        var data = Data([0, 1, 2, 255])
        var optional: Int?
    }

    @Test func everyScalarKindStreamsUnderEveryOption() throws {
        for option in Self.writeOptions {
            var codable = CodableOptions()
            codable.nonConformingFloats = .convertFromString(positiveInfinity: "+inf", negativeInfinity: "-inf", nan: "nan")
            codable.dates = .custom(
                decode: { _ in Date() },
                encode: { date, encoder in
                    var container = encoder.unkeyedContainer()
                    try container.encode(date.timeIntervalSince1970)
                    try container.encode("s")
                })
            codable.data = .custom(
                decode: { _ in Data() },
                encode: { data, encoder in
                    var container = encoder.singleValueContainer()
                    try container.encode(data.count)
                })
            try Self.expectStreamed(Scalars(), JSONMapper(options: codable, writeOptions: option))
        }
    }

    /// The digits come from `Double.write(to:)` without a `String`: the
    /// same text as `description` makes, less a whole value's `.0`.
    @Test func doublesAreWrittenAsTheirShortestText() throws {
        var generator = SeededGenerator(seed: 0xD0_0B1E)
        var values: [Double] = [0, -0.0, 1, 100, 1e16, 1e-7, 0.1, .leastNonzeroMagnitude, .greatestFiniteMagnitude, -65.613616999999977]
        while values.count < 6_000 {
            let value = Double(bitPattern: UInt64.random(in: 0...UInt64.max, using: &generator))
            if value.isFinite { values.append(value) }
            values.append(Double(Int.random(in: -1_000_000...1_000_000, using: &generator)) / 64)
        }
        for value in values {
            var writer = NativeJSONWriter(options: WriteOptions())
            writer.writeDouble(value)
            let text = String(decoding: writer.output, as: UTF8.self)
            #expect(text == DoubleFormatting.json(value))
            #expect(Double(text) == value)
        }
    }

    @Test func aNonFiniteNumberThrowsTheTreesErrorWhereverItIs() throws {
        struct Holder<Value: Encodable>: Encodable { var value: Value }
        func errors(_ value: some Encodable) -> (String, String) {
            let mapper = JSONMapper()
            let stream = String(
                describing: (try? StreamEncoder.encode(
                    value, options: mapper.codableOptions, writeOptions: mapper.writeOptions, registry: mapper.registry)).map { _ in "no error" }
                    ?? catching {
                        _ = try StreamEncoder.encode(
                            value, options: mapper.codableOptions, writeOptions: mapper.writeOptions, registry: mapper.registry)
                    })
            let tree = catching { _ = try mapper.encodeThroughTree(value) }
            return (stream, tree)
        }
        func catching(_ body: () throws -> Void) -> String {
            do {
                try body()
                return "no error"
            } catch {
                return "\(error)"
            }
        }
        for (stream, tree) in [
            errors(Holder(value: Double.nan)), errors(Holder(value: [1, Double.infinity])), errors([[Holder(value: Float.nan)]]),
            errors(Double.nan), errors([Holder(value: [Holder(value: -Double.infinity)])])
        ] {
            #expect(stream == tree)
            #expect(tree.contains("cannot be written as JSON"))
        }
    }

    // MARK: Out of order: handed to the tree

    struct RepeatedKey: Encodable {
        enum CodingKeys: String, CodingKey { case a, b }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(1, forKey: .a)
            try container.encode([1, 2], forKey: .b)
            try container.encode("again", forKey: .a)
        }
    }

    @Test func aRepeatedKeyIsWrittenOnceWithItsLastValueInItsFirstPlace() throws {
        #expect(try Self.expectHandedToTheTree(RepeatedKey()) == #"{"a":"again","b":[1,2]}"#)
        #expect(try Self.expectHandedToTheTree(["x": [RepeatedKey()]]) == #"{"x":[{"a":"again","b":[1,2]}]}"#)
    }

    struct LateNested: Encodable {
        enum CodingKeys: String, CodingKey { case nested, list, after, inner }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            var nested = container.nestedContainer(keyedBy: CodingKeys.self, forKey: .nested)
            var list = container.nestedUnkeyedContainer(forKey: .list)
            try nested.encode(1, forKey: .inner)
            try container.encode(true, forKey: .after)
            try list.encode("late")
        }
    }

    @Test func aNestedContainerWrittenAfterItsSiblingsIsHandedToTheTree() throws {
        #expect(try Self.expectHandedToTheTree(LateNested()) == #"{"nested":{"inner":1},"list":["late"],"after":true}"#)
    }

    struct LateSuper: Encodable {
        var usesSuperLate: Bool
        enum CodingKeys: String, CodingKey { case own, base }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            let base = container.superEncoder(forKey: .base)
            let unused = container.superEncoder()
            _ = unused
            try container.encode("mine", forKey: .own)
            if usesSuperLate {
                var inner = base.singleValueContainer()
                try inner.encode(42)
            }
        }
    }

    @Test func superEncodersHoldAnEmptyObjectUntilUsedAndLateUseGoesToTheTree() throws {
        try Self.expectStreamed(LateSuper(usesSuperLate: false), JSONMapper())
        #expect(try JSONMapper().encodeString(LateSuper(usesSuperLate: false)) == #"{"base":{},"super":{},"own":"mine"}"#)
        #expect(try Self.expectHandedToTheTree(LateSuper(usesSuperLate: true)) == #"{"base":42,"super":{},"own":"mine"}"#)
        try Self.expectStreamed(LateSuper(usesSuperLate: false), JSONMapper(writeOptions: WriteOptions { $0.formatting = .prettyLikeFoundation }))
    }

    struct Replaced: Encodable {
        var secondKind: Bool
        func encode(to encoder: any Encoder) throws {
            var single = encoder.singleValueContainer()
            try single.encode(1)
            if secondKind {
                var array = encoder.unkeyedContainer()
                try array.encode(2)
            } else {
                try single.encode("two")
            }
        }
    }

    @Test func aValueEncodedTwiceKeepsTheLastAsTheTreeDoes() throws {
        #expect(try Self.expectHandedToTheTree([Replaced(secondKind: false)]) == #"["two"]"#)
        #expect(try Self.expectHandedToTheTree([Replaced(secondKind: true)]) == #"[[2]]"#)
    }

    /// A subclass asking for its encoder's container after `super.encode(to:)`.
    class Base: Encodable {
        var id = 1
        enum CodingKeys: String, CodingKey { case id }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)
        }
    }

    final class Derived: Base, @unchecked Sendable {
        var tags = ["x"]
        enum MoreKeys: String, CodingKey { case tags }
        override func encode(to encoder: any Encoder) throws {
            try super.encode(to: encoder)
            var container = encoder.container(keyedBy: MoreKeys.self)
            try container.encode(tags, forKey: .tags)
        }
    }

    @Test func containersOfOneEncoderAskedForTwiceStream() throws {
        // Two keyed containers of one encoder, alive together: one object.
        try Self.expectStreamed([RecycledContainerTests.Twins(), RecycledContainerTests.Twins()], JSONMapper())
        #expect(try JSONMapper().encodeString(RecycledContainerTests.Twins()) == #"{"a":1,"b":2,"c":3}"#)
        try Self.expectStreamed([Derived(), Derived()], JSONMapper())
        #expect(try JSONMapper().encodeString(Derived()) == #"{"id":1,"tags":["x"]}"#)
    }

    // MARK: Errors a caller catches

    struct Refusing: Encodable {
        var after: Int
        enum CodingKeys: String, CodingKey { case partial, list, after }
        struct Refused: Error {}
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode("written", forKey: .partial)
            var list = container.nestedUnkeyedContainer(forKey: .list)
            try list.encode(1)
            if after < 0 { throw Refused() }
            try container.encode(after, forKey: .after)
        }
    }

    final class Counter: @unchecked Sendable { var count = 0 }

    /// Catches its members' errors and writes on.
    struct Forgiving: Encodable {
        let counter: Counter
        enum CodingKeys: String, CodingKey { case first, second, third }
        func encode(to encoder: any Encoder) throws {
            counter.count += 1
            var container = encoder.container(keyedBy: CodingKeys.self)
            try? container.encode(Refusing(after: -1), forKey: .first)
            try container.encode(Refusing(after: 2), forKey: .second)
            var list = container.nestedUnkeyedContainer(forKey: .third)
            try? list.encode(Refusing(after: -1))
            try list.encode("kept")
            try? list.encode(Double.nan)
            var single = list.superEncoder().singleValueContainer()
            try? single.encode(Refusing(after: -1))
        }
    }

    @Test func aCaughtErrorLeavesNoTraceAndTheValueIsEncodedOnce() throws {
        for option in Self.writeOptions {
            let counter = Counter()
            let mapper = JSONMapper(writeOptions: option)
            try Self.expectStreamed(Forgiving(counter: counter), mapper)
            // Once by the stream, once by the tree it is compared with, once by encode: never again.
            #expect(counter.count == 3)
        }
        #expect(
            try JSONMapper().encodeString(Forgiving(counter: Counter()))
                == #"{"second":{"partial":"written","list":[1],"after":2},"third":["kept",{}]}"#)
        let thrown = #expect(throws: Refusing.Refused.self) { try JSONMapper().encode([Refusing(after: -1)]) }
        #expect(thrown != nil)
    }

    // MARK: Limits

    struct Deep: Encodable {
        var levels: Int
        func encode(to encoder: any Encoder) throws {
            var container = encoder.unkeyedContainer()
            if levels > 0 { try container.encode(Deep(levels: levels - 1)) }
        }
    }

    @Test func theWritersDepthLimitIsReportedAsTheTreeReportsIt() throws {
        let mapper = JSONMapper(writeOptions: WriteOptions { $0.maxDepth = 10 })
        let (stream, _) = try Self.both(Deep(levels: 5), mapper)
        #expect(stream != nil)
        #expect(
            try StreamEncoder.encode(Deep(levels: 20), options: mapper.codableOptions, writeOptions: mapper.writeOptions, registry: mapper.registry)
                == nil)
        let error = #expect(throws: EncodingError.self) { try mapper.encode(Deep(levels: 20)) }
        #expect("\(String(describing: error))".contains("maxDepth"))
        let codableLimit = JSONMapper(options: CodableOptions { $0.maxDepth = 8 })
        let limited = #expect(throws: EncodingError.self) { try codableLimit.encode(Deep(levels: 20)) }
        #expect("\(String(describing: limited))".contains("CodableOptions.maxDepth"))
    }

    // MARK: Keys

    @Test func repeatedKeysAreFoundAsTheTreeFindsThemOnEitherSideOfItsIndex() throws {
        struct Keys: Encodable {
            var names: [String]
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: StringKey.self)
                for (position, name) in names.enumerated() { try container.encode(position, forKey: StringKey(name)) }
            }
        }
        let many = (0..<40).map { "key\($0)" }
        try Self.expectStreamed(Keys(names: many), JSONMapper())
        #expect(try Self.expectHandedToTheTree(Keys(names: many + ["key3"])).contains(#""key3":40"#))
        #expect(try Self.expectHandedToTheTree(Keys(names: ["a", "b", "a"])) == #"{"a":2,"b":1}"#)
        // Canonically equivalent keys: as the tree decides, below its index and past it.
        for names in [["\u{E9}", "e\u{301}"], many + ["\u{E9}", "e\u{301}"], many + ["\u{212A}", "K"]] {
            let (stream, tree) = try Self.both(Keys(names: names), JSONMapper())
            #expect(try JSONMapper().encode(Keys(names: names)) == tree)
            if let stream { #expect(stream == tree) }
        }
        // Snake case can make two coding keys one JSON key.
        let snake = JSONMapper(options: CodableOptions { $0.keys = .snakeCase })
        #expect(try Self.expectHandedToTheTree(Keys(names: ["aB", "a_b"]), snake) == #"{"a_b":1}"#)
        try Self.expectStreamed(["someKey": ["innerKey": 1]], snake)
    }

    @Test func customKeyStrategiesAndSortedKeysGoToTheTree() throws {
        #expect(!StreamRun.streams(CodableOptions { $0.keys = .custom { $0.uppercased() } }, WriteOptions()))
        #expect(!StreamRun.streams(CodableOptions { $0.keys = .codingPath { $0.last! } }, WriteOptions()))
        #expect(!StreamRun.streams(CodableOptions(), WriteOptions { $0.sortedKeys = true }))
        #expect(StreamRun.streams(CodableOptions { $0.keys = .snakeCaseRoundTrip }, WriteOptions()))
        let sorted = JSONMapper(writeOptions: WriteOptions { $0.sortedKeys = true })
        #expect(try sorted.encodeString(["b": 1, "a": 2]) == #"{"a":2,"b":1}"#)
    }

    @Test func encodedBytesAreHandedOverInPlaceOnBothPaths() throws {
        struct BodyRefused: Error {}
        for mapper in [JSONMapper(), JSONMapper(writeOptions: WriteOptions { $0.sortedKeys = true })] {
            let value = ["b": [1.5, 2], "a": [3]]
            #expect(try mapper.withEncodedBytes(value) { Array($0) } == mapper.encodeThroughTree(value))
            #expect(try mapper.withEncodedBytes(RepeatedKey()) { Array($0) } == mapper.encodeThroughTree(RepeatedKey()))
            #expect(throws: BodyRefused.self) { try mapper.withEncodedBytes(value) { _ in throw BodyRefused() } }
        }
    }

    // MARK: Registered models inside a Codable graph

    struct Point: Codable, Mappable, Equatable {
        var x = 0.0
        var y = 0.0
        static let mapping = Mapping<Point>({ Point() }) {
            Map(\.x, "X")
            Map(\.y, "at.y")
        }
    }

    struct Drawing: Encodable {
        var name: String
        var points: [Point]
        var origin: Point
    }

    @Test func registeredModelsAreWrittenByTheirMappingInPlace() throws {
        var registry = ModelRegistry()
        registry.register(Point.self)
        for option in Self.writeOptions {
            let mapper = JSONMapper(registry: registry, writeOptions: option)
            try Self.expectStreamed(Drawing(name: "d", points: [Point(x: 1, y: 2), Point(x: 0.5, y: -3)], origin: Point(x: 0, y: 0)), mapper)
        }
        #expect(
            try JSONMapper(registry: registry).encodeString(Drawing(name: "d", points: [Point(x: 1, y: 2)], origin: Point(x: 0, y: 0)))
                == #"{"name":"d","points":[{"X":1,"at":{"y":2}}],"origin":{"X":0,"at":{"y":0}}}"#)
    }
}
