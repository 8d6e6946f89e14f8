import CorpusModels
import Foundation
import Testing

@testable import Cartograph

/// Streaming: every input fed whole, one byte at a time and in random
/// chunk sizes gives the same models.
@Suite struct StreamingTests {
    struct Item: Codable, Equatable, Sendable {
        var id: Int
        var name: String
    }

    /// Feeds `bytes` in the given chunk sizes (the last size repeats) and collects the models.
    static func collect<Model>(
        _ type: Model.Type, _ bytes: [UInt8], sizes: [Int], mapper: JSONMapper = JSONMapper(),
        path: StreamPath = .topLevelArray, lossy: Bool = false
    ) throws -> (models: [Model], stream: ModelStream<Model>) {
        let stream = ModelStream(type, mapper: mapper, path: path, lossy: lossy)
        var models: [Model] = []
        var offset = 0
        var turn = 0
        while offset < bytes.count {
            let size = max(1, sizes[min(turn, sizes.count - 1)])
            let end = min(bytes.count, offset + size)
            try stream.feed(bytes[offset..<end]) { models.append($0) }
            offset = end
            turn += 1
        }
        try stream.finish { models.append($0) }
        return (models, stream)
    }

    static let chunkings: [(String, [Int])] = [
        ("whole", [Int.max]), ("one byte", [1]), ("random", randomChunkSizes(seed: 11)), ("random 2", randomChunkSizes(seed: 12))
    ]

    @Test func jqSpellingsParseToTheStepsOfTheirDollarForms() throws {
        for (jq, dollar) in [
            (".", "$"), (".[0]", "$[0]"), (".[]", "$[*]"), (#".["a b"].c"#, #"$["a b"].c"#), (#"."a b"[2]"#, #"$["a b"][2]"#),
            (".a[].b", "$.a[*].b"), (".a.b", "$.a.b")
        ] {
            #expect(try StreamPath.steps(parsing: jq) == StreamPath.steps(parsing: dollar), "\(jq)")
        }
        #expect(try StreamPath(parsing: ".") == .topLevelArray)
        #expect(try StreamPath(parsing: ".[]") == .matches([.any]))
        for bad in ["..", ".a.", #"."a"b"#, #"."a"#, "$."] {
            #expect(throws: CartographError.self, "\(bad)") { try StreamPath.steps(parsing: bad) }
        }
    }

    /// jq and JSONPath forms a path of steps cannot stream are refused by
    /// name, at their offset, not as a malformed key or index.
    @Test func unsupportedJqFormsAreRefusedByName() throws {
        for (text, named, offset) in [
            ("..", "recursive descent", 1), ("$..a", "recursive descent", 2), (".a..b", "recursive descent", 3),
            (".arr[-1]", "negative indices", 5), ("$[0:2]", "slices", 3), (".a[10:]", "slices", 5),
            // jq's operators after a step, not read as part of a key no input has.
            (".a?", "optional operator", 2), (".a | .b", "pipe", 3), (".a,b", "comma", 2), (".a[0]?", "optional operator", 5),
            ("  .a ?", "optional operator", 5), (". a", "a space after '.'", 1), (".a]", "']'", 2), (".a*b", "'*'", 2),
            (".x(y)", "'('", 2), (".\u{1B}a", "control character", 1)
        ] {
            do {
                _ = try StreamPath.steps(parsing: text)
                Issue.record("\(text) parsed")
            } catch let error as CartographError {
                #expect(
                    error.kind == .syntax && error.message.contains(named) && error.offset == offset,
                    "\(text): \(error.message) at \(String(describing: error.offset))")
            }
        }
    }

