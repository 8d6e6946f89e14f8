import Foundation

/// JSON in UTF-16 or UTF-32, recognised as RFC 4627 (section 3) describes
/// and as Foundation's `JSONDecoder` and `JSONSerialization` read it: by a
/// byte order mark, or, without one, by where the zero bytes fall among the
/// first four (the first two characters of JSON text are ASCII).
///
/// | first bytes | encoding |
/// | --- | --- |
/// | `00 00 FE FF` / `FF FE 00 00` | UTF-32 big / little endian, with BOM |
/// | `FE FF 00 00` | UTF-32 little endian (as `JSONDecoder` reads it) |
/// | `FE FF` / `FF FE` | UTF-16 big / little endian, with BOM |
/// | `00 00 00 xx` / `xx 00 00 00` | UTF-32 big / little endian |
/// | `00 xx 00 xx` / `xx 00 xx 00` (or two bytes `00 xx` / `xx 00`) | UTF-16 big / little endian |
/// | anything else | UTF-8 (a UTF-8 BOM is ``ParseOptions/byteOrderMark``'s business) |
///
/// The mappers' whole-input decodes (`JSONMapper.decode`, `decodeLossy`,
/// `decodeAny`, `collect`, `update`) convert such input to UTF-8 first, as
/// a drop-in for Foundation (offsets, lines and columns in errors then count
/// the UTF-8 text). ``Document`` and ``JSONParser`` read JSON as RFC 8259
/// defines it for exchange: UTF-8 only, whole or in chunks alike.
enum InputEncoding {
    /// Runs `body` on the input as UTF-8: the bytes themselves, or their conversion.
    static func withUTF8<R>(_ bytes: some ContiguousBytes, _ body: (Span<UInt8>) throws -> R) throws -> R {
        try withByteSpan(bytes) { input in
            guard input.count >= 2, input[0] == 0 || input[1] == 0 || input[0] >= 0xFE, let converted = try utf8(from: input) else {
                return try body(input)
            }
            return try body(converted.span)
        }
    }

    /// The input as UTF-8, or nil when it already is UTF-8.
    /// - Throws: ``CartographError/Kind/invalidUTF8`` when the detected
    ///   encoding does not decode (a lone surrogate, a cut-off unit).
    static func utf8(from input: Span<UInt8>) throws -> [UInt8]? {
        guard let (encoding, bom) = detect(input) else { return nil }
        let body = input.extracting(bom...).copiedData
        guard let text = String(data: body, encoding: encoding) else {
            throw CartographError(.invalidUTF8, "the input looks like \(encoding) but does not decode as it", offset: 0)
        }
        return Array(text.utf8)
    }

    private static func detect(_ input: Span<UInt8>) -> (String.Encoding, Int)? {
        func byte(_ index: Int) -> UInt8? { index < input.count ? input[index] : nil }
        switch (byte(0), byte(1), byte(2), byte(3)) {
        case (0x00, 0x00, 0xFE, 0xFF): return (.utf32BigEndian, 4)
        case (0xFF, 0xFE, 0x00, 0x00): return (.utf32LittleEndian, 4)
        // Not a byte order mark of any encoding, but what Foundation's
        // `JSONDecoder` (and its own test of UTF-32LE input) takes for the
        // UTF-32LE one; as UTF-16BE it would start with U+0000, never JSON.
        case (0xFE, 0xFF, 0x00, 0x00): return (.utf32LittleEndian, 4)
        case (0xFE, 0xFF, _, _): return (.utf16BigEndian, 2)
        case (0xFF, 0xFE, _, _): return (.utf16LittleEndian, 2)
        case (0x00, 0x00, 0x00, let x?) where x != 0: return (.utf32BigEndian, 0)
        case (let x?, 0x00, 0x00, 0x00) where x != 0: return (.utf32LittleEndian, 0)
        case (0x00, let x?, 0x00, let y?) where x != 0 && y != 0: return (.utf16BigEndian, 0)
        case (let x?, 0x00, let y?, 0x00) where x != 0 && y != 0: return (.utf16LittleEndian, 0)
        case (0x00, let x?, nil, nil) where x != 0: return (.utf16BigEndian, 0)
        case (let x?, 0x00, nil, nil) where x != 0: return (.utf16LittleEndian, 0)
        default: return nil
        }
    }
}
