/// A new array's storage, lent to an encode's ``OutputBuffer`` so that the
/// bytes are written where the array returned holds them: `encode` then
/// returns its output without copying it from the writer's block into an
/// array (a copy of the whole output: about a fortieth of a mapping
/// encode of twitter.json, and the output's size again in memory while it ran).
///
///     let bytes = try OutputLease.array { lease, finish in
///         var writer = NativeJSONWriter(options: options, lease: lease)
///         try writer.write(value)
///         writer.sink.withBytes(finish)
///     }
///
/// The array is sized from the thread's last output (``OutputBlock/lastUsed``),
/// an eighth larger. An output that outgrows it moves to a block of its own
/// as it grows (``OutputBuffer``) and is copied into an array at the end,
/// as every output was before; so is one that fills less than half of it,
/// so that a small output after a large one is not returned in a large array.
///
/// The storage is valid only inside the array's initializer. When that
/// returns, the lease is revoked: a buffer still writing into it (one held
/// past the encode by a `Codable` container kept by the caller) moves to a
/// block of its own, so nothing is ever written into the array afterwards.
@safe final class OutputLease {
    let base: UnsafeMutablePointer<UInt8>
    let capacity: Int
    /// The buffer writing into the lease, while one does (it clears this
    /// when it moves out or is released; at most one holds it at a time).
    unowned(unsafe) var holder: OutputBuffer?

    private init(base: UnsafeMutablePointer<UInt8>, capacity: Int) {
        unsafe self.base = base
        self.capacity = capacity
    }

    /// Below this many bytes of last output no lease is made: copying so
    /// small an output costs less than the lease.
    static let smallest = 16 * 1024
    /// Above this many, none either: an array that large is not made on a
    /// guess (a small output after a huge one would reserve the huge
    /// one's size again), as a thread keeps no output block above it.
    static let largest = 4 * 1024 * 1024

    /// The bytes `encode` writes, as an array. `encode` writes with a
    /// writer made over the lease it is given (nil: none is made) and
    /// hands the buffer holding its finished bytes to the closure it is
    /// given, once; it may throw instead.
    static func array(_ encode: (OutputLease?, (OutputBuffer) -> Void) throws -> Void) rethrows -> [UInt8] {
        let last = OutputBlock.lastUsed
        guard last >= smallest, last <= largest else {
            var result: [UInt8]?
            try encode(nil) { result = $0.bytes }
            guard let result else { preconditionFailure("an encode returned without handing its output over") }
            return result
        }
        let size = last + last / 8 + 256
        var copied: [UInt8]?
        var finished = false
        let array = try unsafe [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
            // A buffer of a nonzero capacity has storage.
            let start = buffer.baseAddress!
            let lease = unsafe OutputLease(base: start, capacity: buffer.count)
            defer { lease.revoke() }
            try encode(lease) { output in
                finished = true
                OutputBlock.noteUsed(output.count)
                unsafe output.withBytes { bytes in
                    if unsafe bytes.baseAddress == UnsafeRawPointer(start), bytes.count <= buffer.count, bytes.count >= buffer.count / 2 {
                        count = bytes.count
                    } else {
                        unsafe copied = Array(bytes)
                    }
                }
            }
        }
        // An encode that returns hands its bytes over: an empty array here
        // would be an output lost without an error.
        precondition(finished, "an encode returned without handing its output over")
        return copied ?? array
    }

    /// Ends the lease: a buffer still writing into it leaves its memory.
    private func revoke() {
        unsafe holder?.leaveLease()
    }
}
