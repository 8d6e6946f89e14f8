/// The path from the root to the value being mapped, for one decode: a
/// stack of links, each naming its parent, pushed as the decode enters a
/// nested model and cut back as it leaves, so entering a model allocates
/// nothing; spelled out (`$.a[3].b`) only when an error or a caller asks.
///
/// It replaced a chain of one ``PathTrail`` object per nested model (an
/// allocation, a release chain and an array of pending components each). A link is a
/// plain value (a property's key spec, retained while linked, or an array
/// position, or a key kept beside the stack): pushing copies no string and
/// cutting back destroys nothing through a value witness. Links that held
/// their path components had cost a String retain per component and a
/// witness call per link cut.
///
/// A context holds the index of its innermost link. Links above a
/// context's own are only ever cut back when the call that pushed them
/// returns, so every context in use names its path exactly; a context kept
/// after that call (a factory storing the one it was given) names what the
/// stack then holds, never reads outside it and never loops: a link's
/// parent always sits below it.
final class PathStack {
    @safe private struct Link {
        let parent: Int
        /// A property's key path, retained while linked; or nil.
        let spec: Unmanaged<KeySpec.Storage>?
        /// Without a spec: an array position (>= 0) or, complemented (`~`),
        /// the index in ``keys`` of an object key.
        let value: Int
    }

    /// The links (plain values: the stack's memory, no exclusivity or
    /// uniqueness checks per push).
    private let links = PointerStack<Link>(capacity: 16)
    /// The object keys that links name, in the order they were pushed.
    private var keys: [String] = []
    /// The number of links: a mark to cut back to (``truncate(to:)``).
    var count: Int { links.count }

    deinit { truncate(to: 0) }

    @inline(__always)
    private func append(_ link: Link) -> Int {
        links.push(link)
        return links.count - 1
    }

    /// Pushes `component` under the link at `parent` (-1: the root); returns the new link's index.
    func push(_ component: PathTrail.Component, under parent: Int) -> Int {
        let value: Int
        switch component {
        case .codingKey(let key):
            return push(PathTrail.elementIndex(key).map { .index($0) } ?? .key(key.stringValue), under: parent)
        case .index(let index):
            value = max(index, 0)
        case .key(let key):
            value = ~keys.count
            keys.append(key)
        }
        return unsafe append(Link(parent: parent < count ? parent : -1, spec: nil, value: value))
    }

    /// Pushes the components of a property's key path, as one link, under
    /// the link at `parent`; returns the new link's index.
    func push(_ spec: KeySpec.Storage, under parent: Int) -> Int {
        unsafe append(Link(parent: parent < count ? parent : -1, spec: Unmanaged.passRetained(spec), value: 0))
    }

    /// Removes the links from `mark` up. Most calls find nothing above the
    /// mark (a nested model's own links were cut back already): that check
    /// is inlined, the cut is not.
    @inline(__always)
    func truncate(to mark: Int) {
        guard mark >= 0, mark < count else { return }
        cut(to: mark)
    }

    private func cut(to mark: Int) {
        var firstKey = -1
        for position in mark..<count {
            let link = links[position]
            if let spec = unsafe link.spec {
                unsafe spec.release()
            } else if link.value < 0, firstKey < 0 {
                firstKey = ~link.value
            }
        }
        if firstKey >= 0 { keys.removeLast(keys.count - firstKey) }
        links.truncate(to: mark)
    }

    /// The components from the root to the link at `index`.
    func components(to index: Int) -> [PathTrail.Component] {
        var components: [PathTrail.Component] = []
        var at = index
        while at >= 0, at < count {
            let link = links[at]
            if let spec = unsafe link.spec {
                unsafe components.append(contentsOf: spec.takeUnretainedValue().trailComponents.reversed())
            } else if link.value >= 0 {
                components.append(.index(link.value))
            } else {
                components.append(.key(keys[~link.value]))
            }
            at = link.parent
        }
        return components.reversed()
    }

    /// The innermost key at or above the link at `index`.
    func innermostKey(from index: Int) -> String? {
        var at = index
        while at >= 0, at < count {
            let link = links[at]
            if let spec = unsafe link.spec {
                for case .key(let name) in unsafe spec.takeUnretainedValue().trailComponents.reversed() { return name }
            } else if link.value < 0 {
                return keys[~link.value]
            }
            at = link.parent
        }
        return nil
    }
}
