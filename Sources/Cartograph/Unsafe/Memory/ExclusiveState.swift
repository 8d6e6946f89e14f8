// Mutable state read and written without the runtime's exclusivity check.
//
// Swift checks at run time that two accesses to a class's stored property
// never overlap (a `modify` of `frames` while something reads `frames`):
// each access calls `swift_beginAccess`, which the optimizer cannot remove
// when the access reaches across calls. On the streaming encoder's stack,
// touched several times per value written, those calls were a fifth of
// the encode (HISTORY.md, thirty-first session).
//
// A class that one encode or decode owns keeps its mutable state in one
// struct and derives from `ExclusiveState<ThatStruct>`:
//
//     final class StreamRun: ExclusiveState<StreamStack> { … }
//     run.state.beginMember(frame, generation)   // one access, no check
//
// Why skipping the check is sound here: such an object lives on one task
// (its class is not `Sendable`), and no code reached while `state` is
// being modified touches the same object's state: the struct's mutating
// methods write bytes and bookkeeping and return, and never run code the
// library does not own (a value's `encode(to:)`, a transform). The one
// read held across such code, a keyed container's targets borrowed while
// a member's value encodes (`withTargets`), is of a container the caller
// still holds, which is therefore never recycled (reset) meanwhile
// (``RecycledContainers`` hands out only containers nothing else holds).
//
// Debug builds, which the test suite runs, check what they can: an access
// that begins while a modification is open traps, as the runtime's check
// would. (A debug build copies what it reads and ends the read at once,
// so a modification during a borrow is the one overlap it cannot see;
// the argument above covers it.)

/// A base class whose subclass's mutable state, one `State` value, is read
/// and written without the runtime's dynamic exclusivity check (checked in
/// debug builds instead).
///
/// Only for objects that one encode or decode owns on one task, whose
/// accesses to ``state`` never run code outside the library.
class ExclusiveState<State> {
    @exclusivity(unchecked) private final var storage: State

    #if DEBUG
        /// Accesses open now: readers, or -1 while one modifies.
        private final var openAccesses = 0
    #endif

    /// Whether accesses are checked (debug builds).
    static var checksAccesses: Bool {
        #if DEBUG
            true
        #else
            false
        #endif
    }

    init(state: State) {
        unsafe storage = state
    }

    /// The state. An access that overlaps a modification is undefined in
    /// release builds; debug builds trap when an access begins while a
    /// modification is open.
    final var state: State {
        @inline(__always) _read {
            #if DEBUG
                precondition(openAccesses >= 0, "\(Self.self): state read while it is being modified")
                openAccesses += 1
                defer { openAccesses -= 1 }
            #endif
            yield unsafe storage
        }
        @inline(__always) _modify {
            #if DEBUG
                precondition(openAccesses == 0, "\(Self.self): state modified while another access is open")
                openAccesses = -1
                defer { openAccesses = 0 }
            #endif
            yield unsafe &storage
        }
    }
}

/// An object lent to a closure with no retain and release around the call.
///
/// For an object loaded from an ``ExclusiveState``'s state (a keyed
/// container's encoder): the optimizer retains such a load for as long as
/// it is used, since the state is a `var` that could change meanwhile; by
/// the argument above it does not, and the caller holds the object whose
/// state keeps this one alive. The reference is taken unretained where it
/// is loaded (a parameter borrowed across the call would be retained for
/// it). A retain and a release per member written were a seventh of a
/// `Codable` encode's time.
///
/// Also for an element of an immutable array that the caller borrows for
/// the whole call (a compiled mapping's rules, held by the mapping whose
/// method runs): the element is alive as long as the array is.
///
/// And for a kept container's holder that ``RecycledContainers`` lends:
/// the table's own reference keeps it alive until the table is emptied,
/// which its owner does only when the decode or encode ends.
///
/// And for the encoder of a streaming keyed container that the encoder
/// itself keeps (``StreamKeyedTargets``): the container is reached only
/// through that encoder, or through a copy a model holds while its
/// `encode(to:)` runs, when the encoder is alive. A copy held past that
/// makes the container retain its encoder (`pin`) before the encoder can
/// go; in the run's table the container is only compared with
/// ``refers(to:)`` and pointed at another encoder, never read through.
@safe struct Unretained<Object: AnyObject> {
    private let reference: Unmanaged<Object>

    @inline(__always)
    init(_ object: Object) {
        unsafe reference = unsafe .passUnretained(object)
    }

    @inline(__always)
    func with<Result>(_ body: (Object) throws -> Result) rethrows -> Result {
        try unsafe reference._withUnsafeGuaranteedRef(body)
    }

    /// Whether this is `object`, by address alone: nothing is read through
    /// the reference, which may be to an object gone since.
    @inline(__always)
    func refers(to object: Object) -> Bool {
        unsafe reference.toOpaque() == Unmanaged.passUnretained(object).toOpaque()
    }

    /// The object as `Target`, which the caller knows it is (checked in
    /// debug builds only): for an array of objects kept as `AnyObject` so
    /// that unspecialised code reads it without asking for `Target`'s metadata.
    @inline(__always)
    func with<Target: AnyObject, Result>(as _: Target.Type, _ body: (Target) throws -> Result) rethrows -> Result {
        try unsafe reference._withUnsafeGuaranteedRef { object in try body(unsafe unsafeDowncast(object, to: Target.self)) }
    }
}
