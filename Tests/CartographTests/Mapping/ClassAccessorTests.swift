import Foundation
import Testing

@testable import Cartograph

/// A class's property table gives its rules direct accessors
/// (``AccessorSlot``): decoding calls the property's setter and encoding
/// its getter, as the key path would, but without the key-path runtime.
/// These cases pin that the rules call the accessors the table gives (and
/// only for the property they belong to), and that a model sees the same
/// setters, observers and overrides as through a key path. Serialized:
/// the probe's calls are recorded in one static place.
@Suite(.serialized) struct ClassAccessorTests {
    /// Counts what the table's accessors were asked (a class: the closures share it).
    final class Calls: @unchecked Sendable {
        var gets: [String] = []
        var sets: [String] = []
    }

    /// A class with a hand-written table whose accessors record their calls.
    final class Probe: MappableModel, @unchecked Sendable {
        var name = ""
        var size = 0
        var note: String?
        nonisolated(unsafe) static var calls = Calls()

        static var mappableProperties: [MappableProperty] {
            [
                MappableProperty(
                    "name", \Probe.name,
                    get: {
                        calls.gets.append("name"); return $0.name
                    },
                    set: {
                        calls.sets.append("name"); $0.name = $1
                    }),
                // No accessors: its rules keep the key path.
                MappableProperty("size", \Probe.size),
                // Accessors beside rules of its own (what `@Mapped` writes on a class).
                MappableProperty(
                    "note", \Probe.note,
                    get: {
                        calls.gets.append("note"); return $0.note
                    },
                    set: {
                        calls.sets.append("note"); $0.note = $1
                    }, rules: { [Map(\Probe.note, "note_text")] })
            ]
        }

        init() {}
    }

