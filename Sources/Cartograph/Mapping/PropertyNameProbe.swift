import Foundation

/// Finds the name of the property a key path reaches, for rules written
/// without a key (`Map(\.title)`).
///
/// A key path names its property in its description only when it reads
/// stored memory directly: a struct's stored property, a final class's. A
/// property of a non-final class (which a subclass may override), and any
/// `weak` or `unowned` property, is reached through accessors, and the key
/// path describes itself as `<computed 0x… (Optional<String>)>`; Swift has no
/// public way to get the name back from it (the runtime's field-enumerating
/// key paths do not cover classes).
///
/// So the name is found by watching: a model is made (the mapping's own
/// `make`), two different values are written through the key path, and the
/// model's fields are read through `Mirror` (superclasses included) after
/// each write; the one field that changed is the property. It runs once per
/// rule, when the mapping is built. The values come from the property's type:
/// JSON spellings its codec accepts (strings, numbers, booleans, dates, URLs,
/// UUIDs, base64), the cases of an enum, `nil` and a value for optionals, an
/// empty and a one-element collection, and instances of `Mappable` models
/// (made by their mappings, kept alive while a `weak` property holds them).
/// Setters and observers run on that throwaway model.
///
/// Worked example: `class Base { var title: String?; var count = 0 }`, rule
/// `Map(\Base.title)`. Writing `"cartograph-probe-a"` then
/// `"cartograph-probe-b"`, the mirror shows `title` changing and `count`
/// not: the name is `title`.
enum PropertyNameProbe {
    /// The property's name when the key path's description gives it (`\Place.geo.lat` → `lat`).
    static func declaredName(_ keyPath: AnyKeyPath) -> String? {
        let text = "\(keyPath)"
        guard !text.contains("<computed") else { return nil }
        guard let dot = text.lastIndex(of: ".") else { return text }
        return String(text[text.index(after: dot)...])
    }

    /// The name of the field `keyPath` writes in `instance`, or nil if no
    /// two candidate values tell it apart.
    static func name<Model, Value>(of keyPath: WritableKeyPath<Model, Value>, in instance: inout Model, candidates: [Value]) -> String? {
        var before: [(String, String)]?
        for value in candidates {
            instance[keyPath: keyPath] = value
            let after = snapshot(instance)
            if let previous = before, previous.count == after.count {
                let changed = zip(previous, after).filter { $0.1 != $1.1 }.map { $0.0.0 }
                if changed.count == 1 { return cleaned(changed[0]) }
            }
            before = after
        }
        return nil
    }

    /// The same, for a key path into a class instance that is only known to be a `KeyPath` (as `Ignore` takes).
    static func name<Model, Value>(of keyPath: KeyPath<Model, Value>, in instance: Model, candidates: [Value]) -> String? {
        guard let writable = keyPath as? ReferenceWritableKeyPath<Model, Value> else { return nil }
        var copy = instance
        return name(of: writable as WritableKeyPath<Model, Value>, in: &copy, candidates: candidates)
    }

    /// A property wrapper's storage is `_name`, a lazy property's `$__lazy_storage_$_name`.
    private static func cleaned(_ label: String) -> String {
        if label.hasPrefix("$__lazy_storage_$_") { return String(label.dropFirst("$__lazy_storage_$_".count)) }
        if label.hasPrefix("_") { return String(label.dropFirst()) }
        return label
    }

    /// Every stored field of the value, superclasses' included, as (label, description).
    private static func snapshot(_ subject: Any) -> [(String, String)] {
        var fields: [(String, String)] = []
        var mirror: Mirror? = Mirror(reflecting: subject)
        while let current = mirror {
            for child in current.children {
                guard let label = child.label else { continue }
                fields.append((label, describe(child.value, depth: 0)))
            }
            mirror = current.superclassMirror
        }
        return fields
    }

