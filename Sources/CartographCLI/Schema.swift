import ArgumentParser
import Cartograph

/// `cartograph schema FILE... [--name Model] [--enums]`
struct Schema: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print a JSON Schema (draft 2020-12) inferred from sample JSON or property lists.",
        discussion: """
            The samples are read as `infer` reads them, and the schema describes the types \
            `infer` would write: one definition per distinct object shape (shared wherever \
            it appears), objects whose keys are data as maps (additionalProperties), strings \
            that are all ISO 8601 dates as date-time, integers beyond 64 bits as integers, \
            values of mixed kinds as anything, and with --enums small closed sets of \
            strings as enums. A top level whose keys are data and whose values are records \
            is a map of its item's definition (additionalProperties), as infer writes a \
            dictionary for it. A key present and non-null in every sample is required; one \
            missing or null in some is optional and may be null. When every file holds a \
            top-level array, the schema is an array of the model. Exit status: 0 on \
            success, 1 when a sample is invalid or not an object, 2 for a usage error or an \
            unreadable file.
            """
    )

    @Argument(help: "Sample files (JSON or property lists); - or nothing reads standard input.")
    var files: [String] = []

    @Option(help: "The name of the top-level model's definition.")
    var name = "Model"

    @Option(help: "json, plist, or auto (detect from the bytes, the default).")
    var format: InputFormatOption = .auto

    @Flag(help: "Strings that take 2 to 10 values, each seen at least twice on average, become enums.")
    var enums = false

    @Flag(help: "Print on one line.")
    var compact = false

    func validate() throws {
        guard !name.isEmpty, name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == ".") }) else {
            throw ValidationError("--name must be letters, digits, _ and . only, such as Order")
        }
    }

    func run() throws {
        let (shape, _, _, allArrays) = try Samples.read(files, format: format)
        var writer = PlanSchemaWriter()
        let model = writer.reference(RootPlan.plan(name: name, shape: shape, makesEnums: enums))
        var schema: JSONObject = ["$schema": "https://json-schema.org/draft/2020-12/schema"]
        if allArrays {
            schema["type"] = "array"
            schema["items"] = model
        } else {
            schema["$ref"] = model["$ref"]
        }
        schema["$defs"] = .object(JSONObject(writer.definitions))
        let options = compact ? WriteOptions() : WriteOptions.pretty
        try Output.standard.write(try JSONValue.object(schema).encoded(options: options) + [0x0A])
    }
}

/// Writes the definitions of a ``ModelPlan`` and the plans nested in it.
struct PlanSchemaWriter {
    private(set) var definitions: [(String, JSONValue)] = []
    private var written: Set<ObjectIdentifier> = []

    /// A reference to the top level's definition: its model's, or for a
    /// top level keyed by data a map of its items.
    mutating func reference(_ root: RootPlan) -> JSONValue {
        switch root {
        case .model(let plan): return reference(plan)
        case .map(let name, let value, _):
            let position = definitions.count
            definitions.append((name, [:]))
            definitions[position].1 = ["type": "object", "additionalProperties": schema(value)]
            return ["$ref": .string("#/$defs/" + name)]
        }
    }

    /// A reference to the plan's definition (by its qualified name), written on first use.
    mutating func reference(_ plan: ModelPlan) -> JSONValue {
        if written.insert(ObjectIdentifier(plan)).inserted {
            let position = definitions.count
            definitions.append((plan.path, [:]))
            definitions[position].1 = definition(plan)
        }
        return ["$ref": .string("#/$defs/" + plan.path)]
    }

    private mutating func definition(_ plan: ModelPlan) -> JSONValue {
        var properties = JSONObject()
        var required: [JSONValue] = []
        for property in plan.properties {
            let schema = self.schema(property.type)
            properties[property.key] = property.isOptional ? Self.nullable(schema) : schema
            if !property.isOptional { required.append(.string(property.key)) }
        }
        var definition: JSONObject = ["type": "object", "properties": .object(properties)]
        if !required.isEmpty { definition["required"] = .array(required) }
        return .object(definition)
    }

    private mutating func schema(_ type: InferredType) -> JSONValue {
        switch type {
        case .bool: return ["type": "boolean"]
        case .int, .decimal: return ["type": "integer"]
        case .double: return ["type": "number"]
        case .string: return ["type": "string"]
        case .date: return ["type": "string", "format": "date-time"]
        case .json: return [:]
        case .array(let element): return ["type": "array", "items": schema(element)]
        case .map(let value): return ["type": "object", "additionalProperties": schema(value)]
        case .optional(let wrapped): return Self.nullable(schema(wrapped))
        case .enumeration(let plan): return ["type": "string", "enum": .array(plan.cases.map { .string($0.raw) })]
        case .model(let plan): return reference(plan)
        }
    }

    /// The schema that also allows `null` (anything already does).
    static func nullable(_ schema: JSONValue) -> JSONValue {
        guard case .object(let object) = schema, !object.isEmpty else { return schema }
        if object["$ref"] == nil, case .string(let type)? = object["type"] {
            var widened = object
            widened["type"] = [.string(type), "null"]
            if case .array(let values)? = object["enum"] { widened["enum"] = .array(values + [.null]) }
            return .object(widened)
        }
        return ["anyOf": [schema, ["type": "null"]]]
    }
}
