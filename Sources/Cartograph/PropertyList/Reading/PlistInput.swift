/// Where reading a property list starts: the limits every reader shares,
/// the format from the first bytes, and the reader the options choose.
enum PlistInput {
    /// Whether `bytes` (UTF-8, or UTF-16/32 as the XML reader detects them) hold an OpenStep plist.
    static func isOpenStep(_ bytes: Span<UInt8>) -> Bool {
        guard PropertyListFormat.detect(bytes) == .xml else { return false }
        if let converted = try? InputEncoding.utf8(from: bytes) {
            return OpenStepPlistReader.looksLikeOpenStep(converted.span)
        }
        return OpenStepPlistReader.looksLikeOpenStep(bytes)
    }

    static func document(_ bytes: Span<UInt8>, options: PropertyListOptions, converted: Bool = false) throws -> Document {
        var parse = ParseOptions()
        parse.maxDepth = options.maxDepth
        parse.maxInputBytes = options.maxInputBytes
        // Held to the document ceiling as JSON is (which also keeps sizes within 32 bits).
        parse = parse.bounded(streamed: false)
        parse.maxStringBytes = parse.maxInputBytes
        guard bytes.count <= parse.maxInputBytes else {
            throw CartographError(.inputTooLarge, "the plist is larger than maxInputBytes (\(parse.maxInputBytes))", offset: parse.maxInputBytes)
        }
        guard !bytes.isEmpty else {
            throw CartographError(.unexpectedEnd, "the plist is empty", offset: 0)
        }
        let format = PropertyListFormat.detect(bytes)
        // XML in UTF-16 or UTF-32 (by its byte order mark or its zero bytes,
        // as Foundation detects it) is read as its UTF-8 conversion; offsets
        // in errors then count the UTF-8 text.
        if format == .xml, let converted = try InputEncoding.utf8(from: bytes) {
            return try document(converted.span, options: options, converted: true)
        }
        // OpenStep text (not `<` first) has one reader: libplist 2.2 has none.
        if format == .xml, OpenStepPlistReader.looksLikeOpenStep(bytes) {
            return try OpenStepPlistReader.document(bytes, parse: parse)
        }
        switch (format, options.reader) {
        case (.binary, .native): return try BinaryPlistReader.document(bytes, options: options, parse: parse)
        case (.xml, .native): return try XMLPlistReader.document(bytes, options: options, parse: parse, converted: converted)
        default: return try LibplistReader.document(bytes, format: format, options: options, parse: parse, converted: converted)
        }
    }
}
