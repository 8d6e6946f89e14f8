/// A value that lies in memory its owner keeps, lent to a closure as a
/// value without a Swift copy: how the mapping stream passes a struct
/// model's nested models, optionals, scalars and array elements on.
///
/// Unspecialised generic code copies a value it reads out of memory before
/// it hands it to a closure (`load(as:)`, `pointer.pointee`, an array's
/// subscript, `if let` on an optional), since the call could write that
/// memory meanwhile. A copy of a struct retains every reference inside it:
/// a tweet read out of its array retained some fifty strings and released
/// them again, and such copies were a third of a twitter.json mapping
/// encode's reference counting.
///
/// Here the value's bytes are copied into a temporary (a `memcpy`, which
/// retains nothing), taken from it as the closure's argument, and put back
/// into the temporary when the closure returns or throws, so that this
/// second holder of the same references is never destroyed: the owner's
/// value keeps the only counted ownership. That is sound when
///
/// - the type is bitwise-takable, so its bytes moved elsewhere are the same
///   value (checked on each call: a type that is not, such as a struct
///   holding a `weak` reference, is copied the ordinary way);
/// - `address` holds an initialised `T` that nothing writes during the
///   call: callers lend from a value they borrow (a parameter, an array's
///   buffer they hold), which Swift's exclusivity rules keep unchanged;
/// - the closure takes the value as a borrowed argument, as closures do:
///   whatever it keeps, it copies, and that copy counts its own references.
enum LentValue {
    /// Runs `body` with the `T` stored at `address`. The result is a `Bool`,
    /// not generic: a generic result made the temporary allocation look up
    /// a `Result` type's metadata on every call.
    @inline(__always)
    static func with<T>(at address: UnsafeRawPointer, as _: T.Type, _ body: (T) throws -> Bool) rethrows -> Bool {
        guard _isBitwiseTakable(T.self) else { return try body(unsafe address.assumingMemoryBound(to: T.self).pointee) }
        return try unsafe withUnsafeTemporaryAllocation(of: T.self, capacity: 1) { buffer in
            let slot = unsafe buffer.baseAddress.unsafelyUnwrapped
            unsafe ByteCopy.copy(to: UnsafeMutableRawPointer(slot), from: address, count: MemoryLayout<T>.size)
            let value = unsafe slot.move()
            do {
                let result = try body(value)
                unsafe slot.initialize(to: consume value)
                return result
            } catch {
                unsafe slot.initialize(to: consume value)
                throw error
            }
        }
    }

    /// Runs `body` with each element of `elements` and its position, in order.
    @inline(__always)
    static func forEach<Element>(in elements: [Element], _ body: (Int, Element) throws -> Void) rethrows {
        try unsafe elements.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            for position in 0..<buffer.count {
                _ = try unsafe with(at: UnsafeRawPointer(base + position), as: Element.self) {
                    try body(position, $0)
                    return true
                }
            }
        }
    }

    /// Runs `body` with the value an optional wraps (the optional lent from
    /// where it lies); false, without running it, when it is nil. A single-
    /// payload enum keeps its payload at offset 0 (the runtime's layout:
    /// ``LayoutAssumptions``; the portable path unwraps a copy).
    ///
    /// The nil test is made here, inlined, and the lending apart: in
    /// unspecialised code the lending asks the runtime for `Wrapped?`'s
    /// metadata (about 400 instructions), and inlined whole it asked on
    /// entry, for every optional; nine in ten of twitter.json's optional
    /// nested values are nil, and the test needs only `Wrapped`'s own witnesses.
    @inline(__always)
    static func withWrapped<Wrapped>(_ optional: borrowing Wrapped?, _ body: (Wrapped) throws -> Void) rethrows -> Bool {
        if optional == nil { return false }
        return try lendWrapped(optional, body)
    }

    /// ``withWrapped(_:_:)`` for an optional known to hold a value.
    @inline(never)
    private static func lendWrapped<Wrapped>(_ optional: borrowing Wrapped?, _ body: (Wrapped) throws -> Void) rethrows -> Bool {
        guard LayoutAssumptions.enabled else {
            guard let value = copy optional else { return false }
            try body(value)
            return true
        }
        return try unsafe withUnsafePointer(to: optional) { pointer in
            try unsafe with(at: UnsafeRawPointer(pointer), as: Wrapped.self) {
                try body($0)
                return true
            }
        }
    }
}
