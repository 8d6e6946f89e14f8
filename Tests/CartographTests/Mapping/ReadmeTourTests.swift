import Foundation
import Testing

@testable import Cartograph

/// The README's `@Mappable` tour, as written there, decodes, updates and
/// encodes what it says.
@Suite struct ReadmeTourTests {
    @Mappable class User {
        var firstName: String?
        var address: Address?
        @Mapped("dob", transform: .iso8601) var birthday: Date?
        @Mapped("contact.email", required: true) var email = ""
        @MapIgnore(.encode) var password: String?
        weak var manager: User?
    }
    @Mappable final class Admin: User { var level = 0 }
    @Mappable struct Address { var street = ""; var zipCode = "" }

    @Test func theTourDoesWhatItSays() throws {
        var registry = ModelRegistry(options: MappingOptions { $0.naming = .snakeCase })
        registry.register(User.self)
        registry.register(Admin.self)
        registry.register(Address.self)
        registry.identify { object, _ in object["level"] != nil ? Admin.self : User.self }
        try registry.validate()
        let mapper = JSONMapper(registry: registry)
        let body = """
            [{"first_name": "Ada", "address": {"street": "Main", "zip_code": "1"}, "dob": "1815-12-10T00:00:00Z",
              "contact": {"email": "ada@example.com"}, "password": "secret"},
             {"first_name": "Root", "contact": {"email": "r@example.com"}, "level": 3}]
            """
        let users = try mapper.decode([User].self, from: body)
        #expect(users.count == 2 && users[0].firstName == "Ada" && users[0].address?.zipCode == "1")
        #expect(users[0].password == "secret" && users[0].birthday != nil)
        #expect((users[1] as? Admin)?.level == 3)
        try mapper.update(users[0], from: #"{"first_name": null}"#)
        #expect(users[0].firstName == nil && users[0].email == "ada@example.com")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(mapper.encode(users))) as? [[String: Any]])
        #expect(json[0]["password"] == nil && (json[0]["contact"] as? [String: Any])?["email"] as? String == "ada@example.com")
        #expect(json[1]["level"] as? Int == 3 && (json[0]["address"] as? [String: Any])?["zip_code"] as? String == "1")
        // A missing required email is an error naming its path.
        let error = try #require(throws: CartographError.self) { try mapper.decode(User.self, from: #"{"first_name": "X"}"#) }
        #expect(error.path == "$.contact.email")
    }
}
