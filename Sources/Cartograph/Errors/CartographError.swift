/// The error every Cartograph operation throws.
///
/// It says *what* went wrong (``kind`` and ``message``, with the ``expected``
/// and ``found`` kinds where a value had the wrong type) and *where*
/// (``offset`` in bytes, ``line`` and ``column`` for text input, ``path`` such
/// as `$.statuses[3].user.id`, and an ``excerpt`` of the input with a caret).
///
/// The type is a struct over a private representation so that kinds can be
/// added without breaking callers: switch over ``kind`` with a `default`.
public struct CartographError: Error, Sendable, Hashable {
    /// What went wrong, as a stable, comparable code.
    public let kind: Kind
    /// A sentence a person can act on, without the location.
    public let message: String
    /// Byte offset in the input where the problem was found, when known.
    public let offset: Int?
    /// 1-based line of ``offset`` in text input, when known.
    public let line: Int?
    /// 1-based column of ``offset`` in text input, counted in Unicode scalars, when known.
    public let column: Int?
    /// Where in the value tree the problem is, as `$.a[3].b`, when known.
    public let path: String?
    /// The kind of value that was expected, when a value had the wrong type.
    public let expected: String?
    /// The kind of value that was found, when a value had the wrong type.
    public let found: String?
    /// Up to one line of the input around ``offset``, with a caret line under it.
    public let excerpt: String?
    /// In a stream, the position of the element the error is in (0-based).
    public var elementIndex: Int?

    /// Creates an error; Cartograph fills in the location as the error travels up.
    public init(
        _ kind: Kind, _ message: String, offset: Int? = nil, line: Int? = nil, column: Int? = nil,
        path: String? = nil, expected: String? = nil, found: String? = nil, excerpt: String? = nil
    ) {
        // Text from the input (keys, strings, the excerpt's line) reaches
        // logs and HTTP bodies through these: control characters and
        // bidirectional overrides are escaped here, once for every message.
        self.kind = kind
        self.message = ErrorText.escaped(message)
        self.offset = offset
        self.line = line
        self.column = column
        self.path = path.map(ErrorText.escaped)
        self.expected = expected.map(ErrorText.escaped)
        self.found = found.map(ErrorText.escaped)
        // The excerpt's one line break (between the line and its caret) is its own.
        self.excerpt = excerpt.map {
            $0.split(separator: "\n", omittingEmptySubsequences: false).map { ErrorText.escaped(String($0)) }.joined(separator: "\n")
        }
    }

    /// A copy with the line, column and excerpt computed from the input text.
    func locating(in input: Span<UInt8>, base: Int = 0) -> CartographError {
        guard let offset, line == nil, kind.isLocatedInText else { return self }
        return located(at: SourceLocation(offset: offset - base, in: input))
    }

    /// A copy with this line, column and excerpt.
    func located(at location: SourceLocation) -> CartographError {
        var copy = CartographError(
            kind, message, offset: offset, line: location.line, column: location.column,
            path: path, expected: expected, found: found, excerpt: location.excerpt)
        copy.elementIndex = elementIndex
        return copy
    }

    /// A copy with the given path, unless one is already set.
    func at(path newPath: String) -> CartographError {
        guard path == nil else { return self }
        return CartographError(
            kind, message, offset: offset, line: line, column: column,
            path: newPath, expected: expected, found: found, excerpt: excerpt)
    }

    /// A copy with the given path, replacing any.
    func replacingPath(_ newPath: String) -> CartographError {
        CartographError(
            kind, message, offset: offset, line: line, column: column,
            path: newPath, expected: expected, found: found, excerpt: excerpt)
    }

    /// A copy whose path, relative to a value, is put under `place`, that
    /// value's path from the document's root (`$.tags[1]` under `$[4]` is
    /// `$[4].tags[1]`); with no path of its own, the place is its path.
    func placed(under place: String) -> CartographError {
        let relative = path.map { $0.hasPrefix("$") ? String($0.dropFirst()) : $0 } ?? ""
        var copy = CartographError(
            kind, message, offset: offset, line: line, column: column,
            path: place + relative, expected: expected, found: found, excerpt: excerpt)
        copy.elementIndex = elementIndex
        return copy
    }

    /// A copy whose offset, line and column are moved by a known amount.
    func shifted(by delta: Int, lines: Int) -> CartographError {
        CartographError(
            kind, message, offset: offset.map { $0 + delta }, line: line.map { $0 + lines },
            column: column, path: path, expected: expected, found: found, excerpt: excerpt)
    }
}

