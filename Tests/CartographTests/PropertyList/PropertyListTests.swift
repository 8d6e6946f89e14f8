import CorpusModels
import Foundation
import Testing

@testable import Cartograph

/// Property lists through libplist: the same models as JSON, Foundation
/// interoperability both ways, and hostile or corrupted input.
@Suite struct PropertyListTests {
    let plist = PropertyListMapper()

    /// The binary plist holds exactly the JSON's values. The XML one was
    /// written by plistlib with raw carriage returns, which XML parsers
    /// (libplist and Foundation alike) normalise to line feeds, so it is
    /// compared with Foundation's reading of the same file.
    @Test(arguments: ["xml", "bin"])
    func twitterPlistDecodesToTheSameModelsAsJSONAndFoundation(_ kind: String) throws {
        let bytes = try Fixtures.bytes("twitter.\(kind).plist")
        let expected =
            kind == "bin"
            ? try JSONMapper().decode(TwitterResponse.self, from: try Fixtures.bytes("twitter.json"))
            : try PropertyListDecoder().decode(TwitterResponse.self, from: Data(bytes))
        #expect(try plist.decode(TwitterResponse.self, from: bytes) == expected)
        let mapped = PropertyListMapper(registry: .corpusMappings())
        #expect(try mapped.decode(TwitterResponse.self, from: bytes) == expected)
        #expect(try PropertyListDecoder().decode(TwitterResponse.self, from: Data(bytes)) == expected)
    }

    @Test(arguments: ["xml", "bin"])
    func canadaPlistDecodesToTheSameModelsAsJSON(_ kind: String) throws {
        let fromJSON = try JSONMapper().decode(FeatureCollection.self, from: try Fixtures.bytes("canada.json"))
        #expect(try plist.decode(FeatureCollection.self, from: try Fixtures.bytes("canada.\(kind).plist")) == fromJSON)
    }

    @Test(arguments: PropertyListFormat.allCases)
    func foundationReadsWhatCartographWrites(_ format: PropertyListFormat) throws {
        let response = try JSONMapper().decode(TwitterResponse.self, from: try Fixtures.bytes("twitter.json"))
        let bytes = try plist.encode(response, format: format)
        #expect(bytes.withUnsafeBytes { PropertyListFormat.detect($0) } == format)
        #expect(try PropertyListDecoder().decode(TwitterResponse.self, from: Data(bytes)) == response)
        let native = try PropertyListSerialization.propertyList(from: Data(bytes), format: nil) as? [String: Any]
        #expect((native?["statuses"] as? [Any])?.count == 100)
    }

    @Test(arguments: [PropertyListSerialization.PropertyListFormat.xml, .binary])
    func cartographReadsWhatFoundationWrites(_ format: PropertyListSerialization.PropertyListFormat) throws {
        let response = try JSONMapper().decode(TwitterResponse.self, from: try Fixtures.bytes("twitter.json"))
        let encoder = PropertyListEncoder()
        encoder.outputFormat = format
        #expect(try plist.decode(TwitterResponse.self, from: try encoder.encode(response)) == response)
    }

    struct Settings: Codable, Equatable {
        var name: String
        var count: Int
        var negative: Int64
        var ratio: Double
        var enabled: Bool
        var updated: Date
        var blob: Data
        var tags: [String]
        var nested: [String: [Int]]
        var note: String?
    }

    static let settings = Settings(
        name: "édition ✓", count: 42, negative: -9_223_372_036_854_775_808, ratio: 0.1, enabled: true,
        updated: Date(timeIntervalSinceReferenceDate: 800_000_000), blob: Data([0, 1, 2, 254, 255]), tags: ["a", "b"],
        nested: ["x": [1, 2], "y": []], note: nil)

    @Test(arguments: PropertyListFormat.allCases)
    func datesDataAndIntegersSurviveBothWays(_ format: PropertyListFormat) throws {
        let ours = try plist.encode(Self.settings, format: format)
        #expect(try PropertyListDecoder().decode(Settings.self, from: Data(ours)) == Self.settings)
        #expect(try plist.decode(Settings.self, from: ours) == Self.settings)
        let encoder = PropertyListEncoder()
        encoder.outputFormat = format == .xml ? .xml : .binary
        #expect(try plist.decode(Settings.self, from: try encoder.encode(Self.settings)) == Self.settings)
    }

