/// Copying a byte span out: `Span` is not a `Sequence`, so the standard
/// library's array initialisers and `append(contentsOf:)` do not take one.
extension Span where Element == UInt8 {
    /// Appends the bytes to `array`.
    func append(to array: inout [UInt8]) {
        array.reserveCapacity(array.count + count)
        for index in indices { array.append(self[index]) }
    }

    /// The bytes in a new array.
    var copiedBytes: [UInt8] {
        var bytes: [UInt8] = []
        append(to: &bytes)
        return bytes
    }
}
