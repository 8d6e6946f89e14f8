import Foundation
import Testing

@testable import Cartograph

/// A struct's array-of-scalars property is filled by the rule loop itself
/// when the input has an array under the key; `null`, absence, other kinds
/// and lossy decodes decline to the rule's own path. Each case is checked
/// against a twin that always takes that path: the same properties on a
/// class (slots are for structs, whose properties sit at fixed offsets).
@Suite struct ScalarArraySlotTests {
    struct Sample: Mappable, Equatable {
        var indices: [Int] = [-1]
        var tags: [String]? = ["preset"]
        var flags: [Bool] = []
        var grid: [[Double]] = []
        var lenientCounts: [Int] = []
        var maybes: [Int?] = []
        static let mapping = Mapping<Sample>({ Sample() }) {
            Map(\.indices, "indices")
            Map(\.tags, "tags")
            Map(\.flags, "flags")
            Map(\.grid, "grid")
            Map(\.lenientCounts, "counts", lenient: true)
            Map(\.maybes, "maybes")
        }
    }

    /// The same model read through the rules' general path only.
    final class GeneralSample: Mappable {
        var indices: [Int] = [-1]
        var tags: [String]? = ["preset"]
        var flags: [Bool] = []
        var grid: [[Double]] = []
        var lenientCounts: [Int] = []
        var maybes: [Int?] = []
        static let mapping = Mapping<GeneralSample>({ GeneralSample() }) {
            Map(\.indices, "indices")
            Map(\.tags, "tags")
            Map(\.flags, "flags")
            Map(\.grid, "grid")
            Map(\.lenientCounts, "counts", lenient: true)
            Map(\.maybes, "maybes")
        }

        var fields: Sample {
            Sample(indices: indices, tags: tags, flags: flags, grid: grid, lenientCounts: lenientCounts, maybes: maybes)
        }
    }

    func mapper(_ configure: (inout MappingOptions) -> Void = { _ in }) -> JSONMapper {
        var registry = ModelRegistry(options: MappingOptions(configure))
        registry.register(Sample.self)
        registry.register(GeneralSample.self)
        return JSONMapper(registry: registry)
    }

    /// Decodes `text` as both models: the same fields, or the same error.
    @discardableResult
    func bothWays(_ text: String, _ mapper: JSONMapper) throws -> Sample {
        let slot = Result { try mapper.decode(Sample.self, from: text) }.mapError { $0 as! CartographError }
        let general = Result { try mapper.decode(GeneralSample.self, from: text).fields }.mapError { $0 as! CartographError }
        switch (slot, general) {
        case (.success(let a), .success(let b)):
            #expect(a == b, "\(text)")
        case (.failure(let a), .failure(let b)):
            #expect(a.kind == b.kind && a.path == b.path && a.message == b.message, "\(text)")
        default:
            Issue.record("slot \(slot) but general path \(general) for \(text)")
        }
        return try slot.get()
    }

    @Test func slotsAreMadeForArraysOfScalarsAndTheirOptionals() {
        let rules = Sample.mapping.rules
        #expect(rules[0].nested is ScalarArraySlot<[Int], [Int]>)
        #expect(rules[1].nested is ScalarArraySlot<[String]?, [String]>)
        #expect(rules[2].nested is ScalarArraySlot<[Bool], [Bool]>)
        #expect(rules[3].nested is ScalarArraySlot<[[Double]], [[Double]]>)
        #expect(rules[4].nested is ScalarArraySlot<[Int], [Int]>)
        // Optional elements have no specialised reader: the general path.
        #expect(rules[5].nested == nil)
        #expect(GeneralSample.mapping.rules.allSatisfy { $0.nested == nil })
    }

    @Test func readsArraysInPlace() throws {
        let mapper = mapper()
        let sample = try bothWays(
            #"{"indices": [1, 2, 3], "tags": ["a", "é"], "flags": [true, false], "grid": [[1.5, 2], []], "counts": ["4", 5], "maybes": [1, null]}"#,
            mapper)
        #expect(
            sample
                == Sample(
                    indices: [1, 2, 3], tags: ["a", "é"], flags: [true, false], grid: [[1.5, 2], []], lenientCounts: [4, 5],
                    maybes: [1, nil]))
        // Empty arrays replace the defaults.
        let empty = try bothWays(#"{"indices": [], "tags": []}"#, mapper)
        #expect(empty.indices.isEmpty && empty.tags == [])
    }

