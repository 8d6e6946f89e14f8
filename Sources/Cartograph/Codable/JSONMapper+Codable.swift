import Foundation

extension JSONMapper {
    /// A mapper for `Codable` types with these options (and no registered models).
    public init(options: CodableOptions, parseOptions: ParseOptions = ParseOptions(), writeOptions: WriteOptions = WriteOptions()) {
        self.init(registry: ModelRegistry(), parseOptions: parseOptions, writeOptions: writeOptions)
        codableOptions = options
    }

    // MARK: Decoding

    /// Decodes any `Decodable` type from JSON bytes (`[UInt8]`, `Data`,
    /// `ArraySlice<UInt8>`, any `ContiguousBytes`), reading the Document
    /// directly. Types registered in the registry decode through their
    /// factory or mapping wherever they appear in the graph.
    ///
    /// - Throws: `DecodingError`, as Foundation's `JSONDecoder` does, whose
    ///   debug description names the path (`$.statuses[3].user.id`), the
    ///   expected and found kinds and the line and column; the underlying
    ///   error is the ``CartographError``.
    public func decode<T: Decodable>(_ type: T.Type, from bytes: some ContiguousBytes) throws -> T {
        do {
            return try InputEncoding.withUTF8(bytes) { input in
                let document = try JSONParser.parseWhole(input, options: parseOptions)
                return try decode(type, document: document, index: document.root.index, locatingIn: input)
            }
        } catch let error as CartographError {
            // Only reading the input throws these (UTF-16/32 that does not
            // convert, invalid JSON): the decode turns its own into `DecodingError`s.
            throw DecodingError.dataCorrupted(
                DecodingError.Context(
                    codingPath: [], debugDescription: "the input is not valid JSON: \(error)",
                    underlyingError: error))
        }
    }

    /// Decodes a `Decodable` type whose ``LossyArray`` properties skip bad
    /// elements; the errors of the skipped elements come back with their paths.
    ///
    /// Registered models keep the mapping layer's lossy rule here too: an
    /// element of an array of registered models that fails is skipped and
    /// reported (so `decodeLossy([Product].self, …)` reads every good product
    /// whether `Product` is also `Decodable` or not), as are the failing
    /// elements of the arrays inside them.
    public func decodeLossy<T: Decodable>(_ type: T.Type, from bytes: some ContiguousBytes) throws -> LossyResult<T> {
        let issues = IssueCollector()
        let value: T = try InputEncoding.withUTF8(bytes) { input in
            let document = try JSONParser.parseWhole(input, options: parseOptions)
            let value = try decode(type, document: document, index: document.root.index, locatingIn: input, issues: issues)
            issues.locate(in: input)
            return value
        }
        return LossyResult(value: value, issues: issues.issues)
    }

    /// Decodes a `Decodable` type from JSON text.
    public func decode<T: Decodable>(_ type: T.Type, from text: String) throws -> T {
        try decode(type, from: Array(text.utf8))
    }

    /// Decodes a `Decodable` type from an in-memory JSON value.
    public func decode<T: Decodable>(_ type: T.Type, from value: JSONValue) throws -> T {
        let document = try Document(value: value)
        return try decode(type, document: document, index: document.root.index)
    }

    /// Decodes a `Decodable` type from a node of a parsed Document.
    public func decode<T: Decodable>(_ type: T.Type, from node: Node) throws -> T {
        try decode(type, document: node.document, index: node.index)
    }

    /// Decodes the value at `index` of a document that has no input text
    /// to place its errors in (a ``JSONValue``, a node, a property list).
    func decode<T: Decodable>(
        _ type: T.Type, document: Document, index: Int, issues: IssueCollector? = nil, propertyList: Bool = false
    ) throws -> T {
        do {
            return try decodeUnlocated(type, document: document, index: index, issues: issues, propertyList: propertyList)
        } catch let error as CartographError {
            throw Self.dataCorrupted(error)
        }
    }

    /// Decodes the value at `index` of the document parsed from `input`,
    /// giving its errors their line, column and excerpt there.
    func decode<T: Decodable>(
        _ type: T.Type, document: Document, index: Int, locatingIn input: Span<UInt8>, issues: IssueCollector? = nil
    ) throws -> T {
        do {
            return try decodeUnlocated(type, document: document, index: index, issues: issues, propertyList: false)
        } catch let error as CartographError {
            throw Self.dataCorrupted(error.locating(in: input))
        } catch {
            // Located only now that it leaves the decode (see DocumentDecoder.located).
            throw DecodingErrors.locating(error, in: input)
        }
    }

