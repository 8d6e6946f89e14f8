extension JSONValue {
    /// The value as JSON bytes, written by jansson.
    /// - Throws: ``CartographError`` for NaN or infinity (unless the options
    ///   say what to write) and for nesting beyond ``WriteOptions/maxDepth``.
    public func encoded(options: WriteOptions = WriteOptions()) throws -> [UInt8] {
        try JanssonWriter(options: options).write(self)
    }

    /// The value as JSON text.
    public func encodedString(options: WriteOptions = WriteOptions()) throws -> String {
        String(decoding: try encoded(options: options), as: UTF8.self)
    }
}

extension Node {
    /// This value as JSON bytes. Numbers are written with their exact input text.
    public func encoded(options: WriteOptions = WriteOptions()) throws -> [UInt8] {
        try JanssonWriter(options: options).write(document, at: index)
    }
}

extension Document {
    /// The root value as JSON bytes. Numbers are written with their exact input text.
    public func encoded(options: WriteOptions = WriteOptions()) throws -> [UInt8] {
        try root.encoded(options: options)
    }
}