    @Test func nullsOtherKindsAndAbsenceTakeTheRulesPath() throws {
        let mapper = mapper()
        #expect(try bothWays(#"{}"#, mapper).indices == [-1])
        #expect(try bothWays(#"{"tags": null}"#, mapper).tags == nil)
        let null = try #require(throws: CartographError.self) { try bothWays(#"{"indices": null}"#, mapper) }
        #expect(null.path == "$.indices")
        let object = try #require(throws: CartographError.self) { try bothWays(#"{"indices": {"a": 1}}"#, mapper) }
        #expect(object.kind == .typeMismatch && object.path == "$.indices")
        // Under ignoreNulls a null element is left out, and a null array leaves the property.
        let ignoring = self.mapper { $0.ignoreNulls = true }
        #expect(try bothWays(#"{"indices": [null, 4, null], "tags": null}"#, ignoring) == Sample(indices: [4], tags: ["preset"]))
        #expect(try bothWays(#"{"maybes": [null, 4]}"#, ignoring).maybes == [nil, 4])
    }

    @Test func errorsNameTheElementsPath() throws {
        let mapper = mapper()
        let element = try #require(throws: CartographError.self) { try bothWays(#"{"indices": [1, "2"]}"#, mapper) }
        #expect(element.kind == .typeMismatch && element.path == "$.indices[1]")
        let nested = try #require(throws: CartographError.self) { try bothWays(#"{"grid": [[1], [2, true]]}"#, mapper) }
        #expect(nested.path == "$.grid[1][1]")
        let nullElement = try #require(throws: CartographError.self) { try bothWays(#"{"tags": ["a", null]}"#, mapper) }
        #expect(nullElement.path == "$.tags[1]")
        // Lenient per rule and per registry.
        #expect(try bothWays(#"{"counts": ["7", 8.0]}"#, mapper).lenientCounts == [7, 8])
        #expect(try bothWays(#"{"indices": ["7"]}"#, self.mapper { $0.lenientScalars = true }).indices == [7])
        // A lossy decode records each bad element (the slot declines: it would stop at the first).
        let lossy = try mapper.decodeLossy([Sample].self, from: Data(#"[{"indices": [1, "x", 3]}, {"indices": [4]}]"#.utf8))
        #expect(lossy.value.map(\.indices) == [[1, 3], [4]])
        #expect(lossy.issues.map(\.path) == ["$[0].indices[1]"])
    }

    @Test func updatesReplaceTheArray() throws {
        var sample = Sample(indices: [9, 9], tags: nil)
        try mapper().update(&sample, from: #"{"indices": [1], "tags": ["t"]}"#)
        #expect(sample.indices == [1] && sample.tags == ["t"])
    }

    @Test func randomArraysAgreeWithTheGeneralPath() throws {
        var generator = SystemRandomNumberGenerator()
        let plain = mapper()
        let ignoring = mapper { $0.ignoreNulls = true }
        let lenient = mapper { $0.lenientScalars = true }
        let scalars = ["1", "-7", "2.5", "1e3", #""3""#, #""x""#, "true", "null", "[]", "{}", "9223372036854775808"]
        func array(depth: Int) -> String {
            let count = Int.random(in: 0...4, using: &generator)
            return "["
                + (0..<count).map { _ in
                    if depth > 0, Int.random(in: 0..<4, using: &generator) > 0 { return array(depth: depth - 1) }
                    // Mostly integers, so that most arrays are read in place.
                    return Bool.random(using: &generator) ? "\(Int.random(in: -5...5, using: &generator))" : scalars.randomElement(using: &generator)!
                }.joined(separator: ",") + "]"
        }
        for _ in 0..<300 {
            let tags = Int.random(in: 0..<5, using: &generator) == 0 ? "null" : array(depth: 0)
            let text =
                #"{"indices": \#(array(depth: 0)), "tags": \#(tags), "grid": \#(array(depth: 1)), "counts": \#(array(depth: 0)), "maybes": \#(array(depth: 0))}"#
            for mapper in [plain, ignoring, lenient] { _ = try? bothWays(text, mapper) }
        }
    }
}
