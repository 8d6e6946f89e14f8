/// The path from the root to the value being mapped, for one decode: a
/// stack of links, each naming its parent, pushed as the decode enters a
/// nested model and cut back as it leaves, so entering a model allocates
/// nothing; spelled out (`$.a[3].b`) only when an error or a caller asks.
///
/// Measured on twitter.json: the chain of one ``PathTrail`` object per
/// nested model it replaced (an allocation, a release chain and an array of
/// pending components each) was about 4% of a mapping decode.
///
/// A context holds the index of its innermost link. Links above a
/// context's own are only ever cut back when the call that pushed them
/// returns, so every context in use names its path exactly; a context kept
/// after that call (a factory storing the one it was given) names what the
/// stack then holds, never reads outside it and never loops: a link's
/// parent always sits below it.
final class PathStack {
    private struct Link {
        let parent: Int
        let component: PathTrail.Component
    }

    // One stack per decode, used by one thread at a time (a decode is
    // synchronous): no dynamic exclusivity checks per push.
    @exclusivity(unchecked) private var links: UnsafeMutablePointer<Link>
    @exclusivity(unchecked) private var capacity: Int
    /// The number of links: a mark to cut back to (``truncate(to:)``).
    @exclusivity(unchecked) private(set) var count = 0

    init() {
        capacity = 16
        links = .allocate(capacity: capacity)
    }

    deinit {
        links.deinitialize(count: count)
        links.deallocate()
    }

    /// Pushes `component` under the link at `parent` (-1: the root); returns the new link's index.
    func push(_ component: PathTrail.Component, under parent: Int) -> Int {
        if count == capacity {
            let grown = UnsafeMutablePointer<Link>.allocate(capacity: capacity * 2)
            grown.moveInitialize(from: links, count: count)
            links.deallocate()
            links = grown
            capacity *= 2
        }
        (links + count).initialize(to: Link(parent: parent < count ? parent : -1, component: component))
        count += 1
        return count - 1
    }

    /// Removes the links from `mark` up.
    func truncate(to mark: Int) {
        guard mark >= 0, mark < count else { return }
        (links + mark).deinitialize(count: count - mark)
        count = mark
    }

    /// The components from the root to the link at `index`.
    func components(to index: Int) -> [PathTrail.Component] {
        var components: [PathTrail.Component] = []
        var at = index
        while at >= 0, at < count {
            components.append(links[at].component)
            at = links[at].parent
        }
        return components.reversed()
    }

    /// The innermost key at or above the link at `index`.
    func innermostKey(from index: Int) -> String? {
        var at = index
        while at >= 0, at < count {
            if case .key(let name) = links[at].component { return name }
            at = links[at].parent
        }
        return nil
    }
}
