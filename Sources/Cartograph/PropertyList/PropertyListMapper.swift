import Foundation

/// Reads and writes property lists (XML and binary, detected from the
/// bytes) with every mapping feature, through Cartograph's own readers and
/// writers (libplist's on request, ``PropertyListOptions``): the plist becomes
/// the same ``Document`` JSON does, so factories, `Mapping`s, class
/// inference, `decodeAny`, `collect`, `update` and `Codable` work unchanged.
///
/// Plist dates and data reach models as `Date` and `Data`; to JSON features
/// they look like ISO 8601 and base64 strings.
///
/// ```swift
/// let plist = PropertyListMapper(registry: registry)
/// let config = try plist.decode(Config.self, from: bytes)
/// let xml = try plist.encode(config, format: .xml)
/// ```
public struct PropertyListMapper: Sendable {
    /// The JSON mapper whose registry and `Codable` options are used.
    public var mapper: JSONMapper
    /// Limits and policies for plists.
    public var options: PropertyListOptions

    /// A plist mapper over a registry.
    public init(
        registry: ModelRegistry = ModelRegistry(), options: PropertyListOptions = PropertyListOptions(),
        codableOptions: CodableOptions = CodableOptions()
    ) {
        mapper = JSONMapper(registry: registry)
        mapper.codableOptions = codableOptions
        mapper.readsPlistNullMarker = true
        self.options = options
    }

    /// The plist as a Document.
    /// - Throws: ``CartographError`` when the bytes are not a plist, are
    ///   truncated or corrupted, or break a limit.
    public func document(from bytes: some ContiguousBytes) throws -> Document {
        try withByteSpan(bytes) { try PlistInput.document($0, options: options) }
    }

    /// Decodes a `Decodable` type.
    public func decode<T: Decodable>(_ type: T.Type, from bytes: some ContiguousBytes) throws -> T {
        let document: Document
        do {
            document = try self.document(from: bytes)
        } catch let error as CartographError {
            // A UID the options refuse is a value, of a type no `Codable`
            // type reads: a type mismatch, as Foundation's decoder says.
            if error.kind == .typeMismatch {
                throw DecodingError.typeMismatch(
                    T.self, DecodingError.Context(codingPath: [], debugDescription: error.description, underlyingError: error))
            }
            throw DecodingError.dataCorrupted(
                DecodingError.Context(
                    codingPath: [], debugDescription: "the input is not a valid property list: \(error)",
                    underlyingError: error))
        }
        return try mapper.decode(type, document: document, index: document.root.index, propertyList: true)
    }

    /// Decodes a registered model (or array, optional … of them).
    @_disfavoredOverload
    public func decode<Model>(_ type: Model.Type, from bytes: some ContiguousBytes) throws -> Model {
        try mapper.decode(type, from: try document(from: bytes).root)
    }

    /// The plist as a tree of models where class inference identifies them.
    public func decodeAny(from bytes: some ContiguousBytes) throws -> MappedValue {
        try mapper.decodeAny(in: try document(from: bytes).root)
    }

    /// Every object identified as `Model`, at any depth, in document order.
    public func collect<Model>(_ type: Model.Type, from bytes: some ContiguousBytes) throws -> [Model] {
        try mapper.collect(type, in: try document(from: bytes).root)
    }

    /// Applies a plist dict to an existing model (absent keys untouched).
    public func update<Model>(_ model: inout Model, from bytes: some ContiguousBytes) throws {
        try mapper.update(&model, from: try document(from: bytes).root)
    }

    /// A `Codable` value as a plist.
    /// - Throws: `EncodingError` naming the path; nil is omitted (or an error by option).
    public func encode<T: Encodable>(_ value: T, format: PropertyListFormat) throws -> [UInt8] {
        // Cartograph's binary writer takes the scalars as they are encoded (``BinaryWriteAhead``).
        let writeAhead = format == .binary && options.writer == .native ? BinaryWriteAhead() : nil
        let encoder = TreeEncoder(options: mapper.codableOptions, registry: mapper.registry, propertyList: true, writeAhead: writeAhead)
        do {
            let root = try encoder.encodeRootNode(value, requiringValue: true)
            return try PlistOutput.bytes(.node(root), format: format, options: options, writeAhead: writeAhead)
        } catch let error as CartographError {
            throw EncodingError.invalidValue(
                value, EncodingError.Context(codingPath: [], debugDescription: error.description, underlyingError: error))
        }
    }

    /// A registered model (or array … of them) as a plist, through its mapping or factory.
    @_disfavoredOverload
    public func encode<Model>(_ model: Model, format: PropertyListFormat) throws -> [UInt8] {
        try write(format, try mapper.encodeTree(model, profile: .propertyList))
    }

    /// A JSON value as a plist (nulls omitted, or an error by option).
    public func encode(_ value: JSONValue, format: PropertyListFormat) throws -> [UInt8] {
        try PlistOutput.bytes(.node(.value(value)), format: format, options: options)
    }

    private func write(_ format: PropertyListFormat, _ value: EncodedValue) throws -> [UInt8] {
        try PlistOutput.bytes(.node(.native(value)), format: format, options: options)
    }

    /// A Document (JSON or plist) as a plist; plist dates and data stay dates and data.
    public func encode(_ document: Document, format: PropertyListFormat) throws -> [UInt8] {
        try PlistOutput.bytes(.document(document, index: document.root.index), format: format, options: options)
    }
}
