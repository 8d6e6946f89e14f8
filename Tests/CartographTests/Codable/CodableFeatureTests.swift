import Foundation
import Testing

@testable import Cartograph

/// Strategies, defaults, lossy arrays, and Codable together with registered models.
@Suite struct CodableFeatureTests {
    struct Account: Codable, Equatable {
        var userID: Int
        var myURLProperty: String
        var displayName: String
    }

    @Test func snakeCaseRoundTripKeepsAcronyms() throws {
        let mapper = JSONMapper(options: CodableOptions { $0.keys = .snakeCaseRoundTrip })
        let account = Account(userID: 7, myURLProperty: "u", displayName: "D")
        let text = try mapper.encodeString(account)
        #expect(text == #"{"user_id":7,"my_url_property":"u","display_name":"D"}"#)
        #expect(try mapper.decode(Account.self, from: text) == account)
    }

    @Test func fuzzyAndCustomKeys() throws {
        let fuzzy = JSONMapper(options: CodableOptions { $0.keys = .fuzzy })
        #expect(try fuzzy.decode(Account.self, from: #"{"USERID": 1, "my_url_property": "u", "display-name": "d"}"#).userID == 1)
        struct Described: Codable, Equatable { var jsc_description: String }
        #expect(try fuzzy.encodeString(Described(jsc_description: "x")) == #"{"description":"x"}"#)
        #expect(try fuzzy.decode(Described.self, from: #"{"Description":"y"}"#) == Described(jsc_description: "y"))
        let custom = JSONMapper(options: CodableOptions { $0.keys = .custom { "x." + $0 } })
        let account = Account(userID: 2, myURLProperty: "u", displayName: "d")
        #expect(try custom.decode(Account.self, from: try custom.encode(account)) == account)
        #expect(try custom.encodeString(account).contains("\"x.userID\""))
    }

    struct Stamped: Codable, Equatable { var at: Date }

