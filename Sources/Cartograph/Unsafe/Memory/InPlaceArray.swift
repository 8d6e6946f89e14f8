/// A growable array whose elements are read and changed where they live,
/// for the streaming encoder's stack of open containers (``StreamStack``).
///
/// An `Array` kept in a struct that a class holds checks that its buffer
/// is uniquely referenced on every change of an element (a call into the
/// runtime), and copies the element out and back for a change through a
/// method: the stack's frames and key logs are changed several times per
/// member written, and those checks were about 4% of a `Codable` encode of
/// twitter.json (HISTORY.md, fiftieth session). Here the subscript hands
/// out the element's address.
///
/// Sound because of how it is used: one encode owns it on one task (the
/// class is not `Sendable`), positions are checked against the count in
/// release builds too, and an element's address is used only for the one
/// access it was given for. No code reached while an element is being read
/// or changed appends to the same array (``StreamStack`` appends only in
/// `push`, which changes no element meanwhile), so its storage never moves
/// under an access.
@safe final class InPlaceArray<Element> {
    @exclusivity(unchecked) private var base: UnsafeMutablePointer<Element>
    @exclusivity(unchecked) private var storedCount = 0
    @exclusivity(unchecked) private var capacity: Int

    /// An array holding `first`, with room for `capacity` elements.
    init(_ first: consuming Element, capacity: Int = 16) {
        unsafe self.capacity = max(capacity, 1)
        unsafe base = .allocate(capacity: unsafe self.capacity)
        unsafe base.initialize(to: first)
        unsafe storedCount = 1
    }

    deinit {
        unsafe base.deinitialize(count: storedCount)
        unsafe base.deallocate()
    }

    /// Number of elements.
    @inline(__always) var count: Int { unsafe storedCount }

    /// The element at `position`, read and changed in place.
    @inline(__always) subscript(position: Int) -> Element {
        unsafeAddress {
            precondition(UInt(bitPattern: position) < UInt(bitPattern: unsafe storedCount), "Cartograph: a stack position out of range")
            return unsafe UnsafePointer(base + position)
        }
        unsafeMutableAddress {
            precondition(UInt(bitPattern: position) < UInt(bitPattern: unsafe storedCount), "Cartograph: a stack position out of range")
            return unsafe base + position
        }
    }

    /// Adds `element` at the end.
    func append(_ element: consuming Element) {
        if unsafe storedCount == capacity { grow() }
        unsafe (base + storedCount).initialize(to: element)
        unsafe storedCount += 1
    }

    @inline(never)
    private func grow() {
        let newCapacity = unsafe capacity * 2
        let grown = UnsafeMutablePointer<Element>.allocate(capacity: newCapacity)
        unsafe grown.moveInitialize(from: base, count: storedCount)
        unsafe base.deallocate()
        unsafe base = grown
        unsafe capacity = newCapacity
    }
}
