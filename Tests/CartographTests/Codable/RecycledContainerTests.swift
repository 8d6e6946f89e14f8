import Foundation
import Testing
@testable import Cartograph

/// The decoder hands a keyed container it made out again for the next
/// object of the same key type at the same depth, only when nothing else
/// holds it: containers a model keeps keep reading their own object, and
/// the decoder is released when the decode ends.
@Suite struct RecycledContainerTests {
    @Test func theStandardLibrarysContainerLayoutIsTheOneRecyclingNeeds() {
        // If this fails, containers are no longer recycled (decodes stay
        // correct, but each container is made anew): see RecycledContainers.
        #expect(RecycledContainers.isAvailable)
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
        problems += Differential.decode(Tree.self, #"{"value":1,"children":[{"value":2,"children":[]},{"value":3,"children":[{"value":"x","children":[]}]}]}"#)
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
            var options = CodableOptions()
            options.userInfo[DecoderWatch.key] = watch
            let mapper = JSONMapper(options: options)
            _ = try? mapper.decode([Watched].self, from: Data(json.utf8))
            _ = try? mapper.decode([String: [Watched]].self, from: Data(#"{"a":\#(json)}"#.utf8))
            #expect(watch.decoder == nil, "the decoder of \(json) outlived its decode")
        }
    }
}
