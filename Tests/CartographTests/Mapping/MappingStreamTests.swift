import CorpusModels
import Foundation
import Testing

@testable import Cartograph

/// The mapping layer's JSON stream against the tree it replaces: the same
/// bytes under every writer option, for class models with subclasses and
/// cycles, optionals under both nil encodings, transforms that leave a
/// property out, sub-mappers, dictionaries, sets and nested arrays; the
/// tree's errors when the stream cannot finish; and registered models
/// inside a `Codable` value streamed by the `Codable` encoder.
@Suite struct MappingStreamTests {
    /// What the stream writes on its own (throwing where it gives up).
    static func streamed<Model>(_ model: Model, _ mapper: JSONMapper) throws -> [UInt8] {
        var writer = NativeJSONWriter(options: mapper.writeOptions)
        try ValueCodec<Model>.resolve().stream(model, EncodingContext(registry: mapper.registry, profile: .json), &writer, 0)
        writer.endDocument()
        return writer.output
    }

    /// What the tree writes.
    static func throughTree<Model>(_ model: Model, _ mapper: JSONMapper) throws -> [UInt8] {
        var writer = NativeJSONWriter(options: mapper.writeOptions)
        try writer.write(mapper.encodeTree(model, profile: .json))
        return writer.output
    }

    /// The stream writes the model byte for byte as the tree does, and so does `encode`.
    static func expectStreamed<Model>(
        _ model: Model, _ mapper: JSONMapper, _ comment: String = "", sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) throws {
        let tree = String(decoding: try throughTree(model, mapper), as: UTF8.self)
        let stream = String(decoding: try streamed(model, mapper), as: UTF8.self)
        #expect(stream == tree, "\(comment)", sourceLocation: sourceLocation)
        #expect(String(decoding: try mapper.encode(model), as: UTF8.self) == tree, "\(comment)", sourceLocation: sourceLocation)
    }

    /// The writer options of the tree's own tests, and Foundation's layout with sorted keys.
    /// `encode` writes what the tree writes, or throws what it throws;
    /// and what the stream writes on its own, where it finishes, is the same.
    static func expectSameOutcome<Model>(
        _ model: Model, _ mapper: JSONMapper, _ comment: String, sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) throws {
        let tree = Result { try throughTree(model, mapper) }
        let encoded = Result { try mapper.encode(model) }
        switch (tree, encoded) {
        case (.success(let expected), .success(let written)):
            #expect(
                String(decoding: written, as: UTF8.self) == String(decoding: expected, as: UTF8.self), "\(comment)", sourceLocation: sourceLocation)
            if let streamed = try? streamed(model, mapper) { #expect(streamed == expected, "\(comment)", sourceLocation: sourceLocation) }
        case (.failure(let expected as CartographError), .failure(let thrown as CartographError)):
            #expect(thrown.description == expected.description, "\(comment)", sourceLocation: sourceLocation)
        default: Issue.record("\(comment): the tree gave \(tree), encode \(encoded)", sourceLocation: sourceLocation)
        }
    }

    static let writeOptions =
        MappingEncodeWriterTests.options + [
            WriteOptions {
                $0.formatting = .prettyLikeFoundation; $0.sortedKeys = true; $0.escapeSlashes = true
            }
        ]

    // MARK: Models as the seeds write them

    enum Kind: String, Sendable {
        case car, bike
    }

    @Mappable
    class Vehicle {
        var name = "Vélo / \"vite\""
        var wheels = 2
        var kind = Kind.bike
        var owner: Owner?
        var previousOwners: [Owner] = []
        var tags: Set<String> = ["b", "a"]
        var grid: [[Int]] = [[1, 2], [], [3]]
        var scores: [String: Double] = ["z": 1.5, "a": -0.25, "m": 1e300]
        var note: String?
        var secret = "hidden"
        var built = Date(timeIntervalSince1970: 1_700_000_000)
        required init() {}
        static let mapping = Mapping<Vehicle>({ Vehicle() }) {
            Map(\.name, "display_name")
            // A key each escaping option writes differently.
            Map(\.wheels, "räder/axle")
            Map(\.kind, transform: .rawValue)
            Map(\.owner)
            Map(\.previousOwners, "previous")
            Map(\.tags)
            Map(\.grid)
            Map(\.scores)
            Map(\.note, nilEncoding: .null)
            // Left out when empty: the transform's encode gives nil.
            Map(\.secret, transform: Transform(nullable: { try $0.string() }, encode: { $0.isEmpty ? nil : .string($0) }))
            Map(\.built, transform: .iso8601)
            Getter("label") { (vehicle: Vehicle) in "\(vehicle.name)#\(vehicle.wheels)" }
        }
    }

