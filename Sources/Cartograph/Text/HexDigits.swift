/// Hexadecimal digits in ASCII text (`\u` escapes, JSON5's `0x` numbers and `\x` escapes).
enum HexDigits {
    /// The value of one digit (`0`-`9`, `a`-`f`, `A`-`F`), or nil.
    @inline(__always)
    static func value(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    /// The value of a run of digits (four for a `\u` escape), or nil when one is not a digit.
    static func value(of digits: Span<UInt8>) -> UInt32? {
        var value: UInt32 = 0
        for index in digits.indices {
            guard let nibble = Self.value(digits[index]) else { return nil }
            value = value << 4 | UInt32(nibble)
        }
        return value
    }
}
