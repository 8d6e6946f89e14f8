// records.json's records as the seeds write their models: a non-final
// class, read and written through its setters and getters. The same
// fields and keys as ``EventRecord`` (a struct), so that the
// `cartograph-class-*` contenders measure what a class model costs against
// a struct model on the same bytes: ``EventEntry`` through its `@Mappable`
// default mapping and through a hand-written `Mapping`, and
// ``AuditedEventEntry`` through a subclass's mapping inheriting that one.
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

    /// A hand-written mapping of the same properties, as the seeds register
    /// theirs (every rule has its key; the table gives the accessors).
    public static let handWritten = Mapping<EventEntry>({ EventEntry() }) {
        Map(\.id, "id")
        Map(\.ok, "ok")
        Map(\.value, "value")
        Map(\.kind, "kind")
        Map(\.user, "user")
    }
}

/// A subclass registered with its own hand-written mapping that inherits
/// the superclass's rules, as the seeds register a subclass per model; it
/// adds nothing, so it reads the same records.
public final class AuditedEventEntry: EventEntry, @unchecked Sendable {}

extension ModelRegistry {
    /// ``EventEntry`` by its default mapping. No subclass is registered:
    /// class inference would then be measured too.
    public static func corpusClassMappings() -> ModelRegistry {
        var registry = ModelRegistry()
        registry.register(EventEntry.self)
        return registry
    }

    /// ``EventEntry`` by its hand-written mapping.
    public static func corpusHandClassMappings() -> ModelRegistry {
        var registry = ModelRegistry()
        registry.register(EventEntry.handWritten)
        return registry
    }

    /// ``AuditedEventEntry``'s mapping (`Mapping(inheriting:)`), alone in its
    /// registry so that decoding measures no class inference.
    public static func corpusSubclassMappings() -> ModelRegistry {
        var registry = ModelRegistry()
        registry.register(Mapping<AuditedEventEntry>(inheriting: EventEntry.handWritten, { AuditedEventEntry() }) {})
        return registry
    }
}

/// A record's `kind` as a plain `Codable` type the registry does not know
/// (read through its `init(from:)` from the string), as a client's own
/// wrapper types are: what `cartograph-fallback-decode` measures.
public struct EventKind: Codable, Equatable, Sendable {
    public var name: String
    public init(from decoder: any Decoder) throws { name = try decoder.singleValueContainer().decode(String.self) }
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(name)
    }
}

/// One line of records.json with its kind as an ``EventKind``.
public struct KindedEvent: Sendable {
    public var id = 0
    public var ok = false
    public var value = 0.0
    public var kind = EventKind?.none
    public var user: Int?

    public init() {}

    public static let mapping = Mapping<KindedEvent>({ KindedEvent() }) {
        Map(\.id, "id")
        Map(\.ok, "ok")
        Map(\.value, "value")
        Map(\.kind, "kind")
        Map(\.user, "user")
    }
}
