import Foundation
import Testing

@testable import Cartograph

/// Two objects of one model that leave out different optional keys are
/// followed through one template holding both shapes' keys
/// (``KeyTemplate/merging(_:identities:)``); what cannot be merged keeps
/// the rule before it (the template with more keys). Either way the
/// bytes are the tree encoder's.
@Suite struct KeyTemplateMergeTests {
    static func template(_ keys: [String], _ identities: [Int]? = nil) -> KeyTemplate {
        KeyTemplate(keys: keys, identities: identities ?? Array(keys.indices), escaping: StringEscaping(escapeSlashes: false, asciiOnly: false))
    }

    @Test func keysOfBothShapesAreKeptInOneOrder() throws {
        // Identities stand for the cases of one key type: a=0 … f=5.
        let known = Self.template(["a", "b", "d", "f"], [0, 1, 3, 5])
        let merged = try #require(known.merging(["a", "c", "d", "e"], identities: [0, 2, 3, 4]))
        #expect(merged.keys == ["a", "b", "c", "d", "e", "f"])
        #expect(merged.identities == [0, 1, 2, 3, 4, 5])
        // A new key goes after the left-out keys of lower tags, unless the object writes them later.
        #expect(Self.template(["a", "b"], [0, 1]).merging(["c", "b"], identities: [2, 1])?.keys == ["a", "c", "b"])
        #expect(Self.template(["b", "d"], [1, 3]).merging(["a", "c"], identities: [0, 2])?.keys == ["a", "b", "c", "d"])
        // An object of keys the template already holds adds nothing.
        #expect(known.merging(["b", "f"], identities: [1, 5])?.keys == ["a", "b", "d", "f"])
    }

    @Test func keysInOppositeOrdersAreNotMerged() {
        let known = Self.template(["a", "b", "c"])
        #expect(known.merging(["c", "a"], identities: [2, 0]) == nil)
        #expect(known.merging(["b", "x", "a"], identities: [1, 9, 0]) == nil)
    }

    @Test func keysWithoutIdentitiesAreNotMerged() {
        #expect(Self.template(["a", "b"]).merging(["c"], identities: [-1]) == nil)
        #expect(Self.template(["a", "b"], [0, -1]).merging(["c"], identities: [2]) == nil)
    }

    @Test func twoCasesOfOneNameAreNotMerged() {
        // A hand-written key type may name two cases alike: a template's names must differ.
        #expect(Self.template(["a", "b"], [0, 1]).merging(["a", "b"], identities: [0, 2]) == nil)
    }

    @Test func noMoreKeysThanATemplateHolds() {
        let many = (0..<KeyTemplate.maximumCount).map { "k\($0)" }
        let known = Self.template(many)
        #expect(known.merging(["extra"], identities: [KeyTemplate.maximumCount]) == nil)
    }

    /// A status-like model: nil optionals are left out, in runs longer
    /// than the template's lookahead, and each shape writes keys the other leaves out.
    struct Post: Codable, Equatable {
        var id: Int
        var replyTo: Int?
        var replyUser: String?
        var o1: Int?, o2: Int?, o3: Int?, o4: Int?, o5: Int?, o6: Int?, o7: Int?, o8: Int?, o9: Int?, o10: Int?
        var text: String
        var quoted: String?
        var retweet: String?
        var lang: String
    }

    static func posts() -> [Post] {
        (0..<24).map { index in
            var post = Post(id: index, text: "t\(index)", lang: "en")
            switch index % 4 {
            case 0: post.replyTo = index * 10
            case 1: post.retweet = "r\(index)"
            case 2:
                post.quoted = "q\(index)"
                post.o9 = index
            default: break
            }
            if index % 5 == 0 { post.replyUser = "u\(index)" }
            return post
        }
    }

    @Test func postsOfSeveralShapesStreamAsTheTreeWritesThem() throws {
        for options in KeyIdentityTests.options {
            let mapper = JSONMapper(writeOptions: options)
            // The second and third encodes start from the templates the first one kept.
            for _ in 0..<3 { try StreamingEncoderTests.expectStreamed(Self.posts(), mapper) }
        }
        let bytes = try JSONMapper().encode(Self.posts())
        #expect(try JSONDecoder().decode([Post].self, from: Data(bytes)) == Self.posts())
    }

    /// Keys written in one order by some objects and in the opposite order
    /// by others (a hand-written `encode(to:)`): no merge, same bytes.
    struct Flipping: Encodable {
        enum Keys: String, CodingKey { case a, b, c, d }
        var flip: Int
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            let order: [Keys] = flip % 3 == 0 ? [.a, .b, .c] : flip % 3 == 1 ? [.c, .d, .a] : [.b, .d]
            for key in order { try container.encode(flip, forKey: key) }
        }
    }

    @Test func keysInChangingOrdersStreamAsTheTreeWritesThem() throws {
        let values = (0..<30).map { Flipping(flip: $0) }
        for _ in 0..<2 { try StreamingEncoderTests.expectStreamed(values, JSONMapper()) }
    }

    /// Two cases of one name: objects writing one of them each would merge
    /// into a template holding the name twice, and an object writing both
    /// would then follow it and write the name twice. Not merged, that
    /// object's repeat is seen, and the bytes are the tree's.
    struct Twins: Encodable {
        enum Keys: CodingKey {
            case first, second, other
            var stringValue: String { self == .other ? "other" : "same" }
            init?(stringValue: String) { nil }
            var intValue: Int? { nil }
            init?(intValue: Int) { nil }
        }
        var shape: Int
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            let keys: [Keys] = [[.first, .other], [.other, .second], [.first, .other, .second]][shape % 3]
            for (position, key) in keys.enumerated() { try container.encode(shape * 10 + position, forKey: key) }
        }
    }

    @Test func twoCasesOfOneNameAreWrittenOnceAsTheTreeWritesThem() throws {
        let values = (0..<12).map { Twins(shape: $0) }
        for _ in 0..<2 { try StreamKeyTemplateTests.expectAsTheTree(values, JSONMapper(), "two cases named alike") }
        let text = String(decoding: try JSONMapper().encode(values), as: UTF8.self)
        #expect(text.hasPrefix(#"[{"same":0,"other":1},{"other":10,"same":11},{"same":22,"other":21},"#))
    }
}

