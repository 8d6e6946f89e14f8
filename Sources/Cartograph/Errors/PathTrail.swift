/// A path from the root, as a chain of links that is only spelled out
/// (`$.a[3].b`) when an error needs it: the encoders' paths and the model
/// searches' (`collect`, `decodeAny`). A decode's own path lives on a
/// ``PathStack``.
final class PathTrail: Sendable {
    enum Component: Sendable {
        case key(String)
        case index(Int)
    }

    let parent: PathTrail?
    let component: Component

    init(parent: PathTrail?, component: Component) {
        self.parent = parent
        self.component = component
    }

    /// `$` followed by the components from the root, then `extra`.
    static func render(_ trail: PathTrail?, _ extra: [Component] = []) -> String {
        render(components(trail) + extra)
    }

    /// The components from the root to `trail`.
    static func components(_ trail: PathTrail?) -> [Component] {
        var components: [Component] = []
        var node = trail
        while let current = node {
            components.append(current.component)
            node = current.parent
        }
        return components.reversed()
    }

    /// `$` followed by the components.
    static func render(_ components: [Component]) -> String {
        var path = "$"
        for component in components {
            switch component {
            case .key(let key): path = PathText.appending(key, to: path)
            case .index(let index): path = PathText.appending(index, to: path)
            }
        }
        return path
    }
}