    private func decodeUnlocated<T: Decodable>(
        _ type: T.Type, document: Document, index: Int, issues: IssueCollector?, propertyList: Bool
    ) throws -> T {
        let decoder = DocumentDecoder(
            document: document, index: index, options: codableOptions, registry: registry, issues: issues,
            recyclesContainers: true)
        decoder.readsNullMarker = propertyList
        return try decoder.decodeTopLevel(type)
    }

    /// A ``CartographError`` that left the decode, as the `DecodingError` it throws.
    private static func dataCorrupted(_ error: CartographError) -> DecodingError {
        .dataCorrupted(DecodingError.Context(codingPath: [], debugDescription: error.description, underlyingError: error))
    }

    // MARK: Encoding

    /// Encodes any `Encodable` value as JSON bytes. Registered types encode
    /// through their factory or mapping.
    /// - Throws: `EncodingError` naming the path, with the ``CartographError`` attached.
    public func encode<T: Encodable>(_ value: T) throws -> [UInt8] {
        // Written into the array's own storage where it fits (OutputLease.swift).
        try OutputLease.array { lease, finish in try encodedBytes(value, lease: lease, finish) }
    }

    /// Encodes `value` as JSON and hands the bytes to `body` in place, valid
    /// only inside it: a server copies them once, straight into its own
    /// buffer (a NIO `ByteBuffer`), with no array made in between.
    /// - Throws: `EncodingError` naming the path, with the ``CartographError``
    ///   attached; or what `body` throws.
    public func withEncodedBytes<T: Encodable, Result>(_ value: T, _ body: (UnsafeRawBufferPointer) throws -> Result) throws -> Result {
        try encodedBytes(value, lease: nil) { unsafe try $0.withBytes(body) }
    }

    /// Encodes `value` (into `lease`'s memory if one is given) and hands
    /// the buffer holding the bytes to `body`.
    private func encodedBytes<T: Encodable, Result>(
        _ value: T, lease: OutputLease?, _ body: (OutputBuffer) throws -> Result
    ) throws -> Result {
        do {
            // Streamed where the options allow and the value writes in
            // order (nearly always); otherwise, or if the stream is
            // abandoned, through the tree (StreamEncoder.swift says when).
            if StreamRun.streams(codableOptions, writeOptions),
                let result = try StreamEncoder.encode(
                    value, options: codableOptions, writeOptions: writeOptions, registry: registry, lease: lease, finishing: body)
            {
                return result
            }
            return try body(try writeThroughTree(value, lease: lease).sink)
        } catch let error as CartographError {
            throw EncodingError.invalidValue(
                value, EncodingError.Context(codingPath: [], debugDescription: error.description, underlyingError: error))
        }
    }

    /// Encodes with the tree encoder and then writes the tree: what every
    /// value the stream cannot write goes through, and what the stream's
    /// output is tested against.
    func encodeThroughTree<T: Encodable>(_ value: T) throws -> [UInt8] {
        try writeThroughTree(value, lease: nil).output
    }

    /// ``encodeThroughTree(_:)``'s writer, holding the bytes (in `lease`'s
    /// memory if one is given and no other writer holds it).
    private func writeThroughTree<T: Encodable>(_ value: T, lease: OutputLease?) throws -> NativeJSONWriter {
        let encoder = TreeEncoder(options: codableOptions, registry: registry)
        let slot = try encoder.encodeRootNode(value, requiringValue: true)
        var writer = NativeJSONWriter(options: writeOptions, lease: lease)
        try writer.write(slot)
        return writer
    }

    /// Encodes an `Encodable` value as `Data`, copied once from the writer
    /// (not through an array: a second copy).
    public func encodeData<T: Encodable>(_ value: T) throws -> Data { try encodedBytes(value, lease: nil) { $0.data } }

    /// ``encode(_:)`` as `Data` where `Data` is asked for, as
    /// `JSONEncoder.encode` returns it: `let data: Data = try mapper.encode(value)`.
    /// Without a type asked for, `encode` still gives `[UInt8]`.
    @_disfavoredOverload
    public func encode<T: Encodable>(_ value: T) throws -> Data { try encodeData(value) }

    /// Encodes an `Encodable` value as a JSON string.
    public func encodeString<T: Encodable>(_ value: T) throws -> String { try encodedBytes(value, lease: nil) { $0.text } }

    /// Encodes an `Encodable` value as a ``JSONValue``.
    public func encodeJSONValue<T: Encodable>(_ value: T) throws -> JSONValue {
        let encoder = TreeEncoder(options: codableOptions, registry: registry)
        do {
            return try encoder.encodeRoot(value)
        } catch let error as CartographError {
            throw EncodingError.invalidValue(
                value, EncodingError.Context(codingPath: [], debugDescription: error.description, underlyingError: error))
        }
    }
}
