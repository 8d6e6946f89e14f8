import Foundation
import Testing

@testable import Cartograph

/// Optional scalars and raw-value enums are leaves: they are read and
/// written in their object's context, with no context of their own, and
/// their errors are given their own path afterwards. These cases pin the
/// path each such error names, under a struct and under a non-final class
/// with a subclass, in properties, arrays and dictionaries.
@Suite struct LeafPathTests {
    enum Tint: String, Sendable {
        case red, teal
    }

    /// Not final: ``Frame`` extends it.
    class Panel {
        var width: Int?
        var tint: Tint = .red
        var maybeTint: Tint?
        var ratio: Double?
        var marks: [Int?] = []
        var tints: [String: Tint] = [:]
        static let mapping = Mapping<Panel>({ Panel() }) {
            Map(\.width, "width")
            Map(\.tint, "tint")
            Map(\.maybeTint, "maybe_tint")
            Map(\.ratio, "ratio")
            Map(\.marks, "marks")
            Map(\.tints, "tints")
        }
    }

    final class Frame: Panel {
        var depth: Int?
        static let frameMapping = Mapping<Frame>(inheriting: Panel.mapping, { Frame() }) { Map(\.depth, "depth") }
    }

    struct Board: Mappable {
        var panel = Panel()
        var frames: [Frame] = []
        var label: String?
        static let mapping = Mapping<Board>({ Board() }) {
            Map(\.panel, "panel")
            Map(\.frames, "frames")
            Map(\.label, "label")
        }
    }

    static let mapper: JSONMapper = {
        var registry = ModelRegistry()
        registry.register(Board.self)
        registry.register(Panel.mapping)
        registry.register(Frame.frameMapping)
        return JSONMapper(registry: registry)
    }()

    @Test func optionalAndEnumLeavesDecode() throws {
        let board = try Self.mapper.decode(
            Board.self,
            from: #"""
                {"panel": {"width": 3, "tint": "teal", "maybe_tint": null, "marks": [1, null, 2], "tints": {"a": "red"}},
                 "frames": [{"depth": 4, "maybe_tint": "red", "ratio": 0.5}], "label": "x"}
                """#)
        #expect(board.panel.width == 3 && board.panel.tint == .teal && board.panel.maybeTint == nil)
        #expect(board.panel.marks == [1, nil, 2] && board.panel.tints == ["a": .red])
        #expect(board.frames.count == 1 && board.frames[0].depth == 4 && board.frames[0].maybeTint == .red && board.frames[0].ratio == 0.5)
        #expect(board.label == "x")
    }

    @Test func decodeErrorsNameTheLeafsOwnPath() throws {
        let cases: [(String, CartographError.Kind, String)] = [
            (#"{"panel": {"width": "wide"}}"#, .typeMismatch, "$.panel.width"),
            (#"{"panel": {"tint": "mauve"}}"#, .typeMismatch, "$.panel.tint"),
            (#"{"panel": {"maybe_tint": 7}}"#, .typeMismatch, "$.panel.maybe_tint"),
            (#"{"panel": {"marks": [1, null, "z"]}}"#, .typeMismatch, "$.panel.marks[2]"),
            (#"{"panel": {"tints": {"a": "red", "b c": "mauve"}}}"#, .typeMismatch, #"$.panel.tints["b c"]"#),
            (#"{"frames": [{}, {"depth": true}]}"#, .typeMismatch, "$.frames[1].depth"),
            (#"{"frames": [{"maybe_tint": "blue"}]}"#, .typeMismatch, "$.frames[0].maybe_tint"),
            (#"{"label": 5}"#, .typeMismatch, "$.label")
        ]
        for (json, kind, path) in cases {
            let error = try #require(throws: CartographError.self) { try Self.mapper.decode(Board.self, from: json) }
            #expect(error.kind == kind && error.path == path, "\(json): \(error)")
        }
    }

    @Test func optionalAndEnumLeavesEncodeOnTheStreamAndTheTree() throws {
        var board = Board()
        board.panel.width = 3
        board.panel.maybeTint = .teal
        board.panel.marks = [1, nil]
        board.panel.tints = ["b": .teal, "a": .red]
        let frame = Frame()
        frame.depth = 9
        frame.ratio = 0.25
        board.frames = [frame]
        let streamed = String(decoding: try Self.mapper.encode(board), as: UTF8.self)
        #expect(
            streamed
                == #"{"panel":{"width":3,"tint":"red","maybe_tint":"teal","marks":[1,null],"tints":{"a":"red","b":"teal"}},"#
                + #""frames":[{"tint":"red","ratio":0.25,"marks":[],"tints":{},"depth":9}]}"#)
        #expect(try Self.mapper.encodeValue(board) == (try JSONValue(parsing: streamed)))
    }

    @Test func encodeErrorsNameTheLeafsOwnPath() throws {
        var board = Board()
        let frame = Frame()
        frame.ratio = .nan
        board.frames = [Frame(), frame]
        let streamed = try #require(throws: CartographError.self) { try Self.mapper.encode(board) }
        #expect(streamed.path == "$.frames[1].ratio", "\(streamed)")
        // A DOM keeps the NaN (only writing it as JSON fails).
        guard case .array(let frames)? = try Self.mapper.encodeValue(board)["frames"], case .number(let ratio)? = frames[1]["ratio"] else {
            Issue.record("no frames[1].ratio in the DOM")
            return
        }
        #expect(!ratio.isFinite)
    }
}
