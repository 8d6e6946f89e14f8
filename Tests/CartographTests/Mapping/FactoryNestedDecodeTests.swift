import Foundation
import Testing

@testable import Cartograph

/// `MappingContext.decode(_:from:key:)`: a registered factory decodes the
/// values under its object's keys through the mapping layer, and an error
/// inside one is named by its whole path (the factory's own object's path,
/// the key, then the indexes).
@Suite struct FactoryNestedDecodeTests {
    class Shape {
        var name = ""
        var rings: [[[Double]]] = []
        var tags: [String: Int] = [:]
    }

    final class LabeledShape: Shape {
        var label: String?
    }

    /// Reads a shape the way the DocC article shows: scalars from the view,
    /// nested values through the context.
    struct ShapeFactory: ModelFactory {
        var keys: [String] { ["name", "rings"] }
        func make(from object: ObjectView, context: MappingContext) throws -> Shape {
            let shape: Shape
            if let label = object["label"] {
                let labeled = LabeledShape()
                labeled.label = try context.decode(String?.self, from: label, key: "label")
                shape = labeled
            } else {
                shape = Shape()
            }
            shape.name = try object["name"]?.string() ?? ""
            if let rings = object["rings"] { shape.rings = try context.decode([[[Double]]].self, from: rings, key: "rings") }
            if let tags = object["tags"] { shape.tags = try context.decode([String: Int].self, from: tags, key: "tags") }
            return shape
        }
    }

    final class Drawing {
        var shapes: [Shape] = []
        static let mapping = Mapping<Drawing>({ Drawing() }) {
            Map(\.shapes, "shapes")
        }
    }

    private let mapper: JSONMapper = {
        var registry = ModelRegistry()
        registry.register(ShapeFactory())
        registry.register(Drawing.mapping)
        return JSONMapper(registry: registry)
    }()

    private func decode(_ json: String) throws -> Drawing {
        try mapper.decode(Drawing.self, from: try Document(parsing: json).root)
    }

    @Test func nestedValuesComeThroughTheMappingLayer() throws {
        let drawing = try decode(
            #"""
            {"shapes": [
              {"name": "square", "rings": [[[0, 0], [1, 0], [1, 1], [0, 1]]], "tags": {"a": 1}},
              {"name": "dot", "label": "here", "rings": [[[2.5, -3e2]]]},
              {"name": "none", "label": null}
            ]}
            """#)
        #expect(drawing.shapes.map(\.name) == ["square", "dot", "none"])
        #expect(drawing.shapes[0].rings == [[[0, 0], [1, 0], [1, 1], [0, 1]]])
        #expect(drawing.shapes[0].tags == ["a": 1])
        #expect(!(drawing.shapes[0] is LabeledShape))
        let dot = try #require(drawing.shapes[1] as? LabeledShape)
        #expect(dot.label == "here")
        #expect(dot.rings == [[[2.5, -300]]])
        #expect((drawing.shapes[2] as? LabeledShape)?.label == nil)
        #expect(drawing.shapes[2].rings.isEmpty)
    }

    @Test func errorsInsideANestedValueNameItsWholePath() throws {
        let cases: [(json: String, path: String, kind: CartographError.Kind)] = [
            (#"{"shapes": [{"name": "a", "rings": [[[0, 0], [1, "x"]]]}]}"#, "$.shapes[0].rings[0][1][1]", .typeMismatch),
            (#"{"shapes": [{"name": "a"}, {"name": "b", "rings": [[[1e999, 0]]]}]}"#, "$.shapes[1].rings[0][0][0]", .numberOutOfRange),
            (#"{"shapes": [{"name": "a", "rings": {"x": 1}}]}"#, "$.shapes[0].rings", .typeMismatch),
            (#"{"shapes": [{"name": "a", "tags": {"ok": 1, "bad": 1.5}}]}"#, "$.shapes[0].tags.bad", .numberOutOfRange),
            (#"{"shapes": [{"name": "a", "label": 7}]}"#, "$.shapes[0].label", .typeMismatch)
        ]
        for (json, path, kind) in cases {
            let error = try #require(throws: CartographError.self, "\(json)") { try decode(json) }
            #expect(error.path == path, "\(json): \(error)")
            #expect(error.kind == kind, "\(json): \(error)")
        }
    }

    @Test func theContextsPathIsUnchangedAfterANestedDecode() throws {
        // A failure after a nested decode is named by the factory's object,
        // not by the key the nested decode linked.
        struct Checking: ModelFactory {
            var keys: [String] { ["rings", "must"] }
            func make(from object: ObjectView, context: MappingContext) throws -> Shape {
                let shape = Shape()
                shape.rings = try context.decode([[[Double]]].self, from: object["rings"]!, key: "rings")
                #expect(context.path == "$.shapes[0]")
                guard object["must"] != nil else { throw CartographError(.keyNotFound, "must is missing", path: context.path) }
                return shape
            }
        }
        var registry = ModelRegistry()
        registry.register(Checking())
        registry.register(Drawing.mapping)
        let root = try Document(parsing: #"{"shapes": [{"rings": [[[1, 2]]]}]}"#).root
        let error = try #require(throws: CartographError.self) { try JSONMapper(registry: registry).decode(Drawing.self, from: root) }
        #expect(error.path == "$.shapes[0]")
    }
}
