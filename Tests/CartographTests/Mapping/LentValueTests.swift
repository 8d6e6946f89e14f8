import Foundation
import Testing

@testable import Cartograph

/// The mapping stream and the `Codable` encoders pass a struct's nested
/// models, optionals and array elements on lent where they lie
/// (``LentValue``), not copied. A lent value must write what a copy writes,
/// and must leave every reference count as it found it, when the write
/// succeeds and when it throws; a type whose bytes cannot be moved (a
/// struct holding a `weak` reference) must be copied instead.
@Suite struct LentValueTests {
    /// A registered class model, so that reference counts can be watched.
    final class Badge {
        var label = ""
        init() {}
        init(_ label: String) { self.label = label }
        static let mapping = Mapping<Badge>({ Badge() }) { Map(\.label, "label") }
    }

    struct Leaf: Mappable {
        var name = ""
        var badge = Badge()
        var scores: [Int] = []
        var weight = 0.0
        static let mapping = Mapping<Leaf>({ Leaf() }) {
            Map(\.name, "name")
            Map(\.badge, "badge")
            Map(\.scores, "scores")
            Map(\.weight, "weight")
        }
    }

    /// Holds a `weak` reference, so it is not bitwise-takable: lent by copy.
    struct Watcher: Mappable {
        weak var badge: Badge?
        var note = ""
        static let mapping = Mapping<Watcher>({ Watcher() }) {
            Map(\.badge, "badge")
            Map(\.note, "note")
        }
    }

    struct Holder: Mappable {
        var id = 0
        var leaf = Leaf()
        var maybe: Leaf?
        var leaves: [Leaf] = []
        var sparse: [Leaf?] = []
        var grid: [[Leaf]] = []
        var twice: Leaf??
        var watcher = Watcher()
        var watchers: [Watcher] = []
        var maybeWatcher: Watcher?
        var byName: [String: Leaf] = [:]
        static let mapping = Mapping<Holder>({ Holder() }) {
            Map(\.id, "id")
            Map(\.leaf, "leaf")
            Map(\.maybe, "maybe")
            Map(\.leaves, "leaves")
            Map(\.sparse, "sparse")
            Map(\.grid, "grid")
            Map(\.twice, "twice")
            Map(\.watcher, "watcher")
            Map(\.watchers, "watchers")
            Map(\.maybeWatcher, "maybe_watcher")
            Map(\.byName, "by_name")
        }
    }

    static func mapper(_ options: WriteOptions = WriteOptions(), nulls: Bool = false) -> JSONMapper {
        var registry = ModelRegistry(options: MappingOptions { if nulls { $0.nilEncoding = .null } })
        registry.register(Badge.mapping)
        registry.register(Leaf.self)
        registry.register(Watcher.self)
        registry.register(Holder.self)
        return JSONMapper(registry: registry, writeOptions: options)
    }

    static func leaf(_ name: String) -> Leaf {
        Leaf(name: name, badge: Badge("badge of \(name) with a label too long for a small string"), scores: [1, 2, 3], weight: 1.5)
    }

    /// Every shape filled, and every optional both ways.
    static func samples(keeping badge: Badge) -> [Holder] {
        var full = Holder()
        full.id = 7
        full.leaf = leaf("first")
        full.maybe = leaf("maybe")
        full.leaves = [leaf("a"), leaf("b")]
        full.sparse = [leaf("c"), nil, leaf("d")]
        full.grid = [[leaf("e")], [], [leaf("f"), leaf("g")]]
        full.twice = .some(leaf("twice"))
        full.watcher = Watcher(badge: badge, note: "watching")
        full.watchers = [Watcher(badge: badge, note: "one"), Watcher(badge: nil, note: "two")]
        full.maybeWatcher = Watcher(badge: badge, note: "maybe")
        full.byName = ["x": leaf("x"), "y.z": leaf("y")]
        var innerNil = full
        innerNil.twice = .some(nil)
        innerNil.maybe = nil
        innerNil.maybeWatcher = nil
        return [Holder(), full, innerNil]
    }

