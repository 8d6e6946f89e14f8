/// A keyed container over an object on the tape (see ``DocumentDecoder``);
/// its state is ``KeyedContainerState``.
final class DocumentKeyedContainer<Key: CodingKey>: KeyedContainerState, KeyedDecodingContainerProtocol {
    var codingPath: [any CodingKey] { PathTrail.codingKeys(trail) }

    var allKeys: [Key] { keyNames.compactMap { Key(stringValue: $0) } }

    func contains(_ key: Key) -> Bool { index(of: key) != nil }

    @inline(__always)
    private func required(_ key: Key) throws -> Int {
        guard let index = index(of: key) else { throw decoder.keyNotFound(key, in: object, trail: trail) }
        return index
    }

    @inline(__always)
    private func present(_ key: Key) -> Int? {
        guard let index = index(of: key), !decoder.isNil(at: index) else { return nil }
        return index
    }

    func decodeNil(forKey key: Key) throws -> Bool { decoder.isNil(at: try required(key)) }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try decoder.decodeBool(at: required(key), key: key, trail: trail) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try decoder.decodeString(at: required(key), key: key, trail: trail) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try decoder.decodeDouble(at: required(key), key: key, trail: trail) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try decoder.decodeFloat(at: required(key), key: key, trail: trail) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int {
        try decoder.decodeInteger(Int.self, at: required(key), key: key, trail: trail)
    }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 {
        try decoder.decodeInteger(Int8.self, at: required(key), key: key, trail: trail)
    }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 {
        try decoder.decodeInteger(Int16.self, at: required(key), key: key, trail: trail)
    }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 {
        try decoder.decodeInteger(Int32.self, at: required(key), key: key, trail: trail)
    }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 {
        try decoder.decodeInteger(Int64.self, at: required(key), key: key, trail: trail)
    }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt {
        try decoder.decodeInteger(UInt.self, at: required(key), key: key, trail: trail)
    }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 {
        try decoder.decodeInteger(UInt8.self, at: required(key), key: key, trail: trail)
    }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 {
        try decoder.decodeInteger(UInt16.self, at: required(key), key: key, trail: trail)
    }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 {
        try decoder.decodeInteger(UInt32.self, at: required(key), key: key, trail: trail)
    }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 {
        try decoder.decodeInteger(UInt64.self, at: required(key), key: key, trail: trail)
    }
    func decode(_ type: Int128.Type, forKey key: Key) throws -> Int128 {
        try decoder.decodeInteger(Int128.self, at: required(key), key: key, trail: trail)
    }
    func decode(_ type: UInt128.Type, forKey key: Key) throws -> UInt128 {
        try decoder.decodeInteger(UInt128.self, at: required(key), key: key, trail: trail)
    }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try decoder.decodeValue(type, at: required(key), key: key, parent: trail)
    }

    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? {
        try present(key).map { try decoder.decodeBool(at: $0, key: key, trail: trail) }
    }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
        try present(key).map { try decoder.decodeString(at: $0, key: key, trail: trail) }
    }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
        try present(key).map { try decoder.decodeDouble(at: $0, key: key, trail: trail) }
    }
    func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? {
        try present(key).map { try decoder.decodeFloat(at: $0, key: key, trail: trail) }
    }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? {
        try present(key).map { try decoder.decodeInteger(Int.self, at: $0, key: key, trail: trail) }
    }
    func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? {
        try present(key).map { try decoder.decodeInteger(Int8.self, at: $0, key: key, trail: trail) }
    }
    func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? {
        try present(key).map { try decoder.decodeInteger(Int16.self, at: $0, key: key, trail: trail) }
    }
    func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? {
        try present(key).map { try decoder.decodeInteger(Int32.self, at: $0, key: key, trail: trail) }
    }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? {
        try present(key).map { try decoder.decodeInteger(Int64.self, at: $0, key: key, trail: trail) }
    }
    func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? {
        try present(key).map { try decoder.decodeInteger(UInt.self, at: $0, key: key, trail: trail) }
    }
    func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? {
        try present(key).map { try decoder.decodeInteger(UInt8.self, at: $0, key: key, trail: trail) }
    }
    func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? {
        try present(key).map { try decoder.decodeInteger(UInt16.self, at: $0, key: key, trail: trail) }
    }
    func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? {
        try present(key).map { try decoder.decodeInteger(UInt32.self, at: $0, key: key, trail: trail) }
    }
    func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? {
        try present(key).map { try decoder.decodeInteger(UInt64.self, at: $0, key: key, trail: trail) }
    }
    func decodeIfPresent(_ type: Int128.Type, forKey key: Key) throws -> Int128? {
        try present(key).map { try decoder.decodeInteger(Int128.self, at: $0, key: key, trail: trail) }
    }
    func decodeIfPresent(_ type: UInt128.Type, forKey key: Key) throws -> UInt128? {
        try present(key).map { try decoder.decodeInteger(UInt128.self, at: $0, key: key, trail: trail) }
    }
    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard let index = present(key) else { return nil }
        return try decoder.decodeValue(type, at: index, key: key, parent: trail)
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        let index = try required(key)
        guard decoder.tape[index].kind == .object else {
            throw decoder.containerMismatch(object: true, at: index, key: key, trail: trail)
        }
        return decoder.keyedContainer(NestedKey.self, object: index, trail: PathTrail(parent: trail, key: key), depth: decoder.depth + 1)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        let index = try required(key)
        guard decoder.tape[index].kind == .array else {
            throw decoder.containerMismatch(object: false, at: index, key: key, trail: trail)
        }
        return DocumentUnkeyedContainer(decoder: decoder, array: index, trail: PathTrail(parent: trail, key: key))
    }

    /// A decoder for the value under `"super"` (Foundation's spelling; the
    /// key need not be one of `Key`'s cases).
    func superDecoder() throws -> any Decoder { superDecoder(for: StringKey("super")) }

    func superDecoder(forKey key: Key) throws -> any Decoder { superDecoder(for: key) }

    /// A decoder for the value under `key`, or for `null` when the key is
    /// absent (as Foundation's `JSONDecoder`), never for the enclosing object.
    private func superDecoder(for key: some CodingKey) -> any Decoder {
        let trail = PathTrail(parent: trail, key: key)
        if let index = index(of: key) { return decoder.superDecoder(at: index, trail: trail) }
        return decoder.superDecoder(at: 0, of: Document.null(at: decoder.tape[object].source), trail: trail)
    }
}

