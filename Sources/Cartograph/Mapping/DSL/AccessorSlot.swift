import Synchronization

/// Direct accessors of one property of a class model, which a rule calls
/// instead of applying its key path.
///
/// A key path into a class goes through the key-path runtime on every use:
/// a set projects a writeback buffer (an allocation, the getter, then the
/// setter), about 200 ns, and a get about 50 ns, against a few nanoseconds
/// for a call of the property's own accessors. ``Mappable()`` knows each
/// property's name at compile time, so for a class it writes the accessors
/// beside the key path (``MappableProperty/init(_:_:weak:get:set:)``); the
/// table hands them to its rules when the mapping is built. They call the
/// property's getter and setter, overrides and observers included, as the
/// key path does, so nothing a model sees changes.
///
/// The slot is filled while the mapping is built, before any rule runs,
/// and only once: a rule kept in a variable and put in a second mapping is
/// offered the same accessors again, which leave it as it is, so that a
/// mapping already running never sees it written. Rules then read it
/// across tasks without a lock.
final class AccessorSlot<Model, Value>: @unchecked Sendable {
    private(set) var get: ((Model) -> Value)?
    private(set) var set: ((Model, Value) -> Void)?
    private let filled = Mutex(false)

    /// Gives the slot its accessors (while the mapping is built), unless it has them.
    func fill(get: @escaping (Model) -> Value, set: ((Model, Value) -> Void)?) {
        filled.withSanitizedLock { filled in
            guard !filled else { return }
            self.get = get
            self.set = set
            filled = true
        }
    }
}
