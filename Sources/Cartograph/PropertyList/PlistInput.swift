/// Where reading a property list starts: the limits every reader shares,
/// the format from the first bytes, and the reader the options choose.
enum PlistInput {
    static func document(_ bytes: UnsafeRawBufferPointer, options: PropertyListOptions) throws -> Document {
        guard bytes.count <= options.maxInputBytes else {
            throw CartographError(.inputTooLarge, "the plist is larger than maxInputBytes (\(options.maxInputBytes))", offset: options.maxInputBytes)
        }
        guard bytes.count <= Int(UInt32.max), bytes.baseAddress != nil, !bytes.isEmpty else {
            throw CartographError(.unexpectedEnd, "the plist is empty", offset: 0)
        }
        var parse = ParseOptions()
        parse.maxDepth = options.maxDepth
        parse.maxInputBytes = options.maxInputBytes
        parse.maxStringBytes = options.maxInputBytes
        let format = PropertyListFormat.detect(bytes)
        switch (format, options.reader) {
        case (.binary, .native): return try BinaryPlistReader.document(bytes, options: options, parse: parse)
        case (.xml, .native): return try XMLPlistReader.document(bytes, options: options, parse: parse)
        default: return try LibplistReader.document(bytes, format: format, options: options, parse: parse)
        }
    }
}
