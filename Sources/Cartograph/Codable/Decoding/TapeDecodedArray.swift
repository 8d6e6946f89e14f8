/// Arrays of any `Decodable` element, read by ``DocumentDecoder`` one
/// element at a time straight off the tape.
///
/// The standard library's `Array.init(from:)` is not specialised for the
/// element: per array it asked the decoder for an unkeyed container (boxed
/// in an existential: six words do not fit inline), looked `Array<Element>`'s
/// metadata up and grew the array through the unspecialised `append`, a
/// cost paid even by the many empty arrays API payloads hold.
/// Reading the elements here is what `Array.init(from:)` does (each element
/// decoded as `Element` under its index, in order, the first failure thrown),
/// so values and errors are the same; the array is sized once from the
/// tape's element count.
protocol TapeDecodedArray {
    /// Decodes the array at `index` (an array on the tape) as `R`, which is
    /// `Self`, under `key` in `parent` (no key: the array's path is `parent`).
    static func decode<R>(_ decoder: DocumentDecoder, at index: Int, key: (any CodingKey)?, parent: PathTrail?, as: R.Type) throws -> R
}

extension Array: TapeDecodedArray where Element: Decodable {
    static func decode<R>(_ decoder: DocumentDecoder, at index: Int, key: (any CodingKey)?, parent: PathTrail?, as: R.Type) throws -> R {
        // R is Self (the caller's cast found Self's conformance through R).
        unsafe unsafeBitCast(try decoder.decodeElements(Element.self, at: index, key: key, parent: parent), to: R.self)
    }
}
