import Foundation
import Testing

@testable import Cartograph

/// A decode's path lives on one stack of links, pushed as it enters a
/// nested model and cut back as it leaves: every path an error or a
/// factory sees must still be the value's own, after any number of
/// siblings, through arrays, dictionaries and `Any` members.
@Suite struct PathTrailStackTests {
    final class Leaf: Mappable {
        var x = 0
        static let mapping = Mapping<Leaf>({ Leaf() }) { Map(\.x, "x") }
    }

    final class Branch: Mappable {
        var leaf = Leaf()
        var leaves: [Leaf] = []
        var byName: [String: Leaf] = [:]
        var loose: Any?
        static let mapping = Mapping<Branch>({ Branch() }) {
            Map(\.leaf, "u")
            Map(\.leaves, "list")
            Map(\.byName, "named")
            Map(\.loose, "loose")
        }
    }

    struct Root: Mappable {
        var branches: [Branch] = []
        static let mapping = Mapping<Root>({ Root() }) { Map(\.branches, "a") }
    }

    var mapper: JSONMapper {
        var registry = ModelRegistry()
        registry.register(Root.self)
        registry.register(Branch.self)
        registry.register(Leaf.self)
        return JSONMapper(registry: registry)
    }

    /// A branch whose every nested value decodes, as a sibling before the failing one.
    static let goodBranch = #"{"u": {"x": 1}, "list": [{"x": 2}, {"x": 3}], "named": {"p": {"x": 4}}, "loose": [{"k": [1, {"m": 2}]}]}"#

