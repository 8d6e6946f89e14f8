import Foundation
import Testing

@testable import Cartograph

/// Objects with many keys: past ``EncodingObject/indexThreshold`` members the
/// encoder finds repeated keys through a hash index instead of a scan (a
/// 15,000-key dictionary took 0.5 s before, quadratic; the benchmark's
/// maps.json measures it). These check the index keeps the scan's rules.
@Suite struct LargeObjectEncodingTests {
    /// Writes `count` keys, then writes some of them again.
    struct Rewrites: Encodable {
        let count: Int
        let rewritten: [Int]
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: StringKey.self)
            for index in 0..<count { try container.encode(index, forKey: StringKey("k\(index)")) }
            for index in rewritten { try container.encode(-index, forKey: StringKey("k\(index)")) }
        }
    }

    @Test(arguments: [10, EncodingObject.indexThreshold - 1, EncodingObject.indexThreshold, EncodingObject.indexThreshold + 1, 1_000])
    func aRepeatedKeyKeepsItsPlaceAndTakesTheLastValue(_ count: Int) throws {
        let rewritten = [0, count / 2, count - 1]
        let text = try JSONMapper().encodeString(Rewrites(count: count, rewritten: rewritten))
        let expected = (0..<count).map { #""k\#($0)":\#(rewritten.contains($0) ? -$0 : $0)"# }.joined(separator: ",")
        #expect(text == "{\(expected)}")
    }

    /// Writes the keys in order, each with its position as the value.
    struct Keys: Encodable {
        let keys: [String]
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: StringKey.self)
            for (index, key) in keys.enumerated() { try container.encode(index, forKey: StringKey(key)) }
        }
    }

    /// Past the threshold ASCII keys are found by their bytes; a key that
    /// is not ASCII moves the object to `String` equality, under which the
    /// Kelvin sign (U+212A) is `K` and a decomposed é is é: the later
    /// spelling rewrites the earlier key, as a Swift dictionary holds one
    /// of them. Non-ASCII keys before the threshold, at it and after it.
    @Test(arguments: [3, EncodingObject.indexThreshold, EncodingObject.indexThreshold + 4])
    func canonicallyEqualKeysAreOneKeyPastTheThreshold(_ at: Int) throws {
        let count = EncodingObject.indexThreshold + 8
        var keys = (0..<count).map { "k\($0)" }
        keys[at] = "API_KEY"
        keys[at + 1] = "caf\u{E9}"
        let last = "k\(count - 1)"
        keys += ["API_\u{212A}EY", "k0", "cafe\u{301}", last, "new"]
        let text = try JSONMapper().encodeString(Keys(keys: keys))
        let values = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Int])
        #expect(values.count == count + 1, "\(text)")
        #expect(
            values["API_KEY"] == count && values["k0"] == count + 1 && values["caf\u{E9}"] == count + 2 && values[last] == count + 3
                && values["new"] == count + 4)
        // The first spelling keeps its place; Foundation's encoder agrees on the values.
        let start = #"{"k0":\#(count + 1),"#
        #expect(text.hasPrefix(at == 3 ? start + #""k1":1,"k2":2,"API_KEY":\#(count),"café":\#(count + 2),"# : start))
        let foundation = try JSONEncoder().encode(Keys(keys: keys))
        #expect(try JSONSerialization.jsonObject(with: foundation) as? [String: Int] == values)
    }

    /// A class model whose subclass writes its own keys into the base's
    /// container (`super.encode(to: encoder)` shares it, as synthesised
    /// code of a hand-written subclass does): the object passes the
    /// threshold in the subclass, which also writes again a key the base
    /// wrote; a second subclass adds a key that is `K` canonically.
    class Base: Encodable {
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: StringKey.self)
            for index in 0..<20 { try container.encode(index, forKey: StringKey("base\(index)")) }
            try container.encode("base", forKey: StringKey("K"))
        }
    }

    class Derived: Base {
        override func encode(to encoder: any Encoder) throws {
            try super.encode(to: encoder)
            var container = encoder.container(keyedBy: StringKey.self)
            for index in 0..<20 { try container.encode(-index, forKey: StringKey("derived\(index)")) }
            try container.encode(99, forKey: StringKey("base3"))
        }
    }

    final class Kelvin: Derived {
        override func encode(to encoder: any Encoder) throws {
            try super.encode(to: encoder)
            var container = encoder.container(keyedBy: StringKey.self)
            try container.encode("kelvin", forKey: StringKey("\u{212A}"))
        }
    }

    @Test func aSubclassPastTheThresholdSharesItsBasesKeysAsFoundationDoes() throws {
        for (model, count) in [(Derived() as Base, 41), (Kelvin(), 41)] {
            let text = try JSONMapper().encodeString(model)
            let ours = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
            let theirs = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(model)) as? [String: Any])
            #expect(ours.count == count && NSDictionary(dictionary: ours).isEqual(to: theirs), "\(text)")
            #expect(ours["base3"] as? Int == 99 && text.hasPrefix(#"{"base0":0,"base1":1,"base2":2,"base3":99,"#))
            #expect(ours["K"] as? String == (model is Kelvin ? "kelvin" : "base"))
        }
    }

    @Test func aLargeDictionaryRoundTripsWithNestedContainersFoundByKey() throws {
        let dictionary = Dictionary(uniqueKeysWithValues: (0..<20_000).map { ("user-\($0)", ["id": $0]) })
        let bytes = try JSONMapper().encode(dictionary)
        #expect(try JSONDecoder().decode([String: [String: Int]].self, from: Data(bytes)) == dictionary)
        // A nested container for a key already written reuses it, also past the threshold.
        struct Nested: Encodable {
            enum Inner: String, CodingKey { case a, b }
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: StringKey.self)
                for index in 0..<40 { try container.encode(index, forKey: StringKey("k\(index)")) }
                var first = container.nestedContainer(keyedBy: Inner.self, forKey: StringKey("n"))
                try first.encode(1, forKey: .a)
                var second = container.nestedContainer(keyedBy: Inner.self, forKey: StringKey("n"))
                try second.encode(2, forKey: .b)
            }
        }
        #expect(try JSONMapper().encodeString(Nested()).hasSuffix(#""n":{"a":1,"b":2}}"#))
    }
}
