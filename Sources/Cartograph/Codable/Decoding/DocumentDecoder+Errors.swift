import Foundation

// DocumentDecoder: errors.
extension DocumentDecoder {
    func kindName(_ index: Int) -> String {
        switch tape[index].kind {
        case .null: return "null"
        case .true, .false: return "bool"
        case .number: return "number"
        case .string, .key: return "string"
        case .array: return "array"
        case .object: return "object"
        }
    }

    func path(_ key: (any CodingKey)?) -> [any CodingKey] {
        var keys = codingPath(trail)
        if let key { keys.append(key) }
        return keys
    }

    func codingPath(_ trail: PathTrail?) -> [any CodingKey] { PathTrail.codingKeys(trail) }

    /// A Cartograph error for the value at `index`, with its byte offset.
    ///
    /// Its line and column are added only if the error leaves the decode
    /// (``DecodingErrors/locating(_:in:)``): many errors are caught and
    /// dropped on the way (`try?`, `decodeIfPresent` fallbacks, lossy
    /// arrays), and locating each would walk the input every time.
    func located(
        _ kind: CartographError.Kind, _ message: String, at index: Int?, path keys: [any CodingKey],
        expected: String? = nil, found: String? = nil
    ) -> CartographError {
        CartographError(
            kind, message, offset: index.map { tape[$0].source }, path: PathTrail.render(codingKeys: keys),
            expected: expected, found: found)
    }

    func mismatch(expected: String, type: Any.Type, at index: Int, key: (any CodingKey)?, trail: PathTrail? = nil) -> DecodingError {
        // In a property list nil (the `$null` marker, or a binary plist's
        // null object) read as a value or a container of any type is a
        // missing value: Foundation's PropertyListDecoder checks for it
        // before the type, `Bool` included (its JSONDecoder calls a null
        // `Bool` a type mismatch, which JSON keeps). Decided here, where
        // every reader's mismatch is made, not at each reader.
        if readsNullMarker, isNil(at: index) { return valueNotFound(type, at: index, key: key, trail: trail) }
        let keys = pathFor(trail: trail, key: key)
        let found = kindName(index)
        let error = located(.typeMismatch, "expected \(expected), found \(found)", at: index, path: keys, expected: expected, found: found)
        return .typeMismatch(type, DecodingError.Context(codingPath: keys, debugDescription: error.description, underlyingError: error))
    }

    /// The error for a container asked of a value of another kind: null is
    /// a missing value (`valueNotFound`), as Foundation reports it.
    func containerMismatch(object: Bool, at index: Int, key: (any CodingKey)?, trail: PathTrail?) -> DecodingError {
        let type: Any.Type = object ? [String: Any].self : [Any].self
        if tape[index].kind == .null { return valueNotFound(type, at: index, key: key, trail: trail) }
        return mismatch(expected: object ? "object" : "array", type: type, at: index, key: key, trail: trail)
    }

    /// The error for a value nested deeper than the thread's stack allows (``StackGuard``).
    func stackExhausted(at index: Int, key: (any CodingKey)?, trail: PathTrail?) -> DecodingError {
        let keys = pathFor(trail: trail, key: key)
        let error = StackGuard.exhausted(path: PathTrail.render(codingKeys: keys), offset: tape[index].source)
        return .dataCorrupted(DecodingError.Context(codingPath: keys, debugDescription: error.description, underlyingError: error))
    }

    func outOfRange(_ type: Any.Type, at index: Int, key: (any CodingKey)?, trail: PathTrail? = nil) -> DecodingError {
        let keys = pathFor(trail: trail, key: key)
        let text = tape.string(tape[index])
        let error = located(.numberOutOfRange, "number \(text) does not fit in \(type)", at: index, path: keys, expected: "\(type)", found: "number")
        return .dataCorrupted(DecodingError.Context(codingPath: keys, debugDescription: error.description, underlyingError: error))
    }

    func keyNotFound(_ key: any CodingKey, in object: Int, trail: PathTrail?) -> DecodingError {
        let keys = pathFor(trail: trail, key: nil)
        let error = located(
            .keyNotFound, "key \"\(key.stringValue)\" is missing", at: object, path: keys + [key],
            expected: "a value", found: "nothing")
        return .keyNotFound(key, DecodingError.Context(codingPath: keys, debugDescription: error.description, underlyingError: error))
    }

    func valueNotFound(_ type: Any.Type, at index: Int, key: (any CodingKey)?, trail: PathTrail?) -> DecodingError {
        let keys = pathFor(trail: trail, key: key)
        let error = located(.typeMismatch, "expected \(type), found null", at: index, path: keys, expected: "\(type)", found: "null")
        return .valueNotFound(type, DecodingError.Context(codingPath: keys, debugDescription: error.description, underlyingError: error))
    }

    func dataCorrupted(_ message: String, at index: Int, key: (any CodingKey)?, trail: PathTrail?) -> DecodingError {
        let keys = pathFor(trail: trail, key: key)
        let error = located(.typeMismatch, message, at: index, path: keys)
        return .dataCorrupted(DecodingError.Context(codingPath: keys, debugDescription: error.description, underlyingError: error))
    }

    /// A registered model's error (its path from the model, `$.origin.x`)
    /// as the `DecodingError` of the model's place at `keys`: its path is
    /// the model's followed by the error's own (`$[3].origin.x`) and its
    /// offset the failing value's, where it has one. Both had been replaced
    /// by the model's own, which named the model but not what in it failed.
    func registeredModelError(_ error: CartographError, at index: Int, keys: [any CodingKey]) -> DecodingError {
        var located = error
        if error.line == nil {
            let place = PathTrail.render(codingKeys: keys)
            let path = error.path.map { place + $0.dropFirst() } ?? place
            located = CartographError(
                error.kind, error.message, offset: error.offset ?? tape[index].source, path: path, expected: error.expected,
                found: error.found)
        }
        return DecodingError.dataCorrupted(DecodingError.Context(codingPath: keys, debugDescription: located.description, underlyingError: located))
    }

    func pathFor(trail: PathTrail?, key: (any CodingKey)?) -> [any CodingKey] {
        var keys = PathTrail.codingKeys(trail ?? self.trail)
        if let key { keys.append(key) }
        return keys
    }
}