    @Test func anErrorAfterManySiblingsNamesOnlyItsOwnPath() throws {
        let siblings = Array(repeating: Self.goodBranch, count: 5).joined(separator: ",")
        let cases: [(String, String)] = [
            (#"{"u": {"x": "bad"}}"#, "$.a[5].u.x"),
            (#"{"list": [{"x": 1}, {"x": 2}, {"x": true}]}"#, "$.a[5].list[2].x"),
            (#"{"named": {"p": {"x": 1}, "q.r": {"x": []}}}"#, #"$.a[5].named["q.r"].x"#),
            (#"{"u": {"x": 1}, "list": [{"x": 1}], "named": {"p": {"x": 1}}, "loose": 1, "zz": 0}, {"u": 7}"#, "$.a[6].u")
        ]
        for (failing, path) in cases {
            let error = try #require(throws: CartographError.self) { try mapper.decode(Root.self, from: #"{"a": [\#(siblings), \#(failing)]}"#) }
            #expect(error.path == path, "\(failing)")
        }
    }

    @Test func lossyDecodeNamesEachSkippedElement() throws {
        let text = #"{"a": [\#(Self.goodBranch), {"u": {"x": "no"}}, \#(Self.goodBranch), {"list": [{"x": 1}, {"x": null}]}]}"#
        let result = try mapper.decodeLossy(Root.self, from: Data(text.utf8))
        // The innermost array drops its element: the second branch is skipped, the last keeps one leaf.
        #expect(result.issues.map(\.path) == ["$.a[1].u.x", "$.a[3].list[1].x"])
        #expect(result.value.branches.count == 3)
        #expect(result.value.branches.prefix(2).allSatisfy { $0.leaf.x == 1 && $0.leaves.map(\.x) == [2, 3] && $0.byName["p"]?.x == 4 })
        #expect(result.value.branches.last?.leaves.map(\.x) == [1])
    }

    /// Records the path and key each made object saw, and keeps its context past the decode.
    final class Recorder: @unchecked Sendable {
        // @unchecked: written by the factory during one synchronous decode, read after it.
        var seen: [String] = []
        var marks: [Int] = []
        var kept: MappingContext?
    }

    struct Tagged: Sendable {
        var path = ""
    }

    struct TaggedFactory: ModelFactory {
        let recorder: Recorder
        var keys: [String] { ["tag"] }
        func make(from object: ObjectView, context: MappingContext) throws -> Tagged {
            recorder.seen.append("\(context.path) \(context.key ?? "-")")
            recorder.marks.append(context.linkMark)
            recorder.kept = context
            return Tagged(path: context.path)
        }
    }

    struct Holder: Mappable {
        var first = Tagged()
        var many: [Tagged] = []
        var nested: [String: [Tagged]] = [:]
        static let mapping = Mapping<Holder>({ Holder() }) {
            Map(\.first, "first")
            Map(\.many, "many")
            Map(\.nested, "nested")
        }
    }

    @Test func factoriesSeeTheirOwnPathAndKey() throws {
        let recorder = Recorder()
        var registry = ModelRegistry()
        registry.register(Holder.self)
        registry.register(TaggedFactory(recorder: recorder))
        let text = #"{"first": {"tag": 1}, "many": [{"tag": 1}, {"tag": 2}], "nested": {"k": [{"tag": 3}], "l.m": [{"tag": 4}, {"tag": 5}]}}"#
        let holder = try JSONMapper(registry: registry).decode(Holder.self, from: text)
        #expect(holder.first.path == "$.first")
        #expect(holder.many.map(\.path) == ["$.many[0]", "$.many[1]"])
        #expect(
            recorder.seen == [
                "$.first first", "$.many[0] many", "$.many[1] many", "$.nested.k[0] k", #"$.nested["l.m"][0] l.m"#, #"$.nested["l.m"][1] l.m"#
            ])
        // Siblings find the stack as high as each other: each one's links were cut back.
        #expect(recorder.marks[1] == recorder.marks[2] && recorder.marks[3] == recorder.marks[4] && recorder.marks[4] == recorder.marks[5])
        // A context kept past its decode names some path, and never fails.
        let kept = try #require(recorder.kept)
        #expect(kept.path.hasPrefix("$"))
        _ = kept.key
    }

    @Test func theStackCutsBackAndNeverReadsOutsideItself() {
        let stack = PathTrail.Stack()
        let a = stack.push(.key("a"), under: -1)
        let b = stack.push(.index(3), under: a)
        let mark = stack.count
        let c = stack.push(.key("c"), under: b)
        #expect(PathTrail.render(stack.components(to: c)) == "$.a[3].c")
        #expect(stack.innermostKey(from: b) == "a")
        stack.truncate(to: mark)
        #expect(stack.count == 2)
        // A stale index (past the top) names nothing beyond the stack.
        #expect(stack.components(to: c).isEmpty)
        // A link pushed under a stale parent hangs from the root.
        let d = stack.push(.key("d"), under: 40)
        #expect(PathTrail.render(stack.components(to: d)) == "$.d")
        // Growth keeps every link.
        var top = d
        for index in 0..<100 { top = stack.push(.index(index), under: top) }
        #expect(stack.components(to: top).count == 101)
        stack.truncate(to: 0)
        #expect(stack.count == 0 && stack.components(to: a).isEmpty)
    }

    @Test func aKeyPathLinkHoldsItsSpecUntilCutBack() {
        let stack = PathTrail.Stack()
        weak var released: KeySpec.Storage?
        let root = stack.push(.key("root"), under: -1)
        let mark = stack.count
        var link = -1
        do {
            let spec = KeySpec("person.addresses.2.street")
            released = spec.storage
            link = stack.push(spec.storage, under: root)
        }
        // Held by the link alone, and spelled out component by component.
        #expect(released != nil)
        #expect(PathTrail.render(stack.components(to: link)) == "$.root.person.addresses[2].street")
        #expect(stack.innermostKey(from: link) == "street")
        let member = stack.push(.key("k"), under: link)
        #expect(PathTrail.render(stack.components(to: member)) == "$.root.person.addresses[2].street.k")
        stack.truncate(to: mark)
        // Cutting back released the spec and forgot the key pushed above it.
        #expect(released == nil)
        let again = stack.push(.key("other"), under: root)
        #expect(PathTrail.render(stack.components(to: again)) == "$.root.other")
        #expect(stack.innermostKey(from: again) == "other")
        // A spec of indexes only names no key: the innermost key is further up.
        let indexes = stack.push(KeySpec.path([.index(1), .index(2)]).storage, under: again)
        #expect(stack.innermostKey(from: indexes) == "other")
        #expect(PathTrail.render(stack.components(to: indexes)) == "$.root.other[1][2]")
    }
}
