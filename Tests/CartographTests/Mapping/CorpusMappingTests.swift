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

    @Test func canadaThroughMappingsAndFactoriesEqualsFoundation() throws {
        let bytes = try Fixtures.bytes("canada.json")
        let foundation = try JSONDecoder().decode(FeatureCollection.self, from: Data(bytes))
        #expect(try JSONMapper(registry: registry).decode(FeatureCollection.self, from: bytes) == foundation)
        var factories = ModelRegistry()
        factories.register(FeatureCollectionFactory())
        #expect(try JSONMapper(registry: factories).decode(FeatureCollection.self, from: bytes) == foundation)
        #expect(foundation.features.first?.geometry.coordinates.joined().count ?? 0 > 50_000)
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
