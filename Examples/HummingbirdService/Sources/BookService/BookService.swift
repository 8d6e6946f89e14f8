import Cartograph
import CartographHummingbird
import Foundation
import Hummingbird

/// The service's shared mapper: the registry is built once at start-up and
/// then shared, immutable, by every request.
enum Service {
    static let registry: ModelRegistry = {
        var registry = ModelRegistry()
        registry.register(Book.self)
        return registry
    }()
    static let mapper = JSONMapper(registry: registry)

    /// The service's OpenAPI 3.1 document: the paths written here, every
    /// schema generated from the registry the routes decode and encode with,
    /// so the document cannot drift from the wire format.
    static func openAPIDocument() throws -> JSONValue {
        let components = try registry.openAPIComponents(for: [Book.self])
        // A model read and written alike has one entry; one whose request and
        // response forms differ has `-Input` and `-Output`.
        func book(_ suffix: String) -> JSONValue {
            let name = components["schemas"]?["Book" + suffix] != nil ? "Book" + suffix : "Book"
            return ["$ref": .string("#/components/schemas/" + name)]
        }
        func json(_ schema: JSONValue, _ description: String) -> JSONValue {
            ["description": .string(description), "content": ["application/json": ["schema": schema]]]
        }
        let list: JSONValue = ["type": "object", "properties": ["books": ["type": "array", "items": book("-Output")]], "required": ["books"]]
        return [
            "openapi": "3.1.0",
            "info": ["title": "Books", "version": "1.0.0"],
            "paths": [
                "/books": [
                    "get": ["responses": ["200": json(list, "every book")]],
                    "post": [
                        "requestBody": ["required": true, "content": ["application/json": ["schema": book("-Input")]]],
                        "responses": ["200": json(book("-Output"), "the book, as stored")]
                    ]
                ],
                "/books/{id}": [
                    "get": [
                        "parameters": [["name": "id", "in": "path", "required": true, "schema": ["type": "integer"]]],
                        "responses": ["200": json(book("-Output"), "the book"), "404": ["description": "no such book"]]
                    ]
                ]
            ],
            "components": components
        ]
    }
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
        let openAPI = ByteBuffer(bytes: try Service.openAPIDocument().encoded(options: .pretty))
        let router = Router(context: ServiceContext.self)
        router.get("/openapi.json") { _, _ in
            Response(status: .ok, headers: [.contentType: "application/json"], body: ResponseBody(byteBuffer: openAPI))
        }
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
