import Foundation

/// The bytes a ``NativeJSONWriter`` produces: a growable buffer appended to
/// without the uniqueness check, bounds check and call an array's append
/// makes every time: an encode appends once per token.
///
/// A class, so that the writer (a struct, mutated through its methods)
/// holds one reference and never copies the bytes; one writer uses it at a
/// time (an encode is synchronous): no dynamic exclusivity checks.
///
/// A writer's buffer starts in the block its thread's last output ended
/// with (``OutputBlock``), and gives its block back when it is released:
/// encodes of similar size one after another then neither allocate nor
/// copy their bytes from block to block as they grow. An encode that
/// returns an array starts in the array's own storage instead, lent to it
/// (``OutputLease``), and moves to a block of its own only if it outgrows it.
@safe final class OutputBuffer {
    @exclusivity(unchecked) private var base: UnsafeMutablePointer<UInt8>
    @exclusivity(unchecked) private var capacity: Int
    /// The number of bytes written.
    @exclusivity(unchecked) private var used = 0
    /// Whether the block goes back to the thread's kept block when this buffer is released.
    @exclusivity(unchecked) private var keepsBlock: Bool
    /// The lease whose memory the bytes are written into, while they are.
    @exclusivity(unchecked) private var lease: OutputLease?
    /// Bytes written.
    var count: Int { unsafe used }
    /// Whether the bytes are written in a lease's memory (``OutputLease``).
    var writesInLease: Bool { unsafe lease != nil }

    /// A buffer of at least `capacity` bytes; with `reusingBlock`, in the
    /// thread's kept block (a writer's output), else in a block of its own
    /// (a buffer kept for long, such as a key template's).
    init(capacity: Int, reusingBlock: Bool = false, lease: OutputLease? = nil) {
        let minimum = max(capacity, 16)
        unsafe keepsBlock = reusingBlock
        // A lease serves one buffer at a time: a second (the tree's writer
        // while the abandoned stream's still holds it) takes a block.
        if let lease, unsafe lease.holder == nil, lease.capacity >= minimum {
            unsafe base = unsafe lease.base
            unsafe self.capacity = lease.capacity
            unsafe keepsBlock = false
            unsafe self.lease = lease
            unsafe lease.holder = self
        } else if reusingBlock {
            (unsafe base, unsafe self.capacity) = unsafe OutputBlock.take(minimum: minimum)
        } else {
            guard let block = unsafe malloc(minimum) else { Self.outOfMemory(minimum) }
            unsafe base = unsafe block.assumingMemoryBound(to: UInt8.self)
            unsafe self.capacity = minimum
        }
    }

    deinit {
        if unsafe lease != nil {
            // The memory is the lease's: nothing to free or keep.
            endLease()
        } else if unsafe keepsBlock {
            unsafe OutputBlock.give(base, capacity: capacity, used: used)
        } else {
            unsafe free(base)
        }
    }

    private static func outOfMemory(_ bytes: Int) -> Never {
        fatalError("out of memory for \(bytes) bytes of output")
    }

    /// The bytes written, as an array (one copy).
    var bytes: [UInt8] { unsafe Array(UnsafeBufferPointer(start: base, count: used)) }

    /// The bytes written, as `Data` (one copy).
    var data: Data { unsafe Data(UnsafeRawBufferPointer(start: base, count: used)) }

    /// The bytes written, as a `String` (one copy; they are UTF-8).
    var text: String { unsafe String(decoding: UnsafeBufferPointer(start: base, count: used), as: UTF8.self) }

