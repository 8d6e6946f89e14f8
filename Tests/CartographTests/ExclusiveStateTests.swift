import Testing

@testable import Cartograph

/// `ExclusiveState` skips the runtime's exclusivity check in release
/// builds; the test suite runs in debug, where it checks overlapping
/// accesses itself, so every encoder and decoder test is also a test that
/// no access to such state overlaps another.
struct ExclusiveStateTests {
    struct Counter {
        var value = 0
        mutating func add(_ amount: Int) { value += amount }
        mutating func during(_ body: () -> Void) { body() }
        func reading(_ body: () -> Void) { body() }
    }

    final class Holder: ExclusiveState<Counter> {
        init() { super.init(state: Counter()) }
    }

    @Test func stateIsReadAndWrittenInPlace() {
        let holder = Holder()
        holder.state.add(2)
        holder.state.value += 3
        #expect(holder.state.value == 5)
    }

    @Test func readsMayOverlapReads() {
        let holder = Holder()
        var seen = -1
        holder.state.reading { seen = holder.state.value }
        #expect(seen == 0)
    }

    @Test func debugBuildsCheckAccesses() {
        // The suite runs in debug: the traps below are then exercised.
        #expect(Holder.checksAccesses == _isDebugAssertConfiguration())
    }

    @Test(.enabled(if: Holder.checksAccesses))
    func aReadDuringAModificationTraps() async {
        await #expect(processExitsWith: .failure) {
            let holder = Holder()
            holder.state.during { _ = holder.state.value }
        }
    }

    @Test(.enabled(if: Holder.checksAccesses))
    func aModificationDuringAModificationTraps() async {
        await #expect(processExitsWith: .failure) {
            let holder = Holder()
            holder.state.during { holder.state.add(1) }
        }
    }
}