    /// A description that tells instances apart (object identity) and looks into optionals and collections.
    private static func describe(_ value: Any, depth: Int) -> String {
        if type(of: value) is AnyClass { return "object \(ObjectIdentifier(value as AnyObject).hashValue)" }
        let mirror = Mirror(reflecting: value)
        guard depth < 3 else { return String(reflecting: value) }
        switch mirror.displayStyle {
        case .optional:
            guard let wrapped = mirror.children.first?.value else { return "nil" }
            return "some(" + describe(wrapped, depth: depth + 1) + ")"
        case .collection, .set, .dictionary:
            return "[" + mirror.children.map { describe($0.value, depth: depth + 1) }.joined(separator: ", ") + "]"
        case .tuple:
            return "(" + mirror.children.map { describe($0.value, depth: depth + 1) }.joined(separator: ", ") + ")"
        default:
            return String(reflecting: value)
        }
    }

    // MARK: Candidate values

    /// Values of `Value` to write through a key path: its codec's readings
    /// of the JSON candidates, then values made from its structure.
    static func candidates<Value>(_ codec: ValueCodec<Value>) -> [Value] {
        var values = structural(Value.self)
        for node in candidateNodes {
            if let value = try? codec.decode(node, probeContext, .standard) { values.append(value) }
        }
        return values
    }

    /// Values made from the type's shape: optionals, collections, enum cases, `Mappable` models.
    static func structural<Value>(_ type: Value.Type) -> [Value] {
        if Value.self == Any.self { return ["cartograph-probe-a" as Any, 2 as Any] as! [Value] }
        if let optional = Value.self as? any OptionalMarker.Type { return optionals(optional) as! [Value] }
        if let array = Value.self as? any ArrayMarker.Type { return arrays(array) as! [Value] }
        if let dictionary = Value.self as? any StringDictionaryMarker.Type { return dictionaries(dictionary) as! [Value] }
        if let enumeration = Value.self as? any CaseIterable.Type { return cases(enumeration) as! [Value] }
        if let mappable = Value.self as? any Mappable.Type { return models(mappable) as! [Value] }
        return []
    }

    private static func optionals<O: OptionalMarker>(_: O.Type) -> [O] {
        [O.nothing] + structural(O.Wrapped.self).prefix(2).map { O.wrapping($0) }
    }

    private static func arrays<A: ArrayMarker>(_: A.Type) -> [A] {
        [A.make([])] + structural(A.Element.self).prefix(1).map { A.make([$0]) }
    }

    private static func dictionaries<D: StringDictionaryMarker>(_: D.Type) -> [D] {
        [D.make([])] + structural(D.Value.self).prefix(1).map { D.make([("cartograph-probe", $0)]) }
    }

    private static func cases<E: CaseIterable>(_: E.Type) -> [E] { Array(E.allCases.prefix(2)) }

    /// Two instances made by the model's own mapping (from an empty object).
    private static func models<M: Mappable>(_: M.Type) -> [M] {
        guard let object = try? candidates.root.array()[10]?.object() else { return [] }
        return (0..<2).compactMap { _ in try? M.mapping.construct(object, probeContext) }
    }

    /// JSON spellings most scalar types accept in some form.
    private static let candidates: Document = {
        let text = """
            ["cartograph-probe-a", "cartograph-probe-b", 1, 2, true, false, null, [], ["cartograph-probe-a"], [1], {},
             {"cartograph-probe": 1}, "2001-02-03T04:05:06Z", "2002-03-04T05:06:07Z", "https://probe.invalid/a",
             "https://probe.invalid/b", "00000000-0000-0000-0000-000000000001", "00000000-0000-0000-0000-000000000002",
             "AAEC", "AwQF", 1.5, -3, "0", "1"]
            """
        // A constant that parses: a failure would be a bug here, not bad input.
        return (try? Document(parsing: text)) ?? Document.null(at: 0)
    }()

    private static let candidateNodes: [Node] = (try? candidates.root.array().map { $0 }) ?? []

    /// A context with an empty registry (made per use: a context is not `Sendable`).
    private static var probeContext: MappingContext { MappingContext(registry: ModelRegistry(), trail: nil, parent: nil, issues: nil) }
}