/// An unkeyed container over an array on the tape.
struct DocumentUnkeyedContainer: UnkeyedDecodingContainer {
    let decoder: DocumentDecoder
    let array: Int
    let trail: PathTrail?
    private var position: Int
    private let end: Int
    private(set) var currentIndex = 0

    init(decoder: DocumentDecoder, array: Int, trail: PathTrail?) {
        self.decoder = decoder
        self.array = array
        self.trail = trail
        position = array + 1
        end = decoder.tape[array].payload
    }

    var codingPath: [any CodingKey] { PathTrail.codingKeys(trail) }
    var count: Int? { Int(decoder.tape[array].length) }
    var isAtEnd: Bool { position >= end }

    /// The tape index of the next element (without moving: a failed decode
    /// leaves the element current, as Foundation's container does).
    @inline(__always)
    private func peek<T>(_ type: T.Type) throws -> (index: Int, key: IndexKey) {
        guard position < end else {
            let keys = PathTrail.codingKeys(trail) + [IndexKey(currentIndex)]
            let error = decoder.located(
                .indexOutOfRange, "the array has only \(currentIndex) elements", at: array, path: keys,
                expected: "\(T.self)", found: "end of array")
            throw DecodingError.valueNotFound(
                T.self, DecodingError.Context(codingPath: keys, debugDescription: error.description, underlyingError: error))
        }
        return (position, IndexKey(currentIndex))
    }

    @inline(__always)
    private mutating func advance() {
        let entry = decoder.tape[position]
        position = entry.kind == .array || entry.kind == .object ? entry.payload : position + 1
        currentIndex += 1
    }

