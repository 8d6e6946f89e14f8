/// Thrown by a factory, a whole-object constructor or a setter to leave the
/// object out: as an element of an array or set (or a dictionary member) it
/// is dropped and the collection goes on, as JSACollection's
/// `objectForDictionary` returning nil drops an object. For an optional
/// property it leaves the property nil; anywhere else the decode fails with
/// ``CartographError/Kind/typeMismatch`` naming the path.
///
/// ```swift
/// struct ActiveUsers: ModelFactory {
///     var keys: [String] { ["id", "active"] }
///     func make(from object: ObjectView, context: MappingContext) throws -> User {
///         guard try object["active"]?.bool() == true else { throw SkipElement() }
///         return User(id: try object["id"]!.int())
///     }
/// }
/// ```
public struct SkipElement: Error, Sendable {
    /// Why the object is left out (for the error when it cannot be).
    public var reason: String

    /// A skip, with an optional reason.
    public init(_ reason: String = "the factory left the object out") {
        self.reason = reason
    }

    /// The error for a skip where nothing can be left out.
    func error(at node: Node, path: String) -> CartographError {
        CartographError(
            .typeMismatch, "\(reason), and an object can be left out only from an array, a dictionary or an optional property",
            offset: node.sourceOffset, path: path, expected: "a model", found: "an object left out")
    }
}
