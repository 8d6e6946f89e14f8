import Foundation

/// The safe way to read a finished tape: its entries by index and the text
/// of its strings, keys and numbers, for the views, the `Codable` decoder
/// and the mapping runtime.
///
///     {"id": 7, "name": "Ada"}
///     let tape = document.reader
///     tape[0]                      object, payload 5 (the index after it)
///     tape.string(tape[3])         "name" (a key)
///     tape.int64(tape[2])          7
///
/// A reader holds its ``Document``, so the buffers it reads outlive it, and
/// a tape is read-only while its ``Document`` exists (``DocumentBuilder``
/// is done with it; a stream reuses an element's tape only once nothing
/// holds its document, readers included). Every access is checked: an entry index against the
/// entries written, an entry's text against the bytes written, so a wrong
/// index or payload stops the process instead of reading past a buffer.
/// The checks are a compare and a branch the processor predicts; the
/// pointers they guard stay in this file.
@safe
@usableFromInline
struct TapeReader {
    /// The document read, held.
    @usableFromInline let document: Document
    @usableFromInline let entries: UnsafePointer<TapeEntry>
    @usableFromInline let bytes: UnsafePointer<UInt8>
    /// The number of entries.
    @usableFromInline let count: Int
    @usableFromInline let byteCount: Int

    /// A reader of `document`'s tape.
    @usableFromInline
    init(_ document: Document) {
        self.document = document
        let tape = document.tape
        unsafe entries = unsafe UnsafePointer(tape.entries)
        unsafe bytes = unsafe UnsafePointer(tape.bytes)
        count = tape.count
        byteCount = tape.byteCount
    }

    /// The entry at `index`.
    @inlinable
    subscript(index: Int) -> TapeEntry {
        precondition(UInt(bitPattern: index) < UInt(bitPattern: count), "Cartograph: a tape index out of range")
        return unsafe entries[index]
    }

    /// The index of the first entry after the value at `index` (past a
    /// container's members).
    @inline(__always)
    func next(after index: Int) -> Int {
        let entry = self[index]
        return entry.kind == .array || entry.kind == .object ? entry.payload : index + 1
    }

    // MARK: Text

    /// Where `entry`'s text starts, checked to lie within the bytes written
    /// (with its terminating NUL when `terminated`).
    @inlinable
    func start(of entry: TapeEntry, terminated: Bool = false) -> UnsafePointer<UInt8> {
        let end = entry.payload &+ Int(entry.length) &+ (terminated ? 1 : 0)
        precondition(entry.payload >= 0 && end <= byteCount, "Cartograph: tape text out of range")
        return unsafe bytes + entry.payload
    }

    /// `entry`'s text as a buffer, checked as ``start(of:terminated:)`` is
    /// (with its terminating NUL as the last byte when `terminated`), for a
    /// span lent to a scanner for one call: a span returned from a method
    /// of the reader would borrow the reader, and copying the reader for
    /// that retains its document once per number.
    @inlinable
    func textBuffer(of entry: TapeEntry, terminated: Bool = false) -> UnsafeBufferPointer<UInt8> {
        unsafe UnsafeBufferPointer(start: start(of: entry, terminated: terminated), count: Int(entry.length) &+ (terminated ? 1 : 0))
    }

    /// Lends `entry`'s text to `body` as a span (checked as
    /// ``start(of:terminated:)`` is), for a scanner or a table that reads
    /// a key's bytes.
    @inline(__always)
    func withText<Result>(of entry: TapeEntry, _ body: (Span<UInt8>) throws -> Result) rethrows -> Result {
        unsafe try body(textBuffer(of: entry).span)
    }

    /// The text of a string or key, as a `String` (``TapeString``: the tape's
    /// text is valid UTF-8 already).
    @inline(__always)
    func string(_ entry: TapeEntry) -> String {
        unsafe TapeString.make(textBuffer(of: entry).span)
    }

