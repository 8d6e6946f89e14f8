internal import CCartographTape

/// Which characters of a JSON string the native writer escapes beyond the
/// ones JSON requires (quotes, backslashes, control characters).
struct StringEscaping: Sendable {
    /// `cartograph_json_escape`'s option bits.
    let flags: UInt32

    init(escapeSlashes: Bool, asciiOnly: Bool, vectorLoop: Bool = true) {
        var flags: UInt32 = 0
        if escapeSlashes { flags |= CARTOGRAPH_ESCAPE_SLASH }
        if asciiOnly { flags |= CARTOGRAPH_ESCAPE_NON_ASCII }
        if !vectorLoop { flags |= CARTOGRAPH_ESCAPE_SCALAR }
        self.flags = flags
    }
}

extension OutputBuffer {
    /// Appends `text` as a JSON string, quotes included.
    ///
    /// The C side (`json_escape.c`) finds the bytes to escape 32 or 8 at a
    /// step and copies the plain ones in bulk: a loop over the bytes in
    /// Swift spent about a fifth of a `Codable` encode of twitter.json here.
    /// A native string is read in place; any other is copied once.
    func appendJSONString(_ text: String, _ escaping: StringEscaping) {
        if unsafe text.utf8.withContiguousStorageIfAvailable({ unsafe appendJSONString($0, escaping) }) == nil {
            var copy = text
            copy.withUTF8 { unsafe appendJSONString($0, escaping) }
        }
    }

    /// Appends UTF-8 `bytes` as a JSON string, quotes included.
    func appendJSONString(_ bytes: UnsafeBufferPointer<UInt8>, _ escaping: StringEscaping) {
        let count = bytes.count
        append(UInt8(ascii: "\""))
        var read = 0
        while read < count, let start = bytes.baseAddress {
            // Room for the rest as it is and one step of the C loop, so text
            // without escapes is written in one call. An escape grows the
            // text (up to six bytes for one): a call that ran out of room
            // stops at a step's boundary and the next one gets more.
            unsafe appendInPlace(minimum: count - read + 48) { target, room in
                unsafe cartograph_json_escape(start, count, &read, target, room, escaping.flags)
            }
        }
        append(UInt8(ascii: "\""))
    }
}
