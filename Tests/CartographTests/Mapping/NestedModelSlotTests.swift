import Foundation
import Testing

@testable import Cartograph

/// A struct's model-typed property is filled by the rule loop itself when a
/// new model is made from an object and the type's mapping is the only
/// answer; every other case declines to the rule's own path. Both must
/// give the same models and the same errors.
@Suite struct NestedModelSlotTests {
    struct Inner: Mappable, Equatable {
        var name = ""
        var score = 0
        static let mapping = Mapping<Inner>({ Inner() }) {
            Map(\.name, "name")
            Map(\.score, "score", required: true)
        }
    }

    struct Outer: Mappable, Equatable {
        var id = 0
        var inner = Inner(name: "default", score: -1)
        var maybe: Inner? = Inner(name: "preset", score: -2)
        var list: [Inner] = []
        static let mapping = Mapping<Outer>({ Outer() }) {
            Map(\.id, "id")
            Map(\.inner, "inner")
            Map(\.maybe, "maybe")
            Map(\.list, "list")
        }
    }

    func mapper(_ configure: (inout MappingOptions) -> Void = { _ in }, _ register: (inout ModelRegistry) -> Void = { _ in }) -> JSONMapper {
        var registry = ModelRegistry(options: MappingOptions(configure))
        registry.register(Outer.self)
        register(&registry)
        if registry.entry(for: Inner.self) == nil { registry.register(Inner.self) }
        return JSONMapper(registry: registry)
    }

    @Test func slotsAreMadeForStructModelPropertiesOnly() {
        let rules = Outer.mapping.rules
        // The array of models has its own slot (NestedModelArraySlotTests).
        #expect(rules[1].nested != nil && rules[2].nested != nil && rules[3].nested is NestedModelArraySlot<[Inner], [Inner]>)
        #expect(rules[0].nested == nil)
    }

