import CorpusModels
import Foundation
import Testing

@testable import Cartograph

/// twitter.json and canada.json into full models: Mappings, factories and
/// Foundation's JSONDecoder agree, and what Cartograph writes Foundation reads back.
@Suite struct CorpusMappingTests {
    let registry = ModelRegistry.corpusMappings()

    @Test func twitterThroughMappingsEqualsFoundation() throws {
        let bytes = try Fixtures.bytes("twitter.json")
        let mapped = try JSONMapper(registry: registry).decode(TwitterResponse.self, from: bytes)
        let foundation = try JSONDecoder().decode(TwitterResponse.self, from: Data(bytes))
        #expect(mapped.statuses.count == 100)
        #expect(mapped == foundation)
        #expect(mapped.statuses.compactMap(\.retweetedStatus).count == 73)
    }

    @Test func twitterThroughFactoriesEqualsFoundation() throws {
        let bytes = try Fixtures.bytes("twitter.json")
        var factories = ModelRegistry()
        factories.register(TwitterResponseFactory())
        let made = try JSONMapper(registry: factories).decode(TwitterResponse.self, from: bytes)
        #expect(made == (try JSONDecoder().decode(TwitterResponse.self, from: Data(bytes))))
    }

    /// The `@Mappable` default mappings (names from the tables under
    /// snake_case, `@Mapped` keys for the rest) read what Foundation reads
    /// and write byte for byte what the hand-written mappings write.
    @Test(arguments: ["twitter.json", "canada.json"])
    func macroMappingsAgreeWithHandWrittenMappings(_ file: String) throws {
        let bytes = try Fixtures.bytes(file)
        let macro = JSONMapper(registry: .corpusMacroMappings())
        try macro.registry.validate()
        let written = JSONMapper(registry: registry)
        if file == "twitter.json" {
            let model = try macro.decode(TwitterResponse.self, from: bytes)
            #expect(model == (try JSONDecoder().decode(TwitterResponse.self, from: Data(bytes))))
            #expect(try macro.encode(model) == (try written.encode(model)))
        } else {
            let model = try macro.decode(FeatureCollection.self, from: bytes)
            #expect(model == (try JSONDecoder().decode(FeatureCollection.self, from: Data(bytes))))
            #expect(try macro.encode(model) == (try written.encode(model)))
        }
    }

    @Test func canadaThroughMappingsAndFactoriesEqualsFoundation() throws {
        let bytes = try Fixtures.bytes("canada.json")
        let foundation = try JSONDecoder().decode(FeatureCollection.self, from: Data(bytes))
        #expect(try JSONMapper(registry: registry).decode(FeatureCollection.self, from: bytes) == foundation)
        var factories = ModelRegistry()
        factories.register(FeatureCollectionFactory())
        #expect(try JSONMapper(registry: factories).decode(FeatureCollection.self, from: bytes) == foundation)
        #expect(foundation.features.first?.geometry.coordinates.joined().count ?? 0 > 50_000)
    }

    /// A bad number deep in the coordinates is named by its path: through the
    /// Mappings the whole path; through the factories (which read the rings
    /// with `MappingContext.decode(_:from:key:)`) the path under the context
    /// the geometry's factory was given, which `FieldReader` hands down
    /// unchanged from the root's (nested factories are called directly).
    @Test func canadaCoordinateErrorsNameTheirPathThroughFactoriesAndMappings() throws {
        let bytes = Array(
            #"{"type":"FeatureCollection","features":[{"type":"Feature","properties":{"name":"x"},"geometry":{"type":"Polygon","coordinates":[[[1.5,2.5],[3.5,"4.5"]]]}}]}"#
                .utf8)
        var factories = ModelRegistry()
        factories.register(FeatureCollectionFactory())
        let expected = [
            ("mappings", JSONMapper(registry: registry), "$.features[0].geometry.coordinates[0][1][1]"),
            ("factories", JSONMapper(registry: factories), "$.coordinates[0][1][1]")
        ]
        for (name, mapper, path) in expected {
            // Through `Codable`'s entry point, the registered model's error arrives
            // wrapped in a DecodingError; the path is the CartographError's.
            let thrown = try #require(throws: (any Error).self, "\(name)") { try mapper.decode(FeatureCollection.self, from: bytes) }
            let error = try #require((thrown as? CartographError) ?? (thrown as? DecodingError).flatMap(DecodingErrors.cartographError), "\(thrown)")
            #expect(error.kind == .typeMismatch)
            #expect(error.path == path, "\(name): \(error)")
            #expect(error.offset == 144, "\(name): \(error)")
        }
        let fine = Array(String(decoding: bytes, as: UTF8.self).replacingOccurrences(of: #""4.5""#, with: "4.5").utf8)
        let made = try JSONMapper(registry: factories).decode(FeatureCollection.self, from: fine)
        #expect(made.features.first?.geometry.coordinates == [[[1.5, 2.5], [3.5, 4.5]]])
        #expect(made == (try JSONDecoder().decode(FeatureCollection.self, from: Data(fine))))
    }

    @Test func mappedModelsEncodeToJSONFoundationReadsBack() throws {
        let mapper = JSONMapper(registry: registry)
        let response = try mapper.decode(TwitterResponse.self, from: try Fixtures.bytes("twitter.json"))
        let written = try mapper.encode(response)
        #expect(try JSONDecoder().decode(TwitterResponse.self, from: Data(written)) == response)
        let canada = try mapper.decode(FeatureCollection.self, from: try Fixtures.bytes("canada.json"))
        #expect(try JSONDecoder().decode(FeatureCollection.self, from: Data(try mapper.encode(canada))) == canada)
    }
}
