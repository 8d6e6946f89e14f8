import Foundation
import Testing

@testable import Cartograph

/// The owned JSONValue: literals, Foundation conversions, Codable, equality.
@Suite struct JSONValueTests {
    @Test func literalsBuildValues() {
        let value: JSONValue = ["name": "Ada", "tags": ["math", 1815, 1.5, true, nil]]
        #expect(value["name"] == .string("Ada"))
        #expect(value["tags"]?[1]?.numberValue?.int64Value == 1815)
        #expect(value["tags"]?[4] == .null)
    }

    /// A value prints as its compact JSON (what `encoded()` writes), keys in
    /// order; the non-finite numbers JSON has no form for as strings.
    @Test func valuesPrintAsTheirJSON() throws {
        let value: JSONValue = ["name": "Ada \"L\"", "tags": ["math", 1815, 1.5, true, nil], "empty": [:]]
        #expect("\(value)" == #"{"name":"Ada \"L\"","tags":["math",1815,1.5,true,null],"empty":{}}"#)
        let numbers = String(describing: try JSONValue(parsing: "[1.10, 2e3]"))
        #expect(numbers == "[1.1,2000]", "\(numbers)") // as encoded() writes them
        var options = ParseOptions()
        options.allowsJSON5 = true
        #expect("\(try JSONValue(parsing: "[NaN, Infinity, -Infinity]", options: options))" == #"["NaN","Infinity","-Infinity"]"#)
        if case .object(let object) = value { #expect(object.description == value.description) }
    }

    @Test func objectEqualityIgnoresKeyOrderAndHashingAgrees() throws {
        let a = try JSONValue(parsing: #"{"a": 1, "b": [true]}"#)
        let b = try JSONValue(parsing: #"{"b": [true], "a": 1.0}"#)
        #expect(a == b)
        #expect(a.hashValue == b.hashValue)
        #expect(a != (try JSONValue(parsing: #"{"a": 2, "b": [true]}"#)))
    }

    /// Foundation's own classes convert as their Swift counterparts do, in
    /// containers of either kind (containers are now tried before the
    /// class casts, which had bridged every Swift container they were
    /// tried on).
    @Test func foundationClassesConvertInsideSwiftAndFoundationContainers() throws {
        let inner = NSMutableDictionary()
        inner["n"] = NSNumber(value: 7)
        inner["f"] = NSNumber(value: 2.5)
        inner["t"] = NSNumber(value: true)
        inner["z"] = NSNull()
        inner["s"] = NSString(string: "x")
        let array = NSArray(array: [inner, NSNumber(value: 1), "y"])
        let value = try JSONValue(any: ["list": array, "swift": [["k": [1, "two", nil] as [Any?]]]] as [String: Any])
        #expect(value == ["list": [["f": 2.5, "n": 7, "s": "x", "t": true, "z": nil], 1, "y"], "swift": [["k": [1, "two", nil]]]])
    }

    @Test func foundationValuesConvertBothWays() throws {
        let object = try JSONSerialization.jsonObject(with: Data(#"{"a": [1, 2.5, true, null, "x"], "big": 18446744073709551615}"#.utf8))
        let value = try JSONValue(any: object)
        #expect(value == (try JSONValue(parsing: #"{"a": [1, 2.5, true, null, "x"], "big": 18446744073709551615}"#)))
        let back = value.anyValue as? [String: Any]
        #expect((back?["a"] as? [Any])?[0] as? Int == 1)
        #expect((back?["a"] as? [Any])?[2] as? Bool == true)
        #expect((back?["a"] as? [Any])?[3] is NSNull)
        #expect(back?["big"] as? UInt64 == UInt64.max)
        let error = try #require(throws: CartographError.self) { try JSONValue(any: ["when": Date()]) }
        #expect(error.path == "$.when")
        let nested = try #require(throws: CartographError.self) { try JSONValue(any: ["a": [1, ["b": [true, Date()]]]]) }
        #expect(nested.path == "$.a[1].b[1]")
        let root = try #require(throws: CartographError.self) { try JSONValue(any: Date()) }
        #expect(root.path == "$")
    }

    @Test func codableThroughFoundationCoders() throws {
        let value: JSONValue = ["a": [1, "two", nil, false], "b": 2.5]
        let data = try JSONEncoder().encode(value)
        #expect(try JSONDecoder().decode(JSONValue.self, from: data) == value)
    }

    @Test func longRepeatedKeysKeepTheirOwnTextAgainstFoundation() throws {
        // Keys over 15 bytes go through the tree builder's key cache (made
        // at the first long key, shared by the whole tree); 600 distinct long
        // keys, each repeated, must overflow and collide in its 256 slots
        // without a key ever coming back as another one's text.
        var records: [String] = []
        for record in 0..<3 {
            let members = (0..<600).map { #""a_fairly_long_property_name_\#($0)":\#($0 + record)"# }
            records.append("{" + members.joined(separator: ",") + #","short":[],"tiny":{}}"#)
        }
        let text = "[" + records.joined(separator: ",") + "]"
        let value = try Document(parsing: Array(text.utf8)).root.jsonValue()
        let foundation = try JSONSerialization.jsonObject(with: Data(text.utf8))
        #expect(value == (try JSONValue(any: foundation)))
        #expect(value[2]?["a_fairly_long_property_name_599"] == .number(JSONNumber(601)))
        // A small node builds without long keys at all.
        #expect(try Document(parsing: Array(#"{"symbols":[]}"#.utf8)).root.object()["symbols"]?.jsonValue() == .array([]))
    }

    /// Every key goes through the tree builder's key cache once a tree has
    /// made a few: short keys are known there by their length and two
    /// words. Keys of every length to 40, ASCII and not, each beside
    /// copies with one byte changed at each place (a word that left a byte
    /// out would hand back the neighbour's text), repeated over records so
    /// that every one is also a hit, come back as their own text, in order.
    @Test func everyKeyComesBackAsItsOwnTextThroughTheKeyCache() throws {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz0123456789")
        var keys: [String] = []
        for length in 1...40 {
            let base = (0..<length).map { alphabet[($0 * 7 + length) % alphabet.count] }
            keys.append(String(base))
            for place in 0..<length {
                var changed = base
                changed[place] = changed[place] == "x" ? "y" : "x"
                keys.append(String(changed))
            }
        }
        // Non-ASCII keys whose byte counts straddle the word boundaries.
        keys += ["é", "éa", "日本", "日本語", "aé日", "日本語の", "日本語のキー", "日本語のキーです", "ü\u{308}ü\u{308}ü\u{308}"]
        keys = Array(Set(keys)).sorted()
        for chunk in stride(from: 0, to: keys.count, by: 300) {
            let names = Array(keys[chunk..<min(keys.count, chunk + 300)])
            let members = names.enumerated().map { offset, name in #""\#(name)":\#(offset)"# }.joined(separator: ",")
            let text = "[" + Array(repeating: "{" + members + "}", count: 3).joined(separator: ",") + "]"
            guard case .array(let records) = try JSONValue(parsing: text) else { Issue.record("not an array"); return }
            for record in records {
                guard case .object(let object) = record else { Issue.record("not an object"); return }
                #expect(object.keys == names)
                #expect(object.values == names.indices.map { .number(JSONNumber(Int64($0))) })
            }
        }
    }

    /// Arrays and objects of up to four members are built from a literal,
    /// longer ones by appending: containers of 0 to 6 members, nested in
    /// one another, hold the same values in the same order either way, and
    /// an object whose key repeats (the tape hides one of the two) keeps
    /// the member the policy names, in the policy's place.
    @Test func shortContainersHoldWhatLongOnesDo() throws {
        for count in 0...6 {
            let elements = (0..<count).map { index in
                index % 2 == 0 ? "\(index)" : #"{"k\#(index)": [\#(index), "s"], "x": null}"#
            }
            let array = try JSONValue(parsing: "[" + elements.joined(separator: ",") + "]")
            guard case .array(let built) = array else {
                Issue.record("not an array")
                continue
            }
            #expect(built.count == count)
            for (index, element) in built.enumerated() {
                if index % 2 == 0 {
                    #expect(element == .number(JSONNumber(index)))
                } else {
                    #expect(
                        element
                            == .object(
                                JSONObject([("k\(index)", JSONValue.array([.number(JSONNumber(index)), .string("s")])), ("x", JSONValue.null)])))
                    guard case .object(let object) = element else { continue }
                    #expect(object.keys == ["k\(index)", "x"])
                }
            }
            let keys = (0..<count).map { "key\($0)" }
            let object = try JSONValue(parsing: "{" + keys.map { "\"\($0)\": [\"\($0)\"]" }.joined(separator: ",") + "}")
            guard case .object(let members) = object else {
                Issue.record("not an object")
                continue
            }
            #expect(members.keys == keys)
            #expect(members.values == keys.map { .array([.string($0)]) })
        }
        // A key repeated at every pair of places, in objects of two to six members.
        for count in 2...6 {
            for first in 0..<count {
                for second in (first + 1)..<count {
                    var keys = (0..<count).map { "m\($0)" }
                    keys[second] = keys[first]
                    let text = "{" + keys.enumerated().map { "\"\($0.element)\": \($0.offset)" }.joined(separator: ",") + "}"
                    for policy in [DuplicateKeyPolicy.lastWins, .firstWins] {
                        let value = try JSONValue(parsing: text, options: ParseOptions { $0.duplicateKeys = policy })
                        // The member kept: the later one's place and value under lastWins, the earlier one's under firstWins.
                        let dropped = policy == .lastWins ? first : second
                        let expected = keys.indices.filter { $0 != dropped }.map { (keys[$0], JSONValue.number(JSONNumber($0))) }
                        guard case .object(let members) = value else {
                            Issue.record("not an object")
                            continue
                        }
                        #expect(members.keys == expected.map(\.0), "\(text) \(policy)")
                        #expect(members.values == expected.map(\.1), "\(text) \(policy)")
                    }
                }
            }
        }
    }

    @Test func largeObjectsStayIndexed() throws {
        var object = JSONObject()
        for index in 0..<1_000 { object["k\(index)"] = .number(JSONNumber(index)) }
        #expect(object["k999"] == .number(JSONNumber(999)))
        object["k500"] = nil
        #expect(object.count == 999)
        #expect(object["k501"] == .number(JSONNumber(501)))
        #expect(object.keys[500] == "k501")
    }

    /// Numbers of 16 or 17 digits whose nearest Double is whole keep their
    /// exact value: a whole number as that integer (read back exactly, and
    /// decoded from the value as from the text), one that is not as text;
    /// those whose Double is not whole stay that Double.
    @Test func sixteenAndSeventeenDigitNumbersKeepTheirValue() throws {
        let value = try JSONValue(
            parsing:
                "[9007199254740993.0, 1.0000000000000001, 9223372036854775807.0, 18446744073709551615.0, -9.007199254740993e15, -65.613616999999977, 0.1, 1.7976931348623157e308]"
        )
        guard case .array(let items) = value else {
            Issue.record("not an array")
            return
        }
        let numbers = items.compactMap { item -> JSONNumber? in
            if case .number(let number) = item { return number }
            return nil
        }
        #expect(numbers.count == 8)
        #expect(numbers[0].int64Value == 9_007_199_254_740_993)
        #expect(numbers[1].int64Value == nil)
        #expect(numbers[1].text == "1.0000000000000001")
        #expect(numbers[1].doubleValue == 1)
        #expect(numbers[2].int64Value == .max)
        #expect(numbers[3].uint64Value == .max)
        #expect(numbers[4].int64Value == -9_007_199_254_740_993)
        #expect(numbers[5].doubleValue == -65.613616999999977)
        #expect(numbers[6].text == "0.1")
        #expect(numbers[7].doubleValue == .greatestFiniteMagnitude)
        let mapper = JSONMapper()
        #expect(
            try mapper.decode([Int64].self, from: JSONValue.array(Array(items[0...0] + items[2...2] + items[4...4])))
                == [9_007_199_254_740_993, .max, -9_007_199_254_740_993])
        #expect(throws: (any Error).self) { try mapper.decode(Int64.self, from: items[1]) }
        #expect(try mapper.decode(Int64.self, from: Array("9007199254740993.0".utf8)) == 9_007_199_254_740_993)
    }
}
