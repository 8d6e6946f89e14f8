import Foundation
import Testing

@testable import Cartograph

/// `ModelRegistry.jsonSchema(for:direction:)`: what the schema says comes
/// from the mapping the decoder runs, and an outside validator agrees with
/// the decoder on what is accepted and with the encoder on what is written.
@Suite struct JSONSchemaTests {
    struct Owner: Mappable, Equatable {
        var name = ""
        static let mapping = Mapping<Owner>({ Owner() }) { Map(\.name, "name", required: true) }
    }

    struct Place: Mappable {
        enum Kind: String, CaseIterable { case park, museum }
        var name = ""
        var lat = 0.0
        var lng = 0.0
        var opened: Date?
        var tags: Set<String> = []
        var ratings: [String: Int] = [:]
        var kind = Kind.park
        var secret = ""
        var first = ""
        var photo = Data()
        var owner: Owner?
        var id: UInt8 = 0
        var visits: [Date] = []

        static let mapping = Mapping<Place>({ Place() }) {
            Map(\.name, "title", required: true)
            Map(\.lat, "geometry.lat")
            Map(\.lng, "geometry.lng")
            Map(\.opened, "opened_at", transform: .iso8601)
            Map(\.tags, "tags")
            Map(\.ratings, "ratings")
            Map(\.kind, "kind", transform: .rawValue)
            Map(\.secret, "secret")
            Ignore(\.secret, on: .encode)
            Map(\.first, "names.0")
            Map(\.photo, "photo", transform: .base64)
            Map(\.owner, "owner")
            Map(\.id, decode: "id", encode: "identifier")
            Map(\.visits, "visits", transform: .secondsSince1970)
        }
    }

    static func json(_ text: String) throws -> JSONValue { try JSONMapper().decode(JSONValue.self, from: text) }

    static var registry: ModelRegistry {
        var registry = ModelRegistry()
        registry.register(Place.self)
        registry.register(Owner.self)
        return registry
    }

