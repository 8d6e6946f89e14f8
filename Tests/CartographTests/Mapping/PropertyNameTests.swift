import Foundation
import Testing

@testable import Cartograph

/// Keys derived from property names are right for every kind of model:
/// structs, final and non-final classes, subclasses (overriding properties
/// included), weak and unowned references, under every naming strategy.
@Suite struct PropertyNameTests {
    enum Level: String, CaseIterable, Sendable { case low, high }

    @Mappable
    final class Author: Mappable {
        var fullName = ""
        weak var article: Article?
        static let mapping = Mapping<Author>({ Author() }) {
            Map(\.fullName)
            ParentReference(\.article)
        }
    }

    /// Non-final: every property is reached through accessors.
    @Mappable
    class Article {
        var title: String?
        var viewCount = 0
        var createdAt = Date(timeIntervalSince1970: 0)
        var tagList: [String] = []
        var level = Level.low
        var leadAuthor: Author?
        weak var parentArticle: Article?
        required init() {}

        static let mapping = Mapping<Article>({ Article() }) {
            Map(\.title)
            Map(\.viewCount)
            Map(\.createdAt, transform: .iso8601)
            Map(\.tagList)
            Map(\.level)
            Map(\.leadAuthor)
            Ignore(\.parentArticle)
        }
    }

    @Mappable
    final class FeaturedArticle: Article {
        var badgeText = ""
        unowned var anchor: Author = FeaturedArticle.shared
        nonisolated(unsafe) static let shared = Author()
        override var title: String? {
            didSet { badgeText = badgeText.isEmpty ? "" : badgeText }
        }

        static let featuredMapping = Mapping<FeaturedArticle>(inheriting: Article.mapping, { FeaturedArticle() }) {
            Map(\.badgeText)
        }
    }

    @Mappable
    struct Card {
        var headline = ""
        weak var owner: Article?
        static let mapping = Mapping<Card>({ Card() }) {
            Map(\.headline)
        }
    }

    private func names<Model>(_ mapping: Mapping<Model>) -> [String?] { mapping.rules.map(\.property) }

    @Test func namesComeFromThePropertyTableOfEveryKindOfModel() {
        #expect(names(Article.mapping) == ["title", "viewCount", "createdAt", "tagList", "level", "leadAuthor"])
        #expect(names(FeaturedArticle.featuredMapping) == ["title", "viewCount", "createdAt", "tagList", "level", "leadAuthor", "badgeText"])
        // A weak parent is named from the table like any property.
        #expect(names(Author.mapping) == ["fullName", "article"])
        #expect(names(Card.mapping) == ["headline"])
        // Ignore is applied: parentArticle is gone from the rules.
        #expect(!names(Article.mapping).contains("parentArticle"))
        let weakRule = Mapping<Article>({ Article() }) { Map(\.parentArticle) }
        #expect(names(weakRule) == ["parentArticle"])
        let unowned = Mapping<FeaturedArticle>({ FeaturedArticle() }) { Map(\.anchor) }
        #expect(names(unowned) == ["anchor"])
        // A model without a table keeps the keys it was given, and no name is guessed.
        #expect(names(Member.mapping) == [nil, nil])
        #expect(Member.mapping.rules.map { $0.decodeKey?.description } == ["name", nil])
    }

    private func registry(_ naming: NamingStrategy) -> ModelRegistry {
        var registry = ModelRegistry(options: MappingOptions { $0.naming = naming })
        registry.register(Author.self)
        registry.register(Article.mapping)
        registry.register(FeaturedArticle.featuredMapping)
        return registry
    }

