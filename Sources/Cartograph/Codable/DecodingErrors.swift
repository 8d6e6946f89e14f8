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
}
