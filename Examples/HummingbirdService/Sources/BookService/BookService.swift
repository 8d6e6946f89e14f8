import Cartograph
import CartographHummingbird
import Foundation
import Hummingbird

/// The service's shared mapper: the registry is built once at start-up and
/// then shared, immutable, by every request.
enum Service {
    static let mapper: JSONMapper = {
        var registry = ModelRegistry()
        registry.register(Book.self)
        return JSONMapper(registry: registry)
    }()
}

/// Request context with Cartograph's coders over the shared mapper.
struct ServiceContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    init(source: ApplicationRequestContextSource) { coreContext = .init(source: source) }
    var requestDecoder: CartographRequestDecoder { CartographRequestDecoder(mapper: Service.mapper) }
    var responseEncoder: CartographResponseEncoder { CartographResponseEncoder(mapper: Service.mapper) }
}

/// The books, in memory.
actor Shelf {
    private var books: [Int: Book] = [:]
    func add(_ book: Book) { books[book.id] = book }
    func all() -> [Book] { books.values.sorted { $0.id < $1.id } }
    func book(_ id: Int) -> Book? { books[id] }
}

@main
struct BookService {
    static func main() async throws {
        let port = Int(ProcessInfo.processInfo.environment["PORT"] ?? "") ?? 8080
        let shelf = Shelf()
        let router = Router(context: ServiceContext.self)
        router.get("/books") { _, _ in BookList(books: await shelf.all()) }
        router.get("/books/:id") { _, context -> Book in
            guard let id = context.parameters.get("id", as: Int.self), let book = await shelf.book(id) else {
                throw HTTPError(.notFound)
            }
            return book
        }
        router.post("/books") { request, context -> Book in
            let book = try await request.decode(as: Book.self, context: context)
            await shelf.add(book)
            return book
        }
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: port)))
        try await app.runService()
    }
}