    /// The bytes written, in place (valid only inside `body`).
    func withBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        unsafe try body(UnsafeRawBufferPointer(start: base, count: used))
    }

    @inline(__always)
    private func reserve(_ more: Int) {
        if unsafe capacity - used < more { unsafe grow(to: used + more) }
    }

    private func grow(to needed: Int) {
        var grown = unsafe capacity * 2
        while grown < needed { grown *= 2 }
        if unsafe lease != nil { return moveOutOfLease(capacity: grown) }
        // The block is malloc's (or the thread's kept one, which is too).
        guard let moved = unsafe realloc(base, grown) else { Self.outOfMemory(grown) }
        unsafe base = unsafe moved.assumingMemoryBound(to: UInt8.self)
        unsafe capacity = grown
    }

    /// Moves the bytes out of the lease's memory into a block of at least
    /// `capacity` bytes, which the thread keeps afterwards as any writer's.
    private func moveOutOfLease(capacity grown: Int) {
        let (moved, size) = unsafe OutputBlock.take(minimum: grown)
        unsafe ByteCopy.copy(to: moved, from: base, count: used)
        unsafe base = moved
        unsafe capacity = size
        unsafe keepsBlock = true
        endLease()
    }

    /// Leaves the lease's memory with nothing written (the lease is
    /// revoked while this buffer is still alive): whatever writes here
    /// later writes into a block of this buffer's own.
    func leaveLease() {
        guard unsafe lease != nil else { return }
        guard let block = unsafe malloc(16) else { Self.outOfMemory(16) }
        unsafe base = unsafe block.assumingMemoryBound(to: UInt8.self)
        unsafe capacity = 16
        unsafe used = 0
        unsafe keepsBlock = false
        endLease()
    }

    /// Stops writing into the lease's memory: the lease can serve another buffer.
    private func endLease() {
        unsafe lease?.holder = nil
        unsafe lease = nil
    }

    /// Drops the bytes written after the first `count` (a streamed member
    /// whose value threw).
    func truncate(to count: Int) {
        unsafe precondition(count >= 0 && count <= used, "truncating past the bytes written")
        unsafe used = count
    }

    @inline(__always)
    func append(_ byte: UInt8) {
        reserve(1)
        unsafe base[used] = byte
        unsafe used += 1
    }

    func append(_ bytes: UnsafeRawBufferPointer) {
        guard let source = bytes.baseAddress, bytes.count > 0 else { return }
        reserve(bytes.count)
        unsafe ByteCopy.copy(to: base + used, from: source, count: bytes.count)
        unsafe used += bytes.count
    }

    /// Starts a compact object member: a comma unless it is the first,
    /// its key's JSON text (quotes included) and the colon, with one check
    /// of the room for all three.
    @inline(__always)
    func appendMemberStart(quoted key: Span<UInt8>, first: Bool) {
        let count = key.count
        reserve(count + 2)
        var at = unsafe used
        if !first {
            unsafe base[at] = UInt8(ascii: ",")
            at += 1
        }
        unsafe key.withUnsafeBufferPointer { bytes in
            if let source = bytes.baseAddress { unsafe ByteCopy.copy(to: base + at, from: source, count: count) }
        }
        unsafe base[at + count] = UInt8(ascii: ":")
        unsafe used = at + count + 1
    }

    /// ``appendMemberStart(quoted:first:)`` for a key framed ahead of time:
    /// in `framed`, the bytes at `key` are its JSON text (quotes included),
    /// with a comma just before and a colon just after, and at least
    /// ``framePadding`` bytes follow the key's start. Up to 32 bytes (the
    /// comma, the key and the colon), the copy is two 16-byte words with
    /// no branch on the length: the bytes written past the colon are
    /// overwritten by what follows (room for them is reserved).
    @inline(__always)
    func appendMemberStart(framed: Span<UInt8>, key: Range<Int>, first: Bool) {
        let from = first ? key.lowerBound : key.lowerBound - 1
        let count = key.upperBound + 1 - from
        precondition(from >= 0 && key.upperBound < framed.count, "a framed key outside its bytes")
        reserve(count + Self.framePadding)
        unsafe framed.withUnsafeBufferPointer { bytes in
            let source = unsafe UnsafeRawPointer(bytes.baseAddress.unsafelyUnwrapped + from)
            let target = unsafe UnsafeMutableRawPointer(base + used)
            if count <= Self.framePadding, from + Self.framePadding <= bytes.count {
                let low = unsafe source.loadUnaligned(as: SIMD16<UInt8>.self)
                let high = unsafe source.loadUnaligned(fromByteOffset: 16, as: SIMD16<UInt8>.self)
                unsafe target.storeBytes(of: low, as: SIMD16<UInt8>.self)
                unsafe target.storeBytes(of: high, toByteOffset: 16, as: SIMD16<UInt8>.self)
            } else {
                unsafe ByteCopy.copy(to: target, from: source, count: count)
            }
        }
        unsafe used += count
    }

    /// How many bytes a framed key's bytes hold past its start (zeros past
    /// the last key), and the most a framed member start copies in words.
    static let framePadding = 32

    func append(_ bytes: UnsafeBufferPointer<UInt8>) { unsafe append(UnsafeRawBufferPointer(bytes)) }

    /// Appends bytes held elsewhere (a mapping's keys, quoted ahead of time).
    @inline(__always)
    func append(_ bytes: Span<UInt8>) {
        unsafe bytes.withUnsafeBufferPointer { unsafe append($0) }
    }

    /// Appends a short literal (`null`, `true`…): one unaligned word store,
    /// the bytes past the literal overwritten by what follows.
    @inline(__always)
    func append(contentsOf literal: StaticBytes) {
        reserve(8)
        unsafe UnsafeMutableRawPointer(base + used).storeBytes(of: literal.word.littleEndian, as: UInt64.self)
        unsafe used += literal.count
    }

    /// Lets `body` write straight into the room after the bytes written
    /// (at least `minimum` bytes: its second argument says how many there
    /// are) and keeps the count it returns, for the C escaper.
    @inline(__always)
    func appendInPlace(minimum: Int, _ body: (UnsafeMutablePointer<UInt8>, Int) -> Int) {
        reserve(minimum)
        let room = unsafe capacity - used
        let written = unsafe body(base + used, room)
        precondition(written >= 0 && written <= room, "wrote past the room given")
        unsafe used += written
    }

    /// Appends `value` in decimal: the digits from the last, into a
    /// three-word buffer on the stack, then copied at once.
    func appendDecimal(_ value: Int64) {
        var magnitude = value.magnitude
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)
        unsafe withUnsafeMutableBytes(of: &digits) { buffer in
            var position = buffer.count
            repeat {
                position -= 1
                unsafe buffer[position] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            if value < 0 {
                position -= 1
                unsafe buffer[position] = UInt8(ascii: "-")
            }
            unsafe append(UnsafeRawBufferPointer(rebasing: buffer[position...]))
        }
    }

    /// Appends a backslash and `byte` (a two-byte escape such as `\n`).
    @inline(__always)
    func escape(_ byte: UInt8) {
        reserve(2)
        unsafe base[used] = UInt8(ascii: "\\")
        unsafe base[used + 1] = byte
        unsafe used += 2
    }

    /// Appends any bytes (a string's UTF-8, repeated spaces): contiguous
    /// storage copied at once, anything else byte by byte.
    func append(contentsOf bytes: some Sequence<UInt8>) {
        if bytes.withContiguousStorageIfAvailable({ unsafe append($0) }) != nil { return }
        for byte in bytes { append(byte) }
    }
}

/// Up to eight bytes held inline, for the writer's literals (`null`,
/// `true`, `false`): no array made or read per use.
struct StaticBytes: ExpressibleByArrayLiteral {
    /// The bytes, first in the low byte.
    let word: UInt64
    let count: Int

    // Spelled as words, not literals: a `static let` made from an array
    // literal is a lazily initialised global, and each use of it went
    // through `swift_once` (a call per `true`, `false` or `null` written).
    /// `null`.
    static var null: StaticBytes { StaticBytes(word: 0x6C6C_756E, count: 4) }
    /// `true`.
    static var `true`: StaticBytes { StaticBytes(word: 0x6575_7274, count: 4) }
    /// `false`.
    static var `false`: StaticBytes { StaticBytes(word: 0x65_736C_6166, count: 5) }

    @inline(__always)
    private init(word: UInt64, count: Int) {
        self.word = word
        self.count = count
    }

    init(arrayLiteral elements: UInt8...) {
        precondition(elements.count <= 8, "at most eight bytes")
        var word: UInt64 = 0
        for (offset, byte) in elements.enumerated() { word |= UInt64(byte) << (8 * offset) }
        self.word = word
        count = elements.count
    }
}
