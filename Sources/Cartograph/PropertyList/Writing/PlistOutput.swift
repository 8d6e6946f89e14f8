/// Writing a plist: ``PlistTreeWalker`` over the value, into the sink the
/// format and ``PropertyListOptions/writer`` choose.
///
/// Cartograph writes both formats itself by default. libplist 2.2's writers
/// are slower than Foundation's (its object-deduplication table degrades on
/// many reals), and building its tree costs an allocation per value; they remain available
/// (``PropertyListOptions/Writer/libplist``). Tests check that libplist and
/// Foundation read Cartograph's output back to equal values.
enum PlistOutput {
    /// What to write: an encoder's tree (``EncodingNode/native(_:)`` wraps an
    /// ``EncodedValue``, ``EncodingNode/value(_:)`` a ``JSONValue``), or a
    /// Document's value, read from its tape.
    enum Root {
        case node(EncodingNode)
        case document(Document, index: Int)
    }

    /// The plist bytes of a value; `writeAhead` holds the binary sink a
    /// `Codable` encode has written the value's scalars into.
    static func bytes(_ root: Root, format: PropertyListFormat, options: PropertyListOptions, writeAhead: BinaryWriteAhead? = nil) throws -> [UInt8] {
        switch (options.writer, format) {
        case (.native, .binary):
            var sink = try walked(writeAhead?.take() ?? BinaryPlistSink(), root, options)
            return sink.finish()
        case (.native, .xml):
            var sink = try walked(XMLPlistSink(), root, options)
            return sink.finish()
        case (.libplist, _):
            // Not through walked(_:_:_:): the tree built so far is freed on every path.
            var walker = PlistTreeWalker(sink: LibplistSink(), options: options)
            defer { walker.sink.release() }
            try walker.write(root)
            return try walker.sink.finish(format)
        }
    }
}

extension PlistOutput {
    /// The sink is consumed: held twice, its buffers would be copied at the
    /// walk's first write (a sink the encoder wrote ahead into holds megabytes).
    private static func walked<Sink: PlistSink>(_ sink: consuming Sink, _ root: Root, _ options: PropertyListOptions) throws -> Sink {
        var walker = PlistTreeWalker(sink: sink, options: options)
        try walker.write(root)
        return walker.sink
    }
}

extension PlistTreeWalker {
    fileprivate mutating func write(_ root: PlistOutput.Root) throws {
        switch root {
        case .node(let node): try write(root: node)
        case .document(let document, let index): try write(root: document, at: index)
        }
    }
}