    @Test func keysTypesAndFormatsComeFromTheMapping() throws {
        let schema = try Self.registry.jsonSchema(for: Place.self)
        #expect(schema["$schema"] == "https://json-schema.org/draft/2020-12/schema")
        #expect(schema["$ref"] == "#/$defs/Place")
        let place = try #require(schema["$defs"]?["Place"])
        let properties = try #require(place["properties"])
        guard case .object(let members) = properties else { throw OutsideValidator.Failure(description: "no properties") }
        #expect(members.keys == ["title", "geometry", "opened_at", "tags", "ratings", "kind", "secret", "names", "photo", "owner", "id", "visits"])
        #expect(place["required"] == ["title"])
        #expect(place["additionalProperties"] == nil, "unknown keys are ignored when reading")
        #expect(
            properties["geometry"]
                == (try Self.json(
                    #"{"type":"object","properties":{"lat":{"type":"number","format":"double"},"lng":{"type":"number","format":"double"}}}"#)))
        #expect(properties["opened_at"] == (try Self.json(#"{"type":["string","null"],"format":"date-time"}"#)))
        #expect(properties["tags"] == (try Self.json(#"{"type":"array","items":{"type":"string"},"uniqueItems":true}"#)))
        #expect(properties["ratings"] == (try Self.json(#"{"type":"object","additionalProperties":{"type":"integer","format":"int64"}}"#)))
        #expect(properties["kind"] == (try Self.json(#"{"type":"string","enum":["park","museum"]}"#)))
        #expect(properties["names"] == (try Self.json(#"{"type":"array","prefixItems":[{"type":"string"}]}"#)))
        #expect(properties["photo"] == (try Self.json(#"{"type":"string","contentEncoding":"base64"}"#)))
        #expect(properties["owner"] == (try Self.json(##"{"anyOf":[{"$ref":"#/$defs/Owner"},{"type":"null"}]}"##)))
        #expect(properties["id"] == (try Self.json(#"{"type":"integer","minimum":0,"maximum":255}"#)))
        #expect(properties["visits"]?["items"]?["type"] == "number")
        #expect(schema["$defs"]?["Owner"]?["required"] == ["name"])
    }

    @Test func theEncodeSchemaIsWhatTheEncoderWrites() throws {
        let schema = try Self.registry.jsonSchema(for: Place.self, direction: .encode)
        let place = try #require(schema["$defs"]?["Place"])
        guard case .object(let members)? = place["properties"] else { throw OutsideValidator.Failure(description: "no properties") }
        #expect(members.keys == ["title", "geometry", "opened_at", "tags", "ratings", "kind", "names", "photo", "owner", "identifier", "visits"])
        #expect(place["required"] == ["title", "geometry", "tags", "ratings", "kind", "names", "photo", "identifier", "visits"])
        #expect(place["additionalProperties"] == nil, "open, so that a client survives the next field")
        #expect(place["properties"]?["opened_at"] == (try Self.json(#"{"type":"string","format":"date-time"}"#)), "nil is left out, never null")
    }

    @Test func anOutsideValidatorAgreesWithTheDecoderOnWhatIsAccepted() throws {
        let registry = Self.registry
        let mapper = JSONMapper(registry: registry)
        let inputs = [
            #"{"title":"Zoo"}"#,
            #"{"title":"Zoo","geometry":{"lat":1.5,"lng":2},"opened_at":"2026-11-02T09:14:03Z","kind":"museum","id":7}"#,
            #"{"title":"Zoo","opened_at":null,"owner":null,"tags":["a","b"],"ratings":{"x":3},"names":["first"]}"#,
            #"{"title":"Zoo","owner":{"name":"Ann"},"photo":"AAEC","visits":[1700000000,1.5]}"#,
            #"{"title":"Zoo","unknown":[1,2,3]}"#,
            #"{}"#,
            #"{"title":null}"#,
            #"{"title":7}"#,
            #"{"title":"Zoo","kind":"zoo"}"#,
            #"{"title":"Zoo","id":300}"#,
            #"{"title":"Zoo","id":-1}"#,
            #"{"title":"Zoo","geometry":{"lat":"north"}}"#,
            #"{"title":"Zoo","tags":"a"}"#,
            #"{"title":"Zoo","owner":{}}"#,
            #"{"title":"Zoo","secret":null}"#,
            #"{"title":"Zoo","opened_at":"yesterday"}"#,
            #"{"title":"Zoo","visits":["2026-01-01"]}"#,
            #"{"title":"Zoo","ratings":{"x":"three"}}"#
        ]
        let schema = try registry.jsonSchema(for: Place.self)
        let verdicts = try OutsideValidator.errors(in: try inputs.map(Self.json), against: schema)
        for (input, errors) in zip(inputs, verdicts) {
            let decoded = Result { try mapper.decode(Place.self, from: input) }
            let accepted = (try? decoded.get()) != nil
            #expect(accepted == errors.isEmpty, "\(input): decoder \(accepted ? "accepts" : "refuses"), validator says \(errors)")
        }
    }

    @Test func whatTheEncoderWritesValidatesAgainstTheEncodeSchema() throws {
        let registry = Self.registry
        let mapper = JSONMapper(registry: registry)
        var full = Place()
        full.name = "Zoo"
        full.opened = Date(timeIntervalSince1970: 1_700_000_000)
        full.tags = ["a"]
        full.ratings = ["x": 1]
        full.kind = .museum
        full.owner = Owner(name: "Ann")
        full.photo = Data([1, 2, 3])
        full.visits = [Date(timeIntervalSince1970: 12.5)]
        let written = try [Place(), full].map { try JSONMapper().decode(JSONValue.self, from: try mapper.encode($0) as [UInt8]) }
        let schema = try registry.jsonSchema(for: Place.self, direction: .encode)
        let verdicts = try OutsideValidator.errors(in: written, against: schema)
        #expect(verdicts.allSatisfy { $0.isEmpty }, "\(verdicts)")
        // And the schema is not vacuous: a written value with a key removed or retyped fails it.
        guard case .object(var broken) = written[1], case .object(var retyped) = written[1] else { return }
        broken["identifier"] = nil
        retyped["tags"] = "a"
        let refused = try OutsideValidator.errors(in: [.object(broken), .object(retyped)], against: schema)
        #expect(refused.allSatisfy { !$0.isEmpty }, "\(refused)")
    }

    @Test func arraysOfModelsAndOtherShapesAtTheRoot() throws {
        let schema = try Self.registry.jsonSchema(for: [Place].self)
        #expect(schema["type"] == "array")
        #expect(schema["items"] == ["$ref": "#/$defs/Place"])
        #expect(schema["$defs"]?["Owner"] != nil)
    }

    @Test func aTypeThatIsNoModelAndBothDirectionsAreErrors() {
        struct Plain: Codable { var x = 0 }
        #expect(throws: CartographError.self) { try Self.registry.jsonSchema(for: Plain.self) }
        #expect(throws: CartographError.self) { try Self.registry.jsonSchema(for: Place.self, direction: .both) }
    }

    @Test func theNullPolicyDecidesWhereNullIsAccepted() throws {
        struct Named: Mappable {
            var name = ""
            var count = 0
            var owner: Owner?
            static let mapping = Mapping<Named>({ Named() }) {
                Map(\.name, "name")
                Map(\.count, "count", ignoreNull: true)
                Map(\.owner, "owner", required: true)
            }
        }
        var strict = ModelRegistry()
        strict.register(Named.self)
        let reset = ModelRegistry(options: MappingOptions { $0.nullForNonOptional = .resetToDefault })
        let properties = try #require(try strict.jsonSchema(for: Named.self)["$defs"]?["Named"]?["properties"])
        #expect(properties["name"] == ["type": "string"])
        #expect(properties["count"] == ["type": ["integer", "null"], "format": "int64"])
        #expect(properties["owner"] == ["$ref": "#/$defs/Owner"], "required: null refused")
        let relaxed = try #require(try reset.jsonSchema(for: Named.self)["$defs"]?["Named"]?["properties"])
        #expect(relaxed["name"] == ["type": ["string", "null"]])
        let nulls = MappingOptions { $0.nilEncoding = .null }
        let written = try ModelRegistry(options: nulls).jsonSchema(for: Named.self, direction: .encode)
        #expect(written["$defs"]?["Named"]?["required"] == ["name", "count", "owner"])
        #expect(written["$defs"]?["Named"]?["properties"]?["owner"] == (try Self.json(##"{"anyOf":[{"$ref":"#/$defs/Owner"},{"type":"null"}]}"##)))
    }

    @Mappable
    struct Book: Codable {
        @Mapped("book_id", required: true) var id = 0
        @Mapped("author.name") var authorName = ""
        @Mapped("published_at", transform: .iso8601) var published: Date?
        var tags: Set<String> = []
    }

    /// The Schemas article's example, as it says.
    @Test func theArticlesBookIsDescribedAsTheArticleSays() throws {
        var registry = ModelRegistry()
        registry.register(Book.self)
        let book = try #require(try registry.jsonSchema(for: Book.self)["$defs"]?["Book"])
        let expected = """
            {
              "type": "object",
              "properties": {
                "book_id": {"type": "integer", "format": "int64"},
                "author": {"type": "object", "properties": {"name": {"type": "string"}}},
                "published_at": {"type": ["string", "null"], "format": "date-time"},
                "tags": {"type": "array", "items": {"type": "string"}, "uniqueItems": true}
              },
              "required": ["book_id"],
              "title": "Book"
            }
            """
        #expect(book == (try Self.json(expected)))
        #expect(try book.encoded() == (try Self.json(expected)).encoded(), "the same order of keys")
    }

    @Mappable
    final class Account {
        var displayName = ""
        var balanceCents = 0
        var internalNote = ""
        var fullName = ""
        static let readable = Mapping<Account>.automatic().only(["displayName", "balanceCents"], on: .decode)
        static let withSetter = Mapping<Account>({ Account() }) {
            Map(\.displayName)
            Setter(property: "fullName") { account, node, _ in account.fullName = try node.string().uppercased() }
        }
    }

    @Test func allowListsAndTheNamingStrategyDecideTheKeysPerDirection() throws {
        var registry = ModelRegistry(options: MappingOptions { $0.naming = .snakeCase })
        registry.register(Account.readable)
        let read = try #require(try registry.jsonSchema(for: Account.self)["$defs"]?["Account"]?["properties"])
        let written = try #require(try registry.jsonSchema(for: Account.self, direction: .encode)["$defs"]?["Account"]?["properties"])
        guard case .object(let readKeys) = read, case .object(let writtenKeys) = written else { return }
        #expect(readKeys.keys == ["display_name", "balance_cents"])
        #expect(writtenKeys.keys == ["display_name", "balance_cents", "internal_note", "full_name"])
    }

    @Test func aSetterIsReadAsAnyValueAndNeverWritten() throws {
        var registry = ModelRegistry()
        registry.register(Account.withSetter)
        let read = try #require(try registry.jsonSchema(for: Account.self)["$defs"]?["Account"])
        #expect(read["properties"] == ["displayName": ["type": "string"], "fullName": [:]])
        #expect(read["required"] == nil)
        let written = try registry.jsonSchema(for: Account.self, direction: .encode)["$defs"]?["Account"]?["properties"]
        #expect(written == ["displayName": ["type": "string"]])
    }

    /// Every width of integer, 128-bit ones (read through their `Codable`
    /// conformance) and raw-value enums of every raw type, without a trap.
    @Test func integersOfEveryWidthAndRawValueEnums() throws {
        enum Level: Int8, CaseIterable { case low = -3, high = 7 }
        enum Ratio: Double, CaseIterable { case half = 0.5 }
        struct Widths: Mappable {
            var a: Int8 = 0
            var b: UInt64 = 0
            var c: UInt = 0
            var d: Int32 = 0
            var e: Int128 = 0
            var f: UInt128 = 0
            var level = Level.low
            var ratio = Ratio.half
            static let mapping = Mapping<Widths>({ Widths() }) {
                Map(\.a, "a")
                Map(\.b, "b")
                Map(\.c, "c")
                Map(\.d, "d")
                Map(\.e, "e")
                Map(\.f, "f")
                Map(\.level, "level", transform: .rawValue)
                Map(\.ratio, "ratio", transform: .rawValue)
            }
        }
        let properties = try #require(try ModelRegistry().jsonSchema(for: Widths.self)["$defs"]?["Widths"]?["properties"])
        #expect(properties["a"] == (try Self.json(#"{"type":"integer","minimum":-128,"maximum":127}"#)))
        #expect(properties["b"] == (try Self.json(#"{"type":"integer","minimum":0,"maximum":18446744073709551615}"#)))
        #expect(properties["d"] == ["type": "integer", "format": "int32"])
        #expect(properties["e"]?["type"] == nil, "Int128 is read by its Codable conformance: described as anything")
        #expect(properties["level"] == (try Self.json(#"{"type":"integer","minimum":-128,"maximum":127,"enum":[-3,7]}"#)))
        #expect(properties["ratio"] == (try Self.json(#"{"type":"number","format":"double","enum":[0.5]}"#)))
    }

    @Test func transformsDescribeThemselvesOrAreAnything() throws {
        struct Priced: Mappable {
            var cents = 0
            var note = ""
            var when = Date()
            static let mapping = Mapping<Priced>({ Priced() }) {
                Map(\.cents, "price", transform: Transform<Int>(decode: { try $0.int() }, encode: { .number(JSONNumber($0)) }))
                Map(
                    \.note, "note",
                    transform: Transform<String>(decode: { try $0.string() }, encode: { .string($0) }).describing(["type": "string", "maxLength": 9]))
                Map(\.when, "when", transform: .format("yyyy-MM-dd"))
            }
        }
        let properties = try #require(try ModelRegistry().jsonSchema(for: Priced.self)["$defs"]?["Priced"]?["properties"])
        #expect(properties["price"] == [:])
        #expect(properties["note"] == ["type": "string", "maxLength": 9])
        #expect(properties["when"]?["type"] == "string")
    }
}
