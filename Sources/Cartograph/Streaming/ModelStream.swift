import Foundation

/// Decodes models out of JSON as the bytes arrive: feed chunks of any size,
/// get back the models whose elements completed.
///
/// ```swift
/// let stream = ModelStream(User.self, mapper: mapper, path: "$.data.users")
/// for chunk in body { for user in try stream.feed(chunk) { handle(user) } }
/// for user in try stream.finish() { handle(user) }
/// ```
///
/// Every kind of model works: `Codable`, mappings, factories,
/// ``MappedValue`` for class inference per element, and ``Document`` for the
/// element itself. Memory is bounded by the
/// largest element: each element is parsed into a Document of its own,
/// whose storage is reused once its model is made. An error names the
/// element (``CartographError/elementIndex``) and the byte offset, line and
/// column; every model completed before it is returned first (the error
/// comes with the next call). With `lossy`, an element that fails to decode
/// is skipped and its error kept in ``issues``.
///
/// ``ParseOptions/maxInputBytes`` does not apply to a stream (an export may
/// be many gigabytes); every other limit applies to each element.
///
/// A stream is used from one task at a time.
public final class ModelStream<Model> {
    private let splitter: StreamSplitter
    private let parser: YajlParser
    private let decode: (Document) throws -> Model
    private let lossy: Bool
    private var lines = LineCounter()
    private var ready: [Model] = []
    private var deferred: (any Error)?
    private var finished = false

    /// Errors of the elements skipped in lossy mode.
    public private(set) var issues: [CartographError] = []
    /// The values around the streamed array (its other keys), once ``finish()``
    /// has read them; the streamed array itself appears empty. Nil for
    /// ``StreamPath/values``.
    public private(set) var envelope: JSONValue?

    /// A stream of `type` from the values at `path`.
    public init(_ type: Model.Type, mapper: JSONMapper = JSONMapper(), path: StreamPath = .topLevelArray, lossy: Bool = false) {
        var options = mapper.parseOptions
        options.allowMultipleValues = path == .values
        // A stream has no total size: memory is bounded per element (its
        // strings, numbers, keys and depth keep their limits).
        options.maxInputBytes = Int.max
        splitter = StreamSplitter(mode: path.splitterMode, options: mapper.parseOptions)
        parser = YajlParser(options: options, expectedInputBytes: 16 << 10, splitter: splitter)
        self.lossy = lossy
        decode = ModelStream.decoder(for: Model.self, mapper: mapper)
        splitter.onElement = { [unowned self] element in self.deliver(element) }
    }

    /// How the model is made from an element's Document.
    private static func decoder(for type: Model.Type, mapper: JSONMapper) -> (Document) throws -> Model {
        if Model.self == MappedValue.self {
            return { try mapper.decodeAny(in: $0.root) as! Model }
        }
        if Model.self == Document.self {
            // A compact copy, so that the stream's buffers are reused for the next element.
            return { $0.compactCopy() as! Model }
        }
        if let decodable = Model.self as? any Decodable.Type {
            func make<T: Decodable>(_: T.Type) -> (Document) throws -> Model {
                { document in try mapper.decode(T.self, from: document.root) as! Model }
            }
            return make(decodable)
        }
        return { try mapper.decode(Model.self, from: $0.root) }
    }

    /// Makes the model of a complete element, then recycles the element's storage.
    private func deliver(_ element: DocumentBuilder) -> Bool {
        let index = splitter.elementCount - 1
        var document: Document? = element.makeDocument()
        defer {
            // The storage is reused unless something kept the element's Document.
            if isKnownUniquelyReferenced(&document) {
                document = nil
                element.reset()
            } else {
                splitter.builder = DocumentBuilder(options: element.options, expectedInputBytes: 4 << 10)
            }
        }
        do {
            ready.append(try decode(document!))
            return true
        } catch {
            var issue = DecodingErrors.cartographError(error)
                ?? CartographError(.typeMismatch, "element \(index) could not be decoded: \(error)")
            issue.elementIndex = index
            if lossy {
                issues.append(issue)
                return true
            }
            splitter.failure = issue
            return false
        }
    }

    /// Parses the next chunk, handing each model whose element it completed
    /// to `body` in order; an error in the chunk is thrown after the models
    /// completed before it were handed over.
    public func feed(_ chunk: UnsafeRawBufferPointer, _ body: (Model) throws -> Void) throws {
        precondition(!finished, "ModelStream.feed called after finish()")
        let error = parser.feed(chunk).map { located($0, in: chunk) }
        if error == nil { lines.advance(over: chunk) }
        for model in takeReady() { try body(model) }
        if let error { throw error }
    }

    /// Parses the next chunk of bytes (`[UInt8]`, `ArraySlice<UInt8>`, `Data` …), handing models to `body`.
    public func feed(_ chunk: some ContiguousBytes, _ body: (Model) throws -> Void) throws {
        try chunk.withUnsafeBytes { try feed($0, body) }
    }

    /// Parses the next chunk; returns the models of the elements it
    /// completed. An error found in the chunk is thrown by the next call, so
    /// that the models completed before it are returned first.
    public func feed(_ chunk: some ContiguousBytes) throws -> [Model] {
        if let deferred {
            self.deferred = nil
            throw deferred
        }
        var models: [Model] = []
        do {
            try feed(chunk) { models.append($0) }
        } catch {
            if models.isEmpty { throw error }
            deferred = error
        }
        return models
    }

    /// Ends the input, handing the last models to `body`.
    /// - Throws: an error deferred by ``feed(_:)``, or one for an incomplete input.
    public func finish(_ body: (Model) throws -> Void) throws {
        precondition(!finished, "ModelStream.finish called twice")
        finished = true
        if let deferred {
            self.deferred = nil
            throw deferred
        }
        let error = parser.finish().map { located($0, in: UnsafeRawBufferPointer(start: nil, count: 0)) }
        for model in takeReady() { try body(model) }
        if let error { throw error }
        if case .array = splitter.mode, parser.builder.tokenCountForEnvelope > 0 {
            envelope = parser.builder.makeDocument().root.jsonValue()
        }
    }

    /// Ends the input; returns the last models.
    public func finish() throws -> [Model] {
        var models: [Model] = []
        try finish { models.append($0) }
        return models
    }

    private func takeReady() -> [Model] {
        let models = ready
        ready.removeAll(keepingCapacity: true)
        return models
    }

    private func located(_ error: CartographError, in chunk: UnsafeRawBufferPointer) -> CartographError {
        var located = lines.locate(error, in: chunk)
        // Inside an element, or between elements: the element being read or next to be read.
        located.elementIndex = error.elementIndex ?? splitter.elementCount
        return located
    }

    /// How many elements have completed (decoded, or skipped in lossy mode).
    public var elementCount: Int { splitter.elementCount }
}

extension DocumentBuilder {
    /// Tokens on the tape (for the envelope after a stream).
    var tokenCountForEnvelope: Int { tape.count }
}
