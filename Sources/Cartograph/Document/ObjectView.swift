/// A read-only view of an object in a ``Document``: ordered keys, lookup by
/// key bytes, iteration, and skipping of values that are never read.
///
/// Keys are compared as bytes against the stored UTF-8; no `String` or
/// `Dictionary` is built. Lookup is a linear scan that skips whole values in
/// O(1) each, which beats hashing for the object sizes JSON usually has. For
/// repeated lookups in one large object, build a ``JSONValue`` or index once.
public struct ObjectView: Sendable, Sequence {
    /// The document this view reads.
    public let document: Document
    let index: Int

    init(document: Document, index: Int) {
        self.document = document
        self.index = index
    }

    /// The object as a node.
    public var node: Node { Node(document: document, index: index) }

    /// Number of keys (after the duplicate-key policy).
    public var count: Int { Int(document.entry(index).length) }

    /// Whether the object has no keys.
    public var isEmpty: Bool { count == 0 }

    /// The keys, in document order.
    public var keys: [String] { map(\.key) }

    /// The value for a key, or nil when the key is absent.
    public subscript(key: String) -> Node? {
        value(forKey: key.utf8.span)
    }

    /// The value for a precomputed key, or nil when the key is absent.
    public subscript(key: Key) -> Node? {
        value(forKey: key.bytes.span)
    }

    /// Whether the object has the key.
    public func contains(_ key: String) -> Bool { self[key] != nil }

    /// The value for a key given as UTF-8 bytes, or nil.
    public func value(forKeyBytes key: UnsafeRawBufferPointer) -> Node? {
        // A public signature older than `Span`.
        unsafe value(forKey: key.assumingMemoryBound(to: UInt8.self).span)
    }

    /// The value for a key given as UTF-8 bytes, or nil.
    public func value(forKey key: Span<UInt8>) -> Node? {
        let tape = document.reader
        let end = tape[index].payload
        var position = index + 1
        while position < end {
            let entry = tape[position]
            if entry.flags & TapeFlags.shadowed == 0, tape.textEquals(entry, key) {
                return Node(document: document, index: position + 1)
            }
            position = tape.next(after: position + 1)
        }
        return tape.canonicalValue(forKey: Self.string(key), inObject: index).map { Node(document: document, index: $0) }
    }

    /// A key's bytes as a `String` (invalid UTF-8 repaired), for the
    /// canonical-equivalence fallback.
    static func string(_ key: Span<UInt8>) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(key.count)
        for index in key.indices { bytes.append(key[index]) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Iterates `(key, value)` pairs in document order.
    public func makeIterator() -> Iterator {
        Iterator(document: document, position: index + 1, end: document.entry(index).payload)
    }

    /// Iterates the pairs of an ``ObjectView``.
    public struct Iterator: IteratorProtocol {
        let document: Document
        var position: Int
        let end: Int

        /// The next pair: the key (a string node) and its value.
        public mutating func next() -> (key: String, value: Node)? {
            guard let (keyNode, value) = nextNodes() else { return nil }
            return ((try? keyNode.string()) ?? "", value)
        }

        /// The next pair without building a `String` for the key.
        public mutating func nextNodes() -> (key: Node, value: Node)? {
            while position < end {
                let keyIndex = position
                position = document.next(after: keyIndex + 1)
                if document.entry(keyIndex).flags & TapeFlags.shadowed == 0 {
                    return (Node(document: document, index: keyIndex), Node(document: document, index: keyIndex + 1))
                }
            }
            return nil
        }
    }

    /// A key prepared once for fast repeated lookups.
    public struct Key: Sendable, Hashable, ExpressibleByStringLiteral {
        /// The key's UTF-8 bytes.
        public let bytes: [UInt8]
        /// The key as text.
        public var string: String { String(decoding: bytes, as: UTF8.self) }
        /// Prepares a key.
        public init(_ string: String) { bytes = Array(string.utf8) }
        /// Prepares a key from a literal.
        public init(stringLiteral value: String) { self.init(value) }
    }
}