    @Test(arguments: [
        ("exact", NamingStrategy.exact, ["title", "viewCount", "createdAt", "tagList", "level", "leadAuthor", "badgeText", "fullName"]),
        ("snake", .snakeCase, ["title", "view_count", "created_at", "tag_list", "level", "lead_author", "badge_text", "full_name"]),
        ("kebab", .kebabCase, ["title", "view-count", "created-at", "tag-list", "level", "lead-author", "badge-text", "full-name"]),
        ("custom", .custom { $0.uppercased() }, ["TITLE", "VIEWCOUNT", "CREATEDAT", "TAGLIST", "LEVEL", "LEADAUTHOR", "BADGETEXT", "FULLNAME"])
    ])
    func subclassModelsRoundTripUnderEveryNamingStrategy(_ name: String, _ naming: NamingStrategy, _ keys: [String]) throws {
        let json = """
            {"\(keys[0])": "Hello", "\(keys[1])": 42, "\(keys[2])": "2026-01-02T03:04:05Z", "\(keys[3])": ["a", "b"],
             "\(keys[4])": "high", "\(keys[5])": {"\(keys[7])": "Ada"}, "\(keys[6])": "new"}
            """
        let mapper = JSONMapper(registry: registry(naming))
        let article = try mapper.decode(FeaturedArticle.self, from: Array(json.utf8))
        #expect(article.title == "Hello", "\(name)")
        #expect(article.viewCount == 42)
        #expect(article.createdAt == Date(timeIntervalSince1970: 1_767_323_045))
        #expect(article.tagList == ["a", "b"])
        #expect(article.level == .high)
        #expect(article.leadAuthor?.fullName == "Ada")
        #expect(article.leadAuthor?.article === article)
        #expect(article.badgeText == "new")
        let written = try JSONSerialization.jsonObject(with: Data(mapper.encode(article))) as? [String: Any]
        #expect(Set(written?.keys.map { $0 } ?? []) == Set(keys[0..<7]), "\(name): \(written ?? [:])")
        let author = written?[keys[5]] as? [String: Any]
        #expect(author?[keys[7]] as? String == "Ada")
    }

    @Test(arguments: [("caseInsensitive", NamingStrategy.caseInsensitive), ("fuzzy", .fuzzy)])
    func scanningStrategiesFindNamesOfClassProperties(_ name: String, _ naming: NamingStrategy) throws {
        let json = #"{"TITLE": "Hi", "view_count": 7, "tag_list": ["x"], "Level": "low", "BADGETEXT": "b"}"#
        let article = try JSONMapper(registry: registry(naming)).decode(FeaturedArticle.self, from: Array(json.utf8))
        #expect(article.title == "Hi")
        #expect(article.badgeText == "b")
        if name == "fuzzy" {
            #expect(article.viewCount == 7)
            #expect(article.tagList == ["x"])
        }
    }

