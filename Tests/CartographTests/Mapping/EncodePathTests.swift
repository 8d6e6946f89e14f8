import Foundation
import Testing

@testable import Cartograph

/// The paths an encode shows a factory (`EncodingContext.path`) and puts
/// in its errors, through arrays, nested arrays, dictionaries and models
/// nested in models, on the stream and on the tree: a context links its
/// own step only when asked (``EncodingContext/materialized()``), so
/// each one must still name its own value.
@Suite struct EncodePathTests {
    /// Records the path each encoded leaf saw; throws at the leaf whose tag is `failing`.
    final class Recorder: @unchecked Sendable {
        // @unchecked: written during one synchronous encode, read after it.
        var seen: [String] = []
        var failing = -1
    }

    struct Leaf: Sendable {
        var tag = 0
    }

    struct LeafFactory: ModelFactory {
        let recorder: Recorder
        var keys: [String] { ["tag"] }
        func make(from object: ObjectView, context: MappingContext) throws -> Leaf { Leaf() }
        func encode(_ model: Leaf, context: EncodingContext) throws -> EncodedValue {
            if model.tag == recorder.failing { throw CartographError(.encodingFailed, "leaf \(model.tag) refused", path: context.path) }
            recorder.seen.append(context.path)
            return .object([(key: "tag", value: .number(JSONNumber(model.tag)))])
        }
    }

    /// Not final: ``Twig`` extends it, as the seeds' models extend theirs.
    class Branch {
        var leaf = Leaf()
        var leaves: [Leaf] = []
        var grid: [[Leaf]] = []
        var named: [String: Leaf] = [:]
        var child: Branch?
        var note = ""
        static let mapping = Mapping<Branch>({ Branch() }) {
            Map(\.leaf, "leaf")
            Map(\.leaves, "leaves")
            Map(\.grid, "grid")
            Map(\.named, "named")
            Map(\.child, "child")
            Map(\.note, "note")
        }
    }

    /// A subclass with a mapping of its own that inherits its parent's
    /// rules, reached through `Branch`-typed properties.
    final class Twig: Branch {
        var extra = Leaf()
        static let twigMapping = Mapping<Twig>(inheriting: Branch.mapping, { Twig() }) { Map(\.extra, "extra") }
    }

    struct Root: Mappable {
        var branches: [Branch] = []
        var single = Branch()
        static let mapping = Mapping<Root>({ Root() }) {
            Map(\.branches, "branches")
            Map(\.single, "single")
        }
    }

    static func branch(_ base: Int, child: Branch? = nil) -> Branch {
        let branch = Branch()
        branch.leaf = Leaf(tag: base)
        branch.leaves = [Leaf(tag: base + 1), Leaf(tag: base + 2)]
        branch.grid = [[], [Leaf(tag: base + 3)]]
        // Two members: the first one's key link is gone when the second is written.
        branch.named = ["a": Leaf(tag: base + 5), "p.q": Leaf(tag: base + 4)]
        branch.child = child
        return branch
    }

    static func root() -> Root {
        var root = Root()
        let twig = Twig()
        twig.leaf = Leaf(tag: 300)
        twig.leaves = [Leaf(tag: 301), Leaf(tag: 302)]
        twig.grid = [[], [Leaf(tag: 303)]]
        twig.named = ["a": Leaf(tag: 306), "p.q": Leaf(tag: 304)]
        twig.extra = Leaf(tag: 305)
        root.branches = [branch(100), branch(200, child: twig)]
        root.single = branch(400)
        return root
    }

    static func mapper(_ recorder: Recorder) -> JSONMapper {
        var registry = ModelRegistry()
        registry.register(Root.self)
        registry.register(Branch.mapping)
        registry.register(Twig.twigMapping)
        registry.register(LeafFactory(recorder: recorder))
        return JSONMapper(registry: registry)
    }

    static let expected = [
        "$.branches[0].leaf", "$.branches[0].leaves[0]", "$.branches[0].leaves[1]", "$.branches[0].grid[1][0]", "$.branches[0].named.a",
        #"$.branches[0].named["p.q"]"#, "$.branches[1].leaf", "$.branches[1].leaves[0]", "$.branches[1].leaves[1]", "$.branches[1].grid[1][0]",
        "$.branches[1].named.a", #"$.branches[1].named["p.q"]"#, "$.branches[1].child.leaf", "$.branches[1].child.leaves[0]",
        "$.branches[1].child.leaves[1]", "$.branches[1].child.grid[1][0]", "$.branches[1].child.named.a", #"$.branches[1].child.named["p.q"]"#,
        "$.branches[1].child.extra", "$.single.leaf", "$.single.leaves[0]", "$.single.leaves[1]", "$.single.grid[1][0]", "$.single.named.a",
        #"$.single.named["p.q"]"#
    ]

    @Test func factoriesSeeTheirOwnPathOnTheStreamAndTheTree() throws {
        let streamed = Recorder()
        _ = try Self.mapper(streamed).encode(Self.root())
        #expect(streamed.seen == Self.expected)
        let tree = Recorder()
        _ = try Self.mapper(tree).encodeValue(Self.root())
        #expect(tree.seen == Self.expected)
    }

    @Test func anErrorNamesItsOwnPathWhereverItIs() throws {
        let cases: [(Int, String)] = [
            (100, "$.branches[0].leaf"), (102, "$.branches[0].leaves[1]"), (203, "$.branches[1].grid[1][0]"),
            (304, #"$.branches[1].child.named["p.q"]"#), (306, "$.branches[1].child.named.a"), (301, "$.branches[1].child.leaves[0]"),
            (305, "$.branches[1].child.extra"),
            (403, "$.single.grid[1][0]")
        ]
        for (tag, path) in cases {
            let recorder = Recorder()
            recorder.failing = tag
            let mapper = Self.mapper(recorder)
            let streamed = try #require(throws: CartographError.self) { try mapper.encode(Self.root()) }
            #expect(streamed.path == path, "\(tag) through encode")
            let tree = try #require(throws: CartographError.self) { try mapper.encodeValue(Self.root()) }
            #expect(tree.path == path, "\(tag) through encodeValue")
        }
    }
}
