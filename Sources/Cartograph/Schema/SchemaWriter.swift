import Foundation

// Writes JSON Schemas (draft 2020-12) from the mappings a registry runs,
// one direction at a time:
//
//     Map(\.name, "title", required: true)          title: {"type": "string"}, required
//     Map(\.lat, "geometry.lat")                     geometry: {"type": "object", "properties": {"lat": …}}
//     Map(\.owner, "owner")  // User?                owner: {"anyOf": [{"$ref": "#/$defs/User"}, {"type": "null"}]}
//
// Every fact comes from the compiled mapping the decoder and encoder run
// (keys after the naming strategy, allow lists and ignores, per-direction
// keys) and from each rule's `ValueFacts` (the value's shape, whether it is
// optional, has a zero, holds null), read against the registry's null
// matrix. Models are `$ref`s to definitions written once each; where class
// inference may pick a subtype, the site lists the candidates.

/// Gives each model type one definition name, shared by the writers of an
/// OpenAPI document's two directions.
final class SchemaNames {
    private var names: [ObjectIdentifier: String] = [:]
    private var used: Set<String> = []

    /// The type's name: its Swift name with anything but letters, digits,
    /// `_` and `.` replaced, numbered when two types would share one.
    func name(for type: Any.Type) -> String {
        if let known = names[ObjectIdentifier(type)] { return known }
        let base = Self.sanitized(String(describing: type))
        var name = base
        var number = 2
        while used.contains(name) {
            name = "\(base)_\(number)"
            number += 1
        }
        used.insert(name)
        names[ObjectIdentifier(type)] = name
        return name
    }

    static func sanitized(_ text: String) -> String {
        let kept = text.unicodeScalars.map { scalar -> Character in
            scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar) || scalar == "_" || scalar == ".") ? Character(scalar) : "_"
        }
        return kept.isEmpty ? "_" : String(kept)
    }
}

/// Writes the schemas of one direction; model definitions collect in
/// ``definitions`` as sites refer to them.
final class SchemaWriter {
    let registry: ModelRegistry
    let direction: MappingDirection
    let referencePrefix: String
    /// Appended to every definition name in references (the OpenAPI
    /// writer's `-Input`/`-Output`, settled afterwards).
    let referenceSuffix: String
    let names: SchemaNames
    /// Definitions by name, in the order they were first referred to.
    private(set) var definitions: [(name: String, schema: JSONValue)] = []
    private var written: Set<String> = []
    private var pending: [Any.Type] = []
    /// Sub-mappers being described (a sub-mapping that contains itself is
    /// described as anything below the first level).
    private var describing: Set<ObjectIdentifier> = []

    init(registry: ModelRegistry, direction: MappingDirection, referencePrefix: String, referenceSuffix: String = "", names: SchemaNames) {
        self.registry = registry
        self.direction = direction
        self.referencePrefix = referencePrefix
        self.referenceSuffix = referenceSuffix
        self.names = names
    }

    /// A reference to the type's definition, which is written by ``finish()``.
    func reference(to type: Any.Type) -> JSONValue {
        let name = names.name(for: type)
        if written.insert(name).inserted { pending.append(type) }
        return ["$ref": .string(referencePrefix + name + referenceSuffix)]
    }

    /// Writes every definition referred to so far (and those they refer to).
    func finish() throws {
        while !pending.isEmpty {
            let type = pending.removeFirst()
            guard let entry = registry.entry(for: type) else { throw Self.notAModel(type) }
            definitions.append((names.name(for: type), try entrySchema(entry, title: names.name(for: type))))
        }
    }

    static func notAModel(_ type: Any.Type) -> CartographError {
        CartographError(
            .typeMismatch, "\(type) is not a model the registry reads: register it, or make it Mappable or @Mappable",
            expected: "a registered, Mappable or @Mappable model", found: "\(type)")
    }

    // MARK: Values

    /// The schema of a value of this shape.
    func schema(of shape: ValueShape) throws -> JSONValue {
        switch shape {
        case .any: return [:]
        case .leaf(let schema): return schema
        case .directional(let decode, let encode): return direction == .encode ? encode : decode
        case .optional(let inner): return Self.nullable(try schema(of: inner))
        case .array(let inner, let unique):
            let array: JSONValue = ["type": "array", "items": try schema(of: inner)]
            return unique ? array.adding("uniqueItems", true) : array
        case .dictionary(let inner): return ["type": "object", "additionalProperties": try schema(of: inner)]
        case .model(let type): return try modelSite(type)
        case .submapped(let subMapper):
            let id = ObjectIdentifier(subMapper)
            guard describing.insert(id).inserted else { return [:] }
            defer { describing.remove(id) }
            return try entrySchema(subMapper.entry(for: registry), title: nil)
        }
    }