    mutating func decodeNil() throws -> Bool {
        _ = try peek(Any?.self)
        guard decoder.isNil(at: position) else { return false }
        position += 1
        currentIndex += 1
        return true
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool {
        let (i, k) = try peek(type)
        let value = try decoder.decodeBool(at: i, key: k, trail: trail)
        advance()
        return value
    }
    mutating func decode(_ type: String.Type) throws -> String {
        let (i, k) = try peek(type)
        let value = try decoder.decodeString(at: i, key: k, trail: trail)
        advance()
        return value
    }
    mutating func decode(_ type: Double.Type) throws -> Double {
        let (i, k) = try peek(type)
        let value = try decoder.decodeDouble(at: i, key: k, trail: trail)
        advance()
        return value
    }
    mutating func decode(_ type: Float.Type) throws -> Float {
        let (i, k) = try peek(type)
        let value = try decoder.decodeFloat(at: i, key: k, trail: trail)
        advance()
        return value
    }
    mutating func decode(_ type: Int.Type) throws -> Int {
        let (i, k) = try peek(type)
        let value = try decoder.decodeInteger(Int.self, at: i, key: k, trail: trail)
        advance()
        return value
    }
    mutating func decode(_ type: Int8.Type) throws -> Int8 {
        let (i, k) = try peek(type)
        let value = try decoder.decodeInteger(Int8.self, at: i, key: k, trail: trail)
        advance()
        return value
    }
    mutating func decode(_ type: Int16.Type) throws -> Int16 {
        let (i, k) = try peek(type)
        let value = try decoder.decodeInteger(Int16.self, at: i, key: k, trail: trail)
        advance()
        return value
    }
    mutating func decode(_ type: Int32.Type) throws -> Int32 {
        let (i, k) = try peek(type)
        let value = try decoder.decodeInteger(Int32.self, at: i, key: k, trail: trail)
        advance()
        return value
    }
    mutating func decode(_ type: Int64.Type) throws -> Int64 {
        let (i, k) = try peek(type)
        let value = try decoder.decodeInteger(Int64.self, at: i, key: k, trail: trail)
        advance()
        return value
    }
    mutating func decode(_ type: UInt.Type) throws -> UInt {
        let (i, k) = try peek(type)
        let value = try decoder.decodeInteger(UInt.self, at: i, key: k, trail: trail)
        advance()
        return value
    }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 {
        let (i, k) = try peek(type)
        let value = try decoder.decodeInteger(UInt8.self, at: i, key: k, trail: trail)
        advance()
        return value
    }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 {
        let (i, k) = try peek(type)
        let value = try decoder.decodeInteger(UInt16.self, at: i, key: k, trail: trail)
        advance()
        return value
    }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 {
        let (i, k) = try peek(type)
        let value = try decoder.decodeInteger(UInt32.self, at: i, key: k, trail: trail)
        advance()
        return value
    }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 {
        let (i, k) = try peek(type)
        let value = try decoder.decodeInteger(UInt64.self, at: i, key: k, trail: trail)
        advance()
        return value
    }
    mutating func decode(_ type: Int128.Type) throws -> Int128 {
        let (i, k) = try peek(type)
        let value = try decoder.decodeInteger(Int128.self, at: i, key: k, trail: trail)
        advance()
        return value
    }
    mutating func decode(_ type: UInt128.Type) throws -> UInt128 {
        let (i, k) = try peek(type)
        let value = try decoder.decodeInteger(UInt128.self, at: i, key: k, trail: trail)
        advance()
        return value
    }
    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let (index, key) = try peek(type)
        let value = try decoder.decodeValue(type, at: index, key: key, parent: trail)
        advance()
        return value
    }

    /// Like Foundation's containers: past the end, `nil`, and the index
    /// moves on in JSON (`JSONDecoder`'s container advances whatever it
    /// read) but not in a property list (`PropertyListDecoder`'s advances
    /// only past a value); on nil, `nil` and the element is consumed.
    private mutating func ifPresent<T>(_ read: (inout Self) throws -> T) throws -> T? {
        guard position < end else {
            if !decoder.readsNullMarker { currentIndex += 1 }
            return nil
        }
        if decoder.isNil(at: position) {
            advance()
            return nil
        }
        return try read(&self)
    }
    mutating func decodeIfPresent(_ type: Bool.Type) throws -> Bool? { try ifPresent { try $0.decode(Bool.self) } }
    mutating func decodeIfPresent(_ type: String.Type) throws -> String? { try ifPresent { try $0.decode(String.self) } }
    mutating func decodeIfPresent(_ type: Double.Type) throws -> Double? { try ifPresent { try $0.decode(Double.self) } }
    mutating func decodeIfPresent(_ type: Float.Type) throws -> Float? { try ifPresent { try $0.decode(Float.self) } }
    mutating func decodeIfPresent(_ type: Int.Type) throws -> Int? { try ifPresent { try $0.decode(Int.self) } }
    mutating func decodeIfPresent(_ type: Int8.Type) throws -> Int8? { try ifPresent { try $0.decode(Int8.self) } }
    mutating func decodeIfPresent(_ type: Int16.Type) throws -> Int16? { try ifPresent { try $0.decode(Int16.self) } }
    mutating func decodeIfPresent(_ type: Int32.Type) throws -> Int32? { try ifPresent { try $0.decode(Int32.self) } }
    mutating func decodeIfPresent(_ type: Int64.Type) throws -> Int64? { try ifPresent { try $0.decode(Int64.self) } }
    mutating func decodeIfPresent(_ type: UInt.Type) throws -> UInt? { try ifPresent { try $0.decode(UInt.self) } }
    mutating func decodeIfPresent(_ type: UInt8.Type) throws -> UInt8? { try ifPresent { try $0.decode(UInt8.self) } }
    mutating func decodeIfPresent(_ type: UInt16.Type) throws -> UInt16? { try ifPresent { try $0.decode(UInt16.self) } }
    mutating func decodeIfPresent(_ type: UInt32.Type) throws -> UInt32? { try ifPresent { try $0.decode(UInt32.self) } }
    mutating func decodeIfPresent(_ type: UInt64.Type) throws -> UInt64? { try ifPresent { try $0.decode(UInt64.self) } }
    mutating func decodeIfPresent(_ type: Int128.Type) throws -> Int128? { try ifPresent { try $0.decode(Int128.self) } }
    mutating func decodeIfPresent(_ type: UInt128.Type) throws -> UInt128? { try ifPresent { try $0.decode(UInt128.self) } }
    mutating func decodeIfPresent<T: Decodable>(_ type: T.Type) throws -> T? { try ifPresent { try $0.decode(T.self) } }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        let (index, key) = try peek([String: Any].self)
        guard decoder.tape[index].kind == .object else {
            throw decoder.containerMismatch(object: true, at: index, key: key, trail: trail)
        }
        advance()
        return decoder.keyedContainer(NestedKey.self, object: index, trail: PathTrail(parent: trail, key: key), depth: decoder.depth + 1)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let (index, key) = try peek([Any].self)
        guard decoder.tape[index].kind == .array else {
            throw decoder.containerMismatch(object: false, at: index, key: key, trail: trail)
        }
        advance()
        return DocumentUnkeyedContainer(decoder: decoder, array: index, trail: PathTrail(parent: trail, key: key))
    }

    mutating func superDecoder() throws -> any Decoder {
        let (index, key) = try peek(Any.self)
        advance()
        return decoder.superDecoder(at: index, trail: PathTrail(parent: trail, key: key))
    }
}

