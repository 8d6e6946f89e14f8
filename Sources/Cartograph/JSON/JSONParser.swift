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
    /// With ``ParseOptions/allowsJSON5``, the chunks so far (JSON5 is read whole at ``finish()``).
    private var json5Input: [UInt8]?
    private let options: ParseOptions

    /// Creates a parser. `expectedInputBytes` only sizes the first allocation.
    public init(options: ParseOptions = ParseOptions(), expectedInputBytes: Int = 0) {
        engine = YajlParser(options: options, expectedInputBytes: expectedInputBytes)
        self.options = options.bounded(streamed: false)
        if options.allowsJSON5 { json5Input = [] }
    }

    /// Parses the next chunk.
    /// - Throws: ``CartographError`` located in the input, when the chunk shows invalid JSON.
    public func feed(_ chunk: Span<UInt8>) throws {
        precondition(!finished, "JSONParser.feed called after finish()")
        if json5Input != nil {
            guard json5Input!.count + chunk.count <= options.maxInputBytes else {
                throw CartographError(.inputTooLarge, "input larger than maxInputBytes (\(options.maxInputBytes))", offset: json5Input!.count)
            }
            chunk.append(to: &json5Input!)
            return
        }
        if let error = engine.feed(chunk) {
            throw lines.locate(error, in: chunk, retained: engine.retained)
        }
        lines.advance(over: chunk, anchor: engine.retainedBase)
    }

    /// Parses the next chunk, lent as a buffer (what NIO's
    /// `withUnsafeReadableBytes` and `Data.withUnsafeBytes` give).
    /// - Throws: ``CartographError`` located in the input, when the chunk shows invalid JSON.
    public func feed(_ chunk: UnsafeRawBufferPointer) throws {
        try unsafe feed(chunk.assumingMemoryBound(to: UInt8.self).span)
    }

    /// Parses the next chunk of bytes (`[UInt8]`, `ArraySlice<UInt8>`, `Data` …).
    public func feed(_ chunk: some Collection<UInt8>) throws {
        if let done: Void = try withContiguousByteSpan(chunk, { try feed($0) }) { return done }
        try feed(Array(chunk).span)
    }

    /// Ends the input and returns the Document.
    /// - Throws: ``CartographError`` when the input stopped inside a value.
    public func finish() throws -> Document {
        precondition(!finished, "JSONParser.finish called twice")
        finished = true
        if let json5Input { return try JSON5Reader.parse(json5Input.span, options: options) }
        if let error = engine.finish() {
            throw lines.locate(error, in: [UInt8]().span, retained: engine.retained)
        }
        let parts = engine.finishedParts()
        return Document(tape: parts.tape, roots: parts.roots)
    }

    /// When the input is an object's members without braces: the length of
    /// a byte order mark to skip before them (0 without one); nil when the
    /// text starts with `{` (or a comment, or a mark these options refuse)
    /// and is read as it is.
    private static func bracelessPrefix(_ input: Span<UInt8>, options: ParseOptions) -> Int? {
        var prefix = 0
        if input.count >= 3, input[0] == 0xEF, input[1] == 0xBB, input[2] == 0xBF {
            guard options.byteOrderMark == .skip else { return nil }
            prefix = 3
        }
        var index = prefix
        while index < input.count, [0x20, 0x09, 0x0A, 0x0D].contains(input[index]) { index += 1 }
        guard index < input.count else { return prefix }
        if input[index] == UInt8(ascii: "{") || (options.allowComments && input[index] == UInt8(ascii: "/")) { return nil }
        return prefix
    }

    /// Bytes yajl was given again because a token was unfinished (for tests).
    var rescannedBytes: Int { engine.bytesRescanned }
    /// Input bytes the parser keeps between chunks (for tests).
    var retainedBytes: Int { engine.retainedBytes }

    /// Parses a whole input held in memory, locating any error in it.
    static func parseWhole(_ input: Span<UInt8>, options: ParseOptions) throws -> Document {
        let parts = try parseWholeParts(input, options: options)
        return Document(tape: parts.tape, roots: parts.roots)
    }

    /// What ``parseWhole(_:options:)`` makes a Document of: for
    /// `Document(parsing:)`, whose initializer can only fill itself in (a
    /// Document made and then copied was an allocation more per parse).
    @usableFromInline
    static func parseWholeParts(_ input: Span<UInt8>, options: ParseOptions) throws -> (tape: Tape, roots: [Int]) {
        guard options.allowsTrailingCommas, !options.allowsJSON5 else { return try parseStrictParts(input, options: options) }
        do {
            return try parseStrictParts(input, options: options)
        } catch {
            // Only an input that failed is looked at for trailing commas:
            // the scan costs nothing on valid input. The copy keeps every
            // offset, so errors found in it are placed in the input.
            guard let relaxed = TrailingCommas.blanked(input, comments: options.allowComments) else { throw error }
            return try parseStrictParts(relaxed.span, options: options)
        }
    }

    private static func parseStrictParts(_ input: Span<UInt8>, options: ParseOptions) throws -> (tape: Tape, roots: [Int]) {
        if options.allowsJSON5 {
            let document = try JSON5Reader.parse(input, options: options)
            return (document.tape, document.roots)
        }
        if options.assumesTopLevelObject, let prefix = bracelessPrefix(input, options: options) {
            let engine = YajlParser(options: options, expectedInputBytes: input.count + 2)
            let error =
                engine.beginBracelessObject(after: prefix) ?? engine.feed(input.extracting(prefix...))
                ?? engine.feed([UInt8(ascii: "}")].span) ?? engine.finish()
            if let error { throw error.locating(in: input) }
            return engine.finishedParts()
        }
        if let parts = WholeInputParse.parts(of: input, options: options) { return parts }
        // Not a valid input, or one the one call leaves alone (a byte order
        // mark): read again on a parser, which reports every error.
        let engine = YajlParser(options: options, expectedInputBytes: input.count)
        if let error = engine.feedWhole(input) ?? engine.finish() {
            throw error.locating(in: input)
        }
        return engine.finishedParts()
    }
}
