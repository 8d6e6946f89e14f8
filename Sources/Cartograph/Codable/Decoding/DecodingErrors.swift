/// Between Swift's coding errors and ``CartographError``.
public enum DecodingErrors {
    /// The ``CartographError`` a `DecodingError` or `EncodingError` from Cartograph carries, if any.
    public static func cartographError(_ error: any Error) -> CartographError? {
        if let error = error as? CartographError { return error }
        if let decoding = error as? DecodingError {
            switch decoding {
            case .typeMismatch(_, let context), .valueNotFound(_, let context), .keyNotFound(_, let context), .dataCorrupted(let context):
                return context.underlyingError as? CartographError
            @unknown default:
                return nil
            }
        }
        if let encoding = error as? EncodingError, case .invalidValue(_, let context) = encoding {
            return context.underlyingError as? CartographError
        }
        return nil
    }

    /// The error with its ``CartographError`` given a line, column and
    /// excerpt in `input` (and its description redone to show them); errors
    /// of other kinds, or already located, are returned as they are.
    static func locating(_ error: any Error, in input: Span<UInt8>) -> any Error {
        guard let decoding = error as? DecodingError, let inner = cartographError(decoding), inner.offset != nil, inner.line == nil else {
            if let error = error as? CartographError { return error.locating(in: input) }
            return error
        }
        let located = inner.locating(in: input)
        func redo(_ context: DecodingError.Context) -> DecodingError.Context {
            DecodingError.Context(
                codingPath: context.codingPath,
                debugDescription: context.debugDescription == inner.description ? located.description : context.debugDescription,
                underlyingError: located)
        }
        switch decoding {
        case .typeMismatch(let type, let context): return DecodingError.typeMismatch(type, redo(context))
        case .valueNotFound(let type, let context): return DecodingError.valueNotFound(type, redo(context))
        case .keyNotFound(let key, let context): return DecodingError.keyNotFound(key, redo(context))
        case .dataCorrupted(let context): return DecodingError.dataCorrupted(redo(context))
        @unknown default: return error
        }
    }
}
