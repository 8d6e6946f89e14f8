import Foundation
import Testing

@testable import Cartograph

/// `JSONMapper.decodeLossy` on arrays of registered models that are also
/// `Decodable`: the `Codable` overload is the one Swift picks for them, and
/// it must keep the mapping layer's lossy rule (a failing element skipped,
/// its error kept) instead of failing the whole array at the first bad
/// element. Checked against the mapping overload on a twin model that is
/// not `Decodable` and so can only go through the mapping.
@Suite struct LossyRegisteredArrayTests {
    /// The seeds' shape: a non-final class, registered with a mapping,
    /// that is also `Decodable` (its `init(from:)` is never used once it is
    /// registered: the registry's mapping reads it).
    class Part: Decodable {
        var sku = ""
        var weight = 0
        var tags: [String] = []
        init() {}
        required init(from decoder: any Decoder) throws {
            Issue.record("a registered model is read by its mapping, not by init(from:)")
        }
        static let mapping = Mapping<Part>({ Part() }) {
            Map(\.sku, "sku")
            Map(\.weight, "weight")
            Map(\.tags, "tags")
        }
    }

    /// A subclass with a mapping of its own inheriting its parent's rules.
    final class HeavyPart: Part {
        var crane = false
        static let heavyMapping = Mapping<HeavyPart>(inheriting: Part.mapping, { HeavyPart() }) { Map(\.crane, "crane") }
    }

    /// The same model, not `Decodable`: only the mapping overload takes it.
    final class PlainPart {
        var sku = ""
        var weight = 0
        var tags: [String] = []
        static let mapping = Mapping<PlainPart>({ PlainPart() }) {
            Map(\.sku, "sku")
            Map(\.weight, "weight")
            Map(\.tags, "tags")
        }
    }

    /// A plain `Decodable` value holding registered models.
    struct Order: Decodable {
        var id: Int
        var parts: [Part]
    }

    /// A mapped model (not `Decodable`) holding a plain `Decodable` value
    /// that holds registered models: mapping, then `Codable`, then mapping.
    final class Crate {
        var label = ""
        var order = Order(id: 0, parts: [])
        static let mapping = Mapping<Crate>({ Crate() }) {
            Map(\.label, "label")
            Map(\.order, "order")
        }
    }

    static func mapper() -> JSONMapper {
        var registry = ModelRegistry()
        registry.register(Crate.mapping)
        registry.register(Part.mapping)
        registry.register(HeavyPart.heavyMapping)
        registry.register(PlainPart.mapping)
        return JSONMapper(registry: registry)
    }

    /// Five parts: the second's weight is a string, the fourth's sku a
    /// number, and the fifth holds a bad tag (an element of a nested array).
    static let parts = Array(
        #"""
        [{"sku": "a", "weight": 1, "tags": ["x"]},
         {"sku": "b", "weight": "heavy", "tags": []},
         {"sku": "c", "weight": 3, "tags": ["y", "z"]},
         {"sku": 4, "weight": 4, "tags": []},
         {"sku": "e", "weight": 5, "tags": ["ok", 7, "fine"]}]
        """#.utf8)

    @Test func aLossyDecodeOfRegisteredDecodableModelsSkipsEachFailingElement() throws {
        let lossy = try Self.mapper().decodeLossy([Part].self, from: Self.parts)
        #expect(lossy.value.map(\.sku) == ["a", "c", "e"])
        #expect(lossy.value.map(\.weight) == [1, 3, 5])
        #expect(lossy.value.map(\.tags) == [["x"], ["y", "z"], ["ok", "fine"]])
        #expect(lossy.issues.map(\.path) == ["$[1].weight", "$[3].sku", "$[4].tags[1]"], "\(lossy.issues)")
        // Each issue is located in the input.
        #expect(lossy.issues.allSatisfy { $0.line != nil && $0.offset != nil }, "\(lossy.issues)")
    }

    @Test func itReadsWhatTheMappingOverloadReads() throws {
        let viaCodable = try Self.mapper().decodeLossy([Part].self, from: Self.parts)
        let viaMapping = try Self.mapper().decodeLossy([PlainPart].self, from: Self.parts)
        #expect(viaCodable.value.map(\.sku) == viaMapping.value.map(\.sku))
        #expect(viaCodable.value.map(\.tags) == viaMapping.value.map(\.tags))
        #expect(viaCodable.issues.map(\.path) == viaMapping.issues.map(\.path))
        #expect(viaCodable.issues.map(\.kind) == viaMapping.issues.map(\.kind))
    }

    @Test func subclassesSkipTheirOwnFailingElements() throws {
        let json = Array(#"[{"sku": "a", "weight": 1, "crane": true}, {"sku": "b", "weight": 2, "crane": "yes"}]"#.utf8)
        let lossy = try Self.mapper().decodeLossy([HeavyPart].self, from: json)
        #expect(lossy.value.map(\.sku) == ["a"])
        #expect(lossy.value.first?.crane == true)
        #expect(lossy.issues.map(\.path) == ["$[1].crane"], "\(lossy.issues)")
    }

    /// Inside a plain `Decodable` value the registered elements are skipped
    /// the same way, under the value's key.
    @Test func registeredElementsInsideADecodableValueAreSkippedToo() throws {
        let json = Array((#"{"id": 9, "parts": "# + String(decoding: Self.parts, as: UTF8.self) + "}").utf8)
        let lossy = try Self.mapper().decodeLossy(Order.self, from: json)
        #expect(lossy.value.id == 9)
        #expect(lossy.value.parts.map(\.sku) == ["a", "c", "e"])
        #expect(lossy.issues.map(\.path) == ["$.parts[1].weight", "$.parts[3].sku", "$.parts[4].tags[1]"], "\(lossy.issues)")
    }

    /// Mapping, `Codable`, mapping: every issue keeps its whole path from
    /// the document's root, through each layer.
    @Test func issuesKeepTheirWholePathThroughEveryLayer() throws {
        let parts = String(decoding: Self.parts, as: UTF8.self)
        let json = Array(
            (#"[{"label": "ok", "order": {"id": 1, "parts": []}}, {"label": "mixed", "order": {"id": 2, "parts": "# + parts + "}}]")
                .utf8)
        let lossy = try Self.mapper().decodeLossy([Crate].self, from: json)
        #expect(lossy.value.map(\.label) == ["ok", "mixed"])
        #expect(lossy.value[1].order.parts.map(\.sku) == ["a", "c", "e"])
        #expect(
            lossy.issues.map(\.path) == ["$[1].order.parts[1].weight", "$[1].order.parts[3].sku", "$[1].order.parts[4].tags[1]"],
            "\(lossy.issues)")
    }

    /// Outside a lossy decode nothing changes: the first failing element
    /// fails the decode, at its path.
    @Test func aPlainDecodeStillFailsAtTheFirstBadElement() throws {
        let thrown = try #require(throws: DecodingError.self) { try Self.mapper().decode([Part].self, from: Self.parts) }
        #expect(DecodingErrors.cartographError(thrown)?.path == "$[1].weight")
    }

    /// Arrays of plain `Decodable` values keep `Array.init(from:)`'s rule
    /// in a lossy decode (a ``LossyArray`` is how they opt in).
    @Test func plainDecodableElementsStillFailTheArray() throws {
        struct Plain: Decodable { var sku: String }
        #expect(throws: DecodingError.self) { try Self.mapper().decodeLossy([Plain].self, from: Self.parts) }
    }
}
