import CorpusModels
import Foundation
import Testing

@testable import Cartograph

/// The stream leaves path steps unlinked below a model whose stream hands
/// no context to code that could read a path (PathBlindness.swift). These
/// check which models are blind, that code which reads a path still sees
/// its own wherever it sits, that errors inside blind models still name
/// theirs, and that the answer follows the registry in use.
@Suite struct PathBlindnessTests {
    /// Records the paths a transform was encoded at.
    final class Recorder: @unchecked Sendable {
        // @unchecked: written during one synchronous encode, read after it.
        var seen: [String] = []
    }

    struct Stamp: Sendable {
        var value = 0
    }

    static func stamp(_ recorder: Recorder) -> Transform<Stamp> {
        Transform(
            decodeWithContext: { node, _ in Stamp(value: try node.int()) },
            encodeWithContext: { stamp, context in
                recorder.seen.append(context.path)
                return .number(JSONNumber(stamp.value))
            })
    }

    struct Leaf {
        var stamp = Stamp()
        var note = ""
    }

    struct Item {
        var leaf = Leaf()
        var count = 0
        var tags: [String] = []
    }

    struct Root {
        var items: [Item] = []
        var byName: [String: Item] = [:]
        var first: Item?
    }

    struct Plain {
        var value = 0.0
        var label: String? = nil
    }

    struct Holder {
        var plains: [Plain] = []
        var nested: [[Plain]] = []
        var any: Any = 0
    }

    static func registry(_ recorder: Recorder) -> ModelRegistry {
        var registry = ModelRegistry()
        registry.register(
            Mapping<Leaf>({ Leaf() }) {
                Map(\.stamp, "stamp", transform: stamp(recorder))
                Map(\.note, "note")
            })
        registry.register(
            Mapping<Item>({ Item() }) {
                Map(\.leaf, "leaf")
                Map(\.count, "count")
                Map(\.tags, "tags")
            })
        registry.register(
            Mapping<Root>({ Root() }) {
                Map(\.items, "items")
                Map(\.byName, "by name")
                Map(\.first, "first")
            })
        registry.register(
            Mapping<Plain>({ Plain() }) {
                Map(\.value, "value")
                Map(\.label, "label")
            })
        return registry
    }

    static func isBlind<Model>(_: Model.Type, in registry: ModelRegistry) throws -> Bool {
        let compiled = try #require(registry.entry(for: Model.self)?.compiledMapping as? CompiledMapping<Model>)
        return compiled.isPathBlind(in: EncodingSession(registry: registry, profile: .json))
    }

    static func item(_ value: Int) -> Item {
        Item(leaf: Leaf(stamp: Stamp(value: value), note: "n\(value)"), count: value, tags: ["t\(value)"])
    }

    @Test func aTransformBelowPlainModelsSeesItsOwnPath() throws {
        let recorder = Recorder()
        let registry = Self.registry(recorder)
        // The transform reads the context: every model above it keeps its links.
        #expect(try !Self.isBlind(Leaf.self, in: registry))
        #expect(try !Self.isBlind(Item.self, in: registry))
        #expect(try !Self.isBlind(Root.self, in: registry))
        let root = Root(items: [Self.item(1), Self.item(2)], byName: ["a b": Self.item(3)], first: Self.item(4))
        let bytes = try JSONMapper(registry: registry).encode(root)
        #expect(recorder.seen == ["$.items[0].leaf.stamp", "$.items[1].leaf.stamp", #"$["by name"]["a b"].leaf.stamp"#, "$.first.leaf.stamp"])
        // The same bytes as the tree writes.
        #expect(try JSONValue(parsing: bytes) == JSONMapper(registry: registry).encodeValue(root))
    }

    @Test func modelsOfScalarsArraysAndModelsAreBlindAndAnyIsNot() throws {
        var registry = Self.registry(Recorder())
        #expect(try Self.isBlind(Plain.self, in: registry))
        registry.register(
            Mapping<Holder>({ Holder() }) {
                Map(\.plains, "plains")
                Map(\.nested, "nested")
            })
        #expect(try Self.isBlind(Holder.self, in: registry))
        // An `Any` may hold a model a factory writes.
        registry.register(
            Mapping<Holder>({ Holder() }) {
                Map(\.plains, "plains")
                Map(\.any, "any")
            })
        #expect(try !Self.isBlind(Holder.self, in: registry))
        // twitter.json's models: every one blind, so the corpus tests run the blind stream.
        #expect(try Self.isBlind(TwitterResponse.self, in: ModelRegistry.corpusMacroMappings()))
    }

