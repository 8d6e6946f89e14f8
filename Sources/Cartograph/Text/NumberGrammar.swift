/// The JSON number grammar (RFC 8259 §6), for text that did not come
/// through the parser (user-supplied number text).
enum NumberGrammar {
    /// Whether the bytes are exactly one JSON number.
    static func isValid(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        var index = 0
        let count = text.count
        func digit(_ at: Int) -> Bool { unsafe at < count && text[at] >= UInt8(ascii: "0") && text[at] <= UInt8(ascii: "9") }
        if index < count, unsafe text[index] == UInt8(ascii: "-") { index += 1 }
        guard digit(index) else { return false }
        if unsafe text[index] == UInt8(ascii: "0") {
            index += 1
        } else {
            while digit(index) { index += 1 }
        }
        if index < count, unsafe text[index] == UInt8(ascii: ".") {
            index += 1
            guard digit(index) else { return false }
            while digit(index) { index += 1 }
        }
        if index < count, unsafe text[index] == UInt8(ascii: "e") || text[index] == UInt8(ascii: "E") {
            index += 1
            if index < count, unsafe text[index] == UInt8(ascii: "+") || text[index] == UInt8(ascii: "-") { index += 1 }
            guard digit(index) else { return false }
            while digit(index) { index += 1 }
        }
        return index == count
    }

    /// Digits of the significand without leading zeros (trailing zeros count).
    static func significantDigits(_ bytes: UnsafePointer<UInt8>, count: Int) -> Int {
        var digits = 0
        for index in 0..<count {
            let byte = unsafe bytes[index]
            if byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") { break }
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { continue }
            if digits == 0, byte == UInt8(ascii: "0") { continue }
            digits += 1
        }
        return digits
    }

    /// Whether the significand has a digit other than zero.
    static func hasNonZeroDigit(_ bytes: UnsafePointer<UInt8>, count: Int) -> Bool {
        for index in 0..<count {
            let byte = unsafe bytes[index]
            if byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") { return false }
            if byte >= UInt8(ascii: "1"), byte <= UInt8(ascii: "9") { return true }
        }
        return false
    }
}
