import Cartograph

/// The one-line message a server sends back for a body Cartograph could not
/// decode: the position, what went wrong and the path.
public enum ErrorMessage {
    /// For a Cartograph error: its first line, with the path when the line lacks it.
    public static func text(_ error: CartographError) -> String {
        var text = error.description.split(separator: "\n", maxSplits: 1).first.map(String.init) ?? error.message
        if let path = error.path, !text.contains(path) { text += " at \(path)" }
        return text
    }

    /// For a decoding error: the Cartograph error inside it when there is
    /// one (it has the position), else its description.
    public static func text(_ error: DecodingError) -> String {
        switch error {
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .keyNotFound(_, let context), .dataCorrupted(let context):
            if let located = context.underlyingError as? CartographError { return text(located) }
            // Built elsewhere (a model's own init(from:)): may quote the input.
            return CartographError.printable(context.debugDescription)
        @unknown default:
            return CartographError.printable("\(error)")
        }
    }

    /// The message for an error Cartograph raised while decoding a body, or
    /// nil for any other error (which the server should pass on unchanged).
    public static func text(decoding error: any Error) -> String? {
        if let error = error as? CartographError { return text(error) }
        if let error = error as? DecodingError { return text(error) }
        return nil
    }
}