    @Test func readsNestedAndOptionalModelsInPlace() throws {
        let outer = try mapper().decode(Outer.self, from: #"{"id": 1, "inner": {"name": "a", "score": 2}, "maybe": {"name": "b", "score": 3}}"#)
        #expect(outer == Outer(id: 1, inner: Inner(name: "a", score: 2), maybe: Inner(name: "b", score: 3)))
        // Each object made afresh from the mapping's constructor, not over the property's old value.
        let partial = try mapper().decode(Outer.self, from: #"{"inner": {"score": 5}, "maybe": {"score": 6}}"#)
        #expect(partial.inner == Inner(name: "", score: 5) && partial.maybe == Inner(name: "", score: 6))
    }

    @Test func absentNullAndOtherKindsTakeTheRulesPath() throws {
        let absent = try mapper().decode(Outer.self, from: #"{"id": 1}"#)
        #expect(absent.inner == Inner(name: "default", score: -1) && absent.maybe == Inner(name: "preset", score: -2))
        let null = try mapper().decode(Outer.self, from: #"{"maybe": null}"#)
        #expect(null.maybe == nil)
        let nonOptionalNull = try #require(throws: CartographError.self) { try mapper().decode(Outer.self, from: #"{"inner": null}"#) }
        #expect(nonOptionalNull.kind == .typeMismatch && nonOptionalNull.path == "$.inner")
        #expect(try mapper { $0.ignoreNulls = true }.decode(Outer.self, from: #"{"inner": null}"#).inner.score == -1)
        let wrongKind = try #require(throws: CartographError.self) { try mapper().decode(Outer.self, from: #"{"maybe": [1]}"#) }
        #expect(wrongKind.kind == .typeMismatch && wrongKind.path == "$.maybe")
    }

    @Test func errorsInsideNameTheNestedPath() throws {
        let missing = try #require(throws: CartographError.self) { try mapper().decode(Outer.self, from: #"{"inner": {"name": "a"}}"#) }
        #expect(missing.kind == .keyNotFound && missing.path == "$.inner.score")
        let wrong = try #require(throws: CartographError.self) {
            try mapper().decode(Outer.self, from: #"{"inner": {"score": 1}, "maybe": {"score": "x"}}"#)
        }
        #expect(wrong.path == "$.maybe.score")
        let inList = try #require(throws: CartographError.self) {
            try mapper().decode([Outer].self, from: #"[{"inner": {"score": 1}}, {"inner": {"score": 1}, "maybe": {"score": true}}]"#)
        }
        #expect(inList.path == "$[1].maybe.score")
        let lossy = try mapper().decodeLossy([Outer].self, from: Data(#"[{"maybe": {"score": true}}, {"inner": {"score": 4}}]"#.utf8))
        #expect(lossy.value.map(\.inner.score) == [4] && lossy.issues.map(\.path) == ["$[0].maybe.score"])
    }

    @Test func updatesGoThroughTheRulesPath() throws {
        var outer = Outer(id: 7, inner: Inner(name: "keep", score: 1), maybe: nil)
        try mapper().update(&outer, from: #"{"inner": {"score": 9}, "maybe": {"score": 3}}"#)
        #expect(outer.id == 7 && outer.inner.score == 9 && outer.maybe?.score == 3)
    }

    struct InnerFactory: ModelFactory {
        var keys: [String] { ["name"] }
        func make(from object: ObjectView, context: MappingContext) throws -> Inner {
            Inner(name: "factory:" + (try object["name"]?.string() ?? ""), score: 0)
        }
    }

    @Test func aFactoryForTheNestedTypeIsStillUsed() throws {
        let outer = try mapper({ _ in }, { $0.register(InnerFactory()) }).decode(
            Outer.self, from: #"{"inner": {"name": "x"}, "maybe": {"name": "y"}}"#)
        #expect(outer.inner.name == "factory:x" && outer.maybe?.name == "factory:y")
    }

    /// Writes an `Inner` its own way, reading its path: what the stream's
    /// slots must leave to the rule's own path.
    struct WritingFactory: ModelFactory {
        var keys: [String] { ["name"] }
        func make(from object: ObjectView, context: MappingContext) throws -> Inner { Inner() }
        func encode(_ model: Inner, context: EncodingContext) throws -> EncodedValue {
            .object([("written", .string(model.name)), ("at", .string(context.path))])
        }
    }

    static let sample = Outer(
        id: 7, inner: Inner(name: "in", score: 1), maybe: nil,
        list: [Inner(name: "a", score: 2), Inner(name: "b\u{1}", score: 3)])

    /// The stream writes a struct's nested model and array of models
    /// through their slots, straight into the nested mapping: the same
    /// bytes as the tree under every writer option, empty arrays included.
    @Test(arguments: 0..<MappingStreamTests.writeOptions.count)
    func slotsStreamWhatTheTreeWrites(_ option: Int) throws {
        var registry = ModelRegistry()
        registry.register(Outer.self)
        registry.register(Inner.self)
        let mapper = JSONMapper(registry: registry, writeOptions: MappingStreamTests.writeOptions[option])
        for outer in [Self.sample, Outer(), Outer(id: 1, inner: Inner(), maybe: Inner(name: "m", score: 4), list: [])] {
            try MappingStreamTests.expectStreamed(outer, mapper)
            try MappingStreamTests.expectStreamed([outer, outer], mapper)
        }
    }

    /// Optional models, optional arrays of models and arrays of scalars
    /// (nested too, optional too), written by their slots.
    struct Mixed: Mappable {
        var rings: [[Double]] = [[1.5, -0.0], []]
        var ids: [Int] = [3, -1]
        var tags: [String]? = ["a\"b", ""]
        var parts: [Inner]? = [Inner(name: "p", score: 1)]
        var lone: Inner? = Inner(name: "l", score: 2)
        static let mapping = Mapping<Mixed>({ Mixed() }) {
            Map(\.rings, "rings")
            Map(\.ids, "ids")
            Map(\.tags, "tags")
            Map(\.parts, "parts")
            Map(\.lone, "lone")
        }
    }

    /// The slots of optionals write nothing for nil (the member left out,
    /// or `null` under that nil encoding) and the payload otherwise: the
    /// same bytes as the tree under every writer option.
    @Test(arguments: 0..<MappingStreamTests.writeOptions.count)
    func optionalAndScalarArraySlotsStreamWhatTheTreeWrites(_ option: Int) throws {
        let empty = Mixed(rings: [], ids: [], tags: nil, parts: nil, lone: nil)
        let some = Mixed(rings: [[]], ids: [0], tags: [], parts: [], lone: Inner())
        for nilEncoding in [NilEncoding.omit, .null] {
            var registry = ModelRegistry(options: MappingOptions { $0.nilEncoding = nilEncoding })
            registry.register(Mixed.self)
            registry.register(Inner.self)
            let mapper = JSONMapper(registry: registry, writeOptions: MappingStreamTests.writeOptions[option])
            for mixed in [Mixed(), empty, some] {
                try MappingStreamTests.expectStreamed(mixed, mapper)
                try MappingStreamTests.expectStreamed([mixed, empty], mapper)
            }
        }
        var registry = ModelRegistry()
        registry.register(Mixed.self)
        registry.register(Inner.self)
        let written = String(decoding: try JSONMapper(registry: registry).encode(empty), as: UTF8.self)
        #expect(written == #"{"rings":[],"ids":[]}"#)
    }

    /// A non-final class model and a subclass of it, registered as the
    /// seeds register them (the subclass's mapping inherits the base's).
    class Device {
        var name = ""
        weak var peer: Device?
        required init() {}
        static let mapping = Mapping<Device>({ Device() }) {
            Map(\.name, "name")
            Map(\.peer, "peer")
        }
    }
    final class Phone: Device {
        var number = ""
        static let phoneMapping = Mapping<Phone>(inheriting: Device.mapping, { Phone() }) { Map(\.number, "number") }
    }

    struct Desk: Mappable {
        var main: Device = Phone()
        var spare: Device?
        var all: [Device] = []
        static let mapping = Mapping<Desk>({ Desk() }) {
            Map(\.main, "main")
            Map(\.spare, "spare")
            Map(\.all, "all")
        }
    }

    /// A struct's property typed as a class model is left to the general
    /// path (the slots would write the declared class, not the instance's
    /// own, and would not enter the instance for cycle checks): a subclass
    /// instance is written with its subclass's keys, and an instance that
    /// is its own peer is skipped as a cycle where it is met again.
    @Test func classModelsInAStructAreWrittenAsTheirOwnClass() throws {
        var registry = ModelRegistry()
        registry.register(Desk.self)
        registry.register(Device.mapping)
        registry.register(Phone.phoneMapping)
        let phone = Phone()
        phone.name = "p"
        phone.number = "1"
        let device = Device()
        device.name = "d"
        let desk = Desk(main: phone, spare: device, all: [device, phone])
        let mapper = JSONMapper(registry: registry)
        let written = String(decoding: try mapper.encode(desk), as: UTF8.self)
        #expect(
            written
                == #"{"main":{"name":"p","number":"1"},"spare":{"name":"d"},"all":[{"name":"d"},{"name":"p","number":"1"}]}"#)
        try MappingStreamTests.expectStreamed(desk, mapper)
        // Alone in its registry (no subclass: not polymorphic), a device
        // that is its own peer.
        var plain = ModelRegistry(options: MappingOptions { $0.cycles = .skip })
        plain.register(Desk.self)
        plain.register(Device.mapping)
        let loop = Device()
        loop.name = "l"
        loop.peer = loop
        let looped = JSONMapper(registry: plain)
        let desks = [Desk(main: loop, spare: loop, all: [loop])]
        #expect(
            String(decoding: try looped.encode(desks), as: UTF8.self)
                == #"[{"main":{"name":"l"},"spare":{"name":"l"},"all":[{"name":"l"}]}]"#)
        try MappingStreamTests.expectStreamed(desks, looped)
    }

    /// A factory for the nested type writes it, in the slots' stead, with
    /// its path; so does the same compiled mapping in a registry where the
    /// nested type is registered by its mapping, and then again one where a
    /// factory took its place (the slot finds its mapping per registry).
    @Test func aNestedFactoryWritesInTheSlotsStead() throws {
        var mapped = ModelRegistry()
        mapped.register(Outer.self)
        mapped.register(Inner.self)
        var factory = ModelRegistry()
        factory.register(Outer.self)
        factory.register(WritingFactory())
        for _ in 0..<2 {
            let viaMapping = String(decoding: try JSONMapper(registry: mapped).encode(Self.sample), as: UTF8.self)
            #expect(viaMapping == #"{"id":7,"inner":{"name":"in","score":1},"list":[{"name":"a","score":2},{"name":"b\u0001","score":3}]}"#)
            let viaFactory = String(decoding: try JSONMapper(registry: factory).encode(Self.sample), as: UTF8.self)
            #expect(
                viaFactory
                    == #"{"id":7,"inner":{"written":"in","at":"$.inner"},"list":[{"written":"a","at":"$.list[0]"},{"written":"b\u0001","at":"$.list[1]"}]}"#
            )
        }
    }

    /// A nested mapping's error inside an array written by a slot is the
    /// tree's, with its path.
    @Test func anErrorInsideASlotsArrayNamesItsPath() throws {
        struct Measured: Mappable {
            var value = 0.0
            static let mapping = Mapping<Measured>({ Measured() }) { Map(\.value, "value") }
        }
        struct Series: Mappable {
            var points: [Measured] = []
            static let mapping = Mapping<Series>({ Series() }) { Map(\.points, "points") }
        }
        var registry = ModelRegistry()
        registry.register(Series.self)
        registry.register(Measured.self)
        let series = Series(points: [Measured(value: 1), Measured(value: .nan)])
        #expect {
            try JSONMapper(registry: registry).encode(series)
        } throws: { error in
            (error as? CartographError)?.path == "$.points[1].value"
        }
    }

    struct Skipping: Mappable {
        var id = 0
        static let mapping = Mapping<Skipping>(construct: { object, _ in
            guard object["skip"] == nil else { throw SkipElement("marked to skip") }
            return Skipping()
        }) { Map(\.id, "id") }
    }

    struct Holder: Mappable {
        var kept = Skipping()
        var optional: Skipping? = Skipping()
        static let mapping = Mapping<Holder>({ Holder() }) {
            Map(\.kept, "kept")
            Map(\.optional, "optional")
        }
    }

    @Test func aSkippedObjectClearsAnOptionalAndFailsOtherwise() throws {
        var registry = ModelRegistry()
        registry.register(Holder.self)
        registry.register(Skipping.self)
        let mapper = JSONMapper(registry: registry)
        let holder = try mapper.decode(Holder.self, from: #"{"kept": {"id": 1}, "optional": {"skip": true}}"#)
        #expect(holder.kept.id == 1 && holder.optional == nil)
        let error = try #require(throws: CartographError.self) { try mapper.decode(Holder.self, from: #"{"kept": {"skip": true}}"#) }
        #expect(error.path == "$.kept" && error.message.contains("marked to skip"))
    }

    final class Owner: Mappable {
        var name = ""
        static let mapping = Mapping<Owner>({ Owner() }) { Map(\.name, "name") }
    }

    struct Deed: Mappable {
        var owner = Owner()
        var previous: Owner?
        static let mapping = Mapping<Deed>({ Deed() }) {
            Map(\.owner, "owner")
            Map(\.previous, "previous")
        }
    }

    /// A final class model held by a struct goes through the slot too: the
    /// reference is stored (and the default instance it replaces released).
    @Test func aFinalClassModelInAStructIsStored() throws {
        var registry = ModelRegistry()
        registry.register(Deed.self)
        registry.register(Owner.self)
        let mapper = JSONMapper(registry: registry)
        #expect(Deed.mapping.rules.allSatisfy { $0.nested != nil })
        weak var replaced: Owner?
        var deed = try mapper.decode(Deed.self, from: #"{"owner": {"name": "Ada"}, "previous": {"name": "Bo"}}"#)
        #expect(deed.owner.name == "Ada" && deed.previous?.name == "Bo")
        replaced = deed.owner
        deed = try mapper.decode(Deed.self, from: #"{"previous": null}"#)
        #expect(replaced == nil && deed.owner.name == "" && deed.previous == nil)
    }

    class Animal {
        var name = ""
        static let animalMapping = Mapping<Animal>({ Animal() }) { Map(\.name, "name") }
    }

    final class Dog: Animal {
        var barks = false
        static let dogMapping = Mapping<Dog>(inheriting: Animal.animalMapping, { Dog() }) { Map(\.barks, "barks") }
    }

    struct Kennel: Mappable {
        var resident = Animal()
        var guest: Animal?
        static let mapping = Mapping<Kennel>({ Kennel() }) {
            Map(\.resident, "resident")
            Map(\.guest, "guest")
        }
    }

    @Test func aBaseClassPropertyStillGetsItsSubclass() throws {
        var registry = ModelRegistry()
        registry.register(Kennel.self)
        registry.register(Animal.animalMapping)
        registry.register(Dog.dogMapping)
        let kennel = try JSONMapper(registry: registry).decode(
            Kennel.self, from: #"{"resident": {"name": "Rex", "barks": true}, "guest": {"name": "Tom"}}"#)
        #expect((kennel.resident as? Dog)?.barks == true && kennel.resident.name == "Rex")
        #expect(kennel.guest?.name == "Tom" && !(kennel.guest is Dog))
    }
}
