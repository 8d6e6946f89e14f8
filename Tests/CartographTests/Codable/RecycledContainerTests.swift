import Foundation
import Testing

@testable import Cartograph

/// The decoder and the encoder hand a keyed container they made out again
/// for the next object of the same key type at the same depth, only when
/// nothing else holds it: containers a model keeps keep reading (or
/// writing) their own object, and the decoder or encoder is released when
/// its work ends.
@Suite struct RecycledContainerTests {
    // Whether the standard library's layout allows recycling at all is
    // LayoutAssumptionsTests' check (it follows CARTOGRAPH_PORTABLE_LAYOUT).

    /// A mapper whose models find `userInfo` in their coders.
    private static func mapper(_ userInfo: [CodingUserInfoKey: Any]) -> JSONMapper {
        var options = CodableOptions()
        options.userInfo = userInfo
        return JSONMapper(options: options)
    }

    /// A kept container is unique once every copy handed out is gone, in
    /// this (unoptimised) build too: asked through an `inout AnyObject`,
    /// Swift 6 opened the existential into a copy, so a debug build never
    /// saw a kept container as unique and never handed one out again.
    @Test func aKeptContainerIsUniqueOnceItsCopiesAreGone() throws {
        // The bit cast needs the layout, not the tricks' switch (also run with CARTOGRAPH_PORTABLE_LAYOUT).
        try #require(MemoryLayout<KeyedDecodingContainer<Deferred.CodingKeys>>.size == MemoryLayout<AnyObject>.size)
        var model: Deferred? = try JSONMapper().decode(Deferred.self, from: Data(#"{"name":"a"}"#.utf8))
        let kept = KeptContainerOf(model!.container)
        #expect(!kept.isUnique())
        let taken = kept.take()
        model = nil
        #expect(!kept.isUnique())
        #expect(try taken.decode(String.self, forKey: .name) == "a")
        _ = consume taken
        #expect(kept.isUnique())
    }

    /// Records the box of the container each object was read through.
    final class Boxes: @unchecked Sendable {
        var seen: [ObjectIdentifier] = []
        static let key = CodingUserInfoKey(rawValue: "cartograph.tests.boxes")!
    }

    struct Plain: Codable {
        var id: Int

        enum CodingKeys: String, CodingKey { case id }

        init(id: Int) { self.id = id }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            id = try container.decode(Int.self, forKey: .id)
            (decoder.userInfo[Boxes.key] as? Boxes)?.seen.append(ObjectIdentifier(unsafeBitCast(container, to: AnyObject.self)))
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)
            (encoder.userInfo[Boxes.key] as? Boxes)?.seen.append(ObjectIdentifier(unsafeBitCast(container, to: AnyObject.self)))
        }
    }

