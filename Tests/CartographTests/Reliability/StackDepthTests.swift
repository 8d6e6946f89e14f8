import Foundation
import Testing

@testable import Cartograph

/// Recursion within the default limits is safe on a 512 KiB thread stack
/// (a small service thread): every path either succeeds or throws a typed
/// error before the stack runs out; encoders honour their depth limits.
@Suite(.serialized) struct StackDepthTests {
    /// Runs `body` on a thread with a 512 KiB stack and returns its outcome.
    private func onSmallStack(_ body: @escaping @Sendable () throws -> Void) -> String {
        final class Box: @unchecked Sendable { var outcome = "not run" }
        let box = Box()
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            do {
                try body()
                box.outcome = "ok"
            } catch let error as CartographError {
                box.outcome = "\(error.kind)"
            } catch {
                box.outcome = DecodingErrors.cartographError(error).map { "\($0.kind)" } ?? "untyped: \(error)"
            }
            done.signal()
        }
        thread.stackSize = 512 << 10
        thread.start()
        done.wait()
        return box.outcome
    }

    /// The guard measures the thread it runs on: near the top of a 512 KiB
    /// thread it sees nearly all of it (less the allowance a sanitized build
    /// keeps), and a level deeper it sees less. A position read from a local
    /// that AddressSanitizer moved to its heap fake stack fails this.
    @Test func theGuardSeesTheThreadsOwnStack() {
        final class Seen: @unchecked Sendable { var top = 0; var deeper = 0 }
        let seen = Seen()
        #expect(
            onSmallStack {
                seen.top = StackGuard.remaining
                seen.deeper = Self.remainingBelow(frames: 8)
            } == "ok")
        let size = 512 << 10, allowance = StackGuard.sanitizerAllowance
        #expect(seen.top <= size - allowance, "\(seen.top)")
        #expect(seen.top >= size - allowance - (64 << 10), "\(seen.top)")
        #expect(seen.deeper < seen.top, "\(seen.deeper) \(seen.top)")
        #expect(seen.top - seen.deeper < 64 << 10, "\(seen.deeper) \(seen.top)")
        #expect(StackGuard.hasRoom)
    }

    /// The guard's figure `frames` calls below the caller. Each frame's
    /// pad escapes and is read after the call, so that an optimised build
    /// can neither drop it nor turn the recursion into a loop (it did: the
    /// deepest frame then sat where the first one had).
    @inline(never)
    private static func remainingBelow(frames: Int) -> Int {
        var pad: (Int, Int, Int, Int) = (frames, 0, 0, 0)
        withUnsafeMutablePointer(to: &pad) { escape(UnsafeMutableRawPointer($0)) }
        let remaining = frames == 0 ? StackGuard.remaining : remainingBelow(frames: frames - 1)
        withUnsafeMutablePointer(to: &pad) { escape(UnsafeMutableRawPointer($0)) }
        return remaining + pad.1
    }

    /// Where the pads escape to (never read: only the optimiser must think it may be).
    private nonisolated(unsafe) static var escaped: UnsafeMutableRawPointer?

    @inline(never)
    private static func escape(_ pointer: UnsafeMutableRawPointer) { escaped = pointer }

    /// Runs `body` on a 512 KiB thread; the CartographError it threw, if any.
    private func onSmallStackError(_ body: @escaping @Sendable () throws -> Void) -> CartographError? {
        final class Box: @unchecked Sendable { var error: CartographError? }
        let box = Box()
        _ = onSmallStack {
            do { try body() } catch let error as CartographError { box.error = error; throw error }
        }
        return box.error
    }

    final class Link: Codable, @unchecked Sendable {
        var value = 1
        var child: Link?
    }

    private static func chainJSON(_ depth: Int) -> [UInt8] {
        Array((String(repeating: #"{"value":1,"child":"#, count: depth - 1) + #"{"value":1}"# + String(repeating: "}", count: depth - 1)).utf8)
    }

    private static func chain(_ depth: Int) -> Link {
        let root = Link()
        var tail = root
        for _ in 1..<depth {
            let next = Link()
            tail.child = next
            tail = next
        }
        return root
    }

    @Test func recursiveCodableModelsWithinTheDefaultDepthAreSafe() {
        let json = Self.chainJSON(500)
        let outcome = onSmallStack { _ = try JSONMapper().decode(Link.self, from: json) }
        #expect(outcome == "ok" || outcome == "depthLimitExceeded", "\(outcome)")
        // With the depth limit raised far past what the stack holds: a typed error, not a crash.
        let deep = Self.chainJSON(20_000)
        let raised = onSmallStack {
            var mapper = JSONMapper()
            mapper.parseOptions.maxDepth = 100_000
            _ = try mapper.decode(Link.self, from: deep)
        }
        #expect(raised == "depthLimitExceeded", "\(raised)")
    }

    @Test func decodeAnyWithinTheDefaultDepthIsSafe() {
        let json = Array((String(repeating: "[", count: 511) + String(repeating: "]", count: 511)).utf8)
        let outcome = onSmallStack { _ = try JSONMapper().decodeAny(from: json) }
        #expect(outcome == "ok" || outcome == "depthLimitExceeded", "\(outcome)")
        let objects = Array((String(repeating: #"{"a":"#, count: 511) + "1" + String(repeating: "}", count: 511)).utf8)
        #expect(["ok", "depthLimitExceeded"].contains(onSmallStack { _ = try JSONMapper().decodeAny(from: objects) }))
    }

    @Test func encodingADeepChainIsSafeAndLimited() {
        let outcome = onSmallStack { _ = try JSONMapper().encode(Self.chain(500)) }
        #expect(outcome == "ok" || outcome == "depthLimitExceeded", "\(outcome)")
        let plist = onSmallStack { _ = try PropertyListMapper().encode(Self.chain(500), format: .binary) }
        #expect(plist == "ok" || plist == "depthLimitExceeded", "\(plist)")
        // Past CodableOptions.maxDepth: a typed error.
        #expect(onSmallStack { _ = try JSONMapper().encode(Self.chain(5_000)) } == "depthLimitExceeded")
    }

    /// A value whose `encode(to:)` hands itself to a single-value container: a cycle.
    struct Forever: Encodable {
        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(Forever())
        }
    }

    @Test func aSingleValueCycleIsStoppedByTheDepthLimit() {
        #expect(onSmallStack { _ = try JSONMapper().encode(Forever()) } == "depthLimitExceeded")
        #expect(onSmallStack { _ = try JSONMapper().encode(["k": Forever()]) } == "depthLimitExceeded")
        #expect(onSmallStack { _ = try PropertyListMapper().encode(Forever(), format: .xml) } == "depthLimitExceeded")
    }

    final class Node: Mappable, @unchecked Sendable {
        var name = "n"
        var next: Node?
        static let mapping = Mapping<Node>({ Node() }) {
            Map(\.name, "name")
            Map(\.next, "next")
        }
    }

    @Test func mappedClassChainsAreLimitedBothWays() {
        var registry = ModelRegistry()
        registry.register(Node.self)
        let mapper = JSONMapper(registry: registry)
        let root = Node()
        var tail = root
        for _ in 0..<10_000 {
            let next = Node()
            tail.next = next
            tail = next
        }
        #expect(onSmallStack { _ = try mapper.encode(root) } == "depthLimitExceeded")
        let shallow = Node()
        shallow.next = Node()
        #expect(onSmallStack { _ = try mapper.encode(shallow) } == "ok")
        let json = Array((String(repeating: #"{"name":"a","next":"#, count: 500) + "null" + String(repeating: "}", count: 500)).utf8)
        let decoded = onSmallStack { _ = try mapper.decode(Node.self, from: json) }
        #expect(decoded == "ok" || decoded == "depthLimitExceeded", "\(decoded)")
    }

    /// A struct model holding an array of itself: read through the rule
    /// loop's in-place array slot, each element one level deeper.
    struct Tree: Mappable, Sendable {
        var label = 0
        var children: [Tree] = []
        static let mapping = Mapping<Tree>({ Tree() }) {
            Map(\.label, "label")
            Map(\.children, "children")
        }
    }

    @Test func structModelsNestedThroughArraysAreLimited() {
        var registry = ModelRegistry()
        registry.register(Tree.self)
        #expect(Tree.mapping.rules[1].nested != nil, "the array slot is what this test reaches")
        @Sendable func json(_ depth: Int) -> [UInt8] {
            Array((String(repeating: #"{"label":1,"children":["#, count: depth) + "{}" + String(repeating: "]}", count: depth)).utf8)
        }
        let mapper = JSONMapper(registry: registry)
        let outcome = onSmallStack { _ = try mapper.decode(Tree.self, from: json(250)) }
        #expect(outcome == "ok" || outcome == "depthLimitExceeded", "\(outcome)")
        // With the parse's depth limit raised far past what the stack holds: a typed error, not a crash.
        let raised = onSmallStack {
            var deep = mapper
            deep.parseOptions.maxDepth = 100_000
            _ = try deep.decode(Tree.self, from: json(20_000))
        }
        #expect(raised == "depthLimitExceeded", "\(raised)")
    }

    private static let deepArrays = Array((String(repeating: "[", count: 511) + String(repeating: "]", count: 511)).utf8)

    @Test func deepJSONValuesParseSafely() {
        let outcome = onSmallStack { _ = try JSONValue(parsing: Self.deepArrays) }
        #expect(outcome == "ok" || outcome == "depthLimitExceeded", "\(outcome)")
        let codable = onSmallStack { _ = try JSONMapper().decode(JSONValue.self, from: Self.deepArrays) }
        #expect(codable == "ok" || codable == "depthLimitExceeded", "\(codable)")
    }

    /// With the parse's depth limit raised far past what the stack holds,
    /// every way to an owned `JSONValue` throws a typed error: the tree is
    /// built recursively, and released recursively later.
    private static let raisedDepth = {
        var options = ParseOptions(); options.maxDepth = 1_000_000; return options
    }()

    @Test func deepJSONValuesPastTheStackAreRefused() {
        let options = Self.raisedDepth
        let arrays = Array((String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)).utf8)
        let objects = Array((String(repeating: #"{"a":"#, count: 100_000) + "1" + String(repeating: "}", count: 100_000)).utf8)
        for input in [arrays, objects] {
            #expect(onSmallStack { _ = try JSONValue(parsing: input, options: options) } == "depthLimitExceeded")
            #expect(onSmallStack { _ = try Document(parsing: input, options: options).root.jsonValue() } == "depthLimitExceeded")
            let codable = onSmallStack {
                var mapper = JSONMapper()
                mapper.parseOptions = options
                _ = try mapper.decode(JSONValue.self, from: input)
            }
            #expect(codable == "depthLimitExceeded")
        }
        // Where the refusal is: the first container past the budget, by offset.
        let error = onSmallStackError { _ = try JSONValue(parsing: arrays, options: options) }
        #expect(error?.kind == .depthLimitExceeded)
        #expect((error?.offset ?? 0) > StackGuard.uncheckedLevels && (error?.offset ?? .max) < 100_000, "\(String(describing: error))")
    }

    /// The deepest tree the budget lets a 512 KiB thread build is released
    /// on that thread without running out of stack (release walks the tree
    /// recursively, at up to 1.5 times a build's stack a level), it is
    /// whole, and it can be compared, hashed, converted, written and printed
    /// there. Found by bisection: every probe builds, checks and drops its
    /// tree on the small thread.
    @Test func theDeepestTreeTheBudgetAllowsIsReleasedSafely() {
        let options = Self.raisedDepth
        for objects in [false, true] {
            @Sendable func input(_ depth: Int) -> [UInt8] {
                objects
                    ? Array((String(repeating: #"{"a":"#, count: depth) + "1" + String(repeating: "}", count: depth)).utf8)
                    : Array((String(repeating: "[", count: depth) + String(repeating: "]", count: depth)).utf8)
            }
            @Sendable func buildCheckAndDrop(_ depth: Int) throws {
                var value: JSONValue? = try JSONValue(parsing: input(depth), options: options)
                var levels = 0
                while case .some(let inner) = value {
                    switch inner {
                    case .array(let elements): value = elements.first
                    case .object(let members): value = members["a"]
                    default: value = nil
                    }
                    levels += 1
                }
                guard levels == depth + (objects ? 1 : 0) else { throw CartographError(.syntax, "\(levels) levels of \(depth)") }
                // The walks a service does with a tree it holds: none may
                // run the stack out (a writer may refuse with a typed error).
                let tree = try JSONValue(parsing: input(depth), options: options)
                let copy = tree
                guard tree == copy, tree.hashValue == copy.hashValue else { throw CartographError(.syntax, "unequal copies") }
                _ = tree.anyValue
                _ = try? tree.encoded()
                _ = try? Document(value: tree)
                _ = try? JSONMapper().encode(tree)
                _ = "\(tree)".count
            }
            let shallow = StackGuard.uncheckedLevels, past = 100_000
            #expect(onSmallStack { try buildCheckAndDrop(shallow) } == "ok")
            #expect(onSmallStack { try buildCheckAndDrop(past) } == "depthLimitExceeded")
            var built = shallow, refused = past
            while refused - built > 1 {
                let middle = (built + refused) / 2
                switch onSmallStack({ try buildCheckAndDrop(middle) }) {
                case "ok": built = middle
                case "depthLimitExceeded": refused = middle
                case let other: Issue.record("\(other) at \(middle)"); return
                }
            }
            // A plain debug build (as tests run) still builds about 190
            // levels there; a release build about 870.
            if StackGuard.sanitizerAllowance == 0 { #expect(built >= 150, "objects: \(objects), deepest \(built)") }
        }
    }

    /// Printing goes through the writer, which checks the stack; the
    /// standard library's reflection, used before, ran a 512 KiB thread out
    /// on a 300-level array in a release build.
    @Test func deepJSONValuesPrintSafely() {
        var nested: JSONValue = 1
        for _ in 0..<2_000 { nested = [nested] }
        final class Printed: @unchecked Sendable { var text = "" }
        let printed = Printed()
        let tree = nested
        #expect(onSmallStack { printed.text = "\(tree)" } == "ok")
        #expect(printed.text.hasPrefix("<array not printable: "), "\(printed.text.prefix(80))")
        #expect(printed.text.contains("depthLimitExceeded") || printed.text.contains("stack"), "\(printed.text.prefix(200))")
        // A Document of it: refused by the depth limit or the stack, typed.
        #expect(onSmallStack { _ = try Document(value: tree) } == "depthLimitExceeded")
    }

    /// Foundation-style values are converted under the same budget.
    @Test func deepFoundationValuesConvertSafely() {
        var nested: Any = 1
        for _ in 0..<1_000 { nested = [nested] }
        final class Held: @unchecked Sendable { let value: Any; init(_ value: Any) { self.value = value } }
        let held = Held(nested)
        #expect(onSmallStack { _ = try JSONValue(any: held.value) } == "depthLimitExceeded")
        var shallow: Any = ["a": 1]
        for _ in 0..<20 { shallow = ["k": shallow] }
        let kept = Held(shallow)
        #expect(onSmallStack { _ = try JSONValue(any: kept.value) } == "ok")
    }

    /// An `Any` property holding nested Foundation-style values is written
    /// level by level under the stack check (its `NSNull` test no longer
    /// bridges each container, down every level, to Foundation's classes).
    final class Loose: Mappable, @unchecked Sendable {
        var payload: Any = NSNull()
        static let mapping = Mapping<Loose>({ Loose() }) { Map(\.payload, "payload") }
    }

    @Test func deepAnyPropertiesEncodeSafely() throws {
        var registry = ModelRegistry()
        registry.register(Loose.self)
        let mapper = JSONMapper(registry: registry)
        var nested: Any = NSNull()
        for _ in 0..<1_000 { nested = [nested] }
        let deep = Loose()
        deep.payload = nested
        #expect(onSmallStack { _ = try mapper.encode(deep) } == "depthLimitExceeded")
        let shallow = Loose()
        shallow.payload = ["a": [NSNull(), 1, "x"] as [Any]] as [String: Any]
        #expect(onSmallStack { _ = try mapper.encode(shallow) } == "ok")
        #expect(try mapper.encodeValue(shallow) == ["payload": ["a": [nil, 1, "x"]]])
    }

    @Test func deepJSONValuesWriteSafely() throws {
        let value = try JSONValue(parsing: Self.deepArrays)
        for format in ["json", "codable", "binary", "xml"] {
            let outcome = onSmallStack {
                switch format {
                case "json": _ = try value.encoded()
                case "codable": _ = try JSONMapper().encode(value)
                case "binary": _ = try PropertyListMapper().encode(value, format: .binary)
                default: _ = try PropertyListMapper().encode(value, format: .xml)
                }
            }
            #expect(outcome == "ok" || outcome == "depthLimitExceeded", "\(format): \(outcome)")
        }
    }
}