    /// Where a value declared as `type` is read or written: a reference to
    /// its definition, or, where class inference can pick something more
    /// specific, the candidates. A type that is no model (a `Codable`
    /// type the registry does not map) is described as anything.
    func modelSite(_ type: Any.Type) throws -> JSONValue {
        let existential = MetadataKind.isExistential(type)
        let own = existential ? nil : registry.entry(for: type)
        guard existential || own != nil else {
            return ["description": .string("\(type), read and written by its own Codable conformance")]
        }
        guard registry.isPolymorphic(type) else { return reference(to: type) }
        let members = registry.registeredTypes.filter { existential || ModelRegistry.isSame($0, orSubclassOf: type) }
        let discriminators = registry.discriminatorTable
        if direction == .decode, !registry.hasIdentifyRules, discriminators.count == 1 {
            return discriminated(type, own: own != nil, members: members, discriminators[0])
        }
        // Key matching, an identify closure, several discriminators, or what
        // the encoder writes (the value's own model): any of the candidates.
        // `anyOf`, not `oneOf`: a subclass's object usually also matches its
        // superclass's schema.
        var candidates = members.map { reference(to: $0) }
        if own != nil, !members.contains(where: { $0 == type }) { candidates.insert(reference(to: type), at: 0) }
        return candidates.count == 1 ? candidates[0] : ["anyOf": .array(candidates)]
    }

    /// One discriminator: each branch pins its value, so exactly one
    /// matches. A value naming a model that is not a `type` (or a value that
    /// is not a string, or no value) leaves the object to the declared type;
    /// a value naming nothing registered is refused, as the decoder refuses it.
    private func discriminated(
        _ type: Any.Type, own: Bool, members: [Any.Type], _ discriminator: (key: String, types: [String: Any.Type])
    ) -> JSONValue {
        let key = discriminator.key
        let named = discriminator.types.sorted { $0.key < $1.key }
        let picked = named.filter { value in members.contains { $0 == value.value } }
        guard !picked.isEmpty else { return own ? reference(to: type) : [:] }
        var branches: [JSONValue] = []
        var mapping = JSONObject()
        for (value, candidate) in picked {
            let reference = reference(to: candidate)
            branches.append(["allOf": [reference, ["properties": .object([key: ["const": .string(value)]]), "required": [.string(key)]]]])
            mapping[value] = reference["$ref"]
        }
        if own {
            let others = named.filter { value in !picked.contains { $0.key == value.key } }.map { JSONValue.string($0.key) }
            let claimed: JSONValue = others.isEmpty ? ["type": "string"] : ["type": "string", "not": ["enum": .array(others)]]
            branches.append(["allOf": [reference(to: type), ["not": ["required": [.string(key)], "properties": .object([key: claimed])]]]])
        }
        return ["oneOf": .array(branches), "discriminator": ["propertyName": .string(key), "mapping": .object(mapping)]]
    }

    /// A schema that also allows `null`.
    static func nullable(_ schema: JSONValue) -> JSONValue {
        guard case .object(let object) = schema, !object.isEmpty else { return schema }
        if object.count == 1, case .array(var choices)? = object["anyOf"] {
            if !choices.contains(["type": "null"]) { choices.append(["type": "null"]) }
            return ["anyOf": .array(choices)]
        }
        let composite = ["$ref", "anyOf", "oneOf", "allOf", "not", "const"].contains { object[$0] != nil }
        guard !composite, let type = object["type"] else { return ["anyOf": [schema, ["type": "null"]]] }
        var types: [JSONValue]
        switch type {
        case .string: types = [type]
        case .array(let listed): types = listed
        default: return ["anyOf": [schema, ["type": "null"]]]
        }
        if !types.contains(.string("null")) { types.append("null") }
        var result = schema.adding("type", .array(types))
        if case .array(var values)? = object["enum"], !values.contains(.null) {
            values.append(.null)
            result = result.adding("enum", .array(values))
        }
        return result
    }

    // MARK: Models

