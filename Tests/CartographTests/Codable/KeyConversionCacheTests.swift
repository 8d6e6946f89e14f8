import Foundation
import Testing

@testable import Cartograph

/// The encoders' caches for key strategies: converted keys
/// (``ConvertedKeyCache``) and which types are string-keyed dictionaries
/// (``TypeAnswers``). Each answer must be the uncached one,
/// whatever keys or types come and however many.
@Suite struct KeyConversionCacheTests {
    @Test func everyKeyConvertsAsWithoutTheCacheAndOnlyOnceWhenItFits() {
        var cache = ConvertedKeyCache()
        var conversions = 0
        let keys = (0..<40).map { "someKey\($0)" } + ["id", "userID", "a", "", "\u{E9}t\u{E9}Key", "URLValue"]
        for round in 0..<3 {
            for key in keys {
                let converted = cache.converted(key) { name in
                    conversions += 1
                    return SnakeCaseKeys.toSnakeCase(name)
                }
                #expect(converted == SnakeCaseKeys.toSnakeCase(key), "round \(round): \(key)")
            }
        }
        // The 46 keys fit: each was converted in the first round only.
        #expect(conversions == keys.count)
    }

    /// Keys built to share their length, first byte and last two bytes
    /// fill one probe sequence; past it they are converted each time, and
    /// stay right.
    @Test func keysBuiltToCollideAreStillConvertedRight() {
        var cache = ConvertedKeyCache()
        var conversions = 0
        let keys = (0..<30).map { "a" + String(format: "%03d", $0) + "KeyWxyz" }
        for _ in 0..<2 {
            for key in keys {
                let converted = cache.converted(key) { name in
                    conversions += 1
                    return SnakeCaseKeys.toSnakeCase(name)
                }
                #expect(converted == SnakeCaseKeys.toSnakeCase(key))
            }
        }
        // Eight of them have slots; the other 22 are converted both times.
        #expect(conversions == 8 + 2 * 22)
    }

    @Test func manyKeysPastTheTableAreConvertedRight() {
        var cache = ConvertedKeyCache()
        let keys = (0..<2_000).map { "field\($0)Name" }
        for key in keys + keys.reversed() {
            #expect(cache.converted(key, by: SnakeCaseKeys.toSnakeCase) == SnakeCaseKeys.toSnakeCase(key))
        }
    }

    @Test func dictionaryTypesAreAnsweredAsTheRuntimeAnswers() {
        var answers = TypeAnswers<Bool>()
        func check<T>(_ type: T.Type, _ expected: Bool) {
            #expect(answers.isStringDictionary(type) == expected, "\(type)")
        }
        // Twelve types, more than the eight kept, asked in turns.
        for _ in 0..<3 {
            check([String: Int].self, true)
            check([Int: String].self, false)
            check([String].self, false)
            check([String: [String: Double]].self, true)
            check(Int.self, false)
            check(String.self, false)
            check([String: String?].self, true)
            check(Set<String>.self, false)
            check([String: Data].self, true)
            check(Date.self, false)
            check([Substring: Int].self, false)
            check([String: Bool].self, true)
        }
    }

    private struct Slot<Tag>: Codable { var value = 0 }
    private enum A {}
    private enum B {}
    private enum C {}
    private enum D {}
    private enum E {}
    private enum F {}

    @Test func registryEntriesAreAnsweredAsTheRegistryAnswers() {
        var registry = ModelRegistry()
        func register<Tag>(_: Tag.Type) { registry.register(Mapping<Slot<Tag>>({ Slot() }) { Map(\.value) }) }
        register(A.self)
        register(C.self)
        register(E.self)
        var answers = TypeAnswers<ModelEntry?>()
        func check<T>(_ type: T.Type) {
            let answer = answers.registeredEntry(for: type, in: registry)
            #expect(answer.map { ObjectIdentifier($0) } == registry.registeredEntry(for: type).map { ObjectIdentifier($0) }, "\(type)")
        }
        // Eleven types, more than the eight kept, three registered, asked in turns.
        for _ in 0..<3 {
            for type: Any.Type in [Slot<A>.self, Slot<B>.self, Slot<C>.self, Slot<D>.self, Slot<E>.self, Slot<F>.self] { check(type) }
            check(Int.self)
            check([Slot<A>].self)
            check(String.self)
            check(Slot<A>?.self)
            check([String: Slot<C>].self)
        }
    }

    /// Data-driven keys (more than the table holds) and string-keyed
    /// dictionaries under `.snakeCase`, against Foundation's `JSONEncoder`.
    @Test func aSnakeCaseEncodeOfManyKeysWritesWhatFoundationWrites() throws {
        struct Wide: Encodable {
            var count: Int
            var labels: [String: Int]
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: StringKey.self)
                for index in 0..<count { try container.encode(index, forKey: StringKey("someValue\(index)Here")) }
                try container.encode(labels, forKey: StringKey("labelsByName"))
            }
        }
        let values = (0..<3).map { Wide(count: 300 + $0, labels: ["keepThisKey": $0, "andThis": 2]) }
        let foundation = JSONEncoder()
        foundation.keyEncodingStrategy = .convertToSnakeCase
        var mapper = JSONMapper()
        mapper.codableOptions = CodableOptions { $0.keys = .snakeCase }
        let theirs = try JSONSerialization.jsonObject(with: foundation.encode(values)) as? NSArray
        let ours = try JSONSerialization.jsonObject(with: Data(mapper.encode(values))) as? NSArray
        #expect(ours != nil)
        #expect(ours == theirs)
    }
}
