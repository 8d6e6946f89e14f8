/// Foundation's spelling of nil in a property list, which has no null: the
/// string `$null`. `PropertyListEncoder` writes it for `encodeNil()` and
/// `PropertyListDecoder` reads it as nil; Cartograph's `Codable` plist
/// coders do the same, so optionals in arrays keep their positions and
/// files pass between the two. (A real string `"$null"` is read as nil too,
/// as Foundation reads it.)
enum PlistNull {
    static let marker = "$null"

    static func isMarker(_ bytes: Span<UInt8>) -> Bool {
        bytes.count == 5 && bytes[0] == 0x24 && bytes[1] == 0x6E && bytes[2] == 0x75 && bytes[3] == 0x6C && bytes[4] == 0x6C
    }
}
