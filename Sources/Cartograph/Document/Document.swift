/// A parsed input: a compact tape of tokens plus the bytes of its strings and
/// numbers, built once per input and read through cheap views.
///
/// A `Document` never builds Swift `String`s, `Array`s or `Dictionary`s
/// unless a caller asks through a view ( ``Node/string()``,
/// ``Node/jsonValue()`` …). Numbers keep their exact text and are converted
/// on demand. Documents are immutable and safe to share across tasks.
///
/// ```swift
/// let document = try Document(parsing: Array(#"{"user": {"id": 42}}"#.utf8))
/// let id = try document.root.object()["user"]?.object()["id"]?.int()   // 42
/// ```
public final class Document: @unchecked Sendable {
    // @unchecked: the tape is written only by DocumentBuilder before this
    // object exists and is never mutated afterwards.
    @usableFromInline let tape: Tape
    let roots: [Int]

    @usableFromInline
    init(tape: Tape, roots: [Int]) {
        self.tape = tape
        self.roots = roots
    }

    /// Parses JSON text held in memory.
    ///
    /// - Throws: ``CartographError`` with the offset, line, column and an
    ///   excerpt of the input when it is not valid JSON or breaks a limit.
    // Inlinable: specialised where it is called, `[UInt8]`, `Data` or a
    // NIO buffer's view lend their bytes with no generic dispatch, which a
    // small document's parse feels.
    @inlinable
    public convenience init(parsing bytes: some Collection<UInt8>, options: ParseOptions = ParseOptions()) throws {
        let parts: (tape: Tape, roots: [Int])
        if let parsed = try withContiguousByteSpan(bytes, { try JSONParser.parseWholeParts($0, options: options) }) {
            parts = parsed
        } else {
            parts = try JSONParser.parseWholeParts(Array(bytes).span, options: options)
        }
        self.init(tape: parts.tape, roots: parts.roots)
    }

    /// Parses JSON text from a string.
    public convenience init(parsing text: String, options: ParseOptions = ParseOptions()) throws {
        try self.init(parsing: Array(text.utf8), options: options)
    }

    /// The first (usually the only) top-level value.
    public var root: Node { Node(document: self, index: roots.first ?? 0) }

    /// Every top-level value, in order: one, or several when
    /// ``ParseOptions/allowMultipleValues`` is on (NDJSON).
    public var values: [Node] { roots.map { Node(document: self, index: $0) } }

    /// Number of tokens on the tape (keys included); a measure of the document's size.
    public var tokenCount: Int { tape.count }

    /// A checked reader of this document's tape.
    @inlinable var reader: TapeReader { TapeReader(self) }

    @inlinable
    func entry(_ index: Int) -> TapeEntry { tape.entry(at: index) }

    /// A number entry's value: its text, or for the non-finite reals of
    /// JSON5 and property lists (``TapeFlags/nonFinite``) the `Double`, so
    /// that writers treat it as any other NaN or infinity.
    func jsonNumber(_ entry: TapeEntry) -> JSONNumber { reader.jsonNumber(entry) }

    /// A copy with storage of exactly the size needed (streamed elements are
    /// handed out as copies, so the stream's own buffers can be reused).
    func compactCopy() -> Document { Document(tape: tape.compactCopy(), roots: roots) }

    /// A document holding only `null`, placed at `source` in some input:
    /// what a decoder reads for a key that is absent (Foundation's
    /// `superDecoder(forKey:)` decodes a missing key as null).
    static func null(at source: Int) -> Document { Document(tape: Tape.holdingNull(at: source), roots: [0]) }

    /// Index of the first entry after the value at `index`.
    @inlinable
    func next(after index: Int) -> Int {
        let entry = entry(index)
        return entry.kind == .array || entry.kind == .object ? entry.payload : index + 1
    }
}

extension TapeReader {
    /// The tape index of the value whose visible key is canonically equal
    /// to `key` (equal as a Swift `String`), in an object flagged
    /// ``TapeFlags/canonicalKeys``; nil otherwise. The slow path behind every
    /// byte-wise key lookup, taken only when that lookup missed in an object
    /// holding a non-ASCII key: `"café"` (é precomposed) finds `"cafe\u0301"`,
    /// as it would in a Swift `Dictionary` or Foundation's decoder.
    ///
    /// On the reader the lookup already holds, with the flag read inline:
    /// a method of the document made a reader (a retain of the document)
    /// for every absent optional key before it read the flag.
    @inline(__always)
    func canonicalValue(forKey key: @autoclosure () -> String, inObject object: Int) -> Int? {
        guard self[object].kind == .object, self[object].flags & TapeFlags.canonicalKeys != 0 else { return nil }
        return canonicalScan(for: key(), inObject: object)
    }

    @inline(never)
    private func canonicalScan(for wanted: String, inObject object: Int) -> Int? {
        let end = self[object].payload
        var position = object + 1
        while position < end {
            let entry = self[position]
            if entry.flags & TapeFlags.shadowed == 0, string(entry) == wanted { return position + 1 }
            position = next(after: position + 1)
        }
        return nil
    }
}
