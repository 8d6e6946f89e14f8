import Testing

@testable import Cartograph

/// The 16-byte tape entry: a 32-bit payload and a 48-bit source offset
/// split over two fields, read back whole.
@Suite struct TapeEntryTests {
    @Test func sourceOffsetsBeyondThirtyTwoBitsReadBackWhole() {
        for source in [0, 1, 0xFFFF, 0x1_0000, 0xFFFF_FFFF, 0x1_0000_0000, 5 << 32 + 12_345, 1 << 47 + 0xABCD, 1 << 48 - 1] {
            let entry = TapeEntry(kind: .string, flags: TapeFlags.date, length: 7, payload: 99, source: source)
            #expect(entry.source == source)
            #expect(entry.kind == .string)
            #expect(entry.flags == TapeFlags.date)
            #expect(entry.length == 7)
            #expect(entry.payload == 99)
        }
    }

    @Test func sourceOffsetsPastFortyEightBitsReadAsTheLargest() {
        for source in [1 << 48, 1 << 60, Int.max] {
            #expect(TapeEntry(kind: .null, flags: 0, length: 0, payload: 0, source: source).source == 1 << 48 - 1)
        }
    }

    @Test func payloadsUpToThirtyTwoBitsReadBack() {
        for payload in [0, 1, 0xFFFF, 0x1_0000, Tape.maxOffset - 1, Tape.maxOffset] {
            var entry = TapeEntry(kind: .array, flags: 0, length: 3, payload: payload, source: 1 << 40)
            #expect(entry.payload == payload)
            entry.payload = payload / 2
            #expect(entry.payload == payload / 2)
            #expect(entry.source == 1 << 40)
        }
    }

    @Test func theLargestDocumentLeavesEveryOffsetInThirtyTwoBits() {
        // Text of a JSON document is at most its input and a byte; JSON5's
        // spelled-out numbers at most twice their text; entries are fewer than bytes.
        #expect(Tape.maxDocumentBytes * 2 <= Tape.maxOffset + 1)
        #expect(MemoryLayout<TapeEntry>.stride == 16)
    }
}