    @Test(arguments: [PropertyListOptions.Writer.native, .libplist])
    func bothWritersAreReadBackByLibplistAndFoundation(_ writer: PropertyListOptions.Writer) throws {
        let mapper = PropertyListMapper(options: PropertyListOptions { $0.writer = writer })
        let response = try JSONMapper().decode(TwitterResponse.self, from: try Fixtures.bytes("twitter.json"))
        for format in PropertyListFormat.allCases {
            let bytes = try mapper.encode(response, format: format)
            #expect(try PropertyListDecoder().decode(TwitterResponse.self, from: Data(bytes)) == response, "\(writer) \(format)")
            #expect(try plist.decode(TwitterResponse.self, from: bytes) == response, "\(writer) \(format)")
            let settings = try mapper.encode(Self.settings, format: format)
            #expect(try PropertyListDecoder().decode(Settings.self, from: Data(settings)) == Self.settings)
            #expect(try plist.decode(Settings.self, from: settings) == Self.settings)
        }
        let escaped: JSONValue = ["a<b>&c": "x < y & \"z\"", "list": [], "dict": [:], "big": 4_294_967_296, "neg": -1, "ratio": 0.1]
        for format in PropertyListFormat.allCases {
            let bytes = try mapper.encode(escaped, format: format)
            #expect(try plist.document(from: bytes).root.jsonValue() == escaped, "\(writer) \(format)")
        }
    }

    @Test func nativeWriterWritesUnsignedIntegersAboveInt64Max() throws {
        struct Counter: Codable, Equatable { var value: UInt64 }
        let bytes = try plist.encode(Counter(value: .max), format: .binary)
        #expect(try PropertyListDecoder().decode(Counter.self, from: Data(bytes)) == Counter(value: .max))
        #expect(try plist.decode(Counter.self, from: bytes) == Counter(value: .max))
        let libplist = PropertyListMapper(options: PropertyListOptions { $0.writer = .libplist })
        #expect(throws: EncodingError.self) { try libplist.encode(Counter(value: .max), format: .binary) }
    }

    @Test func plistDatesAndDataAreStringsToJSONFeatures() throws {
        var settings = Self.settings
        settings.updated = Date(timeIntervalSinceReferenceDate: 800_000_000.25)
        let binary = try plist.encode(settings, format: .binary)
        #expect(try PropertyListDecoder().decode(Settings.self, from: Data(binary)).updated == settings.updated)
        let document = try plist.document(from: binary)
        let updated = try #require(try document.root.object()["updated"])
        #expect(updated.isDate && updated.kind == .string)
        #expect(try updated.string() == "2026-05-09T06:13:20.250000Z")
        #expect(try updated.date() == settings.updated)
        let blob = try #require(try document.root.object()["blob"])
        #expect(try blob.string() == "AAEC/v8=" && (try blob.data()) == Self.settings.blob)
        #expect(String(decoding: try document.encoded(), as: UTF8.self).contains(#""updated":"2026-05-09T06:13:20.250000Z""#))
    }

    /// libplist 2.2 reads dates as 32-bit seconds since 2001: with its
    /// reader, dates outside 1932–2069 are refused with a typed error
    /// instead of read wrong (Cartograph's own readers hold them).
    @Test(arguments: [PropertyListFormat.binary, .xml])
    func datesLibplistCannotHoldAreRefusedNotMisread(_ format: PropertyListFormat) throws {
        struct Event: Codable, Equatable { var at: Date }
        let plist = PropertyListMapper(options: PropertyListOptions { $0.reader = .libplist })
        for year in [1950.0, 2030, 2068] {
            let event = Event(at: Date(timeIntervalSince1970: (year - 1970) * 365.25 * 86_400))
            let back = try plist.decode(Event.self, from: try plist.encode(event, format: format))
            #expect(abs(back.at.timeIntervalSince(event.at)) < 1)
        }
        for at in [Date(timeIntervalSince1970: -4_000_000_000), Date(timeIntervalSince1970: 4_200_000_000)] {
            let bytes = try plist.encode(Event(at: at), format: format)
            let error = try #require(throws: CartographError.self) { try plist.document(from: bytes) }
            #expect(error.kind == .numberOutOfRange && error.message.contains("libplist 2.2"))
            #expect(abs(try self.plist.decode(Event.self, from: bytes).at.timeIntervalSince(at)) < 1)
        }
    }

