import Cartograph
import Foundation
import Testing

/// `cartograph schema`: a JSON Schema for sample files, with the shape rules
/// `infer` uses; every sample validates against it (checked by PyPI's
/// jsonschema), and it is not vacuous.
@Suite struct SchemaCommandTests {
    static func json(_ text: String) throws -> JSONValue { try JSONMapper().decode(JSONValue.self, from: text) }

    @Test func theSamplesValidateAgainstTheSchemaMadeFromThem() throws {
        let run = try CLITests.run(["schema"] + InferTests.samplePaths + ["--name", "Order", "--enums"])
        #expect(run.status == 0, "\(run.errors)")
        let schema = try Self.json(run.output)
        #expect(schema["$schema"] == "https://json-schema.org/draft/2020-12/schema")
        #expect(schema["$ref"] == "#/$defs/Order", "a mix of objects and arrays: the schema is the model's")
        var samples: [JSONValue] = []
        for path in InferTests.samplePaths {
            let value = try JSONMapper().decode(JSONValue.self, from: Array(try Data(contentsOf: URL(fileURLWithPath: path))))
            if case .array(let elements) = value { samples += elements } else { samples.append(value) }
        }
        let verdicts = try OutsideValidator.errors(in: samples, against: schema)
        #expect(verdicts.allSatisfy { $0.isEmpty }, "\(verdicts)")
        // Not vacuous: the first sample without a key every sample has, or with a retyped value, fails.
        guard case .object(var missing) = samples[0], case .object(var retyped) = samples[0] else { return }
        missing["order_id"] = nil
        retyped["order_id"] = "1001"
        let refused = try OutsideValidator.errors(in: [.object(missing), .object(retyped)], against: schema)
        #expect(refused.allSatisfy { !$0.isEmpty }, "\(refused)")
    }

    @Test func sharedShapesMapsEnumsAndArraysFollowInfersRules() throws {
        // Cities and zips all differ (no enum); states repeat (an enum); stock keys are ids (a map).
        let input = """
            [{"billing": {"city": "Oslo", "zip": "0150"}, "shipping": {"city": "Narvik", "zip": "8500"},
              "stock": {"00017": 3, "00018": 0, "00019": 5, "00020": 1}, "state": "open", "at": "2026-11-02T09:14:03Z"},
             {"billing": {"city": "Bergen", "zip": "5003"}, "shipping": {"city": "Molde", "zip": "6400"},
              "stock": {"00021": 2, "00022": 4}, "state": "closed", "at": "2026-11-03T10:00:00Z", "note": null},
             {"billing": {"city": "Bodø", "zip": "8000"}, "shipping": {"city": "Alta", "zip": "9510"},
              "stock": {}, "state": "open", "at": "2026-11-04T10:00:00Z"},
             {"billing": {"city": "Hamar", "zip": "2300"}, "shipping": {"city": "Skien", "zip": "3700"},
              "stock": {}, "state": "closed", "at": "2026-11-05T10:00:00Z"}]
            """
        let run = try CLITests.run(["schema", "--name", "Cart", "--enums", "--compact"], input: input)
        #expect(run.status == 0, "\(run.errors)")
        #expect(!run.output.dropLast().contains("\n"))
        let schema = try Self.json(run.output)
        #expect(schema["type"] == "array" && schema["items"] == ["$ref": "#/$defs/Cart"])
        let cart = try #require(schema["$defs"]?["Cart"]?["properties"])
        #expect(cart["billing"] == cart["shipping"], "one shape, one definition")
        #expect(cart["billing"] == ["$ref": "#/$defs/Cart.Billing"])
        #expect(cart["stock"] == (try Self.json(#"{"type":"object","additionalProperties":{"type":"integer"}}"#)))
        #expect(cart["state"] == (try Self.json(#"{"type":"string","enum":["open","closed"]}"#)))
        #expect(cart["at"] == (try Self.json(#"{"type":"string","format":"date-time"}"#)))
        #expect(cart["note"] == [:])
        #expect(schema["$defs"]?["Cart"]?["required"] == ["billing", "shipping", "stock", "state", "at"])
        #expect(try OutsideValidator.errors(in: [try Self.json(input)], against: schema) == [[]])
    }

    @Test func badSamplesAndNamesExitAsInferDoes() throws {
        #expect(try CLITests.run(["schema"], input: "[1, 2]").status == 1)
        #expect(try CLITests.run(["schema"], input: "{").status == 1)
        #expect(try CLITests.run(["schema", "--name", "a b"], input: "{}").status == 2)
    }
}
