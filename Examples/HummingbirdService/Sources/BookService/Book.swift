import Cartograph
import Foundation
import Hummingbird

/// A book as the service stores it. The wire format differs from the
/// properties (`book_id`, a nested `author.name`, `published_at`): the
/// `@Mapped` attributes say how, in both directions, and `@Mappable` makes
/// the rest (`title`, `tags`) follow the property names. `Codable` is only
/// the entry point Hummingbird's coders need: the registry takes over.
@Mappable
struct Book: Codable, ResponseEncodable, Sendable {
    @Mapped("book_id", required: true) var id = 0
    @Mapped(required: true) var title = ""
    @Mapped("author.name", required: true) var authorName = ""
    @Mapped("published_at", transform: .iso8601) var published = Date(timeIntervalSince1970: 0)
    @Mapped(coerceArray: true) var tags: [String] = [] // "tags": "classic" is accepted as ["classic"]
}

/// A list of books, as a response.
struct BookList: Codable, ResponseEncodable, Sendable {
    var books: [Book]
}
