extension PathTrail {
    /// The path from the root to the value being mapped, for one decode: a
    /// stack of links, each naming its parent, pushed as the decode enters a
    /// nested model and cut back as it leaves, so entering a model allocates
    /// nothing; spelled out (`$.a[3].b`) only when an error or a caller asks.
    ///
    /// It replaced a chain of one ``PathTrail`` object per nested model (an
    /// allocation, a release chain and an array of pending components each). A link is a
    /// plain value (the position of a property's key spec or of an object key,
    /// both kept beside the stack, or an array position): pushing copies no
    /// string and cutting back destroys nothing through a value witness. Links that held
    /// their path components had cost a String retain per component and a
    /// witness call per link cut.
    ///
    /// A context holds the index of its innermost link. Links above a
    /// context's own are only ever cut back when the call that pushed them
    /// returns, so every context in use names its path exactly; a context kept
    /// after that call (a factory storing the one it was given) names what the
    /// stack then holds, never reads outside it and never loops: a link's
    /// parent always sits below it.
    final class Stack: ExclusiveState<PathTrail.Stack.Names> {
        /// The object keys and the key specs that links name, in the order they
        /// were pushed (an ``ExclusiveState``: pushed and cut per nested model).
        struct Names {
            var keys: [String] = []
            var specs: [KeySpec.Storage] = []

            /// Drops the names from `firstKey` and `firstSpec` (-1: none) on.
            mutating func cut(keysFrom firstKey: Int, specsFrom firstSpec: Int) {
                // One at a time: `removeLast(_:)` goes through the generic
                // `replaceSubrange`, and nearly every cut drops one name.
                if firstKey >= 0 { while keys.count > firstKey { keys.removeLast() } }
                if firstSpec >= 0 { while specs.count > firstSpec { specs.removeLast() } }
            }
        }

        private struct Link {
            let parent: Int
            /// The index in ``Names/specs`` of a property's key path; or -1.
            let spec: Int
            /// Without a spec: an array position (>= 0) or, complemented (`~`),
            /// the index in ``Names/keys`` of an object key.
            let value: Int
        }

        /// The links (plain values: the stack's memory, no exclusivity or
        /// uniqueness checks per push).
        private let links = PointerStack<Link>(capacity: 16)
        init() { super.init(state: Names()) }
        /// The number of links: a mark to cut back to (``truncate(to:)``).
        var count: Int { links.count }

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
                value = ~state.keys.count
                state.keys.append(key)
            }
            return append(Link(parent: parent < count ? parent : -1, spec: -1, value: value))
        }

        /// Pushes a context's own pending step (a property's key path, then
        /// an array position; negative: none) under the link at `parent`;
        /// returns the innermost link's index (`parent` when there is nothing).
        func push(pending spec: KeySpec.Storage?, index: Int, under parent: Int) -> Int {
            var link = parent
            if let spec { link = push(spec, under: link) }
            if index >= 0 { link = push(.index(index), under: link) }
            return link
        }

        /// The components from the root to the link at `index`, then a
        /// pending step (as ``push(pending:index:under:)`` would link it).
        func components(to index: Int, pending spec: KeySpec.Storage?, index position: Int) -> [PathTrail.Component] {
            var components = components(to: index)
            if let spec { components += spec.trailComponents }
            if position >= 0 { components.append(.index(position)) }
            return components
        }

        /// Pushes the components of a property's key path, as one link, under
        /// the link at `parent`; returns the new link's index.
        func push(_ spec: KeySpec.Storage, under parent: Int) -> Int {
            state.specs.append(spec)
            return append(Link(parent: parent < count ? parent : -1, spec: state.specs.count - 1, value: 0))
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
            var firstSpec = -1
            for position in mark..<count {
                let link = links[position]
                if link.spec >= 0 {
                    if firstSpec < 0 { firstSpec = link.spec }
                } else if link.value < 0, firstKey < 0 {
                    firstKey = ~link.value
                }
                if firstKey >= 0, firstSpec >= 0 { break }
            }
            state.cut(keysFrom: firstKey, specsFrom: firstSpec)
            links.truncate(to: mark)
        }

        /// The components from the root to the link at `index`.
        func components(to index: Int) -> [PathTrail.Component] {
            var components: [PathTrail.Component] = []
            var at = index
            while at >= 0, at < count {
                let link = links[at]
                if link.spec >= 0 {
                    components.append(contentsOf: state.specs[link.spec].trailComponents.reversed())
                } else if link.value >= 0 {
                    components.append(.index(link.value))
                } else {
                    components.append(.key(state.keys[~link.value]))
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
                if link.spec >= 0 {
                    for case .key(let name) in state.specs[link.spec].trailComponents.reversed() { return name }
                } else if link.value < 0 {
                    return state.keys[~link.value]
                }
                at = link.parent
            }
            return nil
        }
    }
}