/// A single-value container: the decoder's current value.
struct DocumentSingleValueContainer: SingleValueDecodingContainer {
    let decoder: DocumentDecoder
    let index: Int
    let trail: PathTrail?

    var codingPath: [any CodingKey] { PathTrail.codingKeys(trail) }

    func decodeNil() -> Bool { decoder.isNil(at: index) }
    func decode(_ type: Bool.Type) throws -> Bool { try decoder.decodeBool(at: index, key: nil, trail: trail) }
    func decode(_ type: String.Type) throws -> String { try decoder.decodeString(at: index, key: nil, trail: trail) }
    func decode(_ type: Double.Type) throws -> Double { try decoder.decodeDouble(at: index, key: nil, trail: trail) }
    func decode(_ type: Float.Type) throws -> Float { try decoder.decodeFloat(at: index, key: nil, trail: trail) }
    func decode(_ type: Int.Type) throws -> Int { try decoder.decodeInteger(Int.self, at: index, key: nil, trail: trail) }
    func decode(_ type: Int8.Type) throws -> Int8 { try decoder.decodeInteger(Int8.self, at: index, key: nil, trail: trail) }
    func decode(_ type: Int16.Type) throws -> Int16 { try decoder.decodeInteger(Int16.self, at: index, key: nil, trail: trail) }
    func decode(_ type: Int32.Type) throws -> Int32 { try decoder.decodeInteger(Int32.self, at: index, key: nil, trail: trail) }
    func decode(_ type: Int64.Type) throws -> Int64 { try decoder.decodeInteger(Int64.self, at: index, key: nil, trail: trail) }
    func decode(_ type: UInt.Type) throws -> UInt { try decoder.decodeInteger(UInt.self, at: index, key: nil, trail: trail) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try decoder.decodeInteger(UInt8.self, at: index, key: nil, trail: trail) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try decoder.decodeInteger(UInt16.self, at: index, key: nil, trail: trail) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try decoder.decodeInteger(UInt32.self, at: index, key: nil, trail: trail) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try decoder.decodeInteger(UInt64.self, at: index, key: nil, trail: trail) }
    func decode(_ type: Int128.Type) throws -> Int128 { try decoder.decodeInteger(Int128.self, at: index, key: nil, trail: trail) }
    func decode(_ type: UInt128.Type) throws -> UInt128 { try decoder.decodeInteger(UInt128.self, at: index, key: nil, trail: trail) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        // A single value's nested value shares its path: decode in place.
        if let key = trail?.codingKey {
            return try decoder.decodeValue(type, at: index, key: key, parent: trail?.parent)
        }
        return try decoder.decodeRoot(type)
    }
}
