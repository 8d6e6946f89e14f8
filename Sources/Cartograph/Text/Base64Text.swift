/// Strict base64 reading for XML plist `<data>`: the standard alphabet,
/// XML whitespace anywhere (writers wrap lines), `=` padding only at the
/// end. Foundation's `Data(base64Encoded:options:)` either rejects the
/// whitespace or, with `.ignoreUnknownCharacters`, everything unknown.
enum Base64Text {
    /// The decoded bytes, or nil when the text is not base64.
    static func decode(_ text: Span<UInt8>) -> [UInt8]? {
        var output: [UInt8] = []
        output.reserveCapacity(text.count / 4 * 3)
        var group: UInt32 = 0
        var inGroup = 0
        var padding = 0
        for position in 0..<text.count {
            let byte = text[position]
            let value: UInt32
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): value = UInt32(byte - UInt8(ascii: "A"))
            case UInt8(ascii: "a")...UInt8(ascii: "z"): value = UInt32(byte - UInt8(ascii: "a")) + 26
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value = UInt32(byte - UInt8(ascii: "0")) + 52
            case UInt8(ascii: "+"): value = 62
            case UInt8(ascii: "/"): value = 63
            case 0x20, 0x09, 0x0A, 0x0D: continue
            case UInt8(ascii: "="):
                padding += 1
                continue
            default: return nil
            }
            guard padding == 0 else { return nil }
            group = group << 6 | value
            inGroup += 1
            if inGroup == 4 {
                output.append(UInt8(truncatingIfNeeded: group >> 16))
                output.append(UInt8(truncatingIfNeeded: group >> 8))
                output.append(UInt8(truncatingIfNeeded: group))
                group = 0
                inGroup = 0
            }
        }
        switch (inGroup, padding) {
        case (0, 0): break
        case (2, 2), (2, 0):
            output.append(UInt8(truncatingIfNeeded: group >> 4))
        case (3, 1), (3, 0):
            output.append(UInt8(truncatingIfNeeded: group >> 10))
            output.append(UInt8(truncatingIfNeeded: group >> 2))
        default: return nil
        }
        return output
    }
}
