import Foundation

extension ObjectView {
    /// Looks keys up in an object expecting them in document order.
    ///
    /// Each lookup first tries the member after the last one found, so
    /// reading the keys of an object in the order they appear costs one
    /// byte comparison per key; a key out of order falls back to a scan
    /// (which wraps around), so any order still works. An object of twelve
    /// keys or more that misses twice has its keys listed once, and its
    /// later misses look in the list instead of scanning.
    ///
    /// ```swift
    /// var cursor = object.cursor()
    /// let id = try cursor[idKey]?.int64()
    /// let name = try cursor[nameKey]?.string()
    /// ```
    public struct Cursor {
        /// The tape, read through its checked reader (which holds the document).
        let tape: TapeReader
        let start: Int
        let end: Int
        var position: Int
        /// Lookups that missed the member after the last one found, and the
        /// object's keys once listed (an object of many keys read out of
        /// order: ``ObjectKeyList``).
        var misses = 0
        var list: ObjectKeyList?

        init(_ object: ObjectView) {
            tape = object.document.reader
            start = object.index + 1
            end = tape[object.index].payload
            position = start
        }

        var document: Document { tape.document }

        /// The value for a prepared key, or nil when absent.
        public mutating func callAsFunction(_ key: Key) -> Node? {
            valueIndex(forKey: key.bytes.span).map { Node(document: document, index: $0) }
        }

        /// The value for a prepared key, or nil when absent.
        public subscript(key: Key) -> Node? {
            mutating get { self(key) }
        }

        /// The value for a key given as UTF-8 bytes, or nil.
        public mutating func value(forKeyBytes key: UnsafeRawBufferPointer) -> Node? {
            unsafe valueIndex(forKeyBytes: key).map { Node(document: document, index: $0) }
        }

        /// The tape index of the value for a key given as UTF-8 bytes, or nil.
        mutating func valueIndex(forKeyBytes key: UnsafeRawBufferPointer) -> Int? {
            unsafe valueIndex(forKey: key.assumingMemoryBound(to: UInt8.self).span)
        }

        /// The tape index of the value for the key whose UTF-8 bytes are
        /// `range` of `bytes`, or nil.
        @inline(__always)
        mutating func valueIndex(forKey bytes: borrowing [UInt8], in range: Range<Int>) -> Int? {
            valueIndex(forKey: bytes.span.extracting(range))
        }

        /// The value for a key given as UTF-8 bytes, or nil.
        public mutating func value(forKey key: Span<UInt8>) -> Node? {
            valueIndex(forKey: key).map { Node(document: document, index: $0) }
        }

        /// The tape index of the value for a key given as UTF-8 bytes, or
        /// nil: the mapping layer's scalar reads take the index, so that no
        /// node (and no reference count on the document) is made per property.
        mutating func valueIndex(forKey key: Span<UInt8>) -> Int? {
            guard start < end else { return nil }
            let first = position < end ? position : start
            // In document order: the member after the last one found.
            let expected = tape[first]
            let afterFirst = tape.next(after: first + 1)
            if expected.flags & TapeFlags.shadowed == 0, tape.textEquals(expected, key) {
                position = afterFirst
                return first + 1
            }
            if let list { return listed(key, in: list) }
            misses += 1
            if ObjectKeyList.lists(after: misses, in: start - 1, tape: tape) {
                let list = ObjectKeyList()
                list.list(start - 1, tape: tape)
                self.list = list
                return listed(key, in: list)
            }
            // The rest of the object, wrapping around to the member before `first`.
            var probe = afterFirst < end ? afterFirst : start
            while probe != first {
                let entry = tape[probe]
                let next = tape.next(after: probe + 1)
                if entry.flags & TapeFlags.shadowed == 0, tape.textEquals(entry, key) {
                    position = next
                    return probe + 1
                }
                probe = next < end ? next : start
            }
            return tape.canonicalValue(forKey: ObjectView.string(key), inObject: start - 1)
        }

        /// ``valueIndex(forKey:)`` once the object's keys are listed.
        private mutating func listed(_ key: Span<UInt8>, in list: ObjectKeyList) -> Int? {
            guard let found = list.position(of: key, tape: tape) else {
                return tape.canonicalValue(forKey: ObjectView.string(key), inObject: start - 1)
            }
            position = tape.next(after: found + 1)
            return found + 1
        }
    }
}

extension ObjectView {
    /// A cursor for looking keys up in document order.
    public func cursor() -> Cursor { Cursor(self) }
}