    /// A null member is left out, a null element written as `$null` (its
    /// place kept), or either refused.
    @Test func nullsAreOmittedMarkedOrRejected() throws {
        let value: JSONValue = ["a": 1, "b": nil, "c": [1, nil, 2]]
        let bytes = try plist.encode(value, format: .xml)
        #expect(try plist.document(from: bytes).root.jsonValue() == ["a": 1, "c": [1, "$null", 2]])
        let strict = PropertyListMapper(options: PropertyListOptions { $0.nulls = .reject })
        let error = try #require(throws: CartographError.self) { try strict.encode(value, format: .binary) }
        #expect(error.path == "$.b")
    }

    @Test func jsonToPlistToJSONPreservesValues() throws {
        let value = try JSONValue(parsing: try Fixtures.bytes("twitter.json"))
        func dropNulls(_ value: JSONValue) -> JSONValue {
            switch value {
            case .array(let elements): return .array(elements.map { $0.isNull ? .string("$null") : dropNulls($0) })
            case .object(let object): return .object(JSONObject(object.members.filter { !$0.value.isNull }.map { ($0.key, dropNulls($0.value)) }))
            default: return value
            }
        }
        for format in PropertyListFormat.allCases {
            let document = try Document(parsing: try Fixtures.bytes("twitter.json"))
            let back = try plist.document(from: try plist.encode(document, format: format)).root.jsonValue()
            #expect(back == dropNulls(value))
        }
    }

    @Test func mappingFeaturesWorkOnPlists() throws {
        var registry = ModelRegistry()
        registry.identify { object, _ in object.contains("screen_name") && object.contains("followers_count") ? TwitterUser.self : nil }
        registry.register(TwitterUser.self)
        registry.register(UserEntities.self)
        registry.register(URLList.self)
        registry.register(TweetURL.self)
        let mapper = PropertyListMapper(registry: registry)
        let users = try mapper.collect(TwitterUser.self, from: try Fixtures.bytes("twitter.bin.plist"))
        #expect(users.count == 173)
        var user = users[0]
        try mapper.update(&user, from: try plist.encode(["screen_name": "renamed"] as JSONValue, format: .xml))
        #expect(user.screenName == "renamed" && user.id == users[0].id)
    }

    /// A plain `Codable` value inside a mapped model keeps its dates and
    /// data as plist dates and data (not the JSON spellings).
    @Test func codableValuesInsideMappingsKeepPlistDates() throws {
        struct Stamp: Codable, Equatable { var at: Date; var blob: Data }
        struct Holder: Mappable {
            var stamp = Stamp(at: Date(timeIntervalSinceReferenceDate: 0), blob: Data())
            static let mapping = Mapping<Holder>({ Holder() }) { Map(\.stamp, "stamp") }
        }
        var holder = Holder()
        holder.stamp = Stamp(at: Date(timeIntervalSinceReferenceDate: 800_000_000.5), blob: Data([1, 2, 3]))
        var registry = ModelRegistry()
        registry.register(Holder.self)
        let mapper = PropertyListMapper(registry: registry)
        let bytes = try mapper.encode(holder, format: .binary)
        let native = try PropertyListSerialization.propertyList(from: Data(bytes), format: nil) as? [String: [String: Any]]
        #expect(native?["stamp"]?["at"] as? Date == holder.stamp.at)
        #expect(native?["stamp"]?["blob"] as? Data == holder.stamp.blob)
        #expect(try mapper.decode(Holder.self, from: bytes).stamp == holder.stamp)
    }

    @Test func uidsAreIntegersOrRejected() throws {
        // A keyed-archiver style binary plist: {"$top": UID(7)} written by Foundation.
        let archive = try NSKeyedArchiver.archivedData(withRootObject: ["k": "v"] as NSDictionary, requiringSecureCoding: false)
        let document = try plist.document(from: archive)
        #expect(try document.root.object()["$top"]?.object()["root"]?.int() == 1)
        let strict = PropertyListMapper(options: PropertyListOptions { $0.uids = .reject })
        #expect(throws: CartographError.self) { try strict.document(from: archive) }
    }
}
