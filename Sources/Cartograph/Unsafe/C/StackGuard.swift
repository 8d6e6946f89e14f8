internal import CCartographShims

/// Keeps recursion from running off the end of the thread's stack.
///
/// Nested values are decoded and encoded recursively (a `Codable` type's
/// `init(from:)` calls the decoder, which calls the next `init(from:)` …),
/// and what one level costs depends on the user's types and the build. A
/// depth limit alone cannot be both generous and safe on every stack: 512
/// levels of a recursive `Codable` class took more than a 512 KiB service
/// thread's stack. So each recursive step also asks how much stack is left
/// (the thread's bounds are read once per thread and kept in a C
/// thread-local; a check is a few instructions) and throws
/// ``CartographError/Kind/depthLimitExceeded`` while ``reserve`` bytes
/// remain, enough for the deepest stretch between two checks and for
/// building the error. On a 512 KiB stack that is a little over 200 levels of
/// a recursive `Codable` model in a debug build, several times more in a
/// release build; an 8 MiB stack (the main thread's) holds thousands.
/// The position is the frame's address, not a local's (AddressSanitizer
/// can move locals to a heap-allocated fake stack).
enum StackGuard {
    /// Stack bytes kept free below the deepest check.
    static let reserve = 128 << 10

    /// Levels a caller that counts its depth may go without checking: at
    /// about 2 KiB a level they stay well inside ``reserve``.
    static let uncheckedLevels = 16

    /// Stack bytes the guard counts as left on the calling thread: the room
    /// below the caller's frame, less ``sanitizerAllowance``.
    static var remaining: Int { Int(clamping: cartograph_stack_remaining()) }

    /// Bytes counted as used on top of the real depth: 256 KiB in a build
    /// with AddressSanitizer, whose redzones make every frame several
    /// times larger, or ThreadSanitizer, whose frames are larger too (the
    /// reserve then acts as 384 KiB), 0 otherwise.
    static var sanitizerAllowance: Int { Int(cartograph_stack_sanitizer_allowance()) }

    /// Whether the calling thread has room for another level.
    @inline(__always)
    static var hasRoom: Bool { cartograph_stack_remaining() > reserve }

    /// The error for a value nested deeper than the stack allows.
    static func exhausted(path: String? = nil, offset: Int? = nil) -> CartographError {
        CartographError(
            .depthLimitExceeded,
            "the value nests deeper than this thread's stack allows (\(reserve >> 10) KiB kept free); decode it on a thread with a larger stack or lower maxDepth",
            offset: offset, path: path)
    }
}
