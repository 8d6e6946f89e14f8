/// A document in which every object class inference identified is a model
/// and the rest stays plain values: what ``JSONMapper/decodeAny(from:)`` returns.
public enum MappedValue: @unchecked Sendable {
    // @unchecked: models are whatever the registry's factories make.
    /// An identified object, made into its model.
    case model(Any)
    /// A scalar (or `null`).
    case value(JSONValue)
    /// An array whose elements may hold models.
    case array([MappedValue])
    /// An object no rule identified, whose members may hold models.
    case object([(key: String, value: MappedValue)])

    /// The model, when this is one of type `T`.
    public func model<T>(as _: T.Type) -> T? {
        if case .model(let model) = self { return model as? T }
        return nil
    }

    /// Every model in the tree of type `T`, in document order.
    public func models<T>(of _: T.Type) -> [T] {
        switch self {
        case .model(let model): return (model as? T).map { [$0] } ?? []
        case .value: return []
        case .array(let elements): return elements.flatMap { $0.models(of: T.self) }
        case .object(let members): return members.flatMap { $0.value.models(of: T.self) }
        }
    }

    /// The member for a key, when this is an object.
    public subscript(key: String) -> MappedValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    /// The element at a position, when this is an array.
    public subscript(position: Int) -> MappedValue? {
        guard case .array(let elements) = self, elements.indices.contains(position) else { return nil }
        return elements[position]
    }
}

/// Models from a lossy decode, with the errors of the elements that were skipped.
public struct LossyResult<Value> {
    /// What could be decoded.
    public let value: Value
    /// One error per skipped element, each with its path and offset.
    public let issues: [CartographError]
}
