import CorpusModels
import Foundation
import Testing

@testable import Cartograph

/// `JSONMapper.encode` writes the mapping's tree straight to bytes: the
/// same bytes as making its `JSONValue` and writing that through jansson,
/// under every write option, for flat objects, key paths, keys written by
/// several rules, dates, data, and a tree a transform built with a repeated key.
@Suite struct MappingEncodeWriterTests {
    @Mappable final class Sample {
        var title = "Grüße \u{1F30D} \"quoted\" / back\\slash \u{0007}"
        var count = 42
        var ratio = 0.1
        var big = UInt64.max
        var flags = [true, false]
        var when = Date(timeIntervalSince1970: 1_700_000_000.25)
        var blob = Data([0, 1, 2, 250])
        var nested: Sample?
        var empty: [String] = []
        var note: String?
        @Mapped("deep.path.0.name") var deep = "d"
        @Mapped(transform: Self.repeating) var odd = 0

        /// Writes an object that names one key twice.
        static let repeating = Transform<Int>(
            decodeWithContext: { node, _ in try node.int() },
            encodeWithContext: { value, _ in .object([("a", .number(JSONNumber(value))), ("a", .string("again"))]) })
    }

    /// Two rules write one key: the values are gathered into an array.
    @Mappable final class Gathered {
        var first = "x"
        var second = "y"
        static let mapping = Mapping<Gathered>({ Gathered() }) {
            Map(\.first, "both")
            Map(\.second, "both")
        }
    }

    static let options: [WriteOptions] = [
        WriteOptions(),
        WriteOptions { $0.sortedKeys = true },
        WriteOptions { $0.formatting = .pretty(indent: 2) },
        WriteOptions {
            $0.formatting = .pretty(indent: 4); $0.sortedKeys = true; $0.asciiOnly = true
        },
        WriteOptions {
            $0.escapeSlashes = true; $0.asciiOnly = true
        },
        WriteOptions { $0.formatting = .prettyLikeFoundation }
    ]

    @Test(arguments: 0..<options.count)
    func theMappingsTreeIsWrittenAsItsJSONValueIs(_ index: Int) throws {
        var registry = ModelRegistry(options: MappingOptions { $0.nilEncoding = .null })
        registry.register(Sample.self)
        registry.register(Gathered.mapping)
        let mapper = JSONMapper(registry: registry, writeOptions: Self.options[index])
        let sample = Sample()
        sample.nested = Sample()
        for model in [sample, Sample()] as [Sample] {
            #expect(try mapper.encode(model) == (try mapper.encodeValue(model).encoded(options: Self.options[index])))
        }
        #expect(try mapper.encode([sample, Sample()]) == (try mapper.encodeValue([sample, Sample()]).encoded(options: Self.options[index])))
        #expect(try mapper.encode(Gathered()) == (try mapper.encodeValue(Gathered()).encoded(options: Self.options[index])))
        #expect(try mapper.encodeValue(Gathered()) == ["both": ["x", "y"]])
    }

    @Test func corpusModelsAreWrittenAsTheirJSONValuesAre() throws {
        let mapper = JSONMapper(registry: .corpusMappings())
        let twitter = try mapper.decode(TwitterResponse.self, from: Fixtures.bytes("twitter.json"))
        #expect(try mapper.encode(twitter) == (try mapper.encodeValue(twitter).encoded()))
        let canada = try mapper.decode(FeatureCollection.self, from: Fixtures.bytes("canada.json"))
        #expect(try mapper.encode(canada) == (try mapper.encodeValue(canada).encoded()))
    }

    @Test func limitsAndNonFiniteNumbersFailAsTheJSONValuePathDoes() throws {
        var registry = ModelRegistry()
        registry.register(Sample.self)
        let shallow = JSONMapper(registry: registry, writeOptions: WriteOptions { $0.maxDepth = 2 })
        let sample = Sample()
        sample.nested = Sample()
        let error = try #require(throws: CartographError.self) { try shallow.encode(sample) }
        #expect(error.kind == .depthLimitExceeded)
        sample.nested = nil
        sample.ratio = .nan
        let nan = try #require(throws: CartographError.self) { try JSONMapper(registry: registry).encode(sample) }
        #expect(throws: CartographError.self) { try JSONMapper(registry: registry).encodeValue(sample).encoded() }
        #expect(nan.path == "$.ratio")
    }
}