    @Mappable
    final class Car: Vehicle {
        var doors = 4
        var spare: Vehicle?
        static let carMapping = Mapping<Car>(inheriting: Vehicle.mapping, { Car() }) {
            Map(\.doors)
            Map(\.spare)
            Map(\.wheels, "wheel_count")
        }
    }

    @Mappable
    final class Owner {
        var first = "Ada"
        var last: String?
        weak var garage: Garage?
        var vehicles: [Vehicle] = []
        static let mapping = Mapping<Owner>({ Owner() }) {
            Map(\.first)
            Map(\.last)
            Map(\.garage)
            Map(\.vehicles)
        }
    }

    @Mappable
    final class Garage {
        var owner: Owner?
        var empty: [String: Int] = [:]
        var nothing: [Int] = []
        var address = Address()
        static let mapping = Mapping<Garage>({ Garage() }) {
            Map(\.owner)
            Map(\.empty)
            Map(\.nothing)
            // A key path: this model goes through its tree.
            Map(\.address, "place.address")
        }
    }

    struct Address: Codable, Equatable {
        var street = "Main"
        var number = 7
    }

    /// A model with no members written.
    @Mappable
    final class Blank {
        var hidden: String?
        static let mapping = Mapping<Blank>({ Blank() }) { Map(\.hidden) }
    }

    static func registry(_ configure: (inout MappingOptions) -> Void = { _ in }) -> ModelRegistry {
        var registry = ModelRegistry(options: MappingOptions(configure))
        registry.register(Vehicle.mapping)
        registry.register(Car.carMapping)
        registry.register(Owner.mapping)
        registry.register(Garage.mapping)
        registry.register(Blank.mapping)
        return registry
    }

    /// A garage whose owner drives a car whose spare is a plain vehicle, and
    /// the owner points back at the garage (weakly) and at the car.
    static func sample() -> Garage {
        let garage = Garage()
        let owner = Owner()
        let car = Car()
        car.name = "Auto"
        car.kind = .car
        car.note = "lent"
        car.secret = ""
        car.spare = Vehicle()
        car.scores = [:]
        owner.vehicles = [car, Vehicle()]
        owner.garage = garage
        car.owner = Owner()
        car.previousOwners = [Owner(), Owner()]
        garage.owner = owner
        return garage
    }

    @Test(arguments: 0..<writeOptions.count)
    func classModelsStreamAsTheTreeWritesThem(_ option: Int) throws {
        for nilEncoding in [NilEncoding.omit, .null] {
            let mapper = JSONMapper(
                registry: Self.registry {
                    $0.nilEncoding = nilEncoding; $0.cycles = .skip
                }, writeOptions: Self.writeOptions[option])
            let garage = Self.sample()
            try Self.expectStreamed(garage, mapper, "garage, \(nilEncoding)")
            try Self.expectStreamed(garage.owner!.vehicles, mapper, "an array of base-class references holding a subclass")
            try Self.expectStreamed(garage.owner!.vehicles[0], mapper, "the subclass")
            try Self.expectStreamed(Blank(), mapper, "an object with no member")
            try Self.expectStreamed([Blank(), Blank()], mapper, "empty objects in an array")
            try Self.expectStreamed(["x": Blank()], mapper, "a dictionary of models")
            try Self.expectStreamed(Optional<Blank>.none, mapper, "nil at the root")
        }
    }

    @Test func aCycleSkippedByPolicyLeavesItsMemberOutAsTheTreeDoes() throws {
        let owner = Owner()
        let car = Car()
        car.owner = owner
        owner.vehicles = [car]
        // The cycle broken when the test ends: a LeakSanitizer run (scripts/test-sanitizers) reports what it leaves.
        defer { owner.vehicles = [] }
        for option in Self.writeOptions {
            let mapper = JSONMapper(registry: Self.registry { $0.cycles = .skip }, writeOptions: option)
            try Self.expectStreamed(owner, mapper)
            let written = String(decoding: try mapper.encode(owner), as: UTF8.self)
            #expect(!written.contains("\"owner\""), "\(written)")
        }
        // Without the policy the stream stops and the tree reports the cycle with its path.
        let strict = JSONMapper(registry: Self.registry())
        #expect(throws: CycleDetected.self) { try Self.streamed(owner, strict) }
        let error = try #require(throws: CartographError.self) { try strict.encode(owner) }
        #expect(error.kind == .cycle && error.path == "$.vehicles[0].owner")
    }