    @Test func dateStrategies() throws {
        let date = Date(timeIntervalSince1970: 1_700_000_000.25)
        let cases: [(CodableOptions.DateStrategy, String)] = [
            (.secondsSince1970, #"{"at":1700000000.25}"#),
            (.millisecondsSince1970, #"{"at":1700000000250}"#),
            (.iso8601(fractionalSeconds: true), #"{"at":"2023-11-14T22:13:20.250Z"}"#),
            (.formatted("yyyy-MM-dd HH:mm:ss.SSS", timeZone: TimeZone(identifier: "UTC")!), #"{"at":"2023-11-14 22:13:20.250"}"#),
            (.deferredToDate, #"{"at":721692800.25}"#)
        ]
        for (strategy, expected) in cases {
            let mapper = JSONMapper(options: CodableOptions { $0.dates = strategy })
            #expect(try mapper.encodeString(Stamped(at: date)) == expected)
            #expect(try mapper.decode(Stamped.self, from: expected).at == date)
        }
        let custom = JSONMapper(
            options: CodableOptions {
                $0.dates = .custom(
                    decode: { Date(timeIntervalSince1970: try $0.singleValueContainer().decode(Double.self) * 60) },
                    encode: { date, encoder in
                        var container = encoder.singleValueContainer()
                        try container.encode(date.timeIntervalSince1970 / 60)
                    })
            })
        #expect(try custom.decode(Stamped.self, from: #"{"at": 2}"#).at == Date(timeIntervalSince1970: 120))
        #expect(try custom.encodeString(Stamped(at: Date(timeIntervalSince1970: 180))) == #"{"at":3}"#)
    }

    @Test func dataStrategiesAndNonConformingFloats() throws {
        struct Blob: Codable, Equatable { var bytes: Data }
        let blob = Blob(bytes: Data([1, 2, 255]))
        #expect(try JSONMapper().encodeString(blob) == #"{"bytes":"AQL/"}"#)
        let deferred = JSONMapper(options: CodableOptions { $0.data = .deferredToData })
        #expect(try deferred.encodeString(blob) == #"{"bytes":[1,2,255]}"#)
        #expect(try deferred.decode(Blob.self, from: #"{"bytes":[1,2,255]}"#) == blob)
        struct Measure: Codable { var value: Double }
        #expect(throws: EncodingError.self) { try JSONMapper().encode(Measure(value: .nan)) }
        let named = JSONMapper(
            options: CodableOptions { $0.nonConformingFloats = .convertFromString(positiveInfinity: "+inf", negativeInfinity: "-inf", nan: "nan") })
        #expect(try named.encodeString(Measure(value: .infinity)) == #"{"value":"+inf"}"#)
        #expect(try named.decode(Measure.self, from: #"{"value":"nan"}"#).value.isNaN)
    }

    @Test func outputFormattingAndUserInfo() throws {
        struct Link: Codable { var b = "a/b"; var a = 1 }
        var mapper = JSONMapper()
        mapper.writeOptions = WriteOptions {
            $0.sortedKeys = true; $0.escapeSlashes = true; $0.formatting = .pretty(indent: 2)
        }
        #expect(try mapper.encodeString(Link()) == "{\n  \"a\": 1,\n  \"b\": \"a\\/b\"\n}\n")
        struct Reads: Decodable {
            var flag: Bool
            init(from decoder: any Decoder) throws { flag = decoder.userInfo[CodingUserInfoKey(rawValue: "flag")!] as? Bool ?? false }
        }
        let withInfo = JSONMapper(options: CodableOptions { $0.userInfo[CodingUserInfoKey(rawValue: "flag")!] = true })
        #expect(try withInfo.decode(Reads.self, from: "{}").flag)
    }

    final class Chain: Codable {
        var next: Chain?
        init(next: Chain?) { self.next = next }
    }

    @Test func encodingDepthIsLimited() throws {
        var chain = Chain(next: nil)
        for _ in 0..<600 { chain = Chain(next: chain) }
        let error = try #require(throws: EncodingError.self) { try JSONMapper().encode(chain) }
        #expect(DecodingErrors.cartographError(error)?.path?.hasPrefix("$.next.next") == true)
        let deep = JSONMapper(options: CodableOptions { $0.maxDepth = 1000 }, writeOptions: WriteOptions { $0.maxDepth = 1000 })
        #expect(try deep.encode(chain).count > 600 * 8)
    }

    @Test func nativeWriterAgreesWithTheJanssonWriter() throws {
        var generator = SeededGenerator(seed: 99)
        for _ in 0..<50 {
            let value = RoundTripTests.randomValue(&generator)
            for options in [
                WriteOptions(), .pretty,
                WriteOptions {
                    $0.sortedKeys = true; $0.asciiOnly = true; $0.escapeSlashes = true
                }
            ] {
                var native = NativeJSONWriter(options: options)
                try native.write(value)
                #expect(native.output == (try value.encoded(options: options)))
            }
        }
    }

    enum Unnamed: DefaultValueProvider { static var defaultValue: String { "(unnamed)" } }

    struct Defaults: Codable {
        @Default<Unnamed> var name: String
        @DefaultOnMissing<DefaultValues.Zero<Int>> var visits: Int
        @DefaultOnNull<DefaultValues.Empty<[String]>> var tags: [String]
        @DefaultOnInvalid<DefaultValues.False> var active: Bool
    }

    @Test func defaultsForMissingNullAndInvalidSeparately() throws {
        let mapper = JSONMapper()
        let all = try mapper.decode(Defaults.self, from: #"{"tags": null, "active": "yes"}"#)
        #expect(all.name == "(unnamed)" && all.visits == 0 && all.tags == [] && all.active == false)
        let given = try mapper.decode(Defaults.self, from: #"{"name": null, "visits": 3, "tags": ["a"], "active": true}"#)
        #expect(given.name == "(unnamed)" && given.visits == 3 && given.tags == ["a"] && given.active)
        #expect(throws: DecodingError.self) { try mapper.decode(Defaults.self, from: #"{"visits": null, "tags": [], "active": true}"#) }
        #expect(throws: DecodingError.self) { try mapper.decode(Defaults.self, from: #"{"active": true}"#) }
        #expect(throws: DecodingError.self) { try mapper.decode(Defaults.self, from: #"{"tags": [], "active": null}"#) }
        #expect(try JSONDecoder().decode(Defaults.self, from: Data(#"{"tags": null, "active": 3}"#.utf8)).visits == 0)
        #expect(try mapper.encodeString(given) == #"{"name":"(unnamed)","visits":3,"tags":["a"],"active":true}"#)
    }

    struct Feed: Codable {
        struct Item: Codable, Equatable { var id: Int }
        @LossyArray var items: [Item]
    }

    @Test func lossyArraysSkipAndReportBadElements() throws {
        let text = #"{"items": [{"id": 1}, {"id": "x"}, {"id": 3}, {}, {"id": 5}]}"#
        let result = try JSONMapper().decodeLossy(Feed.self, from: Array(text.utf8))
        #expect(result.value.items.map(\.id) == [1, 3, 5])
        #expect(result.issues.map(\.path) == ["$.items[1].id", "$.items[3].id"])
        #expect(try JSONDecoder().decode(Feed.self, from: Data(text.utf8)).items.count == 3)
    }

    /// Codable (synthesized keys `name`, `age`) and Mappable (keys `pet.name`, `years`).
    struct Pet: Codable, Mappable, Equatable {
        var name = ""
        var age = 0
        static let mapping = Mapping<Pet>({ Pet() }) {
            Map(\.name, "pet.name")
            Map(\.age, "years")
        }
    }

    struct Envelope: Codable {
        var owner: Pet
        var count: Int
    }

    @Test func registeredMappingTakesOverInsideACodableGraph() throws {
        var registry = ModelRegistry()
        registry.register(Pet.self)
        let mapper = JSONMapper(registry: registry)
        let envelope = try mapper.decode(Envelope.self, from: #"{"owner": {"pet": {"name": "Rex"}, "years": 3}, "count": 2}"#)
        #expect(envelope.owner == Pet(name: "Rex", age: 3) && envelope.count == 2)
        #expect(try mapper.encodeString(envelope) == #"{"owner":{"pet":{"name":"Rex"},"years":3},"count":2}"#)
        let plain = try JSONMapper().decode(Envelope.self, from: #"{"owner": {"name": "Rex", "age": 3}, "count": 2}"#)
        #expect(plain.owner == Pet(name: "Rex", age: 3), "unregistered, the type decodes through Codable")
    }

    /// Codable (synthesized key `name`) and Mappable (key `label`).
    struct Tag: Codable, Mappable, Equatable {
        var name = ""
        static let mapping = Mapping<Tag>({ Tag() }) { Map(\.name, "label") }
    }

    struct Plain: Codable, Equatable {
        var name: String
    }

    struct Mixed: Codable {
        var pets: [Pet]
        var tag: Tag
        var plain: [Plain]
        var tags: [Tag]
        var more: [Pet]
    }

    @Test func registeredTypesTakeOverWhereverTheyAlternateInOneDecode() throws {
        // The decoder keeps the registry's last answer: each type, registered
        // or not, must still get its own, however the types alternate.
        var registry = ModelRegistry()
        registry.register(Pet.self)
        registry.register(Tag.self)
        let mixed = try JSONMapper(registry: registry).decode(
            Mixed.self,
            from: #"""
                {"pets": [{"pet": {"name": "a"}, "years": 1}, {"years": 2}], "tag": {"label": "x"},
                 "plain": [{"name": "p"}], "tags": [{"label": "y"}, {"label": "z"}], "more": [{"years": 3}]}
                """#)
        #expect(mixed.pets == [Pet(name: "a", age: 1), Pet(name: "", age: 2)] && mixed.tag == Tag(name: "x"))
        #expect(mixed.plain == [Plain(name: "p")] && mixed.tags == [Tag(name: "y"), Tag(name: "z")] && mixed.more == [Pet(name: "", age: 3)])
    }

    struct Drawing: Codable {
        var title: String
        @Identified var shapes: [any Shape]
    }

    @Test func identifiedPropertiesUseTheRegistrysRules() throws {
        var registry = ModelRegistry()
        registry.register(Circle.self)
        registry.register(Square.self)
        registry.discriminator(key: "type", ["circle": Circle.self, "square": Square.self])
        let mapper = JSONMapper(registry: registry)
        let drawing = try mapper.decode(
            Drawing.self, from: #"{"title": "t", "shapes": [{"type": "square", "side": 2}, {"type": "circle", "radius": 1}]}"#)
        #expect(drawing.shapes.map(\.area) == [4, Double.pi])
        let error = try #require(throws: DecodingError.self) {
            try mapper.decode(Drawing.self, from: #"{"title": "t", "shapes": [{"type": "blob"}]}"#)
        }
        #expect(DecodingErrors.cartographError(error)?.path?.hasPrefix("$.shapes") == true)
    }
}
