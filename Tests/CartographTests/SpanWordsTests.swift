import Testing

@testable import Cartograph

/// The scanners' word loads read the eight bytes they name, and never a
/// byte outside the span.
@Suite struct SpanWordsTests {
    @Test func aWordIsItsEightBytesInMachineOrder() {
        let bytes: [UInt8] = Array(1...20)
        let span = bytes.span
        for offset in 0...(bytes.count - 8) {
            var expected: UInt64 = 0
            for (shift, byte) in bytes[offset..<offset + 8].enumerated() { expected |= UInt64(byte) << (8 * shift) }
            #expect(span.word(at: offset) == UInt64(littleEndian: expected))
        }
    }

    @Test func aWordPastTheEndTraps() async {
        await #expect(processExitsWith: .failure) {
            let bytes: [UInt8] = Array(repeating: 0x0A, count: 12)
            // Bytes 5 to 12: the last one lies outside the span.
            _ = bytes.span.word(at: 5)
        }
    }

    @Test func aWordInsideASubspanDoesNotReachBeyondIt() async {
        await #expect(processExitsWith: .failure) {
            let bytes: [UInt8] = Array(repeating: 0x0A, count: 32)
            _ = bytes.span.extracting(0..<10).word(at: 4)
        }
    }
}
