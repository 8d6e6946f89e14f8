// Which writer writes JSON, decided here and nowhere else:
//
// - `JSONValue`s and `Document`s go through jansson (``JanssonWriter``), the
//   DOM encoder of the design, in every formatting but
//   ``WriteOptions/Formatting/prettyLikeFoundation``, whose spacing only the
//   native writer produces;
// - `Codable` and mapping encodes, NDJSON lines (`compactLine()`) and
//   `.prettyLikeFoundation` go through ``NativeJSONWriter``, which writes
//   straight from Swift values: building a jansson DOM per encode cost more
//   than Foundation's whole `JSONEncoder` (Benchmarks/HISTORY.md).
//
// Tests check that the two writers agree byte for byte where both apply.

/// Whether jansson writes with these options (otherwise the native writer does).
func janssonWrites(_ options: WriteOptions) -> Bool {
    if case .prettyLikeFoundation = options.formatting { return false }
    return true
}

extension JSONValue {
    /// The value as JSON bytes: written by jansson, or for
    /// ``WriteOptions/Formatting/prettyLikeFoundation`` by Cartograph's
    /// native writer. jansson's values are allocated in an arena of the
    /// calling thread: up to 64 MB of blocks, kept for its next write
    /// (beyond the first 4 MB, only until eight writes in a row have needed
    /// no more than that), with `malloc` past them.
    /// - Throws: ``CartographError`` for NaN or infinity (unless the options
    ///   say what to write) and for nesting beyond ``WriteOptions/maxDepth``.
    public func encoded(options: WriteOptions = WriteOptions()) throws -> [UInt8] {
        guard janssonWrites(options) else {
            var writer = NativeJSONWriter(options: options)
            try writer.write(self)
            return writer.output
        }
        return try JanssonWriter(options: options).write(self)
    }

    /// The value as JSON text.
    public func encodedString(options: WriteOptions = WriteOptions()) throws -> String {
        String(decoding: try encoded(options: options), as: UTF8.self)
    }
}

extension Node {
    /// This value as JSON bytes. Numbers are written with their exact input text.
    public func encoded(options: WriteOptions = WriteOptions()) throws -> [UInt8] {
        guard janssonWrites(options) else { return try jsonValue().encoded(options: options) }
        return try JanssonWriter(options: options).write(document, at: index)
    }
}

extension Document {
    /// The root value as JSON bytes. Numbers are written with their exact input text.
    public func encoded(options: WriteOptions = WriteOptions()) throws -> [UInt8] {
        try root.encoded(options: options)
    }
}

extension Document {
    /// The root value as one compact line of JSON, written straight from the
    /// tape in Swift (numbers keep their text): the fast path for NDJSON
    /// output. NaN and infinities (from JSON5 or a plist) are written as
    /// `null`. ``encoded(options:)`` writes with every option.
    public func compactLine() -> [UInt8] {
        var writer = NativeJSONWriter(options: WriteOptions(), capacity: max(64, tape.byteCount + tape.count * 4))
        writer.writeCompact(self, at: root.index)
        return writer.output
    }
}
