import Foundation
import Testing
@testable import Cartograph

/// Keys derived from property names are right for every kind of model:
/// structs, final and non-final classes, subclasses (overriding properties
/// included), weak and unowned references, under every naming strategy.
@Suite struct PropertyNameTests {
    enum Level: String, CaseIterable, Sendable { case low, high }

    final class Author: Mappable {
        var fullName = ""
        weak var article: Article?
        static let mapping = Mapping<Author>({ Author() }) {
            Map(\.fullName)
            ParentReference(\.article)
        }
    }

    /// Non-final: every property is reached through accessors.
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

    struct Card {
        var headline = ""
        weak var owner: Article?
        static let mapping = Mapping<Card>({ Card() }) {
            Map(\.headline)
        }
    }

    private func names<Model>(_ mapping: Mapping<Model>) -> [String?] { mapping.rules.map(\.property) }

    @Test func namesComeFromKeyPathsOfEveryKindOfModel() {
        #expect(names(Article.mapping) == ["title", "viewCount", "createdAt", "tagList", "level", "leadAuthor"])
        #expect(names(FeaturedArticle.featuredMapping) == ["title", "viewCount", "createdAt", "tagList", "level", "leadAuthor", "badgeText"])
        // A weak parent of a non-Mappable class: no value of its type to probe
        // with (it needs no key; README, "limits of derived names").
        #expect(names(Author.mapping) == ["fullName", nil])
        // Of a Mappable class, it is named.
        #expect(names(Member.mapping) == ["name", "team"])
        #expect(names(Card.mapping) == ["headline"])
        // Ignore is applied by name: parentArticle is gone from the rules.
        #expect(!names(Article.mapping).contains("parentArticle"))
        let weakRule = Mapping<Article>({ Article() }) { Map(\.parentArticle) }
        #expect(names(weakRule) == ["parentArticle"])
        let unowned = Mapping<FeaturedArticle>({ FeaturedArticle() }) { Map(\.anchor) }
        #expect(names(unowned) == ["anchor"])
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
        ("custom", .custom { $0.uppercased() }, ["TITLE", "VIEWCOUNT", "CREATEDAT", "TAGLIST", "LEVEL", "LEADAUTHOR", "BADGETEXT", "FULLNAME"]),
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

    class Opaque {
        var handle: NSObject? = nil
        required init() {}
    }

    @Test func aNameThatCannotBeFoundIsATypedErrorNotASilentKey() throws {
        var registry = ModelRegistry()
        registry.register(Mapping<Opaque>({ Opaque() }) { Map(\.handle) })
        let error = try #require(throws: CartographError.self) { try JSONMapper(registry: registry).decode(Opaque.self, from: Array("{}".utf8)) }
        #expect(error.message.contains("give the key"))
    }
}

/// Renaming strategies read the exact property name too, and split digits.
@Suite struct NamingFallbackTests {
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
