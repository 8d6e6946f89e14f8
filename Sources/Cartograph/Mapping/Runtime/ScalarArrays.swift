/// Arrays of scalars, and arrays of such arrays, read straight from the
/// tape: one loop per level, compiled for each scalar type (the
/// ``ScalarValue`` requirements' witnesses), no ``Node`` per element and no
/// codec closure or generic container code between the levels.
///
/// For GeoJSON's `[[[Double]]]` the generic path paid one codec call, one
/// generic array build and a node per element for each 2-element point,
/// which left a mapping behind a hand-written factory.

/// A failure while reading an element of a scalar array: the element's
/// position, outermost array first (the caller adds the array's own path).
struct ScalarElementFailure: Error {
    let indexes: [Int]
    let error: CartographError

    /// The error, named by the failing element's path under the array's `context`.
    func error(in context: MappingContext) -> CartographError {
        error.replacingPath(indexes.reduce(context) { $0.element($1) }.path)
    }
}

extension ScalarValue {
    static func scalarArray(in document: Document, at index: Int, lenient: Bool, skippingNulls: Bool) throws -> [Self] {
        try elements(in: document, at: index) { entry, position in
            // A container is a mismatch (thrown by scalar(in:)) for every scalar but `JSONValue`, which holds it.
            if skippingNulls, !holdsNull, entry.kind == .null { return nil }
            return try scalar(in: document, at: position, lenient: lenient)
        }
    }

    static func scalarMatrix(in document: Document, at index: Int, lenient: Bool, skippingNulls: Bool) throws -> [[Self]] {
        try elements(in: document, at: index) { entry, position in
            guard try isArray(entry, in: document, at: position, skippingNulls: skippingNulls) else { return nil }
            return try scalarArray(in: document, at: position, lenient: lenient, skippingNulls: skippingNulls)
        }
    }

    static func scalarMatrices(in document: Document, at index: Int, lenient: Bool, skippingNulls: Bool) throws -> [[[Self]]] {
        try elements(in: document, at: index) { entry, position in
            guard try isArray(entry, in: document, at: position, skippingNulls: skippingNulls) else { return nil }
            return try scalarMatrix(in: document, at: position, lenient: lenient, skippingNulls: skippingNulls)
        }
    }
}

/// Whether an element of an array of arrays is one: false for a `null` to
/// leave out (`skippingNulls`: the element type is a non-optional array, as
/// on the element-by-element path); anything else that is not an array throws.
@inline(__always)
private func isArray(_ entry: TapeEntry, in document: Document, at position: Int, skippingNulls: Bool) throws -> Bool {
    if entry.kind == .array { return true }
    if skippingNulls, entry.kind == .null { return false }
    throw Node(document: document, index: position).mismatch(expected: "array")
}

/// The elements of the array at tape `index`, each made by `read` from its
/// entry and tape position (nil: left out). A failure is rethrown as a
/// ``ScalarElementFailure`` that starts with the element's own index.
@inline(__always)
private func elements<Element>(
    in document: Document, at index: Int, _ read: (TapeEntry, Int) throws -> Element?
) throws -> [Element] {
    let array = document.entry(index)
    var position = index + 1
    if let short = try ShortArray.make(
        count: Int(array.length),
        { ordinal in
            try element(in: document, at: &position, ordinal: ordinal, read)
        })
    {
        return short
    }
    // Reserved and appended rather than `Array(unsafeUninitializedCapacity:)`:
    // that initialiser was not specialised here (typed throws) and looked
    // the array's and its storage class's metadata up per array, ~330
    // arrays a twitter.json decode. Appending also never writes past the
    // room made, whatever count the tape gives.
    var result: [Element] = []
    result.reserveCapacity(Int(array.length))
    position = index + 1
    var ordinal = 0
    while position < array.payload {
        // Consumed into the array: a copy here cost a retain and a
        // release per inner array (canada.json's 111,000 points).
        if let value = try element(in: document, at: &position, ordinal: ordinal, read) { result.append(consume value) }
        ordinal += 1
    }
    return result
}

/// The element at `position` (the `ordinal`th) read by `read`, `position`
/// moved past it; a failure is rethrown as a ``ScalarElementFailure`` that
/// starts with the element's ordinal.
@inline(__always)
private func element<Element>(
    in document: Document, at position: inout Int, ordinal: Int, _ read: (TapeEntry, Int) throws -> Element?
) throws -> Element? {
    let entry = document.entry(position)
    let here = position
    position = entry.kind == .array || entry.kind == .object ? entry.payload : position + 1
    do {
        return try read(entry, here)
    } catch let error as CartographError {
        throw ScalarElementFailure(indexes: [ordinal], error: error)
    } catch let failure as ScalarElementFailure {
        throw ScalarElementFailure(indexes: [ordinal] + failure.indexes, error: failure.error)
    }
}

/// A scalar type and the number of array levels around it (0: the scalar
/// itself), kept by a codec so that an array of its values can read itself
/// through the scalar's specialised readers.
struct ScalarNesting {
    let scalar: any ScalarValue.Type
    let depth: Int

    /// The reader of an array of `Value`, where `Value` is this nesting's
    /// type (`depth` array levels around the scalar); nil beyond the levels
    /// the readers cover.
    func arrayReader<Value>(of _: Value.Type) -> ((Document, Int, Bool, Bool) throws -> [Value])? {
        nestedReader(scalar, depth: depth) as? (Document, Int, Bool, Bool) throws -> [Value]
    }

    /// The JSON writer of a `Value` itself, where `Value` is this nesting's
    /// type and an array (`depth` 1 or 2): the scalar's own loops
    /// (``ScalarValue/writeJSONArray(_:into:depth:)``); nil otherwise.
    func valueWriter<Value>(of _: Value.Type) -> ((Value, inout NativeJSONWriter, Int) throws -> Void)? {
        nestedWriter(scalar, depth: depth) as? (Value, inout NativeJSONWriter, Int) throws -> Void
    }
}

private func nestedWriter<S: ScalarValue>(_: S.Type, depth: Int) -> Any? {
    switch depth {
    case 1:
        let write: ([S], inout NativeJSONWriter, Int) throws -> Void = { values, writer, depth in
            try S.writeJSONArray(values, into: &writer, depth: depth)
        }
        return write
    case 2:
        let write: ([[S]], inout NativeJSONWriter, Int) throws -> Void = { values, writer, depth in
            try S.writeJSONMatrix(values, into: &writer, depth: depth)
        }
        return write
    default:
        return nil
    }
}

private func nestedReader<S: ScalarValue>(_: S.Type, depth: Int) -> Any? {
    switch depth {
    case 1:
        let read: (Document, Int, Bool, Bool) throws -> [[S]] = { document, index, lenient, skippingNulls in
            try S.scalarMatrix(in: document, at: index, lenient: lenient, skippingNulls: skippingNulls)
        }
        return read
    case 2:
        let read: (Document, Int, Bool, Bool) throws -> [[[S]]] = { document, index, lenient, skippingNulls in
            try S.scalarMatrices(in: document, at: index, lenient: lenient, skippingNulls: skippingNulls)
        }
        return read
    default:
        return nil
    }
}
