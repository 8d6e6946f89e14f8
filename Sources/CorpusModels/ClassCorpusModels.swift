// records.json's records as the seeds write their models: non-final
// classes, read and written through their setters and getters. The same
// fields and keys as ``EventRecord`` (a struct), so that the
// `cartograph-class-*` contenders measure what a class model costs against
// a struct model on the same bytes: ``EventEntry`` through its `@Mappable`
// default mapping, ``EventLine`` through a hand-written `Mapping`,
// ``AuditedEventLine`` through a subclass's mapping inheriting that one.
import Cartograph

/// One line of records.json, as a non-final `@Mappable` class.
@Mappable
open class EventEntry: @unchecked Sendable {
    public var id = 0
    public var ok = false
    public var value = 0.0
    public var kind = ""
    public var user: Int?

    public required init() {}
}

/// One line of records.json, as a non-final class mapped by hand (its
/// table, from `@Mappable`, names nothing here: every rule has its key).
@Mappable
open class EventLine: @unchecked Sendable {
    public var id = 0
    public var ok = false
    public var value = 0.0
    public var kind = ""
    public var user: Int?

    public required init() {}

    /// The hand-written mapping, as the seeds register theirs.
    public static let mapping = Mapping<EventLine>({ EventLine() }) {
        Map(\.id, "id")
        Map(\.ok, "ok")
        Map(\.value, "value")
        Map(\.kind, "kind")
        Map(\.user, "user")
    }
}

extension ModelRegistry {
    /// The class twins of records.json's model: ``EventEntry`` by its
    /// default mapping, ``EventLine`` by its hand-written one. No subclass
    /// is registered: class inference would then be measured too.
    public static func corpusClassMappings() -> ModelRegistry {
        var registry = ModelRegistry()
        registry.register(EventEntry.self)
        registry.register(EventLine.mapping)
        return registry
    }
}

/// A subclass of ``EventLine`` registered with its own hand-written mapping
/// that inherits the superclass's rules, as the seeds register a subclass
/// per model; it adds nothing, so it reads the same records.
public final class AuditedEventLine: EventLine, @unchecked Sendable {}

extension ModelRegistry {
    /// ``AuditedEventLine``'s mapping (`Mapping(inheriting:)`), alone in its
    /// registry so that decoding its superclass measures no class inference.
    public static func corpusSubclassMappings() -> ModelRegistry {
        var registry = ModelRegistry()
        registry.register(Mapping<AuditedEventLine>(inheriting: EventLine.mapping, { AuditedEventLine() }) {})
        return registry
    }
}
