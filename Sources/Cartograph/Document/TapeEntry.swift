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
///
/// An entry is 16 bytes: the source offset is split into a low 16-bit and a
/// high 32-bit part (48 bits: 256 TiB, for offsets that count across a
/// stream's chunks), and the payload is 32 bits, so a document holds at most
/// 4 GiB of text and 4 Gi entries (``Tape/maxOffset``; the parse limits keep
/// every document below it, ``ParseOptions/maxInputBytes``). At 24 bytes
/// (both offsets a full word) the tape was three quarters of a `Document`'s
/// memory on a file of small records.
@usableFromInline
struct TapeEntry {
    /// The token's kind.
    @usableFromInline var kind: TokenKind
    /// ``TapeFlags`` bits.
    @usableFromInline var flags: UInt8
    /// The low 16 bits of ``source``.
    @usableFromInline var sourceLow: UInt16
    /// Byte length of a string, key or number text; element or key count of a container.
    @usableFromInline var length: UInt32
    /// ``payload``, stored.
    @usableFromInline var storedPayload: UInt32
    /// ``source`` above its low 16 bits.
    @usableFromInline var sourceHigh: UInt32

    @inlinable
    init(kind: TokenKind, flags: UInt8, length: UInt32, payload: Int, source: Int) {
        self.kind = kind
        self.flags = flags
        self.length = length
        storedPayload = UInt32(truncatingIfNeeded: payload)
        let clamped = min(UInt64(clamping: source), Self.maxSource)
        sourceLow = UInt16(truncatingIfNeeded: clamped)
        sourceHigh = UInt32(truncatingIfNeeded: clamped >> 16)
    }

    /// The largest source offset an entry holds (2^48 - 1); a later one reads as this.
    @usableFromInline static let maxSource: UInt64 = 1 << 48 - 1

    /// Byte offset in the storage of a string, key or number; for a container,
    /// the index of the first entry after its subtree.
    @inlinable var payload: Int {
        get { Int(storedPayload) }
        set { storedPayload = UInt32(truncatingIfNeeded: newValue) }
    }

    /// Byte offset of the token's first byte in the input (absolute, across chunks).
    @inlinable var source: Int { Int(sourceHigh) << 16 | Int(sourceLow) }
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
    /// On a string: a property-list date, stored as ISO 8601 text with at least six digits of fraction, more where its `Double` needs them (``PlistDate``).
    static let date: UInt8 = 8
    /// On a string: property-list data, stored as base64 text.
    static let data: UInt8 = 16
    /// On an object: a key has a non-ASCII byte, so a key looked up by
    /// bytes and not found may still be there in another, canonically
    /// equivalent spelling (``TapeReader/canonicalValue(forKey:inObject:)``).
    static let canonicalKeys: UInt8 = 32
    /// On a number: a NaN or infinity (JSON5's `Infinity` and `NaN`, a
    /// property list's real), stored as that text (`-Infinity`, `NaN`,
    /// `-NaN`…); set by ``JSON5Reader`` and ``PlistScalars``.
    @usableFromInline static let nonFinite: UInt8 = 64
}
