extension ModelRegistry {
    /// A JSON Schema (draft 2020-12) of what this registry reads for
    /// `type` (`.decode`) or writes for it (`.encode`), made from the same
    /// compiled mappings the decoder and encoder run.
    ///
    /// ```swift
    /// let request = try registry.jsonSchema(for: User.self)                        // what a POST body may hold
    /// let response = try registry.jsonSchema(for: User.self, direction: .encode)  // what the service writes
    /// ```
    ///
    /// What it says, and where it comes from:
    /// - keys after the naming strategy, per direction, with allow lists and
    ///   ignores applied; a key path becomes nested objects, an index path
    ///   an array (`prefixItems`);
    /// - `required`: when reading, the rules marked `required` (an absent
    ///   key otherwise keeps the model's default); when writing, every
    ///   non-optional property and every optional one written as `null`
    ///   (``NilEncoding/null``);
    /// - `null`: where the registry's null matrix lets it through
    ///   (optionals, `ignoreNull`, ``NullForNonOptional/resetToDefault`` for
    ///   types with a zero, `JSONValue`), and on output where a nil is written;
    /// - types and formats from the property's type and transform: ISO 8601
    ///   as `date-time`, seconds since 1970 as numbers, base64 as
    ///   `contentEncoding`, UUIDs, URLs, the width of fixed-size integers,
    ///   the raw values or case names of an enum, `[String: T]` as
    ///   `additionalProperties`, sets as `uniqueItems`;
    /// - models as `$ref`s into `$defs` (recursion included); where class
    ///   inference may pick a subclass (or, for a protocol, any registered
    ///   model), the candidates: a discriminator gives `oneOf` with each
    ///   branch pinning its value and an OpenAPI `discriminator` mapping;
    ///   key matching and identify closures give `anyOf` (a subclass's
    ///   object usually matches its superclass's schema too, which `oneOf`
    ///   would refuse).
    ///
    /// What cannot be read is described as permissively as its key allows:
    /// a `Setter`'s value and a transform made from closures are anything
    /// (give a transform a schema with ``Transform/describing(_:)``), a
    /// factory's keys are listed with any values, and a `Codable` type the
    /// registry does not map is anything. Objects read are open (unknown
    /// keys are ignored when reading); objects written are closed.
    ///
    /// - Parameters:
    ///   - type: a model, or any type built from models (`[User].self`).
    ///   - direction: `.decode` or `.encode`.
    /// - Throws: ``CartographError`` when `type` holds no model the registry
    ///   reads, for `.both`, and for a mapping's configuration error.
    public func jsonSchema<Model>(for type: Model.Type, direction: MappingDirection = .decode) throws -> JSONValue {
        guard direction != .both else {
            throw CartographError(
                .typeMismatch, "a schema describes one direction: ask for .decode or .encode", expected: ".decode or .encode", found: ".both")
        }
        let writer = SchemaWriter(registry: self, direction: direction, referencePrefix: "#/$defs/", names: SchemaNames())
        let shape = ValueShape.of(type)
        if case .model(let model) = shape, !MetadataKind.isExistential(model), entry(for: model) == nil {
            throw SchemaWriter.notAModel(model)
        }
        var schema = try writer.schema(of: shape)
        try writer.finish()
        if !writer.definitions.isEmpty {
            schema = schema.adding("$defs", .object(JSONObject(writer.definitions.map { ($0.name, $0.schema) })))
        }
        return JSONValue.object(["$schema": "https://json-schema.org/draft/2020-12/schema"]).merging(schema)
    }