    /// The object schema of one entry: its mapping's rules placed at their
    /// keys, or a factory's declared keys.
    func entrySchema(_ entry: ModelEntry, title: String?) throws -> JSONValue {
        try entry.validate()
        var schema: JSONValue
        if let mapping = entry.compiledMapping as? DescribedMapping {
            let root = DraftNode(object: true)
            for rule in mapping.describedRules {
                guard let spec = direction == .encode ? rule.encodeSpec : rule.decodeSpec else { continue }
                let (value, required) = try ruleSchema(rule)
                root.insert(spec.components[...], value, required: required)
            }
            schema = root.render()
            if mapping.scansKeys, direction == .decode {
                schema = schema.adding(
                    "description", "keys are matched in any spelling the naming strategy reads; the listed spelling is the one it writes")
            }
        } else {
            // A factory's code cannot be read: its keys are listed, their values are anything.
            let properties = JSONObject(entry.keys.map { ($0, JSONValue.object([:])) })
            schema = [
                "type": "object", "properties": .object(properties),
                "description": "made by a factory: its keys are listed, their values are not described"
            ]
        }
        if let title { schema = schema.adding("title", .string(title)) }
        return schema
    }

    /// A rule's value schema and whether its key is required, in this direction.
    private func ruleSchema(_ rule: DescribedRule) throws -> (JSONValue, Bool) {
        // A setter's logic is free-form: any value, never required.
        guard let facts = rule.facts else { return ([:], false) }
        let options = registry.options
        var shape = facts.shape
        if case .optional(let inner) = shape { shape = inner }
        var value = try schema(of: shape)
        if direction == .encode {
            let writesNull = facts.optional && (rule.nilEncoding ?? options.nilEncoding) == .null
            if facts.holdsNull || writesNull { value = Self.nullable(value) }
            // A property that closes a loop is left out under `.skip`.
            let skippable = options.cycles == .skip && Self.holdsModels(shape)
            return (value, (!facts.optional || writesNull) && !skippable)
        }
        if facts.lenient || options.lenientScalars, case .leaf = shape {
            value = ["anyOf": [value, ["type": ["string", "number", "boolean"]]]]
        }
        if facts.coerceArray, case .array(let element, _) = shape {
            value = ["anyOf": [value, try schema(of: element)]]
        }
        let nullAllowed =
            facts.holdsNull
            || (!rule.required
                && ((rule.ignoreNull ?? options.ignoreNulls) || facts.optional
                    || (options.nullForNonOptional == .resetToDefault && facts.hasZero)))
        if nullAllowed { value = Self.nullable(value) }
        return (value, rule.required)
    }

    private static func holdsModels(_ shape: ValueShape) -> Bool {
        switch shape {
        case .model, .submapped: return true
        case .optional(let inner), .array(let inner, _), .dictionary(let inner): return holdsModels(inner)
        case .any, .leaf, .directional: return false
        }
    }
}

/// One place in a model's object tree while its schema is drafted: rules
/// with nested key paths share the objects and arrays on their way.
private final class DraftNode {
    var leaves: [JSONValue] = []
    var isObject: Bool
    var members: [(key: String, node: DraftNode)] = []
    var requiredKeys: [String] = []
    var isArray = false
    var items: [Int: DraftNode] = [:]
    var minItems = 0

    init(object: Bool = false) { isObject = object }

    func insert(_ components: ArraySlice<KeySpec.Component>, _ schema: JSONValue, required: Bool) {
        guard let first = components.first else {
            leaves.append(schema)
            return
        }
        let next: DraftNode
        switch first {
        case .key(let key):
            isObject = true
            if let found = members.first(where: { $0.key == key }) {
                next = found.node
            } else {
                next = DraftNode()
                members.append((key, next))
            }
            if required, !requiredKeys.contains(key) { requiredKeys.append(key) }
        case .index(let index):
            isArray = true
            next = items[index] ?? DraftNode()
            items[index] = next
            if required { minItems = max(minItems, index + 1) }
        }
        next.insert(components.dropFirst(), schema, required: required)
    }

    /// The node as a schema. Objects stay open in both directions: reading
    /// ignores unknown keys, and a client that checks responses against a
    /// closed schema would break on the next field a service adds (and
    /// request and response forms that differ only there would need two
    /// definitions each).
    func render() -> JSONValue {
        var parts = leaves
        if isObject {
            var object: JSONValue = [
                "type": "object",
                "properties": .object(JSONObject(members.map { ($0.key, $0.node.render()) }))
            ]
            if !requiredKeys.isEmpty { object = object.adding("required", .array(requiredKeys.map { .string($0) })) }
            parts.append(object)
        }
        if isArray, let last = items.keys.max() {
            var array: JSONValue = ["type": "array", "prefixItems": .array((0...last).map { items[$0]?.render() ?? [:] })]
            if minItems > 0 { array = array.adding("minItems", .number(JSONNumber(minItems))) }
            parts.append(array)
        }
        switch parts.count {
        case 0: return [:]
        case 1: return parts[0]
        default: return ["allOf": .array(parts)]
        }
    }
}
