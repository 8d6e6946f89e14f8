internal import CCartographShims
import Synchronization

extension Mutex where Value: ~Copyable {
    /// ``withLock(_:)``, with ThreadSanitizer told that the lock was taken
    /// and given up (keyed by the mutex's address; nothing in other builds).
    ///
    /// `Mutex` locks through the standard library's futex code, which
    /// ThreadSanitizer does not instrument: it sees no order between one
    /// thread's writes before it unlocks and another's reads after it
    /// locks, and reports a race on every object built by one thread and
    /// handed to another through a mutex (a registry's compiled entries,
    /// a resolved entry's last answer). Every mutex in the module is taken
    /// through this.
    func withSanitizedLock<Result>(_ body: (inout sending Value) throws -> sending Result) rethrows -> sending Result {
        // The address as a number: a key for the sanitizer, never read. A
        // mutex lives where its owner put it, and is never moved or copied.
        let key = unsafe withUnsafePointer(to: self) { UInt(bitPattern: $0) }
        return try withLock { value in
            cartograph_sanitizer_acquire(key)
            defer { cartograph_sanitizer_release(key) }
            return try body(&value)
        }
    }
}
