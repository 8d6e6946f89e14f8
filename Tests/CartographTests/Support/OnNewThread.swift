import Foundation

/// Runs `body` on a thread of its own and returns what it measured: a
/// fresh thread starts with nothing kept in the per-thread memory of the
/// C layer (the DOM arena, the kept output block).
func onNewThread<Result>(_ body: @escaping @Sendable () -> Result) -> Result {
    let result = LockedBox<Result?>(nil)
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
        result.value = body()
        done.signal()
    }
    thread.start()
    done.wait()
    return result.value!
}