    /// Whether `entry`'s text is `key`'s bytes.
    @inline(__always)
    func textEquals(_ entry: TapeEntry, _ key: Span<UInt8>) -> Bool {
        guard Int(entry.length) == key.count else { return false }
        guard key.count > 0 else { return true }
        let start = unsafe start(of: entry)
        return unsafe key.withUnsafeBufferPointer { unsafe KeyBytes.equal(start, $0.baseAddress!, count: $0.count) }
    }

    /// `entry`'s text as a buffer, for the C layer (jansson copies it):
    /// valid while the reader's document lives.
    func unsafeText(of entry: TapeEntry) -> UnsafeBufferPointer<UInt8> {
        unsafe UnsafeBufferPointer(start: start(of: entry), count: Int(entry.length))
    }

    /// Whether `entry`'s text holds `byte`.
    func text(of entry: TapeEntry, contains byte: UInt8) -> Bool {
        unsafe memchr(start(of: entry), Int32(byte), Int(entry.length)) != nil
    }

    /// Whether `entry` is a string spelled as a property list's nil (``PlistNull``).
    @inline(__always)
    func isPlistNullMarker(_ entry: TapeEntry) -> Bool {
        guard entry.kind == .string, entry.length == 5 else { return false }
        return unsafe PlistNull.isMarker(UnsafeBufferPointer(start: start(of: entry), count: 5).span)
    }

    // MARK: Numbers (their text, validated by the parser and NUL-terminated)

    /// A number's value if its text is an integer that fits in `Int64`.
    @inline(__always)
    func int64(_ entry: TapeEntry) -> Int64? { unsafe NumberText.int64(textBuffer(of: entry).span) }

    /// A number's value if its text is an integer that fits in `UInt64`.
    @inline(__always)
    func uint64(_ entry: TapeEntry) -> UInt64? { unsafe NumberText.uint64(textBuffer(of: entry).span) }

    /// A number's nearest `Double`.
    @inlinable
    func double(_ entry: TapeEntry) -> Double {
        unsafe NumberText.double(terminated: textBuffer(of: entry, terminated: true).span)
    }

    /// A number's value as `T` if its text is a whole number that fits
    /// (``NumberText/whole(_:_:)``: `3.0`, `1e2`, `9007199254740993.0`).
    func whole<T: FixedWidthInteger>(_ type: T.Type, _ entry: TapeEntry) -> T? { unsafe NumberText.whole(T.self, textBuffer(of: entry).span) }

    /// A number's exact `Decimal`, or nil beyond its range.
    func decimal(_ entry: TapeEntry) -> Decimal? { unsafe NumberText.decimal(textBuffer(of: entry).span) }

    /// Whether a number's text has neither fraction nor exponent.
    @inline(__always)
    func isIntegerText(_ entry: TapeEntry) -> Bool { unsafe NumberText.isIntegerText(textBuffer(of: entry).span) }

    /// Whether a number's text is a zero (a zero `Double` from other text underflowed).
    func isZeroText(_ entry: TapeEntry) -> Bool { unsafe NumberText.isZeroText(textBuffer(of: entry).span) }

    /// A number's nearest `F`, from its nearest `Double` `wide` and its text
    /// (``NarrowFloat``: rounding twice can miss by one unit).
    func narrow<F: BinaryFloatingPoint & LosslessStringConvertible>(_ type: F.Type, _ entry: TapeEntry, nearest wide: Double) -> F {
        unsafe NarrowFloat.value(F.self, nearest: wide, text: UnsafeBufferPointer(start: start(of: entry), count: Int(entry.length)).span)
    }

    /// A number entry as a ``JSONNumber``: its text, or for the non-finite
    /// reals of JSON5 and property lists (``TapeFlags/nonFinite``) the `Double`.
    func jsonNumber(_ entry: TapeEntry) -> JSONNumber {
        if entry.flags & TapeFlags.nonFinite != 0 { return JSONNumber(double(entry)) }
        return unsafe JSONNumber(validText: textBuffer(of: entry, terminated: true).span, terminated: true)
    }
}
