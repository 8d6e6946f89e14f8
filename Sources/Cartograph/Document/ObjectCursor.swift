import Foundation

extension ObjectView {
    /// Looks keys up in an object expecting them in document order.
    ///
    /// Each lookup first tries the member after the last one found, so
    /// reading the keys of an object in the order they appear costs one
    /// byte comparison per key; a key out of order falls back to a scan
    /// (which wraps around), so any order still works.
    ///
    /// ```swift
    /// var cursor = object.cursor()
    /// let id = try cursor[idKey]?.int64()
    /// let name = try cursor[nameKey]?.string()
    /// ```
    @safe public struct Cursor {
        let document: Document
        /// The tape's buffers, read directly (the cursor keeps the document
        /// alive), so a lookup touches no reference counts until it returns.
        private let entries: UnsafeMutablePointer<TapeEntry>
        private let bytes: UnsafeMutablePointer<UInt8>
        let start: Int
        let end: Int
        var position: Int

        init(_ object: ObjectView) {
            document = object.document
            unsafe entries = unsafe document.tape.entries
            unsafe bytes = unsafe document.tape.bytes
            start = object.index + 1
            end = unsafe entries[object.index].payload
            position = start
        }

        @inline(__always)
        private func next(after index: Int) -> Int {
            let entry = unsafe entries[index]
            return entry.kind == .array || entry.kind == .object ? entry.payload : index + 1
        }

        /// The value for a prepared key, or nil when absent.
        public mutating func callAsFunction(_ key: Key) -> Node? {
            unsafe key.bytes.withUnsafeBytes { unsafe value(forKeyBytes: $0) }
        }

        /// The value for a prepared key, or nil when absent.
        public subscript(key: Key) -> Node? {
            mutating get { self(key) }
        }

        /// The value for a key given as UTF-8 bytes, or nil.
        public mutating func value(forKeyBytes key: UnsafeRawBufferPointer) -> Node? {
            unsafe valueIndex(forKeyBytes: key).map { Node(document: document, index: $0) }
        }

        /// The tape index of the value for a key given as UTF-8 bytes, or
        /// nil: the mapping layer's scalar reads take the index, so that no
        /// node (and no reference count on the document) is made per property.
        mutating func valueIndex(forKeyBytes key: UnsafeRawBufferPointer) -> Int? {
            guard start < end else { return nil }
            let length = UInt32(key.count)
            var probe = position < end ? position : start
            let first = probe
            repeat {
                let entry = unsafe entries[probe]
                let next = self.next(after: probe + 1)
                if entry.length == length, entry.flags & TapeFlags.shadowed == 0,
                    unsafe key.count == 0 || KeyBytes.equal(bytes + entry.payload, key.baseAddress!, count: key.count)
                {
                    position = next
                    return probe + 1
                }
                probe = next < end ? next : start
            } while probe != first
            return unsafe document.canonicalValue(forKey: key, inObject: start - 1)
        }
    }
}

extension ObjectView {
    /// A cursor for looking keys up in document order.
    public func cursor() -> Cursor { Cursor(self) }
}