    @Test func theTestExercisesBothKindsOfType() {
        #expect(_isBitwiseTakable(Holder.self) == false) // it holds a Watcher
        #expect(_isBitwiseTakable(Leaf.self))
        #expect(!_isBitwiseTakable(Watcher.self))
    }

    @Test(arguments: [WriteOptions(), WriteOptions { $0.sortedKeys = true }, .pretty])
    func lentValuesStreamWhatTheTreeWrites(_ options: WriteOptions) throws {
        let badge = Badge("kept")
        for nulls in [false, true] {
            let mapper = Self.mapper(options, nulls: nulls)
            for (index, sample) in Self.samples(keeping: badge).enumerated() {
                let streamed = try mapper.encode(sample)
                let tree = try mapper.encodeValue(sample).encoded(options: options)
                #expect(String(decoding: streamed, as: UTF8.self) == String(decoding: tree, as: UTF8.self), "sample \(index), nulls \(nulls)")
                // And the elements of an array of models, one level up.
                #expect(try mapper.encode([sample, sample]) == (try mapper.encodeValue([sample, sample]).encoded(options: options)))
            }
        }
    }

    @Test func nestedNilsAreWrittenAsTheirOptionalsSay() throws {
        var holder = Holder()
        holder.sparse = [nil, Self.leaf("x")]
        holder.twice = .some(nil)
        let text = String(decoding: try Self.mapper().encode(holder), as: UTF8.self)
        #expect(text.contains(#""sparse":[null,{"name":"x""#))
        #expect(text.contains(#""twice":null"#))
        #expect(!text.contains(#""maybe":"#))
    }

    @Test func lendingLeavesReferenceCountsAsTheyWere() throws {
        let mapper = Self.mapper()
        weak var probe: Badge?
        weak var arrayProbe: Badge?
        let watched = Badge("watched")
        do {
            var holder = Self.samples(keeping: watched)[1]
            probe = holder.leaf.badge
            arrayProbe = holder.grid[2][1].badge
            for _ in 0..<50 { _ = try mapper.encode(holder) }
            _ = try mapper.encode(Array(repeating: holder, count: 3))
            // No retain left behind (the model is its badges' only owner),
            // and none released too many (they are still alive).
            #expect(isKnownUniquelyReferenced(&holder.leaf.badge))
            #expect(isKnownUniquelyReferenced(&holder.grid[2][1].badge))
            #expect(isKnownUniquelyReferenced(&holder.maybe!.badge))
            #expect(isKnownUniquelyReferenced(&holder.sparse[2]!.badge))
            #expect(isKnownUniquelyReferenced(&holder.byName["y.z"]!.badge))
            #expect(probe != nil && arrayProbe != nil)
        }
        // Nor kept: the badges go with the model.
        #expect(probe == nil && arrayProbe == nil)
        withExtendedLifetime(watched) {}
    }

    @Test func aThrowInsideALentValueLeavesItIntact() throws {
        let mapper = Self.mapper()
        var holder = Holder()
        holder.leaves = [Self.leaf("fine"), Self.leaf("broken")]
        holder.leaves[1].weight = .nan
        holder.maybe = Self.leaf("maybe")
        holder.maybe!.weight = .infinity
        #expect(throws: CartographError.self) { try mapper.encode(holder) }
        do {
            _ = try mapper.encode(holder)
        } catch let error as CartographError {
            #expect(error.path == "$.maybe.weight")
        }
        holder.maybe = nil
        do {
            _ = try mapper.encode(holder)
            Issue.record("a NaN was written")
        } catch let error as CartographError {
            #expect(error.path == "$.leaves[1].weight")
        }
        #expect(isKnownUniquelyReferenced(&holder.leaves[1].badge))
        holder.leaves[1].weight = 2
        let text = String(decoding: try mapper.encode(holder), as: UTF8.self)
        #expect(text.contains(#""name":"broken""#) && text.contains(#""weight":2"#))
    }

