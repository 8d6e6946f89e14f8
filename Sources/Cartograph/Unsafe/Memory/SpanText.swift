import Foundation

/// Operations on a byte `Span` that the standard library has no safe form
/// of yet, for the readers and writers that work on spans (the plist and
/// JSON5 readers, the plist writers): decoding bytes as a `String`, copying
/// them into an array or `Data` in one copy, finding a byte with `memchr`,
/// comparing with another span or a static literal with `memcmp`.
///
/// Each reads only the span's own bytes (a range is checked by
/// `extracting(_:)`, which traps outside the span), so each is safe to
/// call from the layers above.
extension Span where Element == UInt8 {
    /// The bytes as a `String`, invalid UTF-8 repaired as
    /// `String(decoding:as:)` repairs it.
    var decodedString: String {
        unsafe withUnsafeBufferPointer { unsafe String(decoding: $0, as: UTF8.self) }
    }

    /// The bytes in `range` as a `String` (see ``decodedString``); traps
    /// when `range` is not inside the span.
    func decodedString(_ range: Range<Int>) -> String {
        extracting(range).decodedString
    }

    /// Appends the bytes to `array`, in one copy.
    func append(to array: inout [UInt8]) {
        unsafe withUnsafeBufferPointer { unsafe array.append(contentsOf: $0) }
    }

    /// Whether the two spans hold the same bytes (compared as
    /// ``KeyBytes/equal(_:_:count:)`` compares keys: short ones by word
    /// loads, long ones by `memcmp`).
    @inline(__always)
    func elementsEqual(_ other: Span<UInt8>) -> Bool {
        guard count == other.count else { return false }
        guard count > 0 else { return true }
        return unsafe withUnsafeBytes { mine in
            unsafe other.withUnsafeBytes { theirs in unsafe KeyBytes.equal(mine.baseAddress!, theirs.baseAddress!, count: mine.count) }
        }
    }

    /// The bytes copied into a `Data`, in one copy.
    var copiedData: Data {
        unsafe withUnsafeBytes { unsafe Data($0) }
    }

    /// The index of the first `byte` at or after `start`, or nil.
    func firstIndex(of byte: UInt8, from start: Int = 0) -> Int? {
        precondition(start >= 0 && start <= count, "Cartograph: a span search starts outside the span")
        return unsafe withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress, start < buffer.count else { return nil }
            guard let found = unsafe memchr(base + start, Int32(byte), buffer.count - start) else { return nil }
            return unsafe UnsafeRawPointer(found) - UnsafeRawPointer(base)
        }
    }

    /// Whether the bytes from `offset` spell `literal` (false when fewer
    /// bytes are left than it has).
    @inline(__always)
    func matches(_ literal: StaticString, at offset: Int) -> Bool {
        let length = literal.utf8CodeUnitCount
        precondition(offset >= 0, "Cartograph: a span comparison starts before the span")
        guard length <= count - offset else { return false }
        guard length > 0 else { return true }
        return unsafe withUnsafeBufferPointer { unsafe memcmp($0.baseAddress! + offset, literal.utf8Start, length) == 0 }
    }
}

extension String {
    /// Lends the string's UTF-8 to `body` as a span. For the short strings
    /// the plist readers make (a number's text) this is cheaper than
    /// `utf8.span`, which the standard library does not inline.
    @inline(__always)
    mutating func withUTF8Span<Result>(_ body: (Span<UInt8>) throws -> Result) rethrows -> Result {
        try withUTF8 { unsafe try body($0.span) }
    }
}

extension StaticString {
    /// Appends the literal's UTF-8 to `array`.
    @inline(__always)
    func append(to array: inout [UInt8]) {
        unsafe array.append(contentsOf: UnsafeBufferPointer(start: utf8Start, count: utf8CodeUnitCount))
    }

    /// The first UTF-8 byte of a non-empty literal (0 for an empty one).
    var firstByte: UInt8 {
        utf8CodeUnitCount > 0 ? unsafe utf8Start.pointee : 0
    }
}

/// Lends the bytes of `bytes` (`Data`, `[UInt8]`, a buffer) to `body` as a
/// span, valid for the call: how a reader that keeps its input as a span
/// is given a caller's bytes.
func withByteSpan<Bytes: ContiguousBytes, Result>(_ bytes: Bytes, _ body: (Span<UInt8>) throws -> Result) rethrows -> Result {
    unsafe try bytes.withUnsafeBytes { raw in unsafe try body(raw.assumingMemoryBound(to: UInt8.self).span) }
}

/// Lends the bytes of a collection to `body` as a span when the collection
/// stores them contiguously (`[UInt8]`, `Data`, a NIO buffer's view, an
/// unsafe buffer); nil, without calling `body`, when it does not.
/// Inlinable, so that ``Document/init(parsing:options:)`` is specialised
/// where it is called.
@inlinable
func withContiguousByteSpan<Bytes: Collection<UInt8>, Result>(_ bytes: Bytes, _ body: (Span<UInt8>) throws -> Result) rethrows -> Result? {
    try bytes.withContiguousStorageIfAvailable { buffer in unsafe try body(buffer.span) }
}
