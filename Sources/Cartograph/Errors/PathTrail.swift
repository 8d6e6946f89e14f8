/// The path from the root to a value: the library's one path type.
///
/// A path is a chain of links, spelled out (`$.a[3].b`, or a `Codable`
/// coding path) only when an error or a caller asks. It takes three forms,
/// all kept here: this chain, one small allocation per nested container,
/// for the `Codable` decoder's and encoders' coding paths and the model
/// searches (`collect`, `decodeAny`); ``PathTrail/Stack``, the same links
/// pushed on one stack for a mapping decode, where a nested model must not
/// allocate; and the spelled text an error carries
/// (PathTrail+Spelling.swift), which both produce.
final class PathTrail: Sendable {
    /// One step of a path.
    enum Component: Sendable {
        /// A member of an object.
        case key(String)
        /// An element of an array.
        case index(Int)
        /// A `Codable` coding key, kept as given (a coding path hands it back).
        case codingKey(any CodingKey)
    }

    let parent: PathTrail?
    let component: Component

    init(parent: PathTrail?, component: Component) {
        self.parent = parent
        self.component = component
    }

    /// A link for a `Codable` coding key.
    convenience init(parent: consuming PathTrail?, key: consuming any CodingKey) {
        self.init(parent: parent, component: .codingKey(key))
    }

    /// This link's step as a coding key (see ``codingKeys(_:)``).
    var codingKey: any CodingKey {
        switch component {
        case .codingKey(let key): return key
        case .key(let key): return StringKey(key)
        case .index(let index): return IndexKey(index)
        }
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

    /// The coding path from the root to `trail`: coding keys as given,
    /// object members as string keys, array elements as index keys.
    static func codingKeys(_ trail: PathTrail?) -> [any CodingKey] {
        var keys: [any CodingKey] = []
        var node = trail
        while let current = node {
            keys.append(current.codingKey)
            node = current.parent
        }
        return keys.reversed()
    }

    /// `$` followed by the components.
    static func render(_ components: [Component]) -> String {
        var path = "$"
        for component in components {
            switch component {
            case .key(let key): path = PathTrail.appending(key, to: path)
            case .index(let index): path = PathTrail.appending(index, to: path)
            case .codingKey(let key): path = appending(key, to: path)
            }
        }
        return path
    }

    /// `$.statuses[3].user.id` for a coding path.
    static func render(codingKeys keys: [any CodingKey]) -> String {
        var path = "$"
        for key in keys { path = appending(key, to: path) }
        return path
    }

    /// The path of a coding key's value under `path`.
    private static func appending(_ key: any CodingKey, to path: String) -> String {
        if let index = elementIndex(key) { return PathTrail.appending(index, to: path) }
        return PathTrail.appending(key.stringValue, to: path)
    }

    /// The position a coding key names when it is an array element's (an
    /// ``IndexKey``, or Foundation's "Index n"); nil for a member's key.
    static func elementIndex(_ key: any CodingKey) -> Int? {
        guard let index = key.intValue, key.stringValue == "Index \(index)" || key is IndexKey else { return nil }
        return index
    }
}
