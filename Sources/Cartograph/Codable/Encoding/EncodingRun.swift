import Foundation

/// What every encoder of one encode shares, behind one reference: a nested
/// value's encoder then costs one retain for it instead of a copy of the
/// options (strategies, closures, `userInfo`) and the registry each.
final class EncodingRun {
    let options: CodableOptions
    let registry: ModelRegistry
    let registryIsEmpty: Bool
    /// Writing a property list: dates and data stay dates and data.
    let propertyList: Bool
    /// Keys after the key strategy, by key (filled as they are met; one encoder at a time).
    var convertedKeys = ConvertedKeyCache()
    /// Which value types are `[String: Value]` dictionaries, asked per nested value under a key strategy.
    var dictionaryTypes = TypeAnswers<Bool>()
    /// Which value types are dictionaries a property list encodes in key order (KeyOrderedDictionary.swift).
    var keyOrderedTypes = TypeAnswers<Bool>()
    /// The registry's entries for the value types met (asked per nested value).
    var registeredEntries = TypeAnswers<ModelEntry?>()
    /// Writing a binary plist with Cartograph's writer: scalars go into its sink as they come.
    let writeAhead: BinaryWriteAhead?
    /// Keyed containers kept for the next object of their key type at their
    /// depth; emptied when the root value is encoded (``TreeEncoder/encodeRootNode(_:requiringValue:)``).
    var recycled: RecycledContainers<TreeKeyedState>
    /// What the registered models met in this encode are encoded in: one
    /// session for all of them, as the stream's (``StreamRun/mappingSession``).
    lazy var mappingSession = EncodingSession(registry: registry, profile: propertyList ? .propertyList : .json)

    init(options: CodableOptions, registry: ModelRegistry, propertyList: Bool, writeAhead: BinaryWriteAhead? = nil, recyclesContainers: Bool = true) {
        self.options = options
        self.registry = registry
        registryIsEmpty = !registry.hasEntries
        self.propertyList = propertyList
        self.writeAhead = writeAhead
        // Past 16 containers: below that the table costs more than it saves.
        recycled = RecycledContainers(keeps: recyclesContainers && ContainerLayout.keyedEncoding, after: 16)
    }
}
