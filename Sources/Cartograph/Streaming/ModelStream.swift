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
/// be many gigabytes); every other limit applies to each element, and three
/// bound what a stream holds at once: ``ParseOptions/maxElementBytes`` (one
/// element), ``ParseOptions/maxEnvelopeBytes`` (what surrounds the streamed
/// array) and ``ParseOptions/maxStreamIssues`` (lossy mode's skipped
/// elements). Whitespace between elements is not kept. A path that names
/// nothing in the input, or names something other than an array, ends the
/// stream with ``CartographError/Kind/pathNotFound`` or
/// ``CartographError/Kind/typeMismatch`` rather than zero models.
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
    private let limits: ParseOptions
    /// A stream limit that stopped the stream; every later call throws it.
    private var failure: CartographError?
    /// Chunks are fed in slices of at most this many bytes, so that the
    /// element and envelope limits are checked before a large chunk can
    /// build far past them.
    private static var sliceBytes: Int { 256 << 10 }

    /// Errors of the elements skipped in lossy mode.
    public private(set) var issues: [CartographError] = []
    /// The values around the streamed array (its other keys), once ``finish()``
    /// has read them; the streamed array itself appears empty. Nil for
    /// ``StreamPath/values``.
    public private(set) var envelope: JSONValue?
    /// What the stream delivers.
    private let path: StreamPath

    /// A stream of `type` from the values at `path`.
    public init(_ type: Model.Type, mapper: JSONMapper = JSONMapper(), path: StreamPath = .topLevelArray, lossy: Bool = false) {
        var options = mapper.parseOptions
        options.allowMultipleValues = path == .values
        // A stream has no total size: memory is bounded per element (its
        // strings, numbers, keys and depth keep their limits).
        options.maxInputBytes = Int.max
        self.path = path
        splitter = StreamSplitter(mode: path.splitterMode, options: mapper.parseOptions)
        parser = YajlParser(options: options, expectedInputBytes: 16 << 10, splitter: splitter)
        self.lossy = lossy
        limits = mapper.parseOptions.bounded(streamed: true)
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
            var issue =
                DecodingErrors.cartographError(error)
                ?? CartographError(.typeMismatch, "element \(index) could not be decoded: \(error)")
            issue.elementIndex = index
            if lossy {
                guard issues.count < limits.maxStreamIssues else {
                    splitter.failure = CartographError(
                        .tooManyIssues,
                        "more than maxStreamIssues (\(limits.maxStreamIssues)) elements could not be decoded", offset: nil)
                    return false
                }
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
    public func feed(_ chunk: Span<UInt8>, _ body: (Model) throws -> Void) throws {
        precondition(!finished, "ModelStream.feed called after finish()")
        if let failure { throw failure }
        var error: CartographError?
        var start = 0
        repeat {
            let slice = chunk.extracting(start..<min(chunk.count, start + Self.sliceBytes))
            start += slice.count
            error = parser.feed(slice).map { located($0, in: slice) }
            if error == nil {
                lines.advance(over: slice, anchor: parser.retainedBase)
                error = brokenLimit()
            }
        } while error == nil && start < chunk.count
        for model in takeReady() { try body(model) }
        if let error { throw error }
    }

    /// Parses the next chunk, lent as a buffer (what NIO's
    /// `withUnsafeReadableBytes` and `Data.withUnsafeBytes` give), handing
    /// models to `body` as the span form does.
    public func feed(_ chunk: UnsafeRawBufferPointer, _ body: (Model) throws -> Void) throws {
        try unsafe feed(chunk.assumingMemoryBound(to: UInt8.self).span, body)
    }

    /// A stream limit the element being read or the envelope has passed.
    private func brokenLimit() -> CartographError? {
        if parser.retainedBytes > limits.maxElementBytes {
            failure = CartographError(
                .inputTooLarge,
                "an unfinished token (a comment, when comments are allowed) is longer than maxElementBytes (\(limits.maxElementBytes))",
                offset: parser.retainedBase)
        } else if let element = splitter.activeElement, element.memoryBytes > limits.maxElementBytes {
            failure = CartographError(
                .inputTooLarge,
                "element \(splitter.elementCount) takes more than maxElementBytes (\(limits.maxElementBytes)) bytes", offset: parser.bytesRead
            )
        } else if parser.builder.memoryBytes > limits.maxEnvelopeBytes {
            let hint = splitter.foundArray ? "" : " (the stream's path has not matched anything so far)"
            failure = CartographError(
                .inputTooLarge,
                "the values around the streamed array take more than maxEnvelopeBytes (\(limits.maxEnvelopeBytes)) bytes\(hint)",
                offset: parser.bytesRead)
        }
        if var failure {
            failure.elementIndex = splitter.elementCount
            self.failure = failure
        }
        return failure
    }

    /// The error for a path that selected nothing (or, naming an array, found something else).
    private func pathError() -> CartographError? {
        guard !splitter.foundArray, case .steps(let steps, let requiresArray) = splitter.mode else { return nil }
        let text = path.text
        var node: Node? = requiresArray && parser.builder.tokenCountForEnvelope > 0 ? parser.builder.makeDocument().root : nil
        for step in steps.dropLast() {
            switch step {
            case .key(let key): node = (try? node?.object())?[key]
            case .index(let index): node = node.flatMap { try? $0.array() }.flatMap { index < $0.count ? $0[index] : nil }
            case .any: node = nil
            }
        }
        guard let node else {
            return CartographError(
                .pathNotFound, "the stream's path \(text) names nothing in the input", path: text,
                expected: "an array", found: "nothing")
        }
        return CartographError(
            .typeMismatch, "the stream's path \(text) names \(node.kind), not an array", offset: node.sourceOffset,
            path: text, expected: "array", found: "\(node.kind)")
    }

    /// Parses the next chunk of bytes (`[UInt8]`, `ArraySlice<UInt8>`, `Data` …), handing models to `body`.
    public func feed(_ chunk: some ContiguousBytes, _ body: (Model) throws -> Void) throws {
        try withByteSpan(chunk) { try feed($0, body) }
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
        if let failure { throw failure }
        let error = parser.finish().map { located($0, in: [UInt8]().span) }
        for model in takeReady() { try body(model) }
        if let error { throw error }
        if let error = pathError() { throw error }
        if case .steps = splitter.mode, parser.builder.tokenCountForEnvelope > 0 {
            envelope = try parser.builder.makeDocument().root.jsonValue()
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

    private func located(_ error: CartographError, in chunk: Span<UInt8>) -> CartographError {
        var located = lines.locate(error, in: chunk, retained: parser.retained)
        // Inside an element, or between elements: the element being read or next to be read.
        located.elementIndex = error.elementIndex ?? splitter.elementCount
        return located
    }

    /// Input bytes the parser keeps between chunks (for tests).
    var retainedBytes: Int { parser.retainedBytes }

    /// How many elements have completed (decoded, or skipped in lossy mode).
    public var elementCount: Int { splitter.elementCount }
}

extension DocumentBuilder {
    /// Tokens on the tape (for the envelope after a stream).
    var tokenCountForEnvelope: Int { tape.count }
}