    @Test func onlyListsUseDerivedNamesOfClassProperties() throws {
        var registry = ModelRegistry()
        registry.register(Author.self)
        registry.register(Article.mapping.only(["title", "viewCount"]))
        let article = try JSONMapper(registry: registry).decode(Article.self, from: Array(#"{"title": "T", "viewCount": 3, "tagList": ["no"]}"#.utf8))
        #expect(article.title == "T" && article.viewCount == 3 && article.tagList.isEmpty)
    }

    @Mappable
    class Opaque {
        var handle: NSObject? = nil
        var _id = ""
        private var storedEmail = ""
        /// Computed, over a differently named stored field: not in the table.
        var email: String {
            get { storedEmail }
            set { storedEmail = newValue }
        }
    }

    @Test func propertiesOfAnyTypeAndUnderscoredNamesAreNamedAsDeclared() throws {
        // No value of NSObject is needed to name it; `_id` stays `_id`.
        let mapping = Mapping<Opaque>({ Opaque() }) {
            Map(\.handle)
            Map(\._id)
        }
        #expect(names(mapping) == ["handle", "_id"])
        try mapping.validate()
        var registry = ModelRegistry()
        registry.register(mapping)
        let opaque = try JSONMapper(registry: registry).decode(Opaque.self, from: Array(#"{"_id": "x", "id": "y"}"#.utf8))
        #expect(opaque._id == "x")
    }

    @Test func aComputedPropertyWithoutAKeyIsReportedNotGivenItsFieldsName() throws {
        let mapping = Mapping<Opaque>({ Opaque() }) { Map(\.email) }
        #expect(names(mapping) == [nil])
        let error = try #require(throws: CartographError.self) { try mapping.validate() }
        #expect(error.message.contains("Opaque") && error.message.contains("rule 1") && error.message.contains("String"))
        #expect(error.message.contains("give the key"))
        var registry = ModelRegistry()
        registry.register(mapping)
        #expect(throws: CartographError.self) { try registry.validate() }
        // Every use throws it too, and nothing is written under a made-up key.
        #expect(throws: CartographError.self) { try JSONMapper(registry: registry).decode(Opaque.self, from: Array(#"{"storedEmail": "a@b"}"#.utf8)) }
        #expect(throws: CartographError.self) { try JSONMapper(registry: registry).encode(Opaque()) }
        // Given a key, it maps.
        var keyed = ModelRegistry()
        keyed.register(Mapping<Opaque>({ Opaque() }) { Map(\.email, "email") })
        try keyed.validate()
        let decoded = try JSONMapper(registry: keyed).decode(Opaque.self, from: Array(#"{"email": "a@b", "storedEmail": "no"}"#.utf8))
        #expect(decoded.email == "a@b")
        #expect(String(decoding: try JSONMapper(registry: keyed).encode(decoded), as: UTF8.self) == #"{"email":"a@b"}"#)
    }

    /// A model without a property table: a key-less rule is reported by
    /// `validate()` and by the registry, naming the model and the rule.
    final class Untabled {
        var name = ""
        var age = 0
    }

    @Test func aModelWithoutATableMustGiveKeys() throws {
        let mapping = Mapping<Untabled>({ Untabled() }) {
            Map(\.name, "name")
            Map(\.age)
        }
        let error = try #require(throws: CartographError.self) { try mapping.validate() }
        #expect(error.message.contains("Untabled") && error.message.contains("rule 2") && error.message.contains("Int"))
        #expect(error.message.contains("@Mappable"))
        #expect(!error.message.contains("rule 1"))
        var registry = ModelRegistry()
        registry.register(mapping)
        let reported = try #require(throws: CartographError.self) { try registry.validate() }
        #expect(reported.message == error.message)
    }
}

/// Renaming strategies read the exact property name too, and split digits.
@Suite struct NamingFallbackTests {
    @Mappable
    final class Event {
        var createdAt1234 = ""
        var startTime = ""
        static let mapping = Mapping<Event>({ Event() }) {
            Map(\.createdAt1234)
            Map(\.startTime)
        }
    }

    @Test func snakeCaseReadsTheExactNameAndSplitsDigits() throws {
        #expect(NamingStrategy.snakeCase.outputKey(for: "createdAt1234") == "created_at_1234")
        #expect(NamingStrategy.snakeCase.outputKey(for: "sha256Hash") == "sha_256_hash")
        var registry = ModelRegistry(options: MappingOptions { $0.naming = .snakeCase })
        registry.register(Event.mapping)
        let mapper = JSONMapper(registry: registry)
        let event = try mapper.decode(Event.self, from: #"{"created_at_1234": "a", "startTime": "b"}"#)
        #expect(event.createdAt1234 == "a" && event.startTime == "b")
        // The snake_case key wins when both are present; writing uses it.
        #expect(try mapper.decode(Event.self, from: #"{"start_time": "s", "startTime": "c"}"#).startTime == "s")
        #expect(String(decoding: try mapper.encode(event), as: UTF8.self) == #"{"created_at_1234":"a","start_time":"b"}"#)
    }
}

/// A nested model or array read in place falls back to the exact property
/// name as a scalar does, under a renaming strategy.
@Suite struct NestedNamingFallbackTests {
    @Mappable struct Inner: Equatable {
        var firstValue = 0
    }

    @Mappable struct Outer: Equatable {
        var innerValue = Inner()
        var innerList: [Inner] = []
        var tagList: [String] = []
    }

    @Test func nestedPropertiesReadTheSnakeCaseKeyOrTheExactName() throws {
        var registry = ModelRegistry(options: MappingOptions { $0.naming = .snakeCase })
        registry.register(Outer.self)
        registry.register(Inner.self)
        let mapper = JSONMapper(registry: registry)
        let snake = try mapper.decode(
            Outer.self, from: #"{"inner_value": {"first_value": 1}, "inner_list": [{"first_value": 2}], "tag_list": ["a"]}"#)
        let exact = try mapper.decode(Outer.self, from: #"{"innerValue": {"firstValue": 1}, "innerList": [{"firstValue": 2}], "tagList": ["a"]}"#)
        #expect(snake == exact)
        #expect(snake.innerValue.firstValue == 1 && snake.innerList == [Inner(firstValue: 2)] && snake.tagList == ["a"])
        // Both present: the snake_case key wins; neither: the defaults stay.
        let both = try mapper.decode(Outer.self, from: #"{"innerValue": {"firstValue": 9}, "inner_value": {"first_value": 3}}"#)
        #expect(both.innerValue.firstValue == 3)
        #expect(try mapper.decode(Outer.self, from: "{}") == Outer())
    }
}
