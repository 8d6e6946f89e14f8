import Testing

@testable import Cartograph

/// `InPlaceArray` holds the streaming encoder's frames and key logs: its
/// elements are changed where they live, it grows past its first capacity
/// keeping what it held, and it releases what its elements hold.
struct InPlaceArrayTests {
    final class Token {}

    struct Slot {
        var count = 0
        var names: [String] = []
        mutating func add(_ name: String) {
            count += 1
            names.append(name)
        }
    }

    @Test func elementsAreChangedInPlace() {
        let slots = InPlaceArray(Slot())
        slots.append(Slot())
        slots[1].add("a")
        slots[1].count += 10
        slots[0].names.append("b")
        #expect(slots[1].count == 11)
        #expect(slots[1].names == ["a"])
        #expect(slots[0].names == ["b"])
        #expect(slots.count == 2)
    }

    @Test func growingKeepsEveryElement() {
        let slots = InPlaceArray(Slot(), capacity: 1)
        for index in 1..<100 {
            slots.append(Slot(count: index, names: ["\(index)"]))
        }
        #expect(slots.count == 100)
        #expect((0..<100).allSatisfy { slots[$0].count == $0 })
        #expect(slots[99].names == ["99"])
        #expect(slots[0].names.isEmpty)
    }

    @Test func releasesWhatItsElementsHold() {
        weak var first: Token?
        weak var grown: Token?
        do {
            let kept = Token()
            let moved = Token()
            first = kept
            grown = moved
            let slots = InPlaceArray([kept], capacity: 1)
            // Moved into a larger buffer: still held once, not copied.
            slots.append([moved])
            slots.append([])
            #expect(slots[1][0] === moved)
        }
        #expect(first == nil)
        #expect(grown == nil)
    }

    @Test func positionsOutOfRangeTrap() async {
        await #expect(processExitsWith: .failure) {
            let slots = InPlaceArray(0)
            _ = slots[1]
        }
    }
}
