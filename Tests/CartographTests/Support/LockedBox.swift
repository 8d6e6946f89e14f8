import Foundation

/// A value that threads write and read under a lock (a test's result
/// handed back from a thread of its own, or gathered from several).
final class LockedBox<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value
    init(_ value: Value) { stored = value }
    var value: Value {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }

    /// Changes the value in one locked step (a read and a write apart
    /// could lose another thread's change in between).
    func update(_ change: (inout Value) -> Void) { lock.withLock { change(&stored) } }
}
