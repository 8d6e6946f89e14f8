/// A read-only view of an array in a ``Document``.
///
/// Iterating is O(1) per element (each element's subtree is skipped by its
/// recorded end); positional access `array[i]` walks from the start, so
/// prefer iteration.
///
/// Iteration, ``count``, ``Node/array()`` and ``Node/double()`` are
/// inlinable: a factory in another module that loops over views inlines
/// them instead of calling across the module per element. The tape's layout
/// they read is therefore visible to clients compiled against this version.
public struct ArrayView: Sendable, Sequence {
    /// The document this view reads.
    public let document: Document
    @usableFromInline let index: Int

    @usableFromInline
    init(document: Document, index: Int) {
        self.document = document
        self.index = index
    }

    /// The array as a node.
    public var node: Node { Node(document: document, index: index) }

    /// Number of elements.
    @inlinable
    public var count: Int { Int(document.entry(index).length) }

    /// Whether the array has no elements.
    public var isEmpty: Bool { count == 0 }

    /// The element at a position, or nil when past the end. O(position).
    public subscript(position: Int) -> Node? {
        guard position >= 0, position < count else { return nil }
        var iterator = makeIterator()
        for _ in 0..<position { _ = iterator.next() }
        return iterator.next()
    }

    /// Iterates the elements in order.
    @inlinable
    public func makeIterator() -> Iterator {
        Iterator(document: document, position: index + 1, end: document.entry(index).payload)
    }

    /// Iterates the elements of an ``ArrayView``.
    public struct Iterator: IteratorProtocol {
        @usableFromInline let document: Document
        @usableFromInline var position: Int
        @usableFromInline let end: Int

        @usableFromInline
        init(document: Document, position: Int, end: Int) {
            self.document = document
            self.position = position
            self.end = end
        }

        /// The next element.
        @inlinable
        public mutating func next() -> Node? {
            guard position < end else { return nil }
            let node = Node(document: document, index: position)
            position = document.next(after: position)
            return node
        }
    }
}
