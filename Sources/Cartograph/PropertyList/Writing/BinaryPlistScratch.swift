import Foundation

/// The working memory of a binary plist write — the output buffer, object
/// offsets, references, the scalar and key tables — kept after the write
/// for the next one.
///
/// Grown afresh for every write, these arrays were returned to the system
/// by glibc after each write and taken back page by page in the next, a
/// large share of a write's time spent in page faults. Kept, they are
/// reused at their grown size; the result is copied
/// out of the output buffer at its exact length.
///
/// At most ``maxSpares`` sets are kept (as many writes at once as a small
/// server has cores), and none that holds more than
/// ``maxFootprint`` bytes, so one huge write does not pin its memory: a
/// process keeps at most 32 MB this way. The benchmark files' sets hold
/// 0.6 MB (twitter.json) to 11.5 MB (records.json).
struct BinaryPlistScratch: Sendable {
    /// The bytes written so far (the result is a copy).
    var output: [UInt8] = []
    /// Byte offset of each object (containers: filled in by ``BinaryPlistSink/finish()``).
    var offsets: [Int] = []
    /// Each closed container's object number and where its references start in `references`.
    var containers: [(object: Int, start: Int, count: Int, isDict: Bool)] = []
    /// Closed containers' members' object numbers; a dict's keys first, then its values.
    var references: [Int] = []
    /// Open containers: object number, where their members start on `pending`.
    var open: [(object: Int, start: Int, isDict: Bool)] = []
    /// Members of the open containers, in arrival order (a dict's key, value, key …).
    var pending: [Int] = []
    var table = ScalarTable()
    var keyCache = KeyCache()

    /// A set holding no memory, for a finished sink to keep in place of its own.
    static var none: BinaryPlistScratch { BinaryPlistScratch(table: ScalarTable(slotCount: 0), keyCache: KeyCache(slotCount: 0)) }

    static let maxSpares = 2
    static let maxFootprint = 16 << 20

    private static let spares = Spares()

    /// The kept sets behind a lock. `NSLock` (a pthread mutex, which
    /// ThreadSanitizer models) rather than `Synchronization.Mutex`, whose
    /// futex path ThreadSanitizer does not see: under it, two writes
    /// handing their sets back at once were reported as a race.
    private final class Spares: @unchecked Sendable {
        private let lock = NSLock()
        private var sets: [BinaryPlistScratch] = []

        func withLock<Result>(_ body: (inout [BinaryPlistScratch]) -> Result) -> Result {
            lock.lock()
            defer { lock.unlock() }
            return body(&sets)
        }
    }

    /// A kept set, emptied, or a new one.
    static func take() -> BinaryPlistScratch {
        if let kept = spares.withLock({ $0.popLast() }) { return kept }
        var fresh = BinaryPlistScratch()
        fresh.output.reserveCapacity(1 << 16)
        fresh.offsets.reserveCapacity(1 << 12)
        fresh.references.reserveCapacity(1 << 13)
        fresh.pending.reserveCapacity(256)
        fresh.containers.reserveCapacity(1 << 10)
        return fresh
    }

    /// Empties the set and keeps it for the next write (unless enough are
    /// kept or it has grown past ``maxFootprint``); whether it was kept.
    @discardableResult
    static func recycle(_ scratch: consuming BinaryPlistScratch) -> Bool {
        guard scratch.footprint <= maxFootprint else { return false }
        scratch.output.removeAll(keepingCapacity: true)
        scratch.offsets.removeAll(keepingCapacity: true)
        scratch.containers.removeAll(keepingCapacity: true)
        scratch.references.removeAll(keepingCapacity: true)
        scratch.open.removeAll(keepingCapacity: true)
        scratch.pending.removeAll(keepingCapacity: true)
        scratch.table.reset()
        scratch.keyCache.reset()
        let kept = scratch
        return spares.withLock { spares in
            guard spares.count < maxSpares else { return false }
            spares.append(kept)
            return true
        }
    }

    /// Bytes the set holds on to.
    var footprint: Int {
        output.capacity + 8 * (offsets.capacity + references.capacity + pending.capacity)
            + MemoryLayout<(Int, Int, Int, Bool)>.stride * containers.capacity
            + MemoryLayout<(Int, Int, Bool)>.stride * open.capacity + table.footprint
    }
}