    @Test func thePrimitiveLendsAndRestores() throws {
        struct Pair {
            var badge: Badge
            var text: String
        }
        var pair = Pair(badge: Badge("lent"), text: String(repeating: "long ", count: 10))
        struct Stop: Error {}
        let lent = withUnsafePointer(to: pair) { pointer in
            LentValue.with(at: UnsafeRawPointer(pointer), as: Pair.self) { $0.badge.label == "lent" && $0.text.count == 50 }
        }
        #expect(lent)
        #expect(throws: Stop.self) {
            try withUnsafePointer(to: pair) { pointer in
                try LentValue.with(at: UnsafeRawPointer(pointer), as: Pair.self) { _ in throw Stop() }
            }
        }
        var kept: [Pair] = []
        LentValue.forEach(in: [pair, pair]) { _, element in kept.append(element) }
        #expect(kept.count == 2 && kept.allSatisfy { $0.badge === pair.badge })
        kept = []
        #expect(isKnownUniquelyReferenced(&pair.badge))
        var unwrapped: Badge?
        let wrote = LentValue.withWrapped(Optional(pair)) { unwrapped = $0.badge }
        #expect(wrote && unwrapped === pair.badge)
        unwrapped = nil
        let wroteNil = LentValue.withWrapped(Pair?.none) { _ in Issue.record("nil was unwrapped") }
        #expect(!wroteNil)
        #expect(isKnownUniquelyReferenced(&pair.badge))
    }
}

/// The `Codable` encoders' `encodeIfPresent` lends the wrapped value: the
/// same bytes as Foundation's `JSONEncoder`, and no reference left behind.
@Suite struct LentOptionalCodableTests {
    final class Tag: Codable {
        var name: String
        init(_ name: String) { self.name = name }
    }

    struct Inner: Codable {
        var tag: Tag
        var values: [Int]
        var note: String?
    }

    struct Outer: Codable {
        var first: Inner?
        var second: Inner?
        var list: [Inner?]
        var deep: Inner??
    }

    static func sample() -> Outer {
        let inner = Inner(tag: Tag("a tag with a name long enough to be stored"), values: [1, 2], note: nil)
        let noted = Inner(tag: Tag("another tag"), values: [], note: "noted")
        return Outer(first: inner, second: nil, list: [noted, nil], deep: .some(nil))
    }

    @Test func optionalsEncodeAsFoundationEncodesThem() throws {
        for sorted in [false, true] {
            let foundation = JSONEncoder()
            let ours = CartographJSONEncoder()
            if sorted {
                foundation.outputFormatting = .sortedKeys
                ours.outputFormatting = .sortedKeys
            }
            let expected = try foundation.encode(Self.sample())
            let written = try ours.encode(Self.sample())
            // Foundation's unsorted members come in its dictionary's hash
            // order: the bytes are compared sorted, the values both ways.
            if sorted { #expect(String(decoding: written, as: UTF8.self) == String(decoding: expected, as: UTF8.self)) }
            #expect(
                (try JSONSerialization.jsonObject(with: written) as? NSDictionary)
                    == (try JSONSerialization.jsonObject(with: expected) as? NSDictionary))
            let mapper = JSONMapper(writeOptions: sorted ? WriteOptions { $0.sortedKeys = true } : WriteOptions())
            let mapped = try mapper.encode(Self.sample())
            let reread = try JSONSerialization.jsonObject(with: Data(mapped)) as? NSDictionary
            #expect(reread == (try JSONSerialization.jsonObject(with: expected) as? NSDictionary))
        }
    }

    @Test func optionalsLeaveReferenceCountsAsTheyWere() throws {
        var sample = Self.sample()
        for _ in 0..<20 {
            _ = try CartographJSONEncoder().encode(sample)
            _ = try JSONMapper().encode(sample)
        }
        #expect(isKnownUniquelyReferenced(&sample.first!.tag))
        #expect(isKnownUniquelyReferenced(&sample.list[0]!.tag))
    }
}
