// Models for six of the generated inputs in Benchmarks/Data (written by
// Benchmarks/Data/generate.py): strings.json and escaped.json (articles with
// long Unicode bodies, the second written ASCII-only), records.json (many
// small flat records) and maps.json and indented.json (records in an object
// keyed by id, the second pretty-printed). activity.json's models, written
// as a client writes its own, are in ActivityModels.swift.
// Every field is mapped; they decode through Codable and through Mappings
// (the Mappable conformances below).
import Cartograph

/// strings.json and escaped.json: articles whose bodies are long, multi-script and escaped.
public struct ArticleList: Codable, Equatable, Sendable {
    public var articles: [Article] = []

    public init() {}
}

public struct Article: Codable, Equatable, Sendable {
    public var id = 0
    public var title = ""
    public var body = ""
    public var language = ""
    public var tags: [String] = []

    public init() {}
}

/// One line of records.json.
public struct EventRecord: Codable, Equatable, Sendable {
    public var id = 0
    public var ok = false
    public var value = 0.0
    public var kind = ""
    public var user: Int?

    public init() {}
}

/// maps.json and indented.json: users keyed by id.
public struct UserDirectory: Codable, Equatable, Sendable {
    public var version = 0
    public var users: [String: DirectoryUser] = [:]

    public init() {}
}

public struct DirectoryUser: Codable, Equatable, Sendable {
    public var name = ""
    public var age = 0
    public var email = ""
    public var score = 0.0
    public var roles: [String] = []

    public init() {}
}

extension ArticleList: Mappable {
    public static let mapping = Mapping<ArticleList>({ ArticleList() }) {
        Map(\.articles, "articles")
    }
}

extension Article: Mappable {
    public static let mapping = Mapping<Article>({ Article() }) {
        Map(\.id, "id")
        Map(\.title, "title")
        Map(\.body, "body")
        Map(\.language, "language")
        Map(\.tags, "tags")
    }
}

extension EventRecord: Mappable {
    public static let mapping = Mapping<EventRecord>({ EventRecord() }) {
        Map(\.id, "id")
        Map(\.ok, "ok")
        Map(\.value, "value")
        Map(\.kind, "kind")
        Map(\.user, "user")
    }
}

extension UserDirectory: Mappable {
    public static let mapping = Mapping<UserDirectory>({ UserDirectory() }) {
        Map(\.version, "version")
        Map(\.users, "users")
    }
}

extension DirectoryUser: Mappable {
    public static let mapping = Mapping<DirectoryUser>({ DirectoryUser() }) {
        Map(\.name, "name")
        Map(\.age, "age")
        Map(\.email, "email")
        Map(\.score, "score")
        Map(\.roles, "roles")
    }
}

/// A corpus file's root model, with the count a benchmark returns (so the
/// work cannot be optimised away).
public protocol CorpusRoot: Codable, Sendable {
    /// How many top-level elements were decoded.
    var elementCount: Int { get }
    /// How the file spells keys and dates (``CorpusWire/plain`` unless said).
    static var wire: CorpusWire { get }
}

extension CorpusRoot {
    public static var wire: CorpusWire { .plain }
}

/// The element of a corpus file that is a top-level array.
public protocol CorpusElement: Codable, Sendable {
    /// How the file spells keys and dates (``CorpusWire/plain`` unless said).
    static var wire: CorpusWire { get }
}

extension CorpusElement {
    public static var wire: CorpusWire { .plain }
}

extension TwitterResponse: CorpusRoot {
    public var elementCount: Int { statuses.count }
}

extension FeatureCollection: CorpusRoot {
    public var elementCount: Int { features.count }
}

extension ArticleList: CorpusRoot {
    public var elementCount: Int { articles.count }
}

extension UserDirectory: CorpusRoot {
    public var elementCount: Int { users.count }
}

extension EventRecord: CorpusElement {}

extension ActivityEvent: CorpusElement {}

extension Array: CorpusRoot where Element: CorpusElement {
    public var elementCount: Int { count }
    public static var wire: CorpusWire { Element.wire }
}

/// The root model of each benchmark file that has one.
public enum CorpusRoots {
    /// The model `file` (a name in Benchmarks/Data) decodes into, or nil.
    public static func type(for file: String) -> (any CorpusRoot.Type)? {
        switch file {
        case "twitter.json": TwitterResponse.self
        case "canada.json": FeatureCollection.self
        case "strings.json", "escaped.json": ArticleList.self
        case "records.json": [EventRecord].self
        case "maps.json", "indented.json": UserDirectory.self
        case "activity.json": [ActivityEvent].self
        default: nil
        }
    }

    /// Whether `file`'s models have `Mapping`s too (activity.json's, with
    /// `let` properties a mapping cannot set, have Codable alone).
    public static func hasMappings(_ file: String) -> Bool {
        type(for: file) != nil && file != "activity.json"
    }
}