    @Test func theDefaultMappingCallsTheTablesAccessors() throws {
        Probe.calls = Calls()
        var registry = ModelRegistry()
        registry.register(Probe.self)
        let mapper = JSONMapper(registry: registry)
        let probe = try mapper.decode(Probe.self, from: Array(#"{"name":"ada","size":3,"note_text":"y"}"#.utf8))
        #expect(probe.name == "ada" && probe.size == 3 && probe.note == "y")
        #expect(Probe.calls.sets == ["name", "note"])
        let json = String(decoding: try mapper.encode(probe), as: UTF8.self)
        #expect(json == #"{"name":"ada","size":3,"note_text":"y"}"#)
        #expect(Probe.calls.gets == ["name", "note"])
    }

    @Test func aHandWrittenMappingOfAClassWithATableCallsItsAccessors() throws {
        Probe.calls = Calls()
        let mapping = Mapping<Probe>({ Probe() }) {
            Map(\.name, "full_name")
            Map(\.size, "size")
        }
        var registry = ModelRegistry()
        registry.register(mapping)
        let mapper = JSONMapper(registry: registry)
        let probe = try mapper.decode(Probe.self, from: Array(#"{"full_name":"ada","size":3}"#.utf8))
        #expect(probe.name == "ada" && probe.size == 3)
        // Only the property whose table entry has accessors is set through them.
        #expect(Probe.calls.sets == ["name"])
        #expect(String(decoding: try mapper.encode(probe), as: UTF8.self) == #"{"full_name":"ada","size":3}"#)
        #expect(Probe.calls.gets == ["name"])
    }

    @Test func aRuleSharedByTwoMappingsTakesTheAccessorsOnce() throws {
        Probe.calls = Calls()
        let shared = Map(\Probe.name, "n")
        let first = Mapping<Probe>({ Probe() }) { shared }
        let second = Mapping<Probe>({ Probe() }) {
            shared
            Map(\.size, "s")
        }
        for mapping in [first, second] {
            var registry = ModelRegistry()
            registry.register(mapping)
            let probe = try JSONMapper(registry: registry).decode(Probe.self, from: Array(#"{"n":"ada","s":2}"#.utf8))
            #expect(probe.name == "ada")
        }
        #expect(Probe.calls.sets == ["name", "name"])
    }

    /// Non-final, with an observer: a subclass overrides the property with one of its own.
    @Mappable class Account: @unchecked Sendable {
        var balance = 0 {
            didSet { changes += 1 }
        }
        private(set) var owner = ""
        weak var manager: Account?
        @MapIgnore var changes = 0

        required init() {}
    }

    @Mappable class AuditedAccount: Account, @unchecked Sendable {
        @MapIgnore var audit: [Int] = []
        override var balance: Int {
            didSet { audit.append(balance) }
        }
    }

    @Test func setterObserversAndOverridesRunOnceAsThroughTheKeyPath() throws {
        var registry = ModelRegistry()
        registry.register(Account.self)
        registry.register(AuditedAccount.self)
        let mapper = JSONMapper(registry: registry)
        let bytes = Array(#"{"balance":40,"owner":"ada"}"#.utf8)
        let account = try mapper.decode(Account.self, from: bytes)
        #expect(account.balance == 40 && account.owner == "ada" && account.changes == 1)
        let audited = try mapper.decode(AuditedAccount.self, from: bytes)
        #expect(audited.balance == 40 && audited.changes == 1 && audited.audit == [40])
        // The key path runs the same setter once.
        let reference = AuditedAccount()
        reference[keyPath: \AuditedAccount.balance] = 40
        #expect(reference.changes == audited.changes && reference.audit == audited.audit)
        #expect(String(decoding: try mapper.encode(audited), as: UTF8.self) == #"{"balance":40,"owner":"ada"}"#)
    }

    /// A generic class: its table's accessors are generic over its parameter.
    @Mappable class Box<Element: Sendable>: @unchecked Sendable {
        var value: Element?
        var label = ""
        required init() {}
    }

    @Test func aGenericClassIsReadAndWrittenThroughItsAccessors() throws {
        var registry = ModelRegistry()
        registry.register(Box<Int>.self)
        registry.register(Box<String>.self)
        let mapper = JSONMapper(registry: registry)
        let numbers = try mapper.decode(Box<Int>.self, from: Array(#"{"value":3,"label":"n"}"#.utf8))
        let words = try mapper.decode(Box<String>.self, from: Array(#"{"value":"w","label":"s"}"#.utf8))
        #expect(numbers.value == 3 && numbers.label == "n" && words.value == "w" && words.label == "s")
        #expect(String(decoding: try mapper.encode(words), as: UTF8.self) == #"{"value":"w","label":"s"}"#)
        #expect(CompiledMapping(Mapping<Box<Int>>.automatic(), options: MappingOptions()).rules.allSatisfy { $0.classScalar != nil })
    }

    @Test func aWeakPropertyIsSetThroughItsAccessorWhenWeakPropertiesConvert() throws {
        var registry = ModelRegistry(options: MappingOptions { $0.convertsWeakProperties = true })
        registry.register(Account.self)
        let mapper = JSONMapper(registry: registry)
        // The manager is held by nothing else: the weak property is nil once decoding returns, as through a key path.
        let account = try mapper.decode(Account.self, from: Array(#"{"balance":1,"owner":"a","manager":{"owner":"b"}}"#.utf8))
        #expect(account.manager == nil && account.owner == "a")
        // A manager held elsewhere is written through the getter.
        let manager = try mapper.decode(Account.self, from: Array(#"{"owner":"b"}"#.utf8))
        account.manager = manager
        #expect(String(decoding: try mapper.encode(account), as: UTF8.self).contains(#""manager":{"#))
    }
}

/// A class's scalar properties set straight from the tape through their
/// accessors (``ClassScalarRead``) against the same rules on a class with
/// no table, which take the rule's own path through the key path: every
/// cell of the null/absence matrix, lenient and strict conversions,
/// required keys, a transform (never the direct path) and `JSONValue`,
/// under each registry option that changes them. Values and errors must
/// be the same.
@Suite struct ClassScalarReadTests {
    /// With a table: its scalars take the direct path.
    @Mappable class Fast: @unchecked Sendable {
        var count = 0
        var name = ""
        var ratio: Double?
        var flag: Bool?
        var big: Int64 = 0
        var raw: JSONValue = .null
        var when: Date?
        var kept = 7
        required init() {}
    }

    /// What both classes have, for ``fill(_:ratio:flag:name:)``.
    protocol Fillable: AnyObject {
        var count: Int { get set }
        var name: String { get set }
        var ratio: Double? { get set }
        var flag: Bool? { get set }
        var big: Int64 { get set }
        var raw: JSONValue { get set }
        var when: Date? { get set }
    }

    /// A subclass: its table starts with `Fast`'s properties, rooted at the subclass.
    @Mappable class FastSub: Fast, @unchecked Sendable {
        var extra: Int?
    }

    /// No table: every rule applies its key path.
    class Slow: @unchecked Sendable {
        var count = 0
        var name = ""
        var ratio: Double?
        var flag: Bool?
        var big: Int64 = 0
        var raw: JSONValue = .null
        var when: Date?
        var kept = 7
    }

    static let fast = Mapping<Fast>({ Fast() }) {
        Map(\.count, "count", lenient: true)
        Map(\.name, "name", required: true)
        Map(\.ratio, "ratio", ignoreNull: true)
        Map(\.flag, "flag")
        Map(\.big, "big")
        Map(\.raw, "raw")
        Map(\.when, "when", transform: .iso8601)
        Map(\.kept, "kept")
    }

    static let slow = Mapping<Slow>({ Slow() }) {
        Map(\.count, "count", lenient: true)
        Map(\.name, "name", required: true)
        Map(\.ratio, "ratio", ignoreNull: true)
        Map(\.flag, "flag")
        Map(\.big, "big")
        Map(\.raw, "raw")
        Map(\.when, "when", transform: .iso8601)
        Map(\.kept, "kept")
    }

    /// Subclasses mapped by hand, inheriting the mappings above (the rules
    /// are lifted to the subclass: ``MappingRule/lifted(to:)``).
    final class FastChild: Fast, @unchecked Sendable {
        var extra: Int?
    }

    final class SlowChild: Slow, @unchecked Sendable {
        var extra: Int?
    }

    static let fastChild = Mapping<FastChild>(inheriting: fast, { FastChild() }) { Map(\.extra, "extra") }
    static let slowChild = Mapping<SlowChild>(inheriting: slow, { SlowChild() }) { Map(\.extra, "extra") }

    static let inputs = [
        #"{"count":3,"name":"a","ratio":0.5,"flag":true,"big":9007199254740993,"raw":[1,null],"when":"2026-11-29T10:00:00Z","kept":8}"#,
        #"{"name":"a"}"#,
        #"{"name":"a","count":null,"ratio":null,"flag":null,"raw":null,"when":null,"kept":null}"#,
        #"{"name":"a","flag":null}"#,
        #"{"name":"a","count":"42","kept":"42"}"#,
        #"{"name":"a","count":"4x"}"#,
        #"{"name":"a","flag":1}"#,
        #"{"name":"a","big":1e3}"#,
        #"{"name":"a","big":9223372036854775808}"#,
        #"{"count":1}"#,
        #"{"name":null}"#,
        #"{"name":7}"#,
        #"{"name":"a","when":"yesterday"}"#,
        #"{"name":"a","raw":{"x":[true]}}"#
    ]

    static let optionSets: [MappingOptions] = [
        MappingOptions(),
        MappingOptions { $0.lenientScalars = true },
        MappingOptions { $0.ignoreNulls = true },
        MappingOptions { $0.nullForNonOptional = .resetToDefault }
    ]

    /// The properties, or the error with the model's name taken out.
    static func outcome<Model: AnyObject>(_ mapping: Mapping<Model>, _ options: MappingOptions, _ json: String, _ read: (Model) -> String)
        -> String
    {
        var registry = ModelRegistry(options: options)
        registry.register(mapping)
        do {
            return read(try JSONMapper(registry: registry).decode(Model.self, from: Array(json.utf8)))
        } catch {
            return "error: " + "\(error)".replacingOccurrences(of: "\(Model.self)", with: "Model")
        }
    }

    @Test func aClassScalarReadsAsTheRulesOwnPathDoes() {
        var thrown = 0
        for options in Self.optionSets {
            for json in Self.inputs {
                let fast = Self.outcome(Self.fast, options, json) {
                    "\($0.count) \($0.name) \(String(describing: $0.ratio)) \(String(describing: $0.flag)) \($0.big) \($0.raw) \(String(describing: $0.when)) \($0.kept)"
                }
                let slow = Self.outcome(Self.slow, options, json) {
                    "\($0.count) \($0.name) \(String(describing: $0.ratio)) \(String(describing: $0.flag)) \($0.big) \($0.raw) \(String(describing: $0.when)) \($0.kept)"
                }
                #expect(fast == slow, "\(json)")
                if fast.hasPrefix("error: ") { thrown += 1 }
            }
        }
        // The matrix reaches both sides: values and errors.
        #expect(thrown > 8 && thrown < Self.inputs.count * Self.optionSets.count - 8)
    }

    @Test func aSubclassMappingReadsAsItsTablelessTwinDoes() throws {
        for options in Self.optionSets {
            for json in Self.inputs + [#"{"name":"a","extra":3}"#, #"{"name":"a","extra":"3"}"#] {
                let fast = Self.outcome(Self.fastChild, options, json) {
                    "\($0.count) \($0.name) \(String(describing: $0.ratio)) \($0.big) \($0.raw) \($0.kept) \(String(describing: $0.extra))"
                }
                let slow = Self.outcome(Self.slowChild, options, json) {
                    "\($0.count) \($0.name) \(String(describing: $0.ratio)) \($0.big) \($0.raw) \($0.kept) \(String(describing: $0.extra))"
                }
                #expect(fast == slow, "\(json)")
            }
        }
        // The inherited scalars keep their direct path; the subclass's own property has no table entry.
        let compiled = CompiledMapping(Self.fastChild, options: MappingOptions())
        #expect(compiled.rules.map { $0.classScalar != nil } == [true, true, true, true, true, true, false, true, false])
        // Written back through the lifted rules, as the superclass writes.
        var registry = ModelRegistry()
        registry.register(Self.fastChild)
        let mapper = JSONMapper(registry: registry)
        let child = try mapper.decode(FastChild.self, from: Array(#"{"count":2,"name":"n","extra":5}"#.utf8))
        #expect(String(decoding: try mapper.encode(child), as: UTF8.self) == #"{"count":2,"name":"n","big":0,"raw":null,"kept":7,"extra":5}"#)
    }

    /// Fills a model of either class with the same values.
    static func fill<Model: Fillable>(_ model: Model, ratio: Double?, flag: Bool?, name: String) -> Model {
        model.count = -3
        model.name = name
        model.ratio = ratio
        model.flag = flag
        model.big = .min
        model.raw = .object(["a/b": .string("é\u{1}")])
        model.when = Date(timeIntervalSince1970: 1_700_000_000.25)
        return model
    }

    /// The bytes, or the error with the model's name taken out.
    static func written<Model: AnyObject>(_ mapping: Mapping<Model>, _ model: Model, _ write: WriteOptions, _ options: MappingOptions) -> String {
        var registry = ModelRegistry(options: options)
        registry.register(mapping)
        do {
            return String(decoding: try JSONMapper(registry: registry, writeOptions: write).encode(model), as: UTF8.self)
        } catch {
            return "error: " + "\(error)".replacingOccurrences(of: "\(Model.self)", with: "Model")
        }
    }

    @Test func aClassScalarWritesAsTheRulesOwnStreamDoes() {
        let writes: [WriteOptions] = [
            WriteOptions(), .pretty, WriteOptions { $0.sortedKeys = true },
            WriteOptions {
                $0.escapeSlashes = true; $0.asciiOnly = true
            },
            WriteOptions { $0.nonConformingFloats = .null }
        ]
        let nulls = MappingOptions { $0.nilEncoding = .null }
        var outputs = Set<String>()
        for write in writes {
            for options in [MappingOptions(), nulls] {
                for (ratio, flag, name) in [(0.1, true, "x\"y"), (nil, nil, "ü"), (Double.nan, false, ""), (-0.0, nil, "\u{7f}")]
                    as [(Double?, Bool?, String)]
                {
                    let fast = Self.written(Self.fast, Self.fill(Fast(), ratio: ratio, flag: flag, name: name), write, options)
                    let slow = Self.written(Self.slow, Self.fill(Slow(), ratio: ratio, flag: flag, name: name), write, options)
                    #expect(fast == slow)
                    outputs.insert(fast)
                }
            }
        }
        // The options and values reach many outputs, the NaN's error among them.
        #expect(outputs.count >= 20 && outputs.contains { $0.hasPrefix("error: ") })
    }

    @Test func theDirectPathIsTakenOnlyWhereTheTableGivesAccessors() throws {
        let fast = CompiledMapping(Self.fast, options: MappingOptions())
        let slow = CompiledMapping(Self.slow, options: MappingOptions())
        // Every scalar of the class with a table but the transformed date; none without one.
        #expect(fast.rules.map { $0.classScalar != nil } == [true, true, true, true, true, true, false, true])
        #expect(fast.rules.map { $0.classScalarWrite != nil } == [true, true, true, true, true, true, false, true])
        #expect(slow.rules.allSatisfy { $0.classScalarWrite == nil })
        #expect(slow.rules.allSatisfy { $0.classScalar == nil })
        // A subclass's default mapping: every property, inherited ones included, is a scalar set directly.
        let sub = CompiledMapping(Mapping<FastSub>.automatic(), options: MappingOptions())
        #expect(sub.rules.count == 9 && sub.rules.allSatisfy { $0.classScalar != nil })
        var registry = ModelRegistry()
        registry.register(FastSub.self)
        let decoded = try JSONMapper(registry: registry).decode(FastSub.self, from: Array(#"{"count":2,"name":"n","extra":5}"#.utf8))
        #expect(decoded.count == 2 && decoded.name == "n" && decoded.extra == 5)
    }
}

extension ClassScalarReadTests.Fast: ClassScalarReadTests.Fillable {}
extension ClassScalarReadTests.Slow: ClassScalarReadTests.Fillable {}