extension CartographError: CustomStringConvertible {
    /// `line:column: message (path)` followed by the excerpt, when known.
    public var description: String {
        var text = ""
        if let line, let column {
            text += "\(line):\(column): "
        } else if let offset {
            text += "offset \(offset): "
        }
        text += message
        if let path { text += " at \(path)" }
        if let elementIndex { text += " (element \(elementIndex))" }
        if let excerpt { text += "\n" + excerpt }
        return text
    }
}

extension CartographError {
    /// The stable code of a ``CartographError``.
    ///
    /// New kinds may be added in minor releases.
    public struct Kind: Hashable, Sendable, CustomStringConvertible {
        private enum Code: String, Sendable {
            case syntax, unexpectedEnd, invalidUTF8, invalidEscape, invalidWhitespace
            case depthLimitExceeded, inputTooLarge, stringTooLong, numberTooLong, tooManyKeys
            case duplicateKey, typeMismatch, keyNotFound, indexOutOfRange, numberOutOfRange
            case nonFiniteNumber, encodingFailed, outOfMemory, ambiguousKey, cycle, pathNotFound, tooManyIssues
        }
        private let code: Code

        /// The input is not JSON: a token or structure is wrong.
        public static let syntax = Kind(code: .syntax)
        /// The input ended before the value was complete.
        public static let unexpectedEnd = Kind(code: .unexpectedEnd)
        /// A string is not valid UTF-8 (overlong form, surrogate, beyond U+10FFFF, truncated).
        public static let invalidUTF8 = Kind(code: .invalidUTF8)
        /// A `\u` escape is a lone, reversed or mismatched UTF-16 surrogate.
        public static let invalidEscape = Kind(code: .invalidEscape)
        /// A byte that JSON does not allow as whitespace (vertical tab, form feed).
        public static let invalidWhitespace = Kind(code: .invalidWhitespace)
        /// Containers are nested deeper than ``ParseOptions/maxDepth`` or the writer's limit.
        public static let depthLimitExceeded = Kind(code: .depthLimitExceeded)
        /// The input is larger than ``ParseOptions/maxInputBytes``.
        public static let inputTooLarge = Kind(code: .inputTooLarge)
        /// A string or key is longer than ``ParseOptions/maxStringBytes``.
        public static let stringTooLong = Kind(code: .stringTooLong)
        /// A number has more characters than ``ParseOptions/maxNumberDigits``.
        public static let numberTooLong = Kind(code: .numberTooLong)
        /// An object has more keys than ``ParseOptions/maxKeysPerObject``.
        public static let tooManyKeys = Kind(code: .tooManyKeys)
        /// An object repeats a key and ``ParseOptions/duplicateKeys`` is `.reject`.
        public static let duplicateKey = Kind(code: .duplicateKey)
        /// A value has another kind than the one asked for.
        public static let typeMismatch = Kind(code: .typeMismatch)
        /// A required key is absent.
        public static let keyNotFound = Kind(code: .keyNotFound)
        /// An array index is past the end.
        public static let indexOutOfRange = Kind(code: .indexOutOfRange)
        /// A number does not fit the type asked for without losing its value.
        public static let numberOutOfRange = Kind(code: .numberOutOfRange)
        /// NaN or an infinity met where JSON cannot represent it.
        public static let nonFiniteNumber = Kind(code: .nonFiniteNumber)
        /// The writer could not produce output (a limit, or the C encoder failed).
        public static let encodingFailed = Kind(code: .encodingFailed)
        /// A C library could not allocate memory.
        public static let outOfMemory = Kind(code: .outOfMemory)
        /// Under strict naming, two properties match one key (or one property several keys).
        public static let ambiguousKey = Kind(code: .ambiguousKey)
        /// Encoding met a class instance it is already inside.
        public static let cycle = Kind(code: .cycle)
        /// A stream's path names nothing in the input.
        public static let pathNotFound = Kind(code: .pathNotFound)
        /// A lossy stream skipped more elements than ``ParseOptions/maxStreamIssues``.
        public static let tooManyIssues = Kind(code: .tooManyIssues)

        /// The kind's name, such as `syntax` or `typeMismatch`.
        public var description: String { code.rawValue }

        /// Whether an error of this kind gets a line, column and excerpt.
        /// Not ``inputTooLarge``: its offset is where a size limit was
        /// passed, not a token, and finding its line would read (or, for a
        /// chunk, copy) up to the limit's worth of input that is being
        /// refused: a second over a 2 GiB input.
        var isLocatedInText: Bool { self != .inputTooLarge }
    }
}
