import Foundation
import Testing

@testable import Cartograph

/// Reading models through Mappings: paths, required values, transforms, arrays, coercion.
@Suite struct MappingDecodeTests {
    let mapper = JSONMapper()

    @Test func readsNestedPersonInfo() throws {
        let person = try mapper.decode(
            Person.self,
            from: bytes(#"{"personInfo": {"firstName": "Ada", "lastName": "Lovelace", "age": 36}, "contact": {"email": "ada@example.com"}}"#))
        #expect(person == Person(firstName: "Ada", lastName: "Lovelace", age: 36, email: "ada@example.com", nickname: nil))
    }

    @Test func nestedPersonInfoWritesBackToAnIdenticalDocument() throws {
        let text = #"{"personInfo":{"firstName":"Ada","lastName":"Lovelace","age":36},"contact":{"email":"ada@example.com"},"nickname":"Countess"}"#
        let person = try mapper.decode(Person.self, from: bytes(text))
        #expect(String(decoding: try mapper.encode(person), as: UTF8.self) == text)
    }

    @Test func absentOptionalKeysKeepTheirDefault() throws {
        let person = try mapper.decode(Person.self, from: bytes(#"{"personInfo": {"firstName": "Ada"}}"#))
        #expect(person.age == 0 && person.email == nil && person.lastName == "")
    }

    @Test func missingRequiredValueFailsWithThePath() throws {
        let error = try #require(throws: CartographError.self) {
            try mapper.decode([Person].self, from: bytes(#"[{"personInfo": {"firstName": "A"}}, {"personInfo": {"lastName": "B"}}]"#))
        }
        #expect(error.kind == .keyNotFound)
        #expect(error.path == "$[1].personInfo.firstName")
        let null = try #require(throws: CartographError.self) {
            try mapper.decode(Person.self, from: bytes(#"{"personInfo": {"firstName": null}}"#))
        }
        #expect(null.kind == .typeMismatch)
        #expect(null.found == "null")
    }

    @Test func unconvertibleValueFailsWithPathKindsAndPosition() throws {
        let error = try #require(throws: CartographError.self) {
            try mapper.decode(Person.self, from: bytes("{\"personInfo\": {\"firstName\": \"A\",\n \"age\": \"old\"}}"))
        }
        #expect(error.kind == .typeMismatch)
        #expect(error.path == "$.personInfo.age")
        #expect(error.expected == "integer")
        #expect(error.found == "string")
        #expect(error.offset == 42)
        #expect(error.line == 2 && error.column == 9)
    }

    @Test func integersNeverWrap() throws {
        struct Small: Mappable {
            var value: Int8 = 0
            static let mapping = Mapping<Small>({ Small() }) { Map(\.value, "v") }
        }
        #expect(try mapper.decode(Small.self, from: bytes(#"{"v": 127}"#)).value == 127)
        let error = try #require(throws: CartographError.self) { try mapper.decode(Small.self, from: bytes(#"{"v": 128}"#)) }
        #expect(error.kind == .numberOutOfRange)
        #expect(error.path == "$.v")
    }

    @Test func transformsOnSeveralKeys() throws {
        let text =
            #"{"name": "launch", "starts": "2026-11-02T09:14:03Z", "ends": "2026-11-02T10:00:00.250Z", "created": 1700000000123, "link": "https://example.com/a?b=1", "id": "E621E1F8-C36C-495A-93FC-0C247A3E6E5F", "payload": "aGVsbG8=", "price": "19.99", "status": "suspended", "mode": "suspended", "tags": ["b", "a", "b"], "local": "2026-07-01 12:30"}"#
        let event = try mapper.decode(Event.self, from: bytes(text))
        #expect(event.starts == Date(timeIntervalSince1970: 1_793_610_843))
        #expect(event.ends == Date(timeIntervalSince1970: 1_793_613_600.25))
        #expect(event.created == Date(timeIntervalSince1970: 1_700_000_000.123))
        #expect(event.link?.host == "example.com")
        #expect(event.id.uuidString == "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")
        #expect(event.payload == Data("hello".utf8))
        #expect(event.price == Decimal(string: "19.99"))
        #expect(event.status == .suspended && event.mode == .suspended)
        #expect(event.tags == ["a", "b"])
        #expect(event.local == Date(timeIntervalSince1970: 1_782_901_800))
        let written = try mapper.encodeValue(event)
        #expect(written["starts"] == "2026-11-02T09:14:03Z")
        #expect(written["ends"] == "2026-11-02T10:00:00.250Z")
        #expect(written["created"] == 1_700_000_000_123)
        #expect(written["payload"] == "aGVsbG8=")
        #expect(written["local"] == "2026-07-01 12:30")
        #expect(written["status"] == "suspended")
        #expect(try mapper.decode(Event.self, from: try mapper.encode(event)) == event)
    }

    @Test func badTransformInputNamesThePath() throws {
        let error = try #require(throws: CartographError.self) { try mapper.decode(Event.self, from: bytes(#"{"starts": "yesterday"}"#)) }
        #expect(error.path == "$.starts")
        #expect(error.kind == .typeMismatch)
    }

    @Test func arraysOfModels() throws {
        let people = try mapper.decode([Person].self, from: bytes(#"[{"personInfo": {"firstName": "A"}}, {"personInfo": {"firstName": "B"}}]"#))
        #expect(people.map(\.firstName) == ["A", "B"])
        let one = try mapper.decodeModels(Person.self, from: bytes(#"{"personInfo": {"firstName": "A"}}"#))
        #expect(one.count == 1)
        let many = try mapper.decodeModels(Person.self, from: bytes(#"[{"personInfo": {"firstName": "A"}}, {"personInfo": {"firstName": "B"}}]"#))
        #expect(many.count == 2)
    }

    @Test func arrayCoercionIsOptIn() throws {
        struct Tagged: Mappable {
            var tags: [String] = []
            var primary = ""
            var strict: [String] = []
            static let mapping = Mapping<Tagged>({ Tagged() }) {
                Map(\.tags, "tags", coerceArray: true)
                Map(\.primary, "primary", coerceArray: true)
                Map(\.strict, "strict")
            }
        }
        let tagged = try mapper.decode(Tagged.self, from: bytes(#"{"tags": "solo", "primary": ["first", "second"]}"#))
        #expect(tagged.tags == ["solo"])
        #expect(tagged.primary == "first")
        let error = try #require(throws: CartographError.self) { try mapper.decode(Tagged.self, from: bytes(#"{"strict": "solo"}"#)) }
        #expect(error.path == "$.strict")
    }

    @Test func lenientScalarsPerPropertyAndGlobally() throws {
        struct Loose: Mappable {
            var count = 0
            var flag = false
            var label = ""
            static let mapping = Mapping<Loose>({ Loose() }) {
                Map(\.count, "count", lenient: true)
                Map(\.flag, "flag", lenient: true)
                Map(\.label, "label")
            }
        }
        let loose = try mapper.decode(Loose.self, from: bytes(#"{"count": "42", "flag": 1}"#))
        #expect(loose.count == 42 && loose.flag)
        #expect(throws: CartographError.self) { try mapper.decode(Loose.self, from: bytes(#"{"label": 3}"#)) }
        let global = JSONMapper(registry: ModelRegistry(options: MappingOptions { $0.lenientScalars = true }))
        #expect(try global.decode(Loose.self, from: bytes(#"{"label": 3, "flag": "true"}"#)).label == "3")
    }

    @Test func keysWithDotsAndArrayIndexesInPaths() throws {
        struct Odd: Mappable {
            var major = 0
            var firstItem = ""
            var literal = ""
            static let mapping = Mapping<Odd>({ Odd() }) {
                Map(\.major, #"version\.major"#)
                Map(\.firstItem, "items.0.name")
                Map(\.literal, .path([.key("a.b"), .key("c")]))
            }
        }
        let odd = try mapper.decode(Odd.self, from: bytes(#"{"version.major": 3, "items": [{"name": "x"}, {"name": "y"}], "a.b": {"c": "deep"}}"#))
        #expect(odd.major == 3 && odd.firstItem == "x" && odd.literal == "deep")
        #expect(String(decoding: try mapper.encode(odd), as: UTF8.self) == #"{"version.major":3,"items":[{"name":"x"}],"a.b":{"c":"deep"}}"#)
    }

    @Test func setterRunsForKeysThatAreNotProperties() throws {
        struct Box: Mappable {
            var area = 0
            static let mapping = Mapping<Box>({ Box() }) {
                Setter("size") { box, node, _ in
                    let size = try node.array().map { try $0.int() }
                    box.area = size.reduce(1, *)
                }
            }
        }
        #expect(try mapper.decode(Box.self, from: bytes(#"{"size": [3, 4]}"#)).area == 12)
    }

    @Test func wholeObjectSetterReplacesConstruction() throws {
        struct Pair: Mappable {
            let left: Int
            let right: Int
            static let mapping = Mapping<Pair>(construct: { object, _ in
                Pair(left: try object["l"]?.int() ?? 0, right: try object["r"]?.int() ?? 0)
            })
        }
        let pair = try mapper.decode(Pair.self, from: bytes(#"{"l": 1, "r": 2}"#))
        #expect(pair.left == 1 && pair.right == 2)
    }

    @Test func inMemoryValuesDecodeTheSameAsJSON() throws {
        let value: JSONValue = ["personInfo": ["firstName": "Ada", "age": 36]]
        #expect(try mapper.decode(Person.self, from: value).age == 36)
        let any: [String: Any] = ["personInfo": ["firstName": "Ada", "age": 36]]
        #expect(try mapper.decode(Person.self, fromAny: any).firstName == "Ada")
    }

    @Test func codablePropertyInsideAMappingDecodesThroughCodable() throws {
        struct Point: Codable, Equatable { var x: Int; var y: Int }
        struct Place: Mappable {
            var at = Point(x: 0, y: 0)
            static let mapping = Mapping<Place>({ Place() }) { Map(\.at, "at") }
        }
        let place = try mapper.decode(Place.self, from: bytes(#"{"at": {"x": 1, "y": 2}}"#))
        #expect(place.at == Point(x: 1, y: 2))
        #expect(try mapper.encodeValue(place) == ["at": ["x": 1, "y": 2]])
    }
}

/// Arrays of scalars are read in one specialised loop (`ScalarValue.scalarArray`):
/// it must keep the element-by-element behaviour — paths of failures, nulls,
/// leniency, and nested arrays.
@Suite struct ScalarArrayTests {
    @Mappable
    struct Series: Mappable, Equatable {
        var values: [Int] = []
        var grid: [[Double]] = []
        var names: [String]? = nil
        static let mapping = Mapping<Series>({ Series() }) {
            Map(\.values, "values")
            Map(\.grid, "data.grid")
            Map(\.names, "names")
        }
    }

    func mapper(_ configure: (inout MappingOptions) -> Void = { _ in }) -> JSONMapper {
        var registry = ModelRegistry(options: MappingOptions(configure))
        registry.register(Series.self)
        return JSONMapper(registry: registry)
    }

    @Test func readsScalarsAtEveryDepth() throws {
        let series = try mapper().decode(
            Series.self, from: #"{"values": [1, -2, 3], "data": {"grid": [[0.5, 1e3], [], [-0.0]]}, "names": ["a", "é"]}"#)
        #expect(series == Series(values: [1, -2, 3], grid: [[0.5, 1000], [], [-0.0]], names: ["a", "é"]))
    }

    @Test func aFailingElementNamesItsPosition() throws {
        let wrongKind = try #require(throws: CartographError.self) { try mapper().decode(Series.self, from: #"{"values": [1, "x", 3]}"#) }
        #expect(wrongKind.kind == .typeMismatch)
        #expect(wrongKind.path == "$.values[1]")
        let nested = try #require(throws: CartographError.self) {
            try mapper().decode(Series.self, from: #"{"data": {"grid": [[1], [2, true]]}}"#)
        }
        #expect(nested.path == "$.data.grid[1][1]")
        let tooBig = try #require(throws: CartographError.self) { try mapper().decode(Series.self, from: #"{"values": [0, 0, 1e999]}"#) }
        #expect(tooBig.path == "$.values[2]")
    }

    /// GeoJSON's shapes: a polygon is `[[[Double]]]`, read by the nested
    /// scalar readers; the class and its subclass hold them as the seeds' models do.
    @Mappable
    class Shape {
        var rings: [[[Double]]] = []
        var tags: [[String]] = []
        static let shapeMapping = Mapping<Shape>({ Shape() }) {
            Map(\.rings, "coordinates")
            Map(\.tags, "tags")
        }
    }

    @Mappable
    final class LabeledShape: Shape {
        var extras: [[JSONValue]] = []
        var levels: [[[[Int]]]] = []
        static let labeledMapping = Mapping<LabeledShape>(inheriting: Shape.shapeMapping, { LabeledShape() }) {
            Map(\.extras, "extras")
            Map(\.levels, "levels")
        }
    }

    func shapeMapper(_ configure: (inout MappingOptions) -> Void = { _ in }) -> JSONMapper {
        var registry = ModelRegistry(options: MappingOptions(configure))
        registry.register(LabeledShape.labeledMapping)
        return JSONMapper(registry: registry)
    }

    @Test func nestedScalarArraysReadEveryLevelOfASubclassModel() throws {
        let shape = try shapeMapper().decode(
            LabeledShape.self,
            from: #"""
                {"coordinates": [[[1.5, -2], [3e2, 0.1]], [], [[]]], "tags": [["a", "é"], []],
                 "extras": [[1, {"k": [2, null]}, [3]], [null, "s"]], "levels": [[[[1, 2]], []], [[[3]]]]}
                """#)
        #expect(shape.rings == [[[1.5, -2], [300, 0.1]], [], [[]]])
        #expect(shape.tags == [["a", "é"], []])
        // JSONValue holds containers and null: an element's subtree is skipped as a whole.
        #expect(shape.extras == [[1, ["k": [2, nil]], [3]], [nil, "s"]])
        #expect(shape.levels == [[[[1, 2]], []], [[[3]]]])
        // And back: encode, decode again.
        let again = try shapeMapper().decode(LabeledShape.self, from: try shapeMapper().encode(shape) as [UInt8])
        #expect(again.rings == shape.rings && again.extras == shape.extras && again.levels == shape.levels && again.tags == shape.tags)
    }

    @Test func aNestedFailureNamesEveryIndex() throws {
        let mapper = shapeMapper()
        let deep = try #require(throws: CartographError.self) {
            try mapper.decode(LabeledShape.self, from: #"{"coordinates": [[[1, 2]], [], [[3, 4], ["6", 5]]]}"#)
        }
        #expect(deep.kind == .typeMismatch && deep.path == "$.coordinates[2][1][0]")
        let notAnArray = try #require(throws: CartographError.self) {
            try mapper.decode(LabeledShape.self, from: #"{"coordinates": [[[1, 2]], [[3, 4], 5]]}"#)
        }
        #expect(notAnArray.kind == .typeMismatch && notAnArray.path == "$.coordinates[1][1]")
        #expect(notAnArray.message.contains("expected array"))
        let ring = try #require(throws: CartographError.self) { try mapper.decode(LabeledShape.self, from: #"{"coordinates": [{"x": 1}]}"#) }
        #expect(ring.path == "$.coordinates[0]")
        // The fourth level is read element by element: its paths are the same.
        let fourth = try #require(throws: CartographError.self) { try mapper.decode(LabeledShape.self, from: #"{"levels": [[[[1]], [[2, 2.5]]]]}"#) }
        #expect(fourth.kind == .numberOutOfRange || fourth.kind == .typeMismatch)
        #expect(fourth.path == "$.levels[0][1][0][1]")
    }

    @Test func nullsInNestedArraysFollowIgnoreNulls() throws {
        let text = #"{"coordinates": [null, [[1, null, 2], null]], "tags": [null, ["a", null]]}"#
        let strict = try #require(throws: CartographError.self) { try shapeMapper().decode(LabeledShape.self, from: text) }
        #expect(strict.path == "$.coordinates[0]")
        let ignoring = try shapeMapper { $0.ignoreNulls = true }.decode(LabeledShape.self, from: text)
        #expect(ignoring.rings == [[[1, 2]]])
        #expect(ignoring.tags == [["a"]])
        let innerNull = try #require(throws: CartographError.self) {
            try shapeMapper().decode(LabeledShape.self, from: #"{"coordinates": [[[1, null]]]}"#)
        }
        #expect(innerNull.path == "$.coordinates[0][0][1]")
    }

    @Test func nestedArraysMatchFoundationOnRandomShapes() throws {
        struct Rings: Codable, Equatable, Mappable {
            var coordinates: [[[Double]]] = []
            static let mapping = Mapping<Rings>({ Rings() }) { Map(\.coordinates, "coordinates") }
        }
        var registry = ModelRegistry()
        registry.register(Rings.self)
        let mapper = JSONMapper(registry: registry)
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            let rings = (0..<Int.random(in: 0...4, using: &generator)).map { _ in
                (0..<Int.random(in: 0...5, using: &generator)).map { _ in
                    (0..<Int.random(in: 0...3, using: &generator)).map { _ in
                        switch Int.random(in: 0...2, using: &generator) {
                        case 0: Double(Int.random(in: -1000...1000, using: &generator))
                        case 1: Double.random(in: -180...180, using: &generator)
                        default: Double.random(in: -1...1, using: &generator) * pow(10, Double(Int.random(in: -300...300, using: &generator)))
                        }
                    }
                }
            }
            let text = try String(decoding: JSONEncoder().encode(Rings(coordinates: rings)), as: UTF8.self)
            let expected = try JSONDecoder().decode(Rings.self, from: Data(text.utf8))
            #expect(try mapper.decode(Rings.self, from: text) == expected, "\(text)")
        }
    }

    @Mappable
    struct Directory: Mappable, Equatable {
        var scores: [String: Int] = [:]
        var people: [String: Person] = [:]
        static let mapping = Mapping<Directory>({ Directory() }) {
            Map(\.scores, "scores")
            Map(\.people, "people")
        }
    }

    /// A mapper for a model whose dictionaries hold `Person`s.
    func peopleMapper(_ register: (inout ModelRegistry) -> Void) -> JSONMapper {
        var registry = ModelRegistry()
        register(&registry)
        registry.register(Person.self)
        return JSONMapper(registry: registry)
    }

    @Test func dictionaryMembersDecodeAndNameTheirKeyOnError() throws {
        let mapper = peopleMapper { $0.register(Directory.self) }
        let directory = try mapper.decode(
            Directory.self, from: #"{"scores": {"a": 1, "b.c": -2, "é": 3}, "people": {"x": {"personInfo": {"firstName": "Ada"}}}}"#)
        var ada = Person()
        ada.firstName = "Ada"
        #expect(directory == Directory(scores: ["a": 1, "b.c": -2, "é": 3], people: ["x": ada]))
        // A leaf member's error names its key (quoted when it is not a plain name).
        let leaf = try #require(throws: CartographError.self) { try mapper.decode(Directory.self, from: #"{"scores": {"a": 1, "b.c": "two"}}"#) }
        #expect(leaf.kind == .typeMismatch && leaf.path == #"$.scores["b.c"]"#)
        // A nested model's error names the member and then the model's own key path.
        let nested = try #require(throws: CartographError.self) {
            try mapper.decode(Directory.self, from: #"{"people": {"x": {"personInfo": {"firstName": "A"}}, "y": {"personInfo": {}}}}"#)
        }
        #expect(nested.kind == .keyNotFound && nested.path?.hasPrefix("$.people.y") == true)
        // Nulls of a non-optional value type: an error, or left out with ignoreNulls.
        let null = try #require(throws: CartographError.self) { try mapper.decode(Directory.self, from: #"{"scores": {"a": null}}"#) }
        #expect(null.path == "$.scores.a")
        var ignoring = ModelRegistry(options: MappingOptions { $0.ignoreNulls = true })
        ignoring.register(Directory.self)
        #expect(try JSONMapper(registry: ignoring).decode(Directory.self, from: #"{"scores": {"a": null, "b": 2}}"#).scores == ["b": 2])
    }

    @Mappable
    class Shelf {
        var counts: [String: Int] = [:]
        static let shelfMapping = Mapping<Shelf>({ Shelf() }) { Map(\.counts, "counts") }
    }

    @Mappable
    final class LabeledShelf: Shelf {
        var label = ""
        var owners: [String: Person] = [:]
        static let labeledMapping = Mapping<LabeledShelf>(inheriting: Shelf.shelfMapping, { LabeledShelf() }) {
            Map(\.label, "label")
            Map(\.owners, "owners")
        }
    }

    @Test func dictionaryMembersOfSubclassModelsDecodeAndEncodeBack() throws {
        let mapper = peopleMapper { $0.register(LabeledShelf.labeledMapping) }
        let shelf = try mapper.decode(
            LabeledShelf.self, from: #"{"label": "L", "counts": {"x": 1, "y": 2}, "owners": {"o": {"personInfo": {"firstName": "Ada"}}}}"#)
        #expect(shelf.label == "L" && shelf.counts == ["x": 1, "y": 2] && shelf.owners["o"]?.firstName == "Ada")
        let again = try mapper.decode(LabeledShelf.self, from: try mapper.encode(shelf) as [UInt8])
        #expect(again.counts == shelf.counts && again.owners == shelf.owners && again.label == "L")
        // The inherited dictionary names its member on error, as the subclass's own does.
        let inherited = try #require(throws: CartographError.self) { try mapper.decode(LabeledShelf.self, from: #"{"counts": {"x": "1"}}"#) }
        #expect(inherited.path == "$.counts.x")
        let own = try #require(throws: CartographError.self) {
            try mapper.decode(LabeledShelf.self, from: #"{"owners": {"o": {"personInfo": {"lastName": "L"}}}}"#)
        }
        #expect(own.kind == .keyNotFound && own.path?.hasPrefix("$.owners.o") == true)
    }

    @Test func nullElementsFailUnlessIgnored() throws {
        let error = try #require(throws: CartographError.self) { try mapper().decode(Series.self, from: #"{"values": [1, null]}"#) }
        #expect(error.kind == .typeMismatch && error.path == "$.values[1]")
        let ignoring = try mapper { $0.ignoreNulls = true }.decode(Series.self, from: #"{"values": [1, null, 2]}"#)
        #expect(ignoring.values == [1, 2])
    }

    @Test func lenientScalarsConvertEachElement() throws {
        let series = try mapper { $0.lenientScalars = true }.decode(Series.self, from: #"{"values": ["1", 2], "names": [3, true]}"#)
        #expect(series.values == [1, 2] && series.names == ["3", "true"])
        #expect(throws: CartographError.self) { try mapper().decode(Series.self, from: #"{"values": ["1"]}"#) }
    }

    @Test func lossyDecodeStillRecordsEachElement() throws {
        let result = try mapper().decodeLossy([Series].self, from: Array(#"[{"values": [1, "x"]}, {"values": [2]}]"#.utf8))
        #expect(result.issues.map(\.path) == ["$[0].values[1]"])
    }
}

/// The scalar-array loop on class models with a subclass, as the seeds map them:
/// inherited and own array properties, element paths on failure, both ways.
@Suite struct ScalarArrayClassTests {
    @Mappable
    class Track {
        var points: [Double] = []
        required init() {}
        static let mapping = Mapping<Track>({ Track() }) { Map(\.points) }
    }

    @Mappable
    final class TimedTrack: Track {
        var times: [Int] = []
        static let timedMapping = Mapping<TimedTrack>(inheriting: Track.mapping, { TimedTrack() }) { Map(\.times) }
    }

    var mapper: JSONMapper {
        var registry = ModelRegistry()
        registry.register(Track.mapping)
        registry.register(TimedTrack.timedMapping)
        return JSONMapper(registry: registry)
    }

    @Test func subclassReadsInheritedAndOwnArrays() throws {
        let track = try mapper.decode(TimedTrack.self, from: #"{"points": [0.5, -1e-3, 2], "times": [1, 2, 3]}"#)
        #expect(track.points == [0.5, -0.001, 2] && track.times == [1, 2, 3])
        #expect(try mapper.encodeValue(track) == ["points": [0.5, -0.001, 2], "times": [1, 2, 3]])
        let error = try #require(throws: CartographError.self) {
            try mapper.decode(TimedTrack.self, from: #"{"points": [1], "times": [1, 2.5]}"#)
        }
        #expect(error.path == "$.times[1]")
    }
}