    /// An OpenAPI 3.1 `components` object whose `schemas` hold one entry per
    /// model in `types` and per model they refer to, with `$ref`s between them
    /// (`#/components/schemas/User`): put it under the document's `components`.
    ///
    /// Each model is described as ``jsonSchema(for:direction:)`` describes
    /// it. A model read and written alike has one entry under its name; one
    /// whose request and response forms differ (keys per direction, allow
    /// lists, output-only getters, required output fields) has two,
    /// `User-Input` and `User-Output`, as pydantic names them.
    ///
    /// ```swift
    /// document["components"] = try registry.openAPIComponents(for: [User.self, Order.self])
    /// ```
    /// - Throws: ``CartographError`` when a type is not a model the registry
    ///   reads, and for a mapping's configuration error.
    public func openAPIComponents(for types: [Any.Type]) throws -> JSONValue {
        let names = SchemaNames()
        let prefix = "#/components/schemas/"
        let input = SchemaWriter(registry: self, direction: .decode, referencePrefix: prefix, referenceSuffix: "-Input", names: names)
        let output = SchemaWriter(registry: self, direction: .encode, referencePrefix: prefix, referenceSuffix: "-Output", names: names)
        for type in types {
            guard MetadataKind.isExistential(type) || entry(for: type) != nil else { throw SchemaWriter.notAModel(type) }
            if MetadataKind.isExistential(type) {
                _ = try input.modelSite(type)
                _ = try output.modelSite(type)
            } else {
                _ = input.reference(to: type)
                _ = output.reference(to: type)
            }
        }
        try input.finish()
        try output.finish()
        let schemas = OpenAPINames.settle(input: input.definitions, output: output.definitions, prefix: prefix)
        return ["schemas": .object(JSONObject(schemas))]
    }
}

/// Settles which models need separate request and response entries.
enum OpenAPINames {
    /// Models present in both directions whose two schemas differ, once
    /// references are named, keep `-Input` and `-Output`; the others drop
    /// the suffix. A model that refers to a split model may differ only
    /// through that reference, so the split spreads until nothing changes.
    static func settle(input: [(name: String, schema: JSONValue)], output: [(name: String, schema: JSONValue)], prefix: String)
        -> [(String, JSONValue)]
    {
        let inputs = Dictionary(input.map { ($0.name, $0.schema) }, uniquingKeysWith: { first, _ in first })
        let outputs = Dictionary(output.map { ($0.name, $0.schema) }, uniquingKeysWith: { first, _ in first })
        var split = Set<String>()
        var changed = true
        while changed {
            changed = false
            for (name, schema) in inputs where !split.contains(name) {
                guard let other = outputs[name] else { continue }
                if rename(schema, prefix: prefix, split: split) != rename(other, prefix: prefix, split: split) {
                    split.insert(name)
                    changed = true
                }
            }
        }
        var result: [(String, JSONValue)] = []
        var seen = Set<String>()
        for (name, schema) in input + output where seen.insert(name).inserted {
            if split.contains(name) {
                result.append((name + "-Input", rename(inputs[name]!, prefix: prefix, split: split)))
                result.append((name + "-Output", rename(outputs[name]!, prefix: prefix, split: split)))
            } else {
                result.append((name, rename(schema, prefix: prefix, split: split)))
            }
        }
        return result
    }

    /// The schema with each reference named: suffixed for a split model, bare otherwise.
    static func rename(_ schema: JSONValue, prefix: String, split: Set<String>) -> JSONValue {
        switch schema {
        case .object(let object):
            return .object(
                JSONObject(
                    object.map { key, value in
                        if key == "$ref", case .string(let target) = value, target.hasPrefix(prefix) {
                            return (key, .string(reference(String(target.dropFirst(prefix.count)), prefix: prefix, split: split)))
                        }
                        return (key, rename(value, prefix: prefix, split: split))
                    }))
        case .array(let values): return .array(values.map { rename($0, prefix: prefix, split: split) })
        default: return schema
        }
    }

    private static func reference(_ suffixed: String, prefix: String, split: Set<String>) -> String {
        for suffix in ["-Input", "-Output"] where suffixed.hasSuffix(suffix) {
            let name = String(suffixed.dropLast(suffix.count))
            return prefix + (split.contains(name) ? suffixed : name)
        }
        return prefix + suffixed
    }
}

extension JSONValue {
    /// Both objects' members, this one's first (a value that is not an object: `other`).
    func merging(_ other: JSONValue) -> JSONValue {
        guard case .object(var object) = self, case .object(let more) = other else { return other }
        for (key, value) in more { object[key] = value }
        return .object(object)
    }
}
