import Cartograph
import Foundation
import Hummingbird

/// A book as the service stores it. The wire format differs from the
/// properties (`book_id`, a nested `author.name`, `published_at`), which
/// the registered mapping handles in both directions; `Codable` is only the
/// entry point Hummingbird's coders need: the registry takes over.
struct Book: Codable, Mappable, ResponseEncodable, Sendable {
    var id = 0
    var title = ""
    var authorName = ""
    var published = Date(timeIntervalSince1970: 0)
    var tags: [String] = []

    static let mapping = Mapping<Book>({ Book() }) {
        Map(\.id, "book_id", required: true)
        Map(\.title, "title", required: true)
        Map(\.authorName, "author.name", required: true)
        Map(\.published, "published_at", transform: .iso8601)
        Map(\.tags, "tags", coerceArray: true)   // "tags": "classic" is accepted as ["classic"]
    }
}

/// A list of books, as a response.
struct BookList: Codable, ResponseEncodable, Sendable {
    var books: [Book]
}
