import Foundation

@testable import Cartograph

// Models used across the mapping tests, shaped after the scenarios the
// Objective-C libraries (JSACollection, MAXJsonAdapter, JAGPropertyConverter,
// MABMapper) document.

@Mappable
struct Person: Mappable, Equatable {
    var firstName = ""
    var lastName = ""
    var age = 0
    var email: String?
    var nickname: String?

    static let mapping = Mapping<Person>({ Person() }) {
        Map(\.firstName, "personInfo.firstName", required: true)
        Map(\.lastName, "personInfo.lastName")
        Map(\.age, "personInfo.age")
        Map(\.email, "contact.email")
        Map(\.nickname, "nickname")
    }
}

enum Status: String, CaseIterable, Sendable {
    case active, suspended
}

struct Event: Mappable, Equatable {
    var name = ""
    var starts = Date(timeIntervalSince1970: 0)
    var ends: Date?
    var created = Date(timeIntervalSince1970: 0)
    var link: URL?
    var id = UUID(uuidString: "00000000-0000-0000-0000-000000000000")!
    var payload = Data()
    var price = Decimal(0)
    var status = Status.active
    var mode = Status.active
    var tags: Set<String> = []
    var local = Date(timeIntervalSince1970: 0)

    static let mapping = Mapping<Event>({ Event() }) {
        Map(\.name, "name")
        Map(\.starts, "starts", transform: .iso8601)
        Map(\.ends, "ends", transform: .iso8601WithFractionalSeconds)
        Map(\.created, "created", transform: .millisecondsSince1970)
        Map(\.link, "link", transform: .url)
        Map(\.id, "id", transform: .uuid)
        Map(\.payload, "payload", transform: .base64)
        Map(\.price, "price", transform: .decimal)
        Map(\.status, "status", transform: .rawValue)
        Map(\.mode, "mode", transform: .caseName)
        Map(\.tags, "tags")
        Map(\.local, "local", transform: .format("yyyy-MM-dd HH:mm", timeZone: TimeZone(identifier: "Europe/Paris")!))
    }
}

final class Team: Mappable {
    var name = ""
    var members: [Member] = []
    var captain: Member?

    static let mapping = Mapping<Team>({ Team() }) {
        Map(\.name, "name")
        Map(\.members, "members")
        Map(\.captain, "captain")
    }
}

final class Member: Mappable {
    var name = ""
    weak var team: Team?

    static let mapping = Mapping<Member>({ Member() }) {
        Map(\.name, "name")
        ParentReference(\.team)
    }
}

class Animal {
    var name = ""
    var legs = 0
    required init() {}

    static let animalMapping = Mapping<Animal>({ Animal() }) {
        Map(\.name, "name")
        Map(\.legs, "legs")
    }
}

final class Dog: Animal {
    var breed = ""

    static let dogMapping = Mapping<Dog>(inheriting: Animal.animalMapping, { Dog() }) {
        Map(\.breed, "breed")
    }
}

protocol Shape {
    var area: Double { get }
}

struct Circle: Shape, Mappable, Equatable {
    var radius = 0.0
    var area: Double { Double.pi * radius * radius }
    static let mapping = Mapping<Circle>({ Circle() }, keys: ["radius"]) { Map(\.radius, "radius") }
}

struct Square: Shape, Mappable, Equatable {
    var side = 0.0
    var area: Double { side * side }
    static let mapping = Mapping<Square>({ Square() }, keys: ["side"]) { Map(\.side, "side") }
}

struct Drawing: Mappable {
    var title = ""
    var shapes: [any Shape] = []
    static let mapping = Mapping<Drawing>({ Drawing() }) {
        Map(\.title, "title")
        Map(\.shapes, "shapes")
    }
}

/// A model made by a hand-written factory (JSACollection's listOfKeys + objectForDictionary).
struct User: Equatable, Sendable {
    var id: Int
    var name: String
}

struct UserFactory: ModelFactory {
    var keys: [String] { ["userID", "name"] }

    func make(from object: ObjectView, context: MappingContext) throws -> User {
        guard let id = object["userID"] else {
            throw CartographError(.keyNotFound, "userID is missing", path: context.path)
        }
        return User(id: try id.int(), name: try object["name"]?.string() ?? "")
    }

    func encode(_ model: User, context: EncodingContext) throws -> EncodedValue {
        .object([("userID", .number(JSONNumber(model.id))), ("name", .string(model.name))])
    }
}

struct Photo: Equatable, Sendable {
    var url: String
}

struct PhotoFactory: ModelFactory {
    var keys: [String] { ["src"] }
    func make(from object: ObjectView, context: MappingContext) throws -> Photo {
        Photo(url: try object["src"]?.string() ?? "")
    }
    func encode(_ model: Photo, context: EncodingContext) throws -> EncodedValue { .object([("src", .string(model.url))]) }
}

struct Album: Mappable {
    var title = ""
    var photos: [Photo] = []
    var cover: Photo?
    static let mapping = Mapping<Album>({ Album() }) {
        Map(\.title, "title")
        Map(\.photos, "photos", using: PhotoFactory())
        Map(\.cover, "cover", using: PhotoFactory())
    }
}

func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }
