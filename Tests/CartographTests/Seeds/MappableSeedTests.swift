import Foundation
import Testing

@testable import Cartograph

// The seeds' documented examples (../shared/seeds), written again on
// `@Mappable` class models registered by type alone, the way the seeds
// register theirs: non-final classes with subclasses, properties typed as
// other registered classes, weak references, enums through transforms and
// plain Codable structs. Each test says which passage it follows. Output is
// read back with JSONSerialization, not with Cartograph.

/// A plain Codable struct held by a class model.
struct SeedPoint: Codable, Equatable, Sendable {
    var x: Double
    var y: Double
}

/// An `NS_ENUM` of JAGPropertyConverter's, read and written as strings by a transform.
enum SeedPlan: String, Sendable {
    case free, pro
}

/// JAGPropertyConverter's `User`, with the properties its sections name:
/// a model property and a set of models (`invitedBy`, `friends`), a URL,
/// a date, data, an enum, a weak reference, a class-typed address.
@Mappable
class JAGModelUser: Hashable {
    var userID = 0
    var name: String?
    var likes: [String] = []
    var invitedBy: JAGModelUser?
    var friends: Set<JAGModelUser>?
    var addressInformation: JAGAddress?
    var homepage: URL?
    @Mapped(transform: .iso8601) var joined: Date?
    @Mapped(transform: .base64) var avatar: Data?
    @Mapped(transform: Transform<SeedPlan>.rawValue) var plan: SeedPlan = .free
    weak var delegate: JAGModelUser?

    static func == (a: JAGModelUser, b: JAGModelUser) -> Bool { a === b }
    func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

/// A subclass: its table starts with `JAGModelUser`'s properties.
@Mappable
final class JAGModelAdmin: JAGModelUser {
    var level = 0
}

@Mappable
class JAGAddress {
    var street = ""
    var location: SeedPoint?
}

@Suite struct MappableSeedTests {
    // MARK: JAGPropertyConverter

    /// "Overview": the example dictionary.
    static let jagJSON = """
        {
            "userID" : 1234,
            "name" : "Jane Smith",
            "likes" : ["swimming", "movies", "tennis"],
            "invitedBy" : {
                "userID" : 9876,
                "name" : "Bob Willis"
            },
            "friends" : [
                { "userID" : 8873, "name" : "Jodi Fischer" },
                { "userID" : 9876, "name" : "Bob Willis" }
            ]
        }
        """

    private func jagRegistry(_ configure: (inout MappingOptions) -> Void = { _ in }) -> ModelRegistry {
        var options = MappingOptions()
        configure(&options)
        var registry = ModelRegistry(options: options)
        registry.register(JAGModelUser.self)
        registry.register(JAGModelAdmin.self)
        registry.register(JAGAddress.self)
        return registry
    }

    private func object(_ bytes: [UInt8]) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
    }

    @Test func jagConvertsTheOverviewDictionaryToModelsAndBack() throws {
        let mapper = JSONMapper(registry: jagRegistry())
        try mapper.registry.validate()
        let user = try mapper.decode(JAGModelUser.self, from: Self.jagJSON)
        #expect(type(of: user) == JAGModelUser.self)
        #expect(user.userID == 1234 && user.name == "Jane Smith" && user.likes == ["swimming", "movies", "tennis"])
        #expect(user.invitedBy?.userID == 9876 && user.invitedBy?.name == "Bob Willis")
        #expect(Set(user.friends?.map(\.userID) ?? []) == [8873, 9876])
        let written = try object(mapper.encode(user))
        #expect(written["userID"] as? Int == 1234 && written["name"] as? String == "Jane Smith")
        #expect(written["likes"] as? [String] == ["swimming", "movies", "tennis"])
        #expect((written["invitedBy"] as? [String: Any])?["name"] as? String == "Bob Willis")
        // NSSet ↔ array: the set is written as an array.
        let friends = try #require(written["friends"] as? [[String: Any]])
        #expect(Set(friends.compactMap { $0["userID"] as? Int }) == [8873, 9876])
        // Nil optionals are left out; the plan (a non-optional enum) is written.
        #expect(written["homepage"] == nil && written["joined"] == nil)
        #expect(written["plan"] as? String == "free")
        #expect(Set(written.keys) == ["userID", "name", "likes", "invitedBy", "friends", "plan"])
    }

    /// "identifyDict … will now pass in the dictionary name": the key an
    /// object sits under picks the subclass.
    @Test func jagIdentifyDictSeesTheKeyAndPicksASubclass() throws {
        var registry = jagRegistry()
        registry.identify { object, key in
            guard object["userID"] != nil else { return nil }
            return key == "invitedBy" ? JAGModelAdmin.self : JAGModelUser.self
        }
        let mapper = JSONMapper(registry: registry)
        let json = #"{"userID": 1, "invitedBy": {"userID": 2, "name": "Root", "level": 9}, "friends": [{"userID": 3, "level": 4}]}"#
        let user = try mapper.decode(JAGModelUser.self, from: json)
        let admin = try #require(user.invitedBy as? JAGModelAdmin)
        #expect(admin.userID == 2 && admin.name == "Root" && admin.level == 9)
        // Under "friends" the rule picks the base class: its level is not read.
        #expect(user.friends?.first.map { type(of: $0) == JAGModelUser.self } == true)
        // Writing a subclass writes its superclass's properties and its own.
        let written = try object(mapper.encode(admin))
        #expect(written["userID"] as? Int == 2 && written["level"] as? Int == 9 && written["name"] as? String == "Root")
    }

    /// "Support for auto converting to/from snake_case": names, including a
    /// property typed as another registered class, become snake_case both ways.
    @Test func jagSnakeCaseSupportConvertsEveryPropertyNameBothWays() throws {
        let mapper = JSONMapper(registry: jagRegistry { $0.naming = .snakeCase })
        let json = """
            {"user_id": 7, "name": "Snake", "invited_by": {"user_id": 8},
             "address_information": {"street": "Main", "location": {"x": 1.5, "y": -2}}, "plan": "pro"}
            """
        let user = try mapper.decode(JAGModelUser.self, from: json)
        #expect(user.userID == 7 && user.invitedBy?.userID == 8 && user.plan == .pro)
        #expect(user.addressInformation?.street == "Main" && user.addressInformation?.location == SeedPoint(x: 1.5, y: -2))
        let written = try object(mapper.encode(user))
        #expect(Set(written.keys) == ["user_id", "name", "invited_by", "address_information", "plan", "likes"])
        let address = try #require(written["address_information"] as? [String: Any])
        #expect(address["street"] as? String == "Main")
        // The Codable struct keeps its own keys.
        #expect((address["location"] as? [String: Any])?["x"] as? Double == 1.5)
        // The exact names are not snake_case keys: written only as snake_case.
        #expect(written["userID"] == nil && written["addressInformation"] == nil)
    }

    /// "NSURL", "NSDate", "NSData", "Enums": URLs as absolute strings, dates
    /// and data through transforms, enums as strings both ways.
    @Test func jagURLsDatesDataAndEnumsConvertBothWays() throws {
        let mapper = JSONMapper(registry: jagRegistry())
        let json = """
            {"userID": 1, "homepage": "https://example.com/jane?x=1", "joined": "2024-02-29T12:00:00Z",
             "avatar": "AAEC/w==", "plan": "pro"}
            """
        let user = try mapper.decode(JAGModelUser.self, from: json)
        #expect(user.homepage?.absoluteString == "https://example.com/jane?x=1")
        #expect(user.joined == Date(timeIntervalSince1970: 1_709_208_000))
        #expect(user.avatar == Data([0, 1, 2, 255]))
        #expect(user.plan == .pro)
        let written = try object(mapper.encode(user))
        #expect(written["homepage"] as? String == "https://example.com/jane?x=1")
        #expect(written["joined"] as? String == "2024-02-29T12:00:00Z")
        #expect(written["avatar"] as? String == "AAEC/w==")
        #expect(written["plan"] as? String == "pro")
        // An enum spelling the type does not have is a typed error at its path, not a silent default.
        let error = try #require(throws: CartographError.self) {
            try mapper.decode(JAGModelUser.self, from: #"{"userID": 1, "plan": "gold"}"#)
        }
        #expect(error.path == "$.plan")
        // "Full" output keeps a date a Date; "JSON" output makes it a string.
        let full = try #require(try mapper.encodeAny(user, profile: .full) as? [String: Any])
        #expect(full["joined"] is Date)
    }

    /// "shouldIgnoreNullValues": a null keeps the value; without it, a null clears an optional.
    @Test func jagNullsClearOrAreIgnoredCreatingAndUpdating() throws {
        let user = try JSONMapper(registry: jagRegistry()).decode(
            JAGModelUser.self, from: #"{"userID": 1, "name": "N", "homepage": "https://a.example"}"#)
        try JSONMapper(registry: jagRegistry { $0.ignoreNulls = true }).update(user, from: #"{"name": null, "homepage": null, "userID": 2}"#)
        #expect(user.name == "N" && user.homepage != nil && user.userID == 2)
        try JSONMapper(registry: jagRegistry()).update(user, from: #"{"name": null, "homepage": null}"#)
        #expect(user.name == nil && user.homepage == nil && user.userID == 2)
        // A null for a non-optional property is an error that names it.
        let error = try #require(throws: CartographError.self) {
            try JSONMapper(registry: jagRegistry()).update(user, from: #"{"userID": null}"#)
        }
        #expect(error.path == "$.userID")
    }

    /// "By default, weak/assign object pointers are not converted";
    /// `shouldConvertWeakProperties` turns it on.
    @Test func jagWeakPropertiesAreNotConvertedUnlessAskedFor() throws {
        let user = JAGModelUser()
        let delegate = JAGModelUser()
        delegate.userID = 5
        user.delegate = delegate
        let plain = try object(JSONMapper(registry: jagRegistry()).encode(user))
        #expect(plain["delegate"] == nil)
        let converting = JSONMapper(registry: jagRegistry { $0.convertsWeakProperties = true })
        #expect((try object(converting.encode(user))["delegate"] as? [String: Any])?["userID"] as? Int == 5)
        // A weak reference back up the graph is a cycle the options decide about.
        delegate.delegate = delegate
        #expect(throws: CartographError.self) { try converting.encode(user) }
        let skipping = JSONMapper(
            registry: jagRegistry {
                $0.convertsWeakProperties = true; $0.cycles = .skip
            })
        #expect((try object(skipping.encode(user))["delegate"] as? [String: Any])?["delegate"] == nil)
        withExtendedLifetime(delegate) {}
    }

    // MARK: JSACollection

    /// "Non-Standard Types" and "Parent Objects": Foo holds an OtherFoo,
    /// which points back at it.
    @Test func jsaNonStandardTypesArraysOfAClassAndParentReferences() throws {
        var registry = ModelRegistry()
        registry.register(JSACModelFoo.self)
        registry.register(JSACModelOther.self)
        let mapper = JSONMapper(registry: registry)
        let json = """
            {"nameString": "Bob", "otherFoo": {"fooString": "Foo", "fooType": "strong"},
             "otherFooArray": [{"fooString": "a"}, {"fooString": "b"}]}
            """
        let foo = try mapper.decode(JSACModelFoo.self, from: json)
        #expect(foo.nameString == "Bob")
        #expect(foo.otherFoo?.fooString == "Foo" && foo.otherFoo?.fooType == "strong")
        #expect(foo.otherFoo?.parent === foo)
        // MAP_ARRAY_CLASS: an array of OtherFoo, each pointing at its parent.
        #expect(foo.otherFooArray.map(\.fooString) == ["a", "b"])
        #expect(foo.otherFooArray.allSatisfy { $0.parent === foo })
        // The parent reference is never written.
        let written = try object(mapper.encode(foo))
        #expect((written["otherFoo"] as? [String: Any])?.keys.sorted() == ["fooString", "fooType"])
    }

    /// "Property Naming": case-insensitive, the first word of a name, the
    /// underscored words; USE_PARENT_PROPERTIES for a subclass.
    @Test func jsaPropertyNamingFindsFieldsForSubclassesToo() throws {
        var registry = ModelRegistry(options: MappingOptions { $0.naming = .fuzzy })
        registry.register(JSACModelFoo.self)
        registry.register(JSACModelSubFoo.self)
        registry.register(JSACModelOther.self)
        let mapper = JSONMapper(registry: registry)
        let sub = try mapper.decode(
            JSACModelSubFoo.self, from: #"{"name": "bill", "first_name": "Bill", "EXTRA_COUNT": 3, "OTHERFOO": {"FOOSTRING": "x"}}"#)
        #expect(sub.nameString == "bill" && sub.firstName == "Bill" && sub.extraCount == 3)
        #expect(sub.otherFoo?.fooString == "x" && sub.otherFoo?.parent === sub)
    }

    /// "Serialization Using The Mapper": a per-property setter and the
    /// JSONKeyMapping (collection key → property), in a hand-written mapping
    /// whose key-less rules are named from the table.
    @Test func jsaMapperSettersAndKeyMappingOnATableModel() throws {
        var registry = ModelRegistry()
        registry.register(
            Mapping<JSACModelFoo>({ JSACModelFoo() }) {
                Map(\.nameString, "name")
                Map(\.firstName)
                Setter(property: "custom") { foo, node, _ in foo.firstName = "set:" + (try node.string()) }
            })
        let foo = try JSONMapper(registry: registry).decode(JSACModelFoo.self, from: #"{"name": "n", "custom": "c"}"#)
        #expect(foo.nameString == "n" && foo.firstName == "set:c")
        // serializeObjects: every model object found anywhere in a container,
        // known by its keys (a factory's listOfKeys; here the default
        // mapping with the one key that identifies it).
        var collecting = ModelRegistry()
        collecting.register(Mapping<JSACModelOther>.automatic(keys: ["fooString"]))
        let found = try JSONMapper(registry: collecting).collect(
            JSACModelOther.self, from: Array(#"{"a": [{"fooString": "1"}], "b": {"c": {"fooString": "2"}}}"#.utf8))
        #expect(found.map(\.fooString) == ["1", "2"])
    }

    // MARK: MAXJsonAdapter

    /// "Mapping Values": nested and renamed keys both ways ("we will create
    /// an identic NSDictionary as we received"), "Ignoring or Specifying
    /// Values" for dictionary creation, refreshObject.
    @Test func maxMapsNestedAndRenamedKeysWritesAnIdenticDictionaryAndRefreshes() throws {
        let json = """
            {"personInfo": {"firstName": "Bruce", "middleName": null, "lastName": "Wayne"},
             "phoneNumber": "7728282737", "userEmail": "batman@batman.com",
             "aliases": ["KillTheJoker", "RobinIsMyPet101", "TheRiddlerRiddlesTheRiddle"]}
            """
        var registry = ModelRegistry()
        registry.register(MAXModelUser.self)
        let mapper = JSONMapper(registry: registry)
        let user = try mapper.decode(MAXModelUser.self, from: json)
        #expect(user.firstName == "Bruce" && user.middleName == nil && user.lastName == "Wayne")
        #expect(user.email == "batman@batman.com" && user.usernames.count == 3 && user.phoneNumber == "7728282737")
        let original = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? NSDictionary)
        #expect(try JSONSerialization.jsonObject(with: Data(mapper.encode(user))) as? NSDictionary == original)
        // MAXJAPropertiesToIgnoreDictionaryCreation: @["email"].
        var ignoring = ModelRegistry()
        ignoring.register(MAXModelPublicUser.self)
        let shown = try JSONMapper(registry: ignoring).decode(MAXModelPublicUser.self, from: json)
        #expect(shown.email == "batman@batman.com")
        let written = try object(JSONMapper(registry: ignoring).encode(shown))
        #expect(written["userEmail"] == nil && written["phoneNumber"] as? String == "7728282737")
        // refreshObject: only what the dictionary has changes.
        try mapper.update(user, from: #"{"phoneNumber": "555", "personInfo": {"lastName": "W."}}"#)
        #expect(user.phoneNumber == "555" && user.lastName == "W." && user.firstName == "Bruce" && user.usernames.count == 3)
    }

    /// "Subclassing": a subclass adds properties to its superclass's mapping.
    @Test func maxSubclassKeepsTheSuperclassMappingAndAddsItsOwn() throws {
        var registry = ModelRegistry()
        registry.register(MAXModelUser.self)
        registry.register(MAXModelHero.self)
        let mapper = JSONMapper(registry: registry)
        let hero = try mapper.decode(MAXModelHero.self, from: #"{"personInfo": {"firstName": "Diana"}, "aliases": ["WW"], "powers": ["lasso"]}"#)
        #expect(hero.firstName == "Diana" && hero.usernames == ["WW"] && hero.powers == ["lasso"])
        let written = try object(mapper.encode(hero))
        #expect((written["personInfo"] as? [String: Any])?["firstName"] as? String == "Diana")
        #expect(written["powers"] as? [String] == ["lasso"])
    }

    // MARK: MABMapper

    /// "Property Settings": class, path, required, array.
    @Test func mabPathsRequiredAndArraysOnAClassModel() throws {
        var registry = ModelRegistry()
        registry.register(MABModelPlace.self)
        registry.register(MABModelOwner.self)
        let mapper = JSONMapper(registry: registry)
        let json = """
            [{"geometry": {"lat": 10.1234, "lng": 30.12345}, "tags": "one", "mainTag": ["first", "second"],
              "owner": {"name": "O"}, "opened": "2020-01-01T00:00:00Z"}]
            """
        let places = try mapper.decode([MABModelPlace].self, from: json)
        let place = try #require(places.first)
        #expect(place.lat == 10.1234 && place.lng == 30.12345)
        #expect(place.tags == ["one"] && place.mainTag == "first")
        #expect(place.owner?.name == "O" && place.opened == Date(timeIntervalSince1970: 1_577_836_800))
        let written = try object(mapper.encode(place))
        #expect((written["geometry"] as? [String: Any])?["lng"] as? Double == 30.12345)
        // "If the property is required and fetcher can not convert data … the
        // returned object will be nil": here, a typed error naming the path.
        let error = try #require(throws: CartographError.self) {
            try mapper.decode([MABModelPlace].self, from: #"[{"geometry": {"lat": 1}}]"#)
        }
        #expect(error.kind == .keyNotFound && error.path == "$[0].geometry.lng")
    }
}

// JSACollection's Foo and OtherFoo.

@Mappable
class JSACModelFoo {
    var nameString: String?
    var firstName: String?
    var otherFoo: JSACModelOther?
    var otherFooArray: [JSACModelOther] = []
}

@Mappable
final class JSACModelSubFoo: JSACModelFoo {
    var extraCount = 0
}

@Mappable
class JSACModelOther {
    var fooString: String?
    var fooType: String?
    @MapParent weak var parent: JSACModelFoo?
}

// MAXJsonAdapter's User with its property maps.

@Mappable
class MAXModelUser {
    @Mapped("userEmail") var email: String?
    @Mapped("personInfo.firstName") var firstName: String?
    @Mapped("personInfo.middleName", nilEncoding: .null) var middleName: String?
    @Mapped("personInfo.lastName") var lastName: String?
    var phoneNumber: String?
    @Mapped("aliases") var usernames: [String] = []
}

@Mappable
class MAXModelHero: MAXModelUser {
    var powers: [String] = []
}

/// The same user, with email left out when the dictionary is created.
@Mappable
final class MAXModelPublicUser {
    @Mapped("userEmail") @MapIgnore(.encode) var email: String?
    var phoneNumber: String?
}

// MABMapper's map configuration as attributes.

@Mappable
class MABModelPlace {
    @Mapped("geometry.lat", required: true) var lat = 0.0
    @Mapped("geometry.lng", required: true) var lng = 0.0
    @Mapped(coerceArray: true) var tags: [String] = []
    @Mapped(coerceArray: true) var mainTag: String?
    var owner: MABModelOwner?
    @Mapped(transform: .iso8601) var opened: Date?
}

@Mappable
class MABModelOwner {
    var name = ""
}
