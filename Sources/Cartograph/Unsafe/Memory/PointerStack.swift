/// A growable stack of trivial values in raw memory, for the parser's hot
/// path: pushes and pops through a pointer skip the exclusivity and
/// uniqueness checks a Swift `Array` stored in a class pays on every access.
///
/// The elements must be trivial (no references to release: plain numbers,
/// `Unmanaged`): the stack copies and forgets them as bytes. Its state is
/// three plain stored properties without runtime exclusivity checks (one
/// stack serves one parse or decode, on one thread at a time), and the
/// element buffer is allocated at the first push (a parse through the C
/// tape builder never pushes). An earlier version kept the state in a
/// separately allocated generic tuple: two more allocations per stack, and
/// a `deinit` that asked the runtime for the tuple's metadata on every parse.
@safe final class PointerStack<Element> {
    @exclusivity(unchecked) private var base: UnsafeMutableRawPointer?
    @exclusivity(unchecked) private var storedCount = 0
    @exclusivity(unchecked) private var capacity = 0
    private let initialCapacity: Int

    init(capacity: Int = 32) {
        assert(_isPOD(Element.self), "PointerStack holds trivial values only")
        initialCapacity = max(capacity, 1)
    }

    deinit {
        unsafe base?.deallocate()
    }

    @inline(__always) private var elements: UnsafeMutablePointer<Element> {
        unsafe base.unsafelyUnwrapped.assumingMemoryBound(to: Element.self)
    }

    /// Number of elements.
    @inline(__always) var count: Int { unsafe storedCount }
    /// Whether the stack is empty.
    @inline(__always) var isEmpty: Bool { unsafe storedCount == 0 }
    /// A pointer to the top element, or nil.
    @inline(__always) var top: UnsafeMutablePointer<Element>? {
        unsafe storedCount == 0 ? nil : elements + (storedCount - 1)
    }

    /// The element at a position (0 is the bottom).
    @inline(__always) subscript(position: Int) -> Element {
        get {
            precondition(UInt(bitPattern: position) < UInt(bitPattern: unsafe storedCount), "Cartograph: a stack position out of range")
            return unsafe elements[position]
        }
        set {
            precondition(UInt(bitPattern: position) < UInt(bitPattern: unsafe storedCount), "Cartograph: a stack position out of range")
            unsafe elements[position] = newValue
        }
    }

    @inline(__always)
    func push(_ element: Element) {
        if unsafe storedCount == capacity { grow() }
        unsafe (elements + storedCount).initialize(to: element)
        unsafe storedCount += 1
    }

    @inline(__always)
    func pop() -> Element? {
        guard unsafe storedCount > 0 else { return nil }
        unsafe storedCount -= 1
        return unsafe (elements + storedCount).move()
    }

    /// Removes elements above `count`.
    func truncate(to newCount: Int) {
        guard unsafe newCount < storedCount else { return }
        unsafe storedCount = newCount
    }

    private func grow() {
        let newCapacity = unsafe capacity == 0 ? initialCapacity : capacity * 2
        let grown = UnsafeMutableRawPointer.allocate(
            byteCount: newCapacity * MemoryLayout<Element>.stride, alignment: MemoryLayout<Element>.alignment)
        if let base = unsafe base {
            unsafe grown.copyMemory(from: base, byteCount: storedCount * MemoryLayout<Element>.stride)
            unsafe base.deallocate()
        }
        unsafe base = unsafe grown
        unsafe capacity = newCapacity
    }
}