    /// A quoted key reads JSON's escapes, as jq's string literals do: a
    /// `\u` escape names the code point, not the letters after the
    /// backslash. An escape that is not JSON's, or a lone surrogate, is
    /// refused where it starts; a step written back (in messages too)
    /// escapes what it must and reads back as the same key.
    @Test func quotedKeysReadJSONEscapes() throws {
        let read: [(String, String)] = [
            (#"["a\u0000b"]"#, "a\u{0}b"), (#"["\u00e9"]"#, "é"), (#"["\u00E9t\u00e9"]"#, "été"), (#"["\ud83d\ude00"]"#, "😀"),
            (#"["tab\there"]"#, "tab\there"), (#"["line\nbreak\r"]"#, "line\nbreak\r"), (#"["\b\f"]"#, "\u{8}\u{C}"),
            (#"["a\/b"]"#, "a/b"), (#"['it\'s']"#, "it's"), (#"["q\"x\\"]"#, "q\"x\\"), (#"."\u0041""#, "A")
        ]
        for (text, key) in read {
            #expect(try StreamPath.steps(parsing: text) == [.key(key)], "\(text)")
        }
        for (text, offset) in [
            (#"["a\x"]"#, 3), (#"["\ud83d"]"#, 2), (#"["\ud83dx"]"#, 2), (#"["\u12"]"#, 2), (#"["\u+123"]"#, 2),
            (#"["\udc00\ud83d"]"#, 2), (#"["ok\ud83d\u0041"]"#, 4)
        ] {
            do {
                _ = try StreamPath.steps(parsing: text)
                Issue.record("\(text) parsed")
            } catch let error as CartographError {
                #expect(error.kind == .syntax && error.offset == offset, "\(text): \(error.message) at \(String(describing: error.offset))")
            }
        }
        for key in ["a\u{0}b", "\u{1B}[31m", "q\"\\x", "\u{7F}", "tab\t", "é 😀"] {
            let step = StreamPath.PathStep.key(key)
            #expect(!step.description.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }, "\(step)")
            #expect(try StreamPath.steps(parsing: step.description) == [step], "\(step)")
        }
        // The key the escape names is the one streamed.
        let stream = ModelStream(Int.self, path: try StreamPath(parsing: #"$["a\u0000b"][*]"#))
        #expect(try stream.feed(Array(#"{"a\u0000b":[1,2],"au0000b":[3]}"#.utf8)) + stream.finish() == [1, 2])
    }

    /// Keys stop at what jq or JSONPath give a meaning; spaces between
    /// steps and around the path are jq's and a shell's, not the key's.
    /// Each path is read as jq 1.6 reads it, and the key that holds such
    /// bytes is still reached quoted.
    @Test func spacesBetweenStepsAreNotPartOfAKey() throws {
        let expected: [StreamPath.PathStep] = [.key("a"), .key("b")]
        for text in [".a .b", ".a.b ", " .a.b", "$ .a .b", ".a\t.b", "a .b"] {
            #expect(try StreamPath.steps(parsing: text) == expected, "\(text)")
        }
        #expect(try StreamPath.steps(parsing: ".a [0] .b") == [.key("a"), .index(0), .key("b")])
        #expect(try StreamPath.steps(parsing: #".["a?"]["a b"]."x|y""#) == [.key("a?"), .key("a b"), .key("x|y")])
        // Keys with dashes, `@`, `$` and letters of any script stay plain.
        #expect(try StreamPath.steps(parsing: "$.content-type.@id.a$b.ключ") == [.key("content-type"), .key("@id"), .key("a$b"), .key("ключ")])
        // The lenient spelling still reads any text as dot-separated keys.
        #expect(StreamPath("a?.b c") == .array(at: ["a?", "b c"]))
    }

    @Test func topLevelArrayInAnyChunking() throws {
        let bytes = Array(#" [ {"id": 1, "name": "a"}, {"id": 2, "name": "é\u00e9"} ,{"id":3,"name":""} ] "#.utf8)
        for (label, sizes) in Self.chunkings {
            let (models, _) = try Self.collect(Item.self, bytes, sizes: sizes)
            #expect(models == [Item(id: 1, name: "a"), Item(id: 2, name: "éé"), Item(id: 3, name: "")], "\(label)")
        }
    }

    @Test func arrayAtANestedPathWithTheEnvelopeKept() throws {
        let bytes = Array(
            #"{"meta": {"page": 1}, "data": {"items": [{"id": 1, "name": "a"}, {"id": 2, "name": "b"}], "total": 2}, "items": [9]}"#.utf8)
        for (label, sizes) in Self.chunkings {
            let (models, stream) = try Self.collect(Item.self, bytes, sizes: sizes, path: "$.data.items")
            #expect(models.map(\.id) == [1, 2], "\(label)")
            #expect(stream.envelope == ["meta": ["page": 1], "data": ["items": [], "total": 2], "items": [9]], "\(label)")
        }
    }

    @Test func ndjsonWithBlankLinesAndNoFinalNewline() throws {
        let bytes = Array("{\"id\": 1, \"name\": \"a\"}\n\n  {\"id\": 2, \"name\": \"b\"}\r\n\n{\"id\": 3, \"name\": \"c\"}".utf8)
        for (label, sizes) in Self.chunkings {
            let (models, _) = try Self.collect(Item.self, bytes, sizes: sizes, path: .values)
            #expect(models.map(\.id) == [1, 2, 3], "\(label)")
        }
        let numbers = Array("1\n2\n 3".utf8)
        for (label, sizes) in Self.chunkings {
            #expect(try Self.collect(Int.self, numbers, sizes: sizes, path: .values).models == [1, 2, 3], "\(label)")
        }
        #expect(try Self.collect(Int.self, Array("\n \n".utf8), sizes: [1], path: .values).models.isEmpty)
    }

    @Test func twitterStatusesStreamedEqualTheWholeDecode() throws {
        let bytes = try Fixtures.bytes("twitter.json")
        let whole = try JSONMapper().decode(TwitterResponse.self, from: bytes).statuses
        for (label, sizes) in [("whole", [Int.max]), ("random", randomChunkSizes(seed: 3)), ("4 KiB", [4096])] {
            let (models, stream) = try Self.collect(CorpusModels.Status.self, bytes, sizes: sizes, path: "$.statuses")
            #expect(models == whole, "\(label)")
            #expect(stream.envelope?["search_metadata"]?["count"] == 100)
        }
        let mapped = try Self.collect(
            CorpusModels.Status.self, bytes, sizes: [997], mapper: JSONMapper(registry: .corpusMappings()), path: "statuses"
        ).models
        #expect(mapped == whole)
    }

    @Test func everyKindOfModelWorks() throws {
        let bytes = Array(#"[{"personInfo": {"firstName": "A"}}, {"userID": 3, "name": "U"}, {"other": 1}]"#.utf8)
        var registry = ModelRegistry()
        registry.register(Person.self)
        registry.register(UserFactory())
        registry.identify { object, _ in object.contains("userID") ? User.self : object.contains("personInfo") ? Person.self : nil }
        let mapper = JSONMapper(registry: registry)
        let (tree, _) = try Self.collect(MappedValue.self, bytes, sizes: [3], mapper: mapper)
        #expect(tree.count == 3)
        #expect(tree[0].model(as: Person.self)?.firstName == "A")
        #expect(tree[1].model(as: User.self) == User(id: 3, name: "U"))
        let people = try Self.collect(Person.self, Array(#"[{"personInfo": {"firstName": "B"}}]"#.utf8), sizes: [2], mapper: mapper).models
        #expect(people.map(\.firstName) == ["B"])
    }

    /// A model made through a factory that keeps the element's object view.
    struct LazyItem: Sendable {
        let view: ObjectView
        func name() throws -> String? { try view["name"]?.string() }
    }

    /// A non-final class model that keeps its object view, and a subclass
    /// made for every other element (registered per model, as the seeds do).
    class LazyRecord: @unchecked Sendable {
        let view: ObjectView
        init(view: ObjectView) { self.view = view }
        func name() throws -> String? { try view["name"]?.string() }
    }

    final class LazyTaggedRecord: LazyRecord, @unchecked Sendable {
        override func name() throws -> String? { try super.name().map { "tagged " + $0 } }
    }

    /// A `Codable` model that keeps its decoder and reads it later.
    final class DeferredItem: Decodable, @unchecked Sendable {
        let decoder: any Decoder
        init(from decoder: any Decoder) throws { self.decoder = decoder }
        func name() throws -> String { try decoder.container(keyedBy: StringKey.self).decode(String.self, forKey: StringKey("name")) }
    }

    /// A stream reuses an element's storage for the next one only when no
    /// model kept it: models holding their element (a view of it, or the
    /// decoder over it) still read their own element after the stream has
    /// moved on, whatever the chunking.
    @Test func elementsAModelKeepsAreNotReusedForTheNext() throws {
        let names = (0..<12).map { "item \($0) " + String(repeating: "x", count: $0 * 7) }
        let bytes = Array(("[" + names.enumerated().map { #"{"id":\#($0),"name":"\#($1)"}"# }.joined(separator: ",") + "]").utf8)
        var registry = ModelRegistry()
        registry.register(LazyItem.self, keys: ["id", "name"]) { view, _ in LazyItem(view: view) }
        registry.register(LazyRecord.self, keys: ["id", "name"]) { view, _ in
            let id = try view["id"]?.int() ?? 1
            return id % 2 == 0 ? LazyTaggedRecord(view: view) : LazyRecord(view: view)
        }
        let mapper = JSONMapper(registry: registry)
        for (label, sizes) in Self.chunkings {
            let lazy = try Self.collect(LazyItem.self, bytes, sizes: sizes, mapper: mapper).models
            #expect(try lazy.map { try $0.name() } == names, "\(label)")
            let records = try Self.collect(LazyRecord.self, bytes, sizes: sizes, mapper: mapper).models
            #expect(try records.map { try $0.name() } == names.enumerated().map { $0 % 2 == 0 ? "tagged " + $1 : $1 }, "\(label)")
            let deferred = try Self.collect(DeferredItem.self, bytes, sizes: sizes).models
            #expect(try deferred.map { try $0.name() } == names, "\(label)")
            // Models that let go of their element leave its storage to the next.
            #expect(try Self.collect(Item.self, bytes, sizes: sizes).models.map(\.name) == names, "\(label)")
        }
    }

    @Test func anErrorMidStreamNamesTheElementAndComesAfterEarlierModels() throws {
        let bytes = Array(
            "[{\"id\": 1, \"name\": \"a\"},\n {\"id\": 2, \"name\": \"b\"},\n {\"id\": \"three\", \"name\": \"c\"}, {\"id\": 4, \"name\": \"d\"}]"
                .utf8)
        for (label, sizes) in Self.chunkings {
            let stream = ModelStream(Item.self)
            var models: [Item] = []
            var thrown: CartographError?
            var offset = 0
            var turn = 0
            do {
                while offset < bytes.count {
                    let end = min(bytes.count, offset + max(1, sizes[min(turn, sizes.count - 1)]))
                    try stream.feed(bytes[offset..<end]) { models.append($0) }
                    offset = end
                    turn += 1
                }
                try stream.finish { models.append($0) }
            } catch let error as CartographError {
                thrown = error
            }
            #expect(models.map(\.id) == [1, 2], "\(label)")
            #expect(thrown?.elementIndex == 2, "\(label)")
            #expect(thrown?.offset == 58, "\(label)")
            #expect(thrown?.path == "$.id", "\(label)")
        }
        let syntax = Array("[1, 2, x]".utf8)
        let error = try #require(throws: CartographError.self) { try Self.collect(Int.self, syntax, sizes: [1]) }
        #expect(error.kind == .syntax && error.offset == 7 && error.line == 1 && error.column == 8)
    }

    @Test func arrayResultsDeferTheErrorToTheNextCall() throws {
        let stream = ModelStream(Int.self)
        #expect(try stream.feed(Array("[1, 2, x".utf8)) == [1, 2])
        #expect(throws: CartographError.self) { try stream.feed(Array("]".utf8)) }
    }

    @Test func lossyStreamsSkipAndReport() throws {
        let bytes = Array(#"[{"id": 1, "name": "a"}, {"id": "x"}, {"id": 3, "name": "c"}]"#.utf8)
        let (models, stream) = try Self.collect(Item.self, bytes, sizes: [5], lossy: true)
        #expect(models.map(\.id) == [1, 3])
        #expect(stream.issues.count == 1 && stream.issues[0].elementIndex == 1)
    }

    @Test func asyncSequenceOverChunksAndFiles() async throws {
        let bytes = Array(#"[{"id": 1, "name": "a"}, {"id": 2, "name": "b"}]"#.utf8)
        let chunks = AsyncStream<[UInt8]> { continuation in
            for byte in bytes { continuation.yield([byte]) }
            continuation.finish()
        }
        var ids: [Int] = []
        for try await item in JSONMapper().models(Item.self, from: chunks) { ids.append(item.id) }
        #expect(ids == [1, 2])
        let scratch = ScratchDirectory()
        let url = URL(fileURLWithPath: try scratch.file((1...1000).map { "{\"id\": \($0), \"name\": \"n\"}\n" }.joined(), name: "stream.ndjson"))
        var count = 0
        for try await item in JSONMapper().models(Item.self, fromFile: url.path, at: .values) {
            count += 1
            #expect(item.id == count)
        }
        #expect(count == 1000)
    }

    @Test func cancellationStopsPromptly() async throws {
        let endless = AsyncStream<[UInt8]> { continuation in
            continuation.yield(Array("[".utf8))
            Task {
                for index in 0..<1_000_000 {
                    continuation.yield(Array("{\"id\": \(index), \"name\": \"x\"},".utf8))
                    await Task.yield()
                }
                continuation.finish()
            }
        }
        let task = Task { () -> Int in
            var seen = 0
            do {
                for try await _ in JSONMapper().models(Item.self, from: endless) { seen += 1 }
            } catch is CancellationError {
                // Negative for cancellation even before the first element (a
                // loaded machine may not start this task within the 50 ms).
                return -(seen + 1)
            }
            return seen
        }
        try await Task.sleep(nanoseconds: 50_000_000)
        task.cancel()
        let result = try await task.value
        #expect(result < 0, "the stream ended by cancellation, not by running out")
    }
}
