internal import CCartographTape

/// The block of memory a thread's last JSON output was written into, kept
/// for its next output (`output_block.c`): where an ``OutputBuffer`` for a
/// writer's output starts, and what it gives back when it is released.
enum OutputBlock {
    /// The thread's kept block, if it has one of at least `minimum` bytes,
    /// else a new one from `malloc`; with its size. Stops the process if
    /// memory is out, as Swift's own allocations do.
    static func take(minimum: Int) -> (base: UnsafeMutablePointer<UInt8>, capacity: Int) {
        var capacity = 0
        guard let block = unsafe cartograph_output_block_take(minimum, &capacity) else {
            fatalError("out of memory for \(minimum) bytes of output")
        }
        return unsafe (block.assumingMemoryBound(to: UInt8.self), capacity)
    }

    /// Gives a block taken here (or grown from one with `realloc`) back:
    /// kept for the thread's next output, or freed.
    static func give(_ base: UnsafeMutablePointer<UInt8>, capacity: Int, used: Int) {
        unsafe cartograph_output_block_give(base, capacity, used)
    }

    /// The bytes this thread's last output came to (0 before its first).
    static var lastUsed: Int { Int(cartograph_output_block_last_used()) }

    /// Notes the size of an output written outside the thread's block.
    static func noteUsed(_ used: Int) { cartograph_output_block_note_used(used) }
}
