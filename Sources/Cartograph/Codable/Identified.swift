/// A `Codable` property whose value is picked by the registry's class
/// inference (identify rules, discriminators, key matching): a protocol or
/// base-class type, or an array of one, inside an otherwise synthesized
/// `Codable` type.
///
/// ```swift
/// protocol Shape { }
/// struct Drawing: Codable { @Identified var shapes: [any Shape] }
/// registry.discriminator(key: "type", ["circle": Circle.self, "square": Square.self])
/// ```
///
/// Decoding needs a ``JSONMapper`` (its registry); encoding writes each
/// value through its registered factory or mapping.
@propertyWrapper
public struct Identified<Value>: Codable {
    /// The value.
    public var wrappedValue: Value

    /// A value given in code.
    public init(wrappedValue: Value) { self.wrappedValue = wrappedValue }

    /// Reads the value through the mapper's registry.
    public init(from decoder: any Decoder) throws {
        guard let decoder = decoder as? DocumentDecoder else {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(
                    codingPath: decoder.codingPath,
                    debugDescription: "@Identified needs Cartograph's JSONMapper, whose registry picks the model"))
        }
        let node = Node(document: decoder.document, index: decoder.index)
        do {
            wrappedValue = try ValueCodec<Value>.resolve().decode(node, decoder.mappingContext, .standard)
        } catch let error as CartographError {
            let keys = decoder.codingPath
            let located = decoder.located(error.kind, error.message, at: decoder.index, path: keys, expected: error.expected, found: error.found)
            throw DecodingError.dataCorrupted(
                DecodingError.Context(codingPath: keys, debugDescription: located.description, underlyingError: located))
        }
    }

    /// Writes the value through the registry.
    public func encode(to encoder: any Encoder) throws {
        let registry = (encoder as? TreeEncoder)?.registry ?? (encoder as? StreamEncoder)?.registry ?? ModelRegistry()
        let encoded = try ValueCodec<Value>.resolve().encode(wrappedValue, EncodingContext(registry: registry, profile: .json))
        var container = encoder.singleValueContainer()
        try container.encode(try encoded.jsonValue())
    }
}
