/// A growable stack of trivial values in raw memory, for the parser's hot
/// path: pushes and pops through a pointer skip the exclusivity and
/// uniqueness checks a Swift `Array` stored in a class pays on every access.
final class PointerStack<Element> {
    private let state: UnsafeMutablePointer<(base: UnsafeMutablePointer<Element>, count: Int, capacity: Int)>

    init(capacity: Int = 32) {
        state = .allocate(capacity: 1)
        state.initialize(to: (UnsafeMutablePointer<Element>.allocate(capacity: capacity), 0, capacity))
    }

    deinit {
        state.pointee.base.deinitialize(count: state.pointee.count)
        state.pointee.base.deallocate()
        state.deallocate()
    }

    /// Number of elements.
    @inline(__always) var count: Int { state.pointee.count }
    /// Whether the stack is empty.
    @inline(__always) var isEmpty: Bool { state.pointee.count == 0 }
    /// A pointer to the top element, or nil.
    @inline(__always) var top: UnsafeMutablePointer<Element>? {
        let count = state.pointee.count
        return count == 0 ? nil : state.pointee.base + (count - 1)
    }

    /// The element at a position (0 is the bottom).
    @inline(__always) subscript(position: Int) -> Element {
        get { state.pointee.base[position] }
        set { state.pointee.base[position] = newValue }
    }

    @inline(__always)
    func push(_ element: Element) {
        if state.pointee.count == state.pointee.capacity { grow() }
        (state.pointee.base + state.pointee.count).initialize(to: element)
        state.pointee.count += 1
    }

    @inline(__always)
    func pop() -> Element? {
        guard state.pointee.count > 0 else { return nil }
        state.pointee.count -= 1
        return (state.pointee.base + state.pointee.count).move()
    }

    /// Removes elements above `count`.
    func truncate(to newCount: Int) {
        guard newCount < state.pointee.count else { return }
        (state.pointee.base + newCount).deinitialize(count: state.pointee.count - newCount)
        state.pointee.count = newCount
    }

    private func grow() {
        let newCapacity = state.pointee.capacity * 2
        let grown = UnsafeMutablePointer<Element>.allocate(capacity: newCapacity)
        grown.moveInitialize(from: state.pointee.base, count: state.pointee.count)
        state.pointee.base.deallocate()
        state.pointee.base = grown
        state.pointee.capacity = newCapacity
    }
}
