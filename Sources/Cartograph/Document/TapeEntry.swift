/// One token of a ``Document``'s tape.
///
/// The tape is a flat array of these, in document order. A container entry
/// records where its subtree ends, so a reader can skip any value in O(1):
///
/// ```
/// {"a": [1, 2], "b": "x"}
///
/// index kind    payload            length   meaning
///   0   object  end = 7            2        two keys; the subtree ends before index 7
///   1   key     bytes @0           1        "a"
///   2   array   end = 5            2        two elements
///   3   number  bytes @1           1        "1" (raw text, converted on demand)
///   4   number  bytes @3           1        "2"
///   5   key     bytes @5           1        "b"
///   6   string  bytes @6           1        "x"
/// ```
///
/// Strings and number texts live in one byte buffer beside the tape; number
/// texts are NUL-terminated there.
@usableFromInline
struct TapeEntry {
    /// The token's kind.
    @usableFromInline var kind: TokenKind
    /// ``TapeFlags`` bits.
    @usableFromInline var flags: UInt8
    /// Byte length of a string, key or number text; element or key count of a container.
    @usableFromInline var length: UInt32
    /// Byte offset in the storage of a string, key or number; for a container,
    /// the index of the first entry after its subtree.
    @usableFromInline var payload: Int
    /// Byte offset of the token's first byte in the input (absolute, across chunks).
    @usableFromInline var source: Int
}

/// The kinds of tape entry.
@usableFromInline
enum TokenKind: UInt8 {
    case null, `false`, `true`, number, string, key, array, object
}

/// Bit flags on a tape entry.
@usableFromInline
enum TapeFlags {
    /// On a key: a duplicate that ``DuplicateKeyPolicy`` hides; its value is skipped.
    static let shadowed: UInt8 = 4
    /// On a string: a property-list date, stored as ISO 8601 text with microseconds.
    static let date: UInt8 = 8
    /// On a string: property-list data, stored as base64 text.
    static let data: UInt8 = 16
    /// On an object: a key has a non-ASCII byte, so a key looked up by
    /// bytes and not found may still be there in another, canonically
    /// equivalent spelling (``Document/canonicalValue(forKey:inObject:)``).
    static let canonicalKeys: UInt8 = 32
    /// On a number: a NaN or infinity (JSON5's `Infinity` and `NaN`, a
    /// property list's real), stored as that text (`-Infinity`, `NaN`,
    /// `-NaN`…); set by ``JSON5Reader`` and ``PlistScalars``.
    @usableFromInline static let nonFinite: UInt8 = 64
}