extension KeyTemplateMergeTests {
    /// Many objects of one key type, each writing a random subset of its
    /// keys (sometimes swapped, sometimes repeated), so that templates are
    /// merged, refused and followed in every mix: the bytes are the tree's.
    @Test(arguments: 0..<2)
    func randomShapesOfOneKeyTypeAreWrittenAsTheTreeWritesThem(_ option: Int) throws {
        let mapper = JSONMapper(writeOptions: KeyIdentityTests.options[option])
        let names = KeyIdentityTests.Letter.allCases.map(\.rawValue)
        var generator = SeededGenerator(seed: 0x3E_26 + UInt64(option))
        for round in 0..<40 {
            let swap = round % 4 == 0 ? 10 : 0
            let repeatKey = round % 5 == 0 ? 3 : 0
            let elements = (0..<30).map { _ in
                let script = StreamKeyTemplateTests.script(names, omit: 50, swap: swap, repeatKey: repeatKey, newKey: 0, using: &generator)
                return KeyIdentityTests.Scripted(letters: script.map { KeyIdentityTests.Letter(stringValue: $0)! })
            }
            if elements.allSatisfy({ Set($0.letters).count == $0.letters.count }) {
                try StreamingEncoderTests.expectStreamed(elements, mapper, "round \(round)")
            } else {
                try StreamKeyTemplateTests.expectAsTheTree(elements, mapper, "round \(round)")
            }
        }
    }
}

extension KeyTemplateMergeTests {
    /// A model of one member: its key becomes a template too, kept for
    /// later encodes, and the bytes stay the tree's.
    struct Wrapper: Codable, Equatable {
        var urls: [String]
        enum CodingKeys: String, CodingKey { case urls = "urls-of-a-one-key-wrapper" }
    }

    struct Holder: Codable, Equatable {
        var first: Wrapper
        var second: Wrapper?
    }

    @Test func oneKeyObjectsFollowATemplate() throws {
        let holders = (0..<10).map { Holder(first: Wrapper(urls: ["a\($0)"]), second: $0 % 2 == 0 ? Wrapper(urls: []) : nil) }
        for options in KeyIdentityTests.options {
            try StreamingEncoderTests.expectStreamed(holders, JSONMapper(writeOptions: options))
        }
        #expect(SharedKeyTemplates.shared.keptKeys().contains("urls-of-a-one-key-wrapper"))
        let bytes = try JSONMapper().encode(holders)
        #expect(try JSONDecoder().decode([Holder].self, from: Data(bytes)) == holders)
    }
}

extension KeyTemplateMergeTests {
    /// Class models as the seeds have them: a non-final class whose
    /// optionals are nil in different places, and a subclass that writes
    /// its own keys into the same object through `super.encode(to:)`, so
    /// that objects of two key types and several shapes share one array.
    class Article: Codable {
        var id: Int
        var title: String?
        var summary: String?
        var author: String?
        init(id: Int, title: String?, summary: String?, author: String?) {
            self.id = id
            self.title = title
            self.summary = summary
            self.author = author
        }
    }

    final class Review: Article {
        var rating: Int
        var verdict: String?
        enum CodingKeys: String, CodingKey { case rating, verdict }
        init(id: Int, rating: Int, verdict: String?) {
            self.rating = rating
            self.verdict = verdict
            super.init(id: id, title: id % 2 == 0 ? "t\(id)" : nil, summary: nil, author: id % 3 == 0 ? "a\(id)" : nil)
        }
        required init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            rating = try container.decode(Int.self, forKey: .rating)
            verdict = try container.decodeIfPresent(String.self, forKey: .verdict)
            try super.init(from: decoder)
        }
        override func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(rating, forKey: .rating)
            try container.encodeIfPresent(verdict, forKey: .verdict)
            try super.encode(to: encoder)
        }
    }

    @Test func classModelsOfSeveralShapesStreamAsTheTreeWritesThem() throws {
        let articles: [Article] = (0..<18).map { index in
            index % 3 == 0
                ? Review(id: index, rating: index % 5, verdict: index % 2 == 0 ? nil : "v\(index)")
                : Article(id: index, title: index % 2 == 0 ? nil : "t\(index)", summary: index % 4 == 0 ? "s\(index)" : nil, author: nil)
        }
        for _ in 0..<3 { try StreamingEncoderTests.expectStreamed(articles, JSONMapper()) }
        let bytes = try JSONMapper().encode(articles)
        let decoded = try JSONDecoder().decode([Article].self, from: Data(bytes))
        #expect(decoded.map(\.id) == articles.map(\.id))
        #expect(decoded.map(\.title) == articles.map(\.title))
        #expect(decoded.map(\.summary) == articles.map(\.summary))
        let written = articles.compactMap { $0 as? Review }
        let reviews = try JSONDecoder().decode([Review].self, from: Data(try JSONMapper().encode(written)))
        #expect(reviews.map(\.verdict) == written.map(\.verdict))
        #expect(reviews.map(\.author) == written.map(\.author))
        #expect(reviews.map(\.rating) == written.map(\.rating))
    }
}
