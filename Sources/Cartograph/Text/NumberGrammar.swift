/// The JSON number grammar (RFC 8259 §6), for text that did not come
/// through the parser (user-supplied number text).
enum NumberGrammar {
    /// Whether the bytes are exactly one JSON number.
    static func isValid(_ text: Span<UInt8>) -> Bool {
        var index = 0
        let count = text.count
        func digit(_ at: Int) -> Bool { at < count && text[at] >= UInt8(ascii: "0") && text[at] <= UInt8(ascii: "9") }
        if index < count, text[index] == UInt8(ascii: "-") { index += 1 }
        guard digit(index) else { return false }
        if text[index] == UInt8(ascii: "0") {
            index += 1
        } else {
            while digit(index) { index += 1 }
        }
        if index < count, text[index] == UInt8(ascii: ".") {
            index += 1
            guard digit(index) else { return false }
            while digit(index) { index += 1 }
        }
        if index < count, text[index] == UInt8(ascii: "e") || text[index] == UInt8(ascii: "E") {
            index += 1
            if index < count, text[index] == UInt8(ascii: "+") || text[index] == UInt8(ascii: "-") { index += 1 }
            guard digit(index) else { return false }
            while digit(index) { index += 1 }
        }
        return index == count
    }

    /// Digits of the significand without leading zeros (trailing zeros count).
    static func significantDigits(_ bytes: Span<UInt8>) -> Int {
        var digits = 0
        for index in bytes.indices {
            let byte = bytes[index]
            if byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") { break }
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { continue }
            if digits == 0, byte == UInt8(ascii: "0") { continue }
            digits += 1
        }
        return digits
    }

    /// Whether the significand has a digit other than zero.
    static func hasNonZeroDigit(_ bytes: Span<UInt8>) -> Bool {
        for index in bytes.indices {
            let byte = bytes[index]
            if byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") { return false }
            if byte >= UInt8(ascii: "1"), byte <= UInt8(ascii: "9") { return true }
        }
        return false
    }
}
