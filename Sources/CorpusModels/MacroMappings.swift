// The twitter.json and canada.json models through their `@Mappable`
// default mappings: names from the macro's property tables under
// snake_case, `@Mapped` keys where the wire names are not the snake_case of
// the property (`id_str` for `idString`).
import Cartograph

extension ModelRegistry {
    /// A registry of the twitter.json and canada.json models' default
    /// mappings (``Mapping/automatic(naming:keys:)``) under `.snakeCase`,
    /// for the `cartograph-macro-*` contenders and the tests that check them
    /// against the hand-written mappings.
    public static func corpusMacroMappings() -> ModelRegistry {
        var registry = ModelRegistry(options: MappingOptions { $0.naming = .snakeCase })
        registry.register(Mapping<TwitterResponse>.automatic())
        registry.register(Mapping<SearchMetadata>.automatic())
        registry.register(Mapping<Status>.automatic())
        registry.register(Mapping<RetweetedStatus>.automatic())
        registry.register(Mapping<StatusMetadata>.automatic())
        registry.register(Mapping<TwitterUser>.automatic())
        registry.register(Mapping<UserEntities>.automatic())
        registry.register(Mapping<URLList>.automatic())
        registry.register(Mapping<StatusEntities>.automatic())
        registry.register(Mapping<Hashtag>.automatic())
        registry.register(Mapping<TweetURL>.automatic())
        registry.register(Mapping<UserMention>.automatic())
        registry.register(Mapping<Media>.automatic())
        registry.register(Mapping<MediaSizes>.automatic())
        registry.register(Mapping<MediaSize>.automatic())
        registry.register(Mapping<FeatureCollection>.automatic())
        registry.register(Mapping<Feature>.automatic())
        registry.register(Mapping<Geometry>.automatic())
        return registry
    }
}
