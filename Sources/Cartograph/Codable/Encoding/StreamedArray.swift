/// An `Array` of `Encodable` elements, whose elements the streaming
/// encoder encodes itself: the calls `Array.encode(to:)` makes (one
/// unkeyed container, then `encode(_:)` for each element in order), with
/// each element lent from the array's buffer (``LentValue``).
///
/// `Array.encode(to:)` is not specialised for the element type, and its
/// `for element in self` copies each element out of the buffer before
/// encoding it: a struct's copy retains every reference in it, and the
/// copy is destroyed after. A tweet (about fifty strings) cost some 3,000
/// instructions of copying and destroying that way, about 2% of a
/// twitter.json encode, and every element went through the unkeyed
/// container as an existential as well.
protocol StreamedArray {
    /// Encodes the elements into `encoder`'s place, as
    /// `encode(to: encoder)` would.
    func encodeElements(to encoder: StreamEncoder) throws
}

extension Array: StreamedArray where Element: Encodable {
    func encodeElements(to encoder: StreamEncoder) throws {
        var container = encoder.streamingUnkeyedContainer()
        try LentValue.forEach(in: self) { _, element in try container.encode(element) }
    }
}

extension TypeAnswers where Answer == (any StreamedArray.Type)? {
    /// `type` as a ``StreamedArray`` type, or nil for any other type.
    /// Only arrays are asked about (``MetadataKind/isArray(_:)``): a value
    /// meets more than the eight types kept, and a conformance lookup for
    /// each nested model cost more than the copies saved.
    @inline(__always)
    mutating func streamedArray<T>(_ type: T.Type) -> (any StreamedArray.Type)? {
        guard MetadataKind.isArray(type) else { return nil }
        return answer(for: ObjectIdentifier(type)) { type as? any StreamedArray.Type }
    }
}
