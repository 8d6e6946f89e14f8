/// Byte-span operations written in safe code: `Span` is not a `Sequence`,
/// so the standard library's searches and array initialisers do not take
/// one. (Those that need `memchr`, `memcmp` or a buffer copy are in
/// `Unsafe/Memory/SpanText.swift`.)
extension Span where Element == UInt8 {
    /// The index of the first byte at or after `start` for which `stop`
    /// holds, or `count`. Written so that the optimiser can see each index
    /// is inside the span and drop the per-byte bounds check.
    @inline(__always)
    func firstIndex(from start: Int, where stop: (UInt8) -> Bool) -> Int {
        precondition(start >= 0, "Cartograph: a span scan starts before the span")
        var index = start
        while index < count, !stop(self[index]) { index += 1 }
        return index
    }

    /// The bytes in a new array.
    var copiedBytes: [UInt8] {
        var bytes: [UInt8] = []
        append(to: &bytes)
        return bytes
    }
}