    /// A hand-written mapping (no `@Mappable`) whose value may not be finite.
    final class Reading {
        var value = Double.nan
        var deep: Reading?
        static let mapping = Mapping<Reading>({ Reading() }) {
            Map(\.value, "value")
            Map(\.deep, "deep")
        }
    }

    @Test func theTreesErrorsAreTheOnesReported() throws {
        var registry = ModelRegistry()
        registry.register(Reading.mapping)
        let outer = Reading()
        outer.value = 1
        outer.deep = Reading()
        let strict = JSONMapper(registry: registry)
        #expect(throws: CartographError.self) { try Self.streamed(outer, strict) }
        let error = try #require(throws: CartographError.self) { try strict.encode(outer) }
        #expect(error.kind == .nonFiniteNumber && error.path == "$.deep.value", "\(error)")
        // A policy for non-finite numbers: both write it.
        for policy in [NonConformingFloatPolicy.null, .strings(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")] {
            try Self.expectStreamed(outer, JSONMapper(registry: registry, writeOptions: WriteOptions { $0.nonConformingFloats = policy }))
        }
        // Deeper than the writer allows: the tree's depth error.
        var chain = Reading()
        chain.value = 0
        for _ in 0..<6 {
            let next = Reading()
            next.value = 0
            next.deep = chain
            chain = next
        }
        let shallow = JSONMapper(registry: registry, writeOptions: WriteOptions { $0.maxDepth = 4 })
        #expect(throws: CartographError.self) { try Self.streamed(chain, shallow) }
        let depthError = try #require(throws: CartographError.self) { try shallow.encode(chain) }
        #expect(depthError.kind == .depthLimitExceeded, "\(depthError)")
    }

    /// Arrays of every kind of scalar, one and two levels deep: written by
    /// the scalar's own loops.
    struct Scalars {
        var floats: [Float] = [0.1, -3.4e38, .leastNonzeroMagnitude]
        var doubles: [[Double]] = [[0.1, 2.5e-308], [], [-0.0]]
        var unsigned: [UInt64] = [0, .max]
        var small: [[Int8]] = [[-128, 127]]
        var flags: [Bool] = [true, false]
        var texts: [[String]] = [["a\u{0}b", "/\"é\u{1F30D}"], []]
        var decimals: [Decimal] = [Decimal(string: "3.14159265358979323846")!]
        var dates: [Date] = [Date(timeIntervalSince1970: 0.5)]
        var values: [JSONValue] = [["k": [1, nil]], "s"]
        static let mapping = Mapping<Scalars>({ Scalars() }) {
            Map(\.floats, "floats")
            Map(\.doubles, "doubles")
            Map(\.unsigned, "unsigned")
            Map(\.small, "small")
            Map(\.flags, "flags")
            Map(\.texts, "texts")
            Map(\.decimals, "decimals")
            Map(\.dates, "dates")
            Map(\.values, "values")
        }
    }

    @Test(arguments: 0..<writeOptions.count)
    func scalarArraysStreamAsTheTreeWritesThem(_ option: Int) throws {
        var registry = ModelRegistry()
        registry.register(Scalars.mapping)
        let mapper = JSONMapper(registry: registry, writeOptions: Self.writeOptions[option])
        try Self.expectStreamed(Scalars(), mapper)
        var infinite = Scalars()
        infinite.doubles = [[1], [.infinity]]
        #expect(throws: CartographError.self) { try Self.streamed(infinite, mapper) }
        let error = try #require(throws: CartographError.self) { try mapper.encode(infinite) }
        #expect(error.kind == .nonFiniteNumber && error.path == "$.doubles[1][0]", "\(error)")
    }

    /// A nested scalar array at the edge of ``MappingOptions/maxDepth``: the
    /// stream checks the levels the tree would, and where they do not fit
    /// the tree reports it.
    @Test func nestedScalarArraysKeepTheMappingDepthLimit() throws {
        for limit in 1...4 {
            var registry = ModelRegistry(options: MappingOptions { $0.maxDepth = limit })
            registry.register(Scalars.mapping)
            let mapper = JSONMapper(registry: registry)
            try Self.expectSameOutcome(Scalars(), mapper, "limit \(limit)")
        }
    }

    /// Sub-mappers: a mapping and a factory write the properties they are
    /// given for, instead of the registry's entries.
    @Mappable
    final class Fleet {
        var lead: Owner? = Owner()
        var crew: [Owner] = [Owner(), Owner()]
        var spare: Vehicle? = Vehicle()
        static let shortOwner = Mapping<Owner>({ Owner() }) { Map(\.first, "given") }
        static let vehicleBadge = ClosureFactory<Vehicle>(
            keys: ["badge"], make: { _, _ in Vehicle() }, encode: { vehicle, _ in .object([("badge", .string(vehicle.name))]) })
        static let mapping = Mapping<Fleet>({ Fleet() }) {
            Map(\.lead, "lead", using: shortOwner)
            Map(\.crew, "crew", using: shortOwner)
            Map(\.spare, "spare", using: vehicleBadge)
        }
    }

    @Test(arguments: 0..<writeOptions.count)
    func subMappersStreamAsTheTreeWritesThem(_ option: Int) throws {
        var registry = Self.registry()
        registry.register(Fleet.mapping)
        let mapper = JSONMapper(registry: registry, writeOptions: Self.writeOptions[option])
        try Self.expectStreamed(Fleet(), mapper)
        let written = String(decoding: try mapper.encode(Fleet()), as: UTF8.self)
        #expect(written.contains("given") && !written.contains("vehicles") && written.contains("badge"), "\(written)")
    }

    /// Random garages: owners with random names (control characters, quotes,
    /// surrogate-plane scalars), random vehicles of both classes sharing
    /// owners (cycles, skipped by policy), random numbers (non-finite ones
    /// under every policy), nils under both nil encodings, random options.
    @Test(arguments: 0..<40)
    func seededRandomGraphsStreamAsTheTreeWritesThem(_ seed: Int) throws {
        var random = SeededGenerator(seed: UInt64(seed) &+ 9100)
        func text() -> String {
            let pool: [Unicode.Scalar] = ["a", "Z", "\"", "\\", "/", "\u{0}", "\u{1F}", "\u{7F}", "é", "\u{2028}", "\u{1F30D}", " "]
            return String(String.UnicodeScalarView((0..<Int.random(in: 0...6, using: &random)).map { _ in pool.randomElement(using: &random)! }))
        }
        func number() -> Double {
            [
                0, -0.0, 1e-300, 123.456, .greatestFiniteMagnitude, .infinity, -.infinity, .nan,
                Double(Int.random(in: -1000...1000, using: &random)) / 7
            ]
            .randomElement(using: &random)!
        }
        let owners = (0..<Int.random(in: 1...4, using: &random)).map { _ in
            let owner = Owner()
            owner.first = text()
            owner.last = Bool.random(using: &random) ? text() : nil
            return owner
        }
        var vehicles: [Vehicle] = []
        for _ in 0..<Int.random(in: 0...5, using: &random) {
            let vehicle: Vehicle = Bool.random(using: &random) ? Car() : Vehicle()
            vehicle.name = text()
            vehicle.wheels = Int.random(in: Int.min...Int.max, using: &random)
            vehicle.owner = Bool.random(using: &random) ? owners.randomElement(using: &random) : nil
            vehicle.previousOwners = owners.filter { _ in Bool.random(using: &random) }
            vehicle.tags = Set((0..<Int.random(in: 0...3, using: &random)).map { _ in text() })
            vehicle.grid = (0..<Int.random(in: 0...3, using: &random)).map { _ in
                (0..<Int.random(in: 0...3, using: &random)).map { _ in Int.random(in: -9...9, using: &random) }
            }
            vehicle.scores = Dictionary((0..<Int.random(in: 0...3, using: &random)).map { _ in (text(), number()) }, uniquingKeysWith: { $1 })
            vehicle.note = Bool.random(using: &random) ? text() : nil
            vehicle.secret = Bool.random(using: &random) ? "" : text()
            if let car = vehicle as? Car, Bool.random(using: &random) { car.spare = vehicles.randomElement(using: &random) }
            vehicles.append(vehicle)
        }
        for owner in owners { owner.vehicles = vehicles.filter { _ in Bool.random(using: &random) } }
        // The graph's cycles broken when the test ends, as above.
        defer { for owner in owners { owner.vehicles = [] } }
        let policies: [NonConformingFloatPolicy] = [.throw, .null, .strings(positiveInfinity: "+", negativeInfinity: "-", nan: "?")]
        let options = WriteOptions {
            $0.formatting = [.compact, .pretty(indent: 3), .prettyLikeFoundation][seed % 3]
            $0.sortedKeys = Bool.random(using: &random)
            $0.escapeSlashes = Bool.random(using: &random)
            $0.asciiOnly = Bool.random(using: &random)
            $0.nonConformingFloats = policies.randomElement(using: &random)!
        }
        let nilEncoding = Bool.random(using: &random) ? NilEncoding.null : .omit
        let mapper = JSONMapper(
            registry: Self.registry {
                $0.cycles = .skip; $0.nilEncoding = nilEncoding
            }, writeOptions: options)
        try Self.expectSameOutcome(owners, mapper, "seed \(seed), owners")
        try Self.expectSameOutcome(vehicles, mapper, "seed \(seed), vehicles")
    }

    /// A protocol-typed property: each value streams through the entry of its own type.
    @Test func protocolTypedValuesStreamThroughTheirOwnEntries() throws {
        var registry = ModelRegistry()
        registry.register(Circle.mapping)
        registry.register(Square.mapping)
        registry.register(Drawing.mapping)
        var drawing = Drawing()
        drawing.title = "d"
        drawing.shapes = [Circle(radius: 1.5), Square(side: 2)]
        for option in Self.writeOptions { try Self.expectStreamed(drawing, JSONMapper(registry: registry, writeOptions: option)) }
        let written = String(decoding: try JSONMapper(registry: registry).encode(drawing), as: UTF8.self)
        #expect(written == #"{"title":"d","shapes":[{"radius":1.5},{"side":2}]}"#)
    }

    /// A `Codable` struct registered with a mapping that renames its keys:
    /// inside a `Codable` value the mapping writes it.
    struct Tag: Codable, Equatable {
        var name = "t"
        var weight = 1.5
        var note: String?
        static let mapping = Mapping<Tag>({ Tag() }) {
            Map(\.name, "tag_name")
            Map(\.weight, "wéight/kg")
            Map(\.note, "note", nilEncoding: .null)
        }
    }

    @Test(arguments: 0..<writeOptions.count)
    func registeredModelsInsideACodableValueAreStreamed(_ option: Int) throws {
        struct Envelope: Encodable {
            var id = 3
            var tag = Tag()
            var tags = [Tag(name: "a", weight: 0.1, note: "n"), Tag()]
            var missing: Tag?
            var byName = ["b": Tag(), "a": Tag(name: "x")]
        }
        var registry = ModelRegistry()
        registry.register(Tag.mapping)
        let mapper = JSONMapper(registry: registry, writeOptions: Self.writeOptions[option])
        // One value for both: two dictionaries with the same members may iterate in different orders.
        let envelope = Envelope()
        let tree = String(decoding: try mapper.encodeThroughTree(envelope), as: UTF8.self)
        let written = String(decoding: try mapper.encode(envelope), as: UTF8.self)
        #expect(written == tree)
        #expect(written.contains("tag_name") && written.contains("null"), "\(written)")
    }

    @Test(arguments: [0, 1, 5])
    func corpusModelsStreamAsTheTreeWritesThem(_ option: Int) throws {
        let twitter = try JSONMapper().decode(TwitterResponse.self, from: try Fixtures.bytes("twitter.json"))
        for registry in [ModelRegistry.corpusMappings(), ModelRegistry.corpusMacroMappings()] {
            let mapper = JSONMapper(registry: registry, writeOptions: Self.writeOptions[option])
            try Self.expectStreamed(twitter, mapper, "twitter")
            // Through the Codable encoder, whose registered models now stream.
            #expect(try mapper.encode(twitter) == (try mapper.encodeThroughTree(twitter)))
        }
    }
}
