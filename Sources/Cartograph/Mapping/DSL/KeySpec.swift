/// Where a property's value sits in an object: a key, or a path of keys and
/// array indexes.
///
/// As a string literal, dots separate components and a component made only
/// of digits is an array index: `"personInfo.firstName"`, `"items.0.name"`.
/// Write `\.` for a dot inside a key (`"version\.major"` is the one key
/// `version.major`), or build the path from components with
/// ``KeySpec/path(_:)`` to avoid any parsing.
public struct KeySpec: Sendable, Hashable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// One step of a path.
    public enum Component: Sendable, Hashable {
        /// An object key.
        case key(String)
        /// An array position.
        case index(Int)
    }

    /// Behind one reference, so copying a key spec (into every property's
    /// decode context) costs one retain.
    final class Storage: @unchecked Sendable {
        // @unchecked: immutable after init.
        let components: [Component]
        let keyBytes: [[UInt8]]
        let trailComponents: [PathTrail.Component]
        /// The key bytes when the spec is one plain key (the common case).
        let singleKey: [UInt8]?

        init(_ components: [Component]) {
            self.components = components
            keyBytes = components.map {
                if case .key(let key) = $0 { return Array(key.utf8) }
                return []
            }
            trailComponents = components.map {
                switch $0 {
                case .key(let key): return .key(key)
                case .index(let index): return .index(index)
                }
            }
            if components.count == 1, case .key(let key) = components[0] {
                singleKey = Array(key.utf8)
            } else {
                singleKey = nil
            }
        }
    }
    let storage: Storage

    /// The steps, outermost first.
    public var components: [Component] { storage.components }
    /// The UTF-8 bytes of each key component (empty for indexes), precomputed for byte comparison.
    var keyBytes: [[UInt8]] { storage.keyBytes }

    /// Equal when the components are.
    public static func == (lhs: KeySpec, rhs: KeySpec) -> Bool { lhs.components == rhs.components }
    /// Hashes the components.
    public func hash(into hasher: inout Hasher) { hasher.combine(components) }

    /// A path from explicit components.
    public static func path(_ components: [Component]) -> KeySpec { KeySpec(components: components) }

    /// One key, taken literally (dots included).
    public static func key(_ key: String) -> KeySpec { KeySpec(components: [.key(key)]) }

    init(components: [Component]) {
        storage = Storage(components)
    }

    init(storage: Storage) {
        self.storage = storage
    }

    /// Parses dotted text (see the type's documentation).
    public init(_ text: String) {
        var components: [Component] = []
        var current = ""
        var escaped = false
        func finish() {
            if !current.isEmpty, current.allSatisfy(\.isASCII), current.allSatisfy(\.isNumber), let index = Int(current) {
                components.append(.index(index))
            } else {
                components.append(.key(current))
            }
            current = ""
        }
        for character in text {
            if escaped {
                current.append(character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == "." {
                finish()
            } else {
                current.append(character)
            }
        }
        finish()
        self.init(components: components)
    }

    /// Parses dotted text.
    public init(stringLiteral value: String) { self.init(value) }

    /// The components as a path suffix for errors.
    var trailComponents: [PathTrail.Component] { storage.trailComponents }

    /// The path, dots escaped where a key holds one.
    public var description: String {
        components.map {
            switch $0 {
            case .key(let key): return key.replacingOccurrences(of: ".", with: "\\.")
            case .index(let index): return String(index)
            }
        }.joined(separator: ".")
    }

    /// The value at this path under `object`, or nil when any step is absent.
    func lookup(in object: ObjectView) -> Node? {
        var cursor = object.cursor()
        return lookup(in: object, cursor: &cursor)
    }

    /// The value at this path, finding the first key through a cursor that
    /// expects keys in document order.
    func lookup(in object: ObjectView, cursor: inout ObjectView.Cursor) -> Node? {
        if let key = storage.singleKey { return cursor.value(forKey: key.span) }
        var node = object.node
        for (position, component) in storage.components.enumerated() {
            switch component {
            case .key:
                guard node.kind == .object else { return nil }
                let found: Node?
                let bytes = storage.keyBytes[position]
                if position == 0 {
                    found = cursor.value(forKey: bytes.span)
                } else {
                    let view = ObjectView(document: node.document, index: node.index)
                    found = view.value(forKey: bytes.span)
                }
                guard let found else { return nil }
                node = found
            case .index(let index):
                guard node.kind == .array else { return nil }
                guard let next = ArrayView(document: node.document, index: node.index)[index] else { return nil }
                node = next
            }
        }
        return node
    }
}
