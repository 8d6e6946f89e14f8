/// The path from the root to the value being mapped, as a chain that costs
/// one small allocation per nested model and is only spelled out (`$.a[3].b`)
/// when an error needs it.
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
        var components: [Component] = []
        var node = trail
        while let current = node {
            components.append(current.component)
            node = current.parent
        }
        var path = "$"
        for component in components.reversed() + extra {
            switch component {
            case .key(let key): path = PathText.appending(key, to: path)
            case .index(let index): path = PathText.appending(index, to: path)
            }
        }
        return path
    }
}
