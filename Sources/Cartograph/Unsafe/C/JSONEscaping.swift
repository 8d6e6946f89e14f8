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
        var read = 0
        var opened = false
        repeat {
            // Room for both quotes, the rest as it is and one step of the C
            // loop, so text without escapes is written in one call with its
            // quotes. An escape grows the text (up to six bytes for one): a
            // call that ran out of room stops at a step's boundary and the
            // next one gets more. One byte of the room is kept for the
            // closing quote.
            unsafe appendInPlace(minimum: count - read + 50) { target, room in
                var written = 0
                if !opened {
                    unsafe target[0] = UInt8(ascii: "\"")
                    written = 1
                }
                if read < count, let start = bytes.baseAddress {
                    written += unsafe cartograph_json_escape(start, count, &read, target + written, room - written - 1, escaping.flags)
                }
                if read == count {
                    unsafe target[written] = UInt8(ascii: "\"")
                    written += 1
                }
                return written
            }
            opened = true
        } while read < count
    }
}
