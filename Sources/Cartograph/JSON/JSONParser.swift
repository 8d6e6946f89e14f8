/// An incremental JSON parser: feed chunks of any size as they arrive, then
/// ``finish()`` to get the ``Document``.
///
/// Feeding a text whole, one byte at a time or in any other chunking gives
/// the same Document. Errors are thrown as soon as a chunk shows them, with
/// the absolute byte offset, line and column.
///
/// ```swift
/// let parser = JSONParser()
/// for try await chunk in body { try parser.feed(chunk) }
/// let document = try parser.finish()
/// ```
///
/// A parser is used from one task at a time; the ``Document`` it produces is
/// `Sendable`.
public final class JSONParser {
    private let engine: YajlParser
    private var lines = LineCounter()
    private var finished = false

    /// Creates a parser. `expectedInputBytes` only sizes the first allocation.
    public init(options: ParseOptions = ParseOptions(), expectedInputBytes: Int = 0) {
        engine = YajlParser(options: options, expectedInputBytes: expectedInputBytes)
    }

    /// Parses the next chunk.
    /// - Throws: ``CartographError`` located in the input, when the chunk shows invalid JSON.
    public func feed(_ chunk: UnsafeRawBufferPointer) throws {
        precondition(!finished, "JSONParser.feed called after finish()")
        if let error = engine.feed(chunk) {
            throw lines.locate(error, in: chunk, retained: engine.retained)
        }
        lines.advance(over: chunk, anchor: engine.retainedBase)
    }

    /// Parses the next chunk of bytes (`[UInt8]`, `ArraySlice<UInt8>`, `Data` …).
    public func feed(_ chunk: some Collection<UInt8>) throws {
        if let done: Void = try chunk.withContiguousStorageIfAvailable({ try feed(UnsafeRawBufferPointer($0)) }) {
            return done
        }
        try Array(chunk).withUnsafeBytes { try feed($0) }
    }

    /// Ends the input and returns the Document.
    /// - Throws: ``CartographError`` when the input stopped inside a value.
    public func finish() throws -> Document {
        precondition(!finished, "JSONParser.finish called twice")
        finished = true
        if let error = engine.finish() {
            throw lines.locate(error, in: UnsafeRawBufferPointer(start: nil, count: 0), retained: engine.retained)
        }
        return engine.builder.makeDocument()
    }

    /// Bytes yajl was given again because a token was unfinished (for tests).
    var rescannedBytes: Int { engine.rescannedBytes }
    /// Input bytes the parser keeps between chunks (for tests).
    var retainedBytes: Int { engine.retainedBytes }

    /// Parses a whole input held in memory, locating any error in it.
    static func parseWhole(_ input: UnsafeRawBufferPointer, options: ParseOptions) throws -> Document {
        let engine = YajlParser(options: options, expectedInputBytes: input.count)
        if let error = engine.feed(input) ?? engine.finish() {
            throw error.locating(in: input)
        }
        return engine.builder.makeDocument()
    }
}
