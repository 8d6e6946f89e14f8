/// What kind of type a metatype is, read from the runtime's type metadata.
///
/// Class inference must tell a protocol (or `Any`) from a concrete type:
/// a value declared as a protocol may hold any conforming model, a value
/// declared as a struct only that struct. Swift has no public query for
/// it, and `"\(T.self)"` prints a protocol's existential as its bare name.
/// Every type's metadata starts with a kind word (stable ABI on every
/// platform Swift ships on); existentials have kind 0x303.
enum MetadataKind {
    private static let existential = 0x303

    /// Whether `type` is a protocol existential (`any P`, `Any`, `AnyObject`).
    static func isExistential(_ type: Any.Type) -> Bool {
        unsafeBitCast(type, to: UnsafeRawPointer.self).load(as: Int.self) == existential
    }
}