    /// Sibling objects of one type are read and written through one kept
    /// container once the first few are made: the tests exercise the
    /// recycling the benchmarks measure, not a path only release builds take.
    @Test func siblingObjectsShareAKeptContainer() throws {
        let boxes = Boxes()
        let mapper = Self.mapper([Boxes.key: boxes])
        let values = (0..<40).map { Plain(id: $0) }
        let json = try mapper.encode(values)
        let encoded = boxes.seen
        boxes.seen = []
        #expect(try mapper.decode([Plain].self, from: json).map(\.id) == Array(0..<40))
        // Once one is kept (the decoder keeps from its third container, the
        // encoder from its seventeenth), every later object goes through
        // it. Not asked under the portable layout, where nothing is kept: a
        // freed box's address comes back for the next, so a count of
        // distinct boxes says nothing there.
        if ContainerLayout.keyedDecoding { #expect(Set(boxes.seen.dropFirst(2)).count == 1) }
        if ContainerLayout.keyedEncoding { #expect(Set(encoded.dropFirst(16)).count == 1) }
    }

    /// A model that keeps its container and reads it after the decode.
    final class Deferred: Decodable {
        let container: KeyedDecodingContainer<CodingKeys>

        enum CodingKeys: String, CodingKey { case name }

        init(from decoder: any Decoder) throws {
            container = try decoder.container(keyedBy: CodingKeys.self)
        }

        func name() throws -> String { try container.decode(String.self, forKey: .name) }
    }

    @Test func aKeptContainerKeepsReadingItsOwnObject() throws {
        let names = (0..<12).map { "name \($0)" }
        let json = "[" + names.map { #"{"name":"\#($0)"}"# }.joined(separator: ",") + "]"
        let wrapped = try JSONMapper().decode([String: [Deferred]].self, from: Data(#"{"list":\#(json)}"#.utf8))
        #expect(try wrapped["list"]!.map { try $0.name() } == names)
        let direct = try JSONMapper().decode([Deferred].self, from: Data(json.utf8))
        #expect(try direct.map { try $0.name() } == names)
    }

    /// Two nested containers of one key type, alive together at one depth.
    struct Pair: Decodable, Equatable {
        var left: String
        var right: String
        var both: [String]

        enum CodingKeys: String, CodingKey { case name, left, right, items }

        init(from decoder: any Decoder) throws {
            let outer = try decoder.container(keyedBy: CodingKeys.self)
            let first = try outer.nestedContainer(keyedBy: CodingKeys.self, forKey: .left)
            let second = try outer.nestedContainer(keyedBy: CodingKeys.self, forKey: .right)
            var items = try outer.nestedUnkeyedContainer(forKey: .items)
            var both: [String] = []
            while !items.isAtEnd {
                let item = try items.nestedContainer(keyedBy: CodingKeys.self)
                both.append(try item.decode(String.self, forKey: .name))
            }
            // Read after the later containers were made.
            left = try first.decode(String.self, forKey: .name)
            right = try second.decode(String.self, forKey: .name)
            self.both = both
        }
    }

    @Test func containersAliveTogetherReadTheirOwnObjects() throws {
        let one = #"{"left":{"name":"L1"},"right":{"name":"R1"},"items":[{"name":"a"},{"name":"b"},{"name":"c"}]}"#
        let two = #"{"left":{"name":"L2"},"right":{"name":"R2"},"items":[{"name":"d"}]}"#
        let pairs = try JSONMapper().decode([Pair].self, from: Data("[\(one),\(two),\(one)]".utf8))
        #expect(pairs.map(\.left) == ["L1", "L2", "L1"])
        #expect(pairs.map(\.right) == ["R1", "R2", "R1"])
        #expect(pairs.map(\.both) == [["a", "b", "c"], ["d"], ["a", "b", "c"]])
    }

    /// A tree of one type: containers of one key type at every depth.
    struct Tree: Codable, Equatable {
        var value: Int
        var children: [Tree]
    }

    @Test func recursiveModelsDecodeAsFoundationDoes() {
        func tree(_ depth: Int, _ seed: Int) -> String {
            let children = depth == 0 ? "" : (0..<(seed % 3 + 1)).map { tree(depth - 1, seed * 7 + $0) }.joined(separator: ",")
            return #"{"value":\#(seed),"children":[\#(children)]}"#
        }
        var problems = Differential.decode(Tree.self, tree(6, 1))
        problems += Differential.decode(
            Tree.self, #"{"value":1,"children":[{"value":2,"children":[]},{"value":3,"children":[{"value":"x","children":[]}]}]}"#)
        problems += Differential.decode([Tree].self, "[\(tree(3, 2)),\(tree(4, 5)),\(tree(2, 8))]")
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }

    /// Holds the decoder weakly, to see it go.
    final class DecoderWatch: @unchecked Sendable {
        weak var decoder: AnyObject?
        static let key = CodingUserInfoKey(rawValue: "cartograph.tests.decoder-watch")!
    }

    struct Watched: Decodable {
        var id: Int

        enum CodingKeys: String, CodingKey { case id }

        init(from decoder: any Decoder) throws {
            (decoder.userInfo[DecoderWatch.key] as? DecoderWatch)?.decoder = decoder as AnyObject
            id = try decoder.container(keyedBy: CodingKeys.self).decode(Int.self, forKey: .id)
        }
    }

    @Test func theDecoderIsReleasedWhenTheDecodeEnds() throws {
        for json in [#"[{"id":1},{"id":2},{"id":3},{"id":4},{"id":5}]"#, #"[{"id":1},{"id":2},{"id":3},{"id":4},{"id":"5"}]"#] {
            let watch = DecoderWatch()
            let mapper = Self.mapper([DecoderWatch.key: watch])
            _ = try? mapper.decode([Watched].self, from: Data(json.utf8))
            _ = try? mapper.decode([String: [Watched]].self, from: Data(#"{"a":\#(json)}"#.utf8))
            #expect(watch.decoder == nil, "the decoder of \(json) outlived its decode")
        }
    }

    // MARK: Encoding

    /// Keeps the containers its elements made, to write through them later.
    final class KeptWriters: @unchecked Sendable {
        var containers: [KeyedEncodingContainer<Keeper.CodingKeys>] = []
    }

    /// Keeps its container in `writers` after its `encode(to:)` returns.
    struct Keeper: Encodable {
        let name: String
        let writers: KeptWriters

        enum CodingKeys: String, CodingKey { case name, late }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(name, forKey: .name)
            writers.containers.append(container)
        }
    }

    /// Encodes its keepers, then writes through every kept container.
    struct LateWriter: Encodable {
        let keepers: [Keeper]
        let writers: KeptWriters

        enum CodingKeys: String, CodingKey { case keepers, after }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(keepers, forKey: .keepers)
            // The last 40: JSON is first streamed, and a write into a closed
            // container hands the value to the tree encoder, which encodes it
            // again; the stream's containers, kept from the first pass,
            // write nothing once it has ended.
            for (index, var kept) in writers.containers.suffix(40).enumerated() { try kept.encode("late \(index)", forKey: .late) }
            try container.encode("done", forKey: .after)
        }
    }

    /// (The encoder keeps containers past its first 16, so these encode 40.)
    /// Each kept container writes into its own object, never into one a
    /// recycled container was pointed at since. (Foundation's `JSONEncoder`
    /// drops writes made after a value's `encode(to:)` returns; Cartograph's
    /// containers are references into its tree, as Foundation's plist
    /// encoder's are, and keep them.)
    @Test func aKeptEncodingContainerKeepsWritingItsOwnObject() throws {
        let expected: NSDictionary = [
            "after": "done",
            "keepers": (0..<40).map { ["name": "k\($0)", "late": "late \($0)"] as NSDictionary } as NSArray
        ]
        func value() -> LateWriter {
            let writers = KeptWriters()
            return LateWriter(keepers: (0..<40).map { Keeper(name: "k\($0)", writers: writers) }, writers: writers)
        }
        let json = try JSONSerialization.jsonObject(with: JSONMapper().encodeData(value())) as? NSDictionary
        #expect(json == expected, "\(String(describing: json))")
        let plist = try PropertyListSerialization.propertyList(from: Data(PropertyListMapper().encode(value(), format: .binary)), format: nil)
        #expect(plist as? NSDictionary == expected, "\(plist)")
        let foundationPlist = try PropertyListSerialization.propertyList(from: PropertyListEncoder().encode(value()), format: nil)
        #expect(foundationPlist as? NSDictionary == expected, "\(foundationPlist)")
    }

    /// Two keyed containers of one key type at one depth, alive together, and trees.
    struct Twins: Encodable {
        enum CodingKeys: String, CodingKey { case a, b, c }

        func encode(to encoder: any Encoder) throws {
            var first = encoder.container(keyedBy: CodingKeys.self)
            var second = encoder.container(keyedBy: CodingKeys.self)
            try first.encode(1, forKey: .a)
            try second.encode(2, forKey: .b)
            try first.encode(3, forKey: .c)
        }
    }

    @Test func containersAliveTogetherAndRecursiveModelsEncodeAsFoundationDoes() throws {
        let json = { (value: any Encodable) throws -> [NSObject?] in
            [
                try JSONSerialization.jsonObject(with: JSONEncoder().encode(value)) as? NSObject,
                try JSONSerialization.jsonObject(with: JSONMapper().encodeData(value)) as? NSObject
            ]
        }
        let twins = try json(Array(repeating: Twins(), count: 40))
        #expect(twins[0] != nil && twins[0] == twins[1])
        func tree(_ depth: Int, _ seed: Int) -> Tree {
            Tree(value: seed, children: depth == 0 ? [] : (0..<(seed % 3 + 1)).map { tree(depth - 1, seed * 7 + $0) })
        }
        let trees = try json([tree(6, 1), tree(4, 5), tree(2, 8)])
        #expect(trees[0] != nil && trees[0] == trees[1])
        let encoder = PropertyListEncoder()
        encoder.outputFormat = .binary
        let ours = try PropertyListMapper().encode([tree(5, 2)], format: .binary)
        #expect(try PropertyListDecoder().decode([Tree].self, from: Data(ours)) == [tree(5, 2)])
    }

    /// Holds the encoders weakly, to see them go.
    final class EncoderWatch: @unchecked Sendable {
        var encoders: [Weak] = []
        struct Weak { weak var encoder: AnyObject? }
        static let key = CodingUserInfoKey(rawValue: "cartograph.tests.encoder-watch")!
    }

    struct WatchedOut: Encodable {
        var id: Int
        var fails = false

        enum CodingKeys: String, CodingKey { case id }

        func encode(to encoder: any Encoder) throws {
            (encoder.userInfo[EncoderWatch.key] as? EncoderWatch)?.encoders.append(.init(encoder: encoder as AnyObject))
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)
            if fails { throw EncodingError.invalidValue(id, EncodingError.Context(codingPath: container.codingPath, debugDescription: "refused")) }
        }
    }

    /// Watched, with children of two depths; `keeps` holds on to its
    /// container past its `encode(to:)` (so the container kept for it in
    /// the run's table is not the table's alone).
    struct WatchedTree: Encodable {
        var id: Int
        var children: [WatchedTree] = []
        var keeps = false

        enum CodingKeys: String, CodingKey { case id, children }

        /// Containers kept by `keeps` nodes, let go of by the test.
        final class Kept: @unchecked Sendable {
            var containers: [KeyedEncodingContainer<CodingKeys>] = []
            static let key = CodingUserInfoKey(rawValue: "cartograph.tests.kept-containers")!
        }

        /// 30 trees of three levels (3 children, 2 grandchildren each);
        /// which nodes keep their containers is asked with their indexes
        /// (outer, middle, inner) and, for the middle level, the outer index.
        static func forest(keepsInner: (Int, Int, Int) -> Bool, keepsMiddle: (Int) -> Bool) -> [WatchedTree] {
            (0..<30).map { outer in
                WatchedTree(
                    id: outer,
                    children: (0..<3).map { middle in
                        WatchedTree(
                            id: middle, children: (0..<2).map { WatchedTree(id: $0, keeps: keepsInner(outer, middle, $0)) },
                            keeps: keepsMiddle(outer))
                    })
            }
        }

        func encode(to encoder: any Encoder) throws {
            (encoder.userInfo[EncoderWatch.key] as? EncoderWatch)?.encoders.append(.init(encoder: encoder as AnyObject))
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)
            if !children.isEmpty { try container.encode(children, forKey: .children) }
            if keeps { (encoder.userInfo[Kept.key] as? Kept)?.containers.append(container) }
        }
    }

    /// Encoders reused from one nested value to the next keep the kept
    /// container they last wrote through: none of them, nor one a model
    /// kept a container of, may outlive the encode (a cycle between an
    /// encoder and its container would).
    @Test func nestedEncodersAreReleasedWhenTheEncodeEndsWhateverTheModelsKeep() throws {
        for keeping in [false, true] {
            let watch = EncoderWatch()
            let kept = WatchedTree.Kept()
            let mapper = Self.mapper([EncoderWatch.key: watch, WatchedTree.Kept.key: kept])
            let values = WatchedTree.forest(keepsInner: { keeping && ($0 + $1 + $2) % 4 == 0 }, keepsMiddle: { keeping && $0 % 5 == 0 })
            let json = try JSONSerialization.jsonObject(with: mapper.encodeData(values)) as? NSArray
            let foundation = try JSONSerialization.jsonObject(with: JSONEncoder().encode(values)) as? NSArray
            #expect(json != nil && json == foundation)
            #expect(watch.encoders.count == 30 * (1 + 3 * (1 + 2)))
            #expect(kept.containers.isEmpty != keeping)
            kept.containers = []
            #expect(watch.encoders.allSatisfy { $0.encoder == nil }, "an encoder outlived its encode (keeping: \(keeping))")
        }
    }

    /// Containers kept past the whole encode still answer for their own
    /// object: the coding path of the member they were made for, and
    /// writes that are dropped without a throw. The streaming encoder's
    /// kept containers hold their encoders unretained while the encoder
    /// answers for them; one a model keeps must retain its encoder before
    /// the encoder is reused or freed (`scripts/test-sanitizers` runs this
    /// under the address sanitizer, where a container left pointing at a
    /// freed encoder fails). Twins keep two containers of one object.
    @Test func containersKeptPastTheEncodeKeepTheirCodingPaths() throws {
        let kept = WatchedTree.Kept()
        let watch = EncoderWatch()
        let mapper = Self.mapper([WatchedTree.Kept.key: kept, EncoderWatch.key: watch])
        let values = WatchedTree.forest(keepsInner: { ($1 + $2) % 2 == 0 }, keepsMiddle: { $0 % 3 == 0 })
        let json = try JSONSerialization.jsonObject(with: mapper.encodeData(values)) as? NSArray
        let foundation = try JSONSerialization.jsonObject(with: JSONEncoder().encode(values)) as? NSArray
        #expect(json != nil && json == foundation)
        // The paths a kept container reports, in the order the models kept them.
        var expected: [String] = []
        for outer in 0..<30 {
            for middle in 0..<3 {
                for inner in 0..<2 where (inner + middle) % 2 == 0 { expected.append("\(outer).children.\(middle).children.\(inner)") }
                if outer % 3 == 0 { expected.append("\(outer).children.\(middle)") }
            }
        }
        func path(_ container: KeyedEncodingContainer<WatchedTree.CodingKeys>) -> String {
            container.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
        }
        #expect(kept.containers.map(path) == expected)
        for var container in kept.containers {
            try container.encode(-1, forKey: .id)
            #expect(container.superEncoder().codingPath.count == container.codingPath.count + 1)
        }
        // The kept containers hold the encoders they write through, which
        // hold the run and its options, which hold `kept`: let go of here.
        kept.containers = []
        #expect(watch.encoders.count == 30 * (1 + 3 * (1 + 2)))
        #expect(watch.encoders.allSatisfy { $0.encoder == nil }, "an encoder outlived the containers kept for it")

        final class TwinKeeper: @unchecked Sendable { var containers: [KeyedEncodingContainer<Twins.CodingKeys>] = [] }
        struct KeptTwins: Encodable {
            let keeper: TwinKeeper
            func encode(to encoder: any Encoder) throws {
                var first = encoder.container(keyedBy: Twins.CodingKeys.self)
                var second = encoder.container(keyedBy: Twins.CodingKeys.self)
                try first.encode(1, forKey: .a)
                try second.encode(2, forKey: .b)
                keeper.containers.append(first)
            }
        }
        let keeper = TwinKeeper()
        let twins =
            try JSONSerialization.jsonObject(with: JSONMapper().encodeData((0..<40).map { _ in KeptTwins(keeper: keeper) })) as? [NSDictionary]
        #expect(twins?.count == 40 && twins?.allSatisfy { $0 == ["a": 1, "b": 2] as NSDictionary } == true)
        #expect(keeper.containers.map { $0.codingPath.map(\.intValue) } == (0..<40).map { [$0] })
        for var container in keeper.containers { try container.encode(3, forKey: .c) }
    }

    /// A non-final class model, as the seeds write them: a subclass
    /// encodes its own keys and then its superclass's through the same
    /// encoder (two containers of different key types on one encoder),
    /// and a property is typed as another class model.
    class WatchedAccount: Encodable {
        var id: Int
        var owner: WatchedAccount?

        init(id: Int, owner: WatchedAccount? = nil) {
            self.id = id
            self.owner = owner
        }

        enum CodingKeys: String, CodingKey { case id, owner }

        func encode(to encoder: any Encoder) throws {
            (encoder.userInfo[EncoderWatch.key] as? EncoderWatch)?.encoders.append(.init(encoder: encoder as AnyObject))
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)
            try container.encodeIfPresent(owner, forKey: .owner)
        }
    }

    final class WatchedPremiumAccount: WatchedAccount {
        var tier: String

        init(id: Int, tier: String, owner: WatchedAccount? = nil) {
            self.tier = tier
            super.init(id: id, owner: owner)
        }

        enum PremiumKeys: String, CodingKey { case tier }

        override func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: PremiumKeys.self)
            try container.encode(tier, forKey: .tier)
            try super.encode(to: encoder)
        }
    }

    @Test func classModelEncodersAreReleasedWhenTheEncodeEnds() throws {
        let watch = EncoderWatch()
        let mapper = Self.mapper([EncoderWatch.key: watch])
        let accounts: [WatchedAccount] = (0..<40).map { index in
            let owner = WatchedAccount(id: 1000 + index)
            return index % 2 == 0 ? WatchedPremiumAccount(id: index, tier: "gold \(index)", owner: owner) : WatchedAccount(id: index, owner: owner)
        }
        let json = try JSONSerialization.jsonObject(with: mapper.encodeData(accounts)) as? NSArray
        let foundation = try JSONSerialization.jsonObject(with: JSONEncoder().encode(accounts)) as? NSArray
        #expect(json != nil && json == foundation)
        // Each account's encoder is recorded once per `WatchedAccount.encode(to:)` run, its owner's too.
        #expect(watch.encoders.count == 80)
        #expect(watch.encoders.allSatisfy { $0.encoder == nil }, "an encoder outlived its encode")
    }

    @Test func theEncoderIsReleasedWhenTheEncodeEnds() throws {
        for failing in [false, true] {
            let watch = EncoderWatch()
            let mapper = Self.mapper([EncoderWatch.key: watch])
            let values = (0..<40).map { WatchedOut(id: $0, fails: failing && $0 == 39) }
            _ = try? mapper.encode(values)
            _ = try? PropertyListMapper(codableOptions: mapper.codableOptions).encode(values, format: .binary)
            #expect(watch.encoders.count == 80)
            #expect(watch.encoders.allSatisfy { $0.encoder == nil }, "an encoder outlived its encode (failing: \(failing))")
        }
    }
}