    @Test func anErrorInsideABlindModelNamesItsPath() throws {
        var registry = Self.registry(Recorder())
        registry.register(
            Mapping<Holder>({ Holder() }) {
                Map(\.plains, "plains")
                Map(\.nested, "nested")
            })
        #expect(try Self.isBlind(Holder.self, in: registry))
        let mapper = JSONMapper(registry: registry)
        var holder = Holder(plains: [Plain(value: 1), Plain(value: .nan)], nested: [])
        var error = try #require(throws: CartographError.self) { try mapper.encode(holder) }
        #expect(error.path == "$.plains[1].value")
        holder = Holder(plains: [], nested: [[], [Plain(value: 2, label: "x"), Plain(value: .infinity)]])
        error = try #require(throws: CartographError.self) { try mapper.encode(holder) }
        #expect(error.path == "$.nested[1][1].value")
    }

    struct InnerFactory: ModelFactory {
        let recorder: Recorder
        var keys: [String] { ["value"] }
        func make(from object: ObjectView, context: MappingContext) throws -> Plain { Plain() }
        func encode(_ model: Plain, context: EncodingContext) throws -> EncodedValue {
            recorder.seen.append(context.path)
            return .object([(key: "value", value: .number(JSONNumber(model.value)))])
        }
    }

    @Test func theAnswerFollowsTheRegistryInUse() throws {
        var blind = Self.registry(Recorder())
        blind.register(
            Mapping<Holder>({ Holder() }) {
                Map(\.plains, "plains")
            })
        let recorder = Recorder()
        var seeing = blind
        seeing.register(InnerFactory(recorder: recorder))
        let holder = Holder(plains: [Plain(value: 1), Plain(value: 2)])
        // Alternately, through the same compiled mapping of `Holder`.
        for _ in 0..<2 {
            #expect(try Self.isBlind(Holder.self, in: blind))
            #expect(try String(decoding: JSONMapper(registry: blind).encode(holder), as: UTF8.self) == #"{"plains":[{"value":1},{"value":2}]}"#)
            #expect(try !Self.isBlind(Holder.self, in: seeing))
            recorder.seen = []
            _ = try JSONMapper(registry: seeing).encode(holder)
            #expect(recorder.seen == ["$.plains[0]", "$.plains[1]"])
        }
    }

    /// Non-final, as the seeds' models are.
    class Person {
        var name = ""
        var reports: [Person] = []
        weak var manager: Person?
        static let mapping = Mapping<Person>({ Person() }) {
            Map(\.name, "name")
            Map(\.reports, "reports")
        }
    }

    final class Manager: Person {
        var budget = 0
        static let managerMapping = Mapping<Manager>(inheriting: Person.mapping, { Manager() }) { Map(\.budget, "budget") }
    }

    @Test func classModelsAreBlindUnlessInferenceMayPickASubclass() throws {
        var registry = ModelRegistry()
        registry.register(Person.mapping)
        #expect(try Self.isBlind(Person.self, in: registry))
        let boss = Person()
        boss.name = "Ada"
        let report = Person()
        report.name = "Bob"
        report.manager = boss
        boss.reports = [report]
        #expect(
            try String(decoding: JSONMapper(registry: registry).encode(boss), as: UTF8.self)
                == #"{"name":"Ada","reports":[{"name":"Bob","reports":[]}]}"#)
        // A registered subclass: a `Person` may be written by `Manager`'s mapping.
        registry.register(Manager.managerMapping)
        #expect(try !Self.isBlind(Person.self, in: registry))
        let manager = Manager()
        manager.name = "Cy"
        manager.budget = 7
        boss.reports = [report, manager]
        let bytes = try JSONMapper(registry: registry).encode(boss)
        #expect(try JSONValue(parsing: bytes) == JSONMapper(registry: registry).encodeValue(boss))
        #expect(String(decoding: bytes, as: UTF8.self).contains(#""budget":7"#))
    }
}
