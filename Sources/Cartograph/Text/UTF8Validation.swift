/// Strict UTF-8 validation (Unicode 15, table 3-7): no overlong forms, no
/// encoded surrogates (`ED A0 80`…`ED BF BF`), nothing above U+10FFFF, no
/// truncated sequences.
///
/// yajl's own check accepts all of those, so Cartograph turns it off and
/// validates here, with an eight-bytes-at-a-time path for ASCII runs.
enum UTF8Validation {
    /// The offset of the first byte that starts an invalid sequence, or nil when all is valid.
    @inline(__always)
    static func firstInvalid(_ base: UnsafeRawPointer, count: Int) -> Int? {
        if isASCII(base, count: count) { return nil }
        return firstInvalidSlow(base.assumingMemoryBound(to: UInt8.self), from: 0, count: count)
    }

    /// Whether every byte is below 0x80: whole words, then one overlapping
    /// word (or two overlapping half-words) for the tail, never byte by byte.
    @inline(__always)
    static func isASCII(_ base: UnsafeRawPointer, count: Int) -> Bool {
        if count >= 8 {
            var index = 0
            var combined: UInt64 = 0
            while index + 8 < count {
                combined |= base.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                index += 8
            }
            combined |= base.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
            return combined & 0x8080_8080_8080_8080 == 0
        }
        if count >= 4 {
            let combined = base.loadUnaligned(fromByteOffset: 0, as: UInt32.self) | base.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)
            return combined & 0x8080_8080 == 0
        }
        let bytes = base.assumingMemoryBound(to: UInt8.self)
        var combined: UInt8 = 0
        for index in 0..<count { combined |= bytes[index] }
        return combined & 0x80 == 0
    }

    private static func firstInvalidSlow(_ bytes: UnsafePointer<UInt8>, from start: Int, count: Int) -> Int? {
        var index = start
        while index < count {
            let lead = bytes[index]
            if lead < 0x80 {
                // Mixed text is mostly ASCII between its multi-byte
                // characters: skip eight ASCII bytes at a time.
                if index + 8 <= count, UnsafeRawPointer(bytes + index).loadUnaligned(as: UInt64.self) & 0x8080_8080_8080_8080 == 0 {
                    index += 8
                } else {
                    index += 1
                }
                continue
            }
            @inline(__always) func continuation(_ offset: Int, _ low: UInt8 = 0x80, _ high: UInt8 = 0xBF) -> Bool {
                let position = index + offset
                return position < count && bytes[position] >= low && bytes[position] <= high
            }
            switch lead {
            case 0xC2...0xDF:
                guard continuation(1) else { return index }
                index += 2
            case 0xE0:
                guard continuation(1, 0xA0), continuation(2) else { return index }
                index += 3
            case 0xED:
                guard continuation(1, 0x80, 0x9F), continuation(2) else { return index }
                index += 3
            case 0xE1...0xEF:
                guard continuation(1), continuation(2) else { return index }
                index += 3
            case 0xF0:
                guard continuation(1, 0x90), continuation(2), continuation(3) else { return index }
                index += 4
            case 0xF1...0xF3:
                guard continuation(1), continuation(2), continuation(3) else { return index }
                index += 4
            case 0xF4:
                guard continuation(1, 0x80, 0x8F), continuation(2), continuation(3) else { return index }
                index += 4
            default:
                return index
            }
        }
        return nil
    }
}
