import Synchronization

// Objects shared between tasks through one atomic word, read without a
// lock and without a reference count: the registry's compiled entries and
// the nested-model codecs' answers, asked once per object decoded.
//
// The word holds an object's address. Reading it is sound because an
// object, once published, is immutable and stays alive until the holder
// of the word goes: `PublishedObject` retains the one it publishes and
// releases it in its deinit; `PublishedObjects` keeps every object it ever
// published in an array behind a lock. A reader borrows the object for a
// closure (`_withUnsafeGuaranteedRef`), so no retain or release is made
// on the way, and cannot keep it past the holder.
//
// `Synchronization.AtomicLazyReference` does the first job, but its `load()`
// was not specialised where it was called and looked its generic metadata
// up on every call (11% of records.json's Codable decode, HISTORY.md).

/// One immutable object, published once (the first publisher wins) and
/// then read by any task without a lock or a reference count.
struct PublishedObject<Object: AnyObject & Sendable>: ~Copyable {
    /// The object's address, retained by this value; 0 before it is published.
    private let bits = Atomic<Int>(0)

    /// Nothing published yet.
    init() {}

    /// `object` published from the start.
    init(_ object: Object) {
        unsafe bits.store(Int(bitPattern: Unmanaged.passRetained(object).toOpaque()), ordering: .releasing)
    }

    deinit {
        let address = bits.load(ordering: .acquiring)
        if address != 0 { unsafe Self.reference(address).release() }
    }

    /// Runs `body` on the published object (borrowed, not retained); nil,
    /// without running it, before anything is published.
    @inline(__always)
    func withObject<Result>(_ body: (Object) throws -> Result) rethrows -> Result? {
        let address = bits.load(ordering: .acquiring)
        guard address != 0 else { return nil }
        return unsafe try Self.reference(address)._withUnsafeGuaranteedRef(body)
    }

    /// Publishes `object` unless an object is already published, then runs
    /// `body` on whichever is: concurrent first publishers all see the one
    /// that won.
    func publish<Result>(_ object: Object, _ body: (Object) throws -> Result) rethrows -> Result {
        let retained = unsafe Unmanaged.passRetained(object)
        let (exchanged, original) = unsafe bits.compareExchange(
            expected: 0, desired: Int(bitPattern: retained.toOpaque()), successOrdering: .acquiringAndReleasing,
            failureOrdering: .acquiring)
        if exchanged { return try body(object) }
        unsafe retained.release()
        return unsafe try Self.reference(original)._withUnsafeGuaranteedRef(body)
    }

    @inline(__always)
    private static func reference(_ address: Int) -> Unmanaged<Object> {
        unsafe Unmanaged<Object>.fromOpaque(UnsafeRawPointer(bitPattern: address).unsafelyUnwrapped)
    }
}

/// Immutable objects published one after another, up to a limit: the
/// latest is read by any task without a lock or a reference count, and
/// every one is kept until this value goes (a reader may still hold an
/// earlier one).
struct PublishedObjects<Object: AnyObject & Sendable>: ~Copyable {
    /// The latest object's address (0: none yet), unretained: `kept` holds it.
    private let latest = Atomic<Int>(0)
    /// Every object published.
    private let kept = Mutex<[Object]>([])
    /// How many objects may be published.
    let limit: Int

    /// Nothing published yet; at most `limit` objects will be.
    init(limit: Int) {
        self.limit = limit
    }

    /// Runs `body` on the latest object published (borrowed, not retained);
    /// nil, without running it, before anything is published.
    @inline(__always)
    func withLatest<Result>(_ body: (Object) throws -> Result) rethrows -> Result? {
        guard let address = unsafe UnsafeRawPointer(bitPattern: latest.load(ordering: .acquiring)) else { return nil }
        return unsafe try Unmanaged<Object>.fromOpaque(address)._withUnsafeGuaranteedRef(body)
    }

    /// Publishes `object` as the latest, keeping it until this value goes;
    /// false, publishing nothing, once `limit` objects have been published.
    func publish(_ object: Object) -> Bool {
        let kept = kept.withSanitizedLock { objects in
            guard objects.count < limit else { return false }
            objects.append(object)
            return true
        }
        if kept { unsafe latest.store(Int(bitPattern: Unmanaged.passUnretained(object).toOpaque()), ordering: .releasing) }
        return kept
    }

    /// How many objects have been published.
    var count: Int { kept.withSanitizedLock { $0.count } }
}

/// Lends `object` to `body` as `Known`, the class the caller knows it to
/// be (a registry entry's compiled mapping, made for the entry's own model
/// type), with no dynamic cast: casting to a generic class looks its
/// metadata up on every call. Debug builds, which the tests run, check the
/// type; a caller that is wrong about it is a bug these checks catch.
@inline(__always)
func withKnownClass<Known: AnyObject, Result>(_ object: AnyObject, as _: Known.Type, _ body: (Known) throws -> Result) rethrows -> Result {
    #if DEBUG
        precondition(object is Known, "Cartograph: an object lent as a class it is not")
    #endif
    return unsafe try Unmanaged<Known>.fromOpaque(Unmanaged.passUnretained(object).toOpaque())._withUnsafeGuaranteedRef(body)
}
