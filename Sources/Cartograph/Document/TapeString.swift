/// Swift `String`s made from the text of a tape's strings and keys, without
/// validating the UTF-8 a second time.
///
/// Every string and key on a tape is valid UTF-8 when it is written: the C
/// tape builder and ``DocumentBuilder`` check each one (``UTF8Validation``,
/// strict: no overlong forms, no encoded surrogates, no truncation) and fail
/// the parse otherwise; the property-list and JSON5 readers write through
/// ``DocumentBuilder``; the builder only skips the check for text that came
/// from Swift `String`s, which are valid already. `String(decoding:as:)`
/// would validate it again, a cost string-heavy documents feel, so strings
/// are made through the standard
/// library's unchecked `UTF8Span` initializer (SE-0464) instead, told
/// whether the text is ASCII so the string keeps the ASCII fast paths it
/// would have had. Debug builds check the invariant on every string.
enum TapeString {
    /// The string whose UTF-8 is `bytes` (valid UTF-8 from a tape).
    @inline(__always)
    static func make(_ bytes: Span<UInt8>) -> String {
        guard !bytes.isEmpty else { return "" }
        assert(UTF8Validation.firstInvalid(bytes) == nil, "a tape holds invalid UTF-8")
        if #available(macOS 26.0, iOS 26.0, watchOS 26.0, tvOS 26.0, visionOS 26.0, *) {
            let ascii = UTF8Validation.isASCII(bytes)
            // Unchecked: the tape's text was validated when it was written.
            return unsafe String(copying: UTF8Span(unchecked: bytes, isKnownASCII: ascii))
        }
        return bytes.decodedString
    }
}
