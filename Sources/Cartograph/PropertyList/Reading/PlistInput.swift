/// Where reading a property list starts: the limits every reader shares,
/// the format from the first bytes, and the reader the options choose.
enum PlistInput {
    /// Whether `bytes` (UTF-8, or UTF-16/32 as the XML reader detects them) hold an OpenStep plist.
    static func isOpenStep(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard unsafe PropertyListFormat.detect(bytes) == .xml else { return false }
        if let converted = unsafe try? InputEncoding.utf8(from: bytes) {
            return unsafe converted.withUnsafeBytes { unsafe OpenStepPlistReader.looksLikeOpenStep($0) }
        }
        return unsafe OpenStepPlistReader.looksLikeOpenStep(bytes)
    }

    static func document(_ bytes: UnsafeRawBufferPointer, options: PropertyListOptions, converted: Bool = false) throws -> Document {
        var parse = ParseOptions()
        parse.maxDepth = options.maxDepth
        parse.maxInputBytes = options.maxInputBytes
        // Held to the document ceiling as JSON is (which also keeps sizes within 32 bits).
        parse = parse.bounded(streamed: false)
        parse.maxStringBytes = parse.maxInputBytes
        guard bytes.count <= parse.maxInputBytes else {
            throw CartographError(.inputTooLarge, "the plist is larger than maxInputBytes (\(parse.maxInputBytes))", offset: parse.maxInputBytes)
        }
        guard unsafe bytes.baseAddress != nil, unsafe !bytes.isEmpty else {
            throw CartographError(.unexpectedEnd, "the plist is empty", offset: 0)
        }
        let format = unsafe PropertyListFormat.detect(bytes)
        // XML in UTF-16 or UTF-32 (by its byte order mark or its zero bytes,
        // as Foundation detects it) is read as its UTF-8 conversion; offsets
        // in errors then count the UTF-8 text.
        if format == .xml, let converted = unsafe try InputEncoding.utf8(from: bytes) {
            return unsafe try converted.withUnsafeBytes { unsafe try document($0, options: options, converted: true) }
        }
        // OpenStep text (not `<` first) has one reader: libplist 2.2 has none.
        if format == .xml, unsafe OpenStepPlistReader.looksLikeOpenStep(bytes) {
            return unsafe try OpenStepPlistReader.document(bytes, parse: parse)
        }
        switch (format, options.reader) {
        case (.binary, .native): return unsafe try BinaryPlistReader.document(bytes, options: options, parse: parse)
        case (.xml, .native): return unsafe try XMLPlistReader.document(bytes, options: options, parse: parse, converted: converted)
        default: return unsafe try LibplistReader.document(bytes, format: format, options: options, parse: parse, converted: converted)
        }
    }
}
