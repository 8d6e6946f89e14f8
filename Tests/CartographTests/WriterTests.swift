import Foundation
import Testing

@testable import Cartograph

/// The jansson-backed writer: shortest doubles, exact numbers, formatting options.
@Suite struct WriterTests {
    private func written(_ value: JSONValue, _ options: WriteOptions = WriteOptions()) throws -> String {
        try value.encodedString(options: options)
    }

    /// Shortest digits, whole values without `.0` — byte for byte what
    /// Foundation's JSONSerialization writes for the same doubles.
    @Test func doublesPrintInShortestFormAsFoundationDoes() throws {
        let doubles = [0.1, 1.5, -0.0, 1e-7, 1e300, 100.0, 0.30000000000000004, 1e16, 123456789.0, Double.leastNonzeroMagnitude]
        let ours = try written(JSONValue.array(doubles.map { .number(JSONNumber($0)) }))
        #expect(ours == "[0.1,1.5,-0,1e-07,1e+300,100,0.30000000000000004,1e+16,123456789,5e-324]")
        let foundation = String(decoding: try JSONSerialization.data(withJSONObject: doubles), as: UTF8.self)
        #expect(ours == foundation)
    }

    @Test func integersBigIntegersAndExactDecimalsSurvive() throws {
        let text = #"[1,-0,9223372036854775807,18446744073709551615,123456789012345678901234567890,0.10000000000000000000001,1E5,-0.0]"#
        let document = try Document(parsing: text)
        #expect(String(decoding: try document.encoded(), as: UTF8.self) == text)
        // `-0` keeps its sign in a JSONValue (the Double negative zero, as a
        // `Double` decoded from that text has it).
        let value = try JSONValue(parsing: text)
        #expect(
            try written(value)
                == #"[1,-0,9223372036854775807,18446744073709551615,123456789012345678901234567890,0.10000000000000000000001,100000,-0]"#)
    }

    /// Every `Int64` digit count and sign, as the standard library prints
    /// them (jansson's writer queues the digits it writes itself).
    @Test func integersOfEveryLengthAreWrittenAsTheStandardLibraryPrintsThem() throws {
        var values: [Int64] = [0, -1, .min, .max, .min + 1]
        var power: Int64 = 1
        for _ in 0..<18 {
            power *= 10
            values += [power, power - 1, -power, -(power - 1)]
        }
        let written = try self.written(.array(values.map { .number(JSONNumber($0)) }))
        #expect(written == "[" + values.map(String.init).joined(separator: ",") + "]")
    }

    @Test func nonFiniteNumbersThrowUnlessAPolicySaysOtherwise() throws {
        let value: JSONValue = ["x": .number(JSONNumber(Double.nan))]
        let error = try #require(throws: CartographError.self) { try written(value) }
        #expect(error.kind == .nonFiniteNumber)
        #expect(error.path == "$.x")
        // Deep inside, the path is still whole (it is built only for the error).
        let deep: JSONValue = ["a": [1, ["b": [.number(JSONNumber(Double.infinity))]]]]
        #expect(try #require(throws: CartographError.self) { try written(deep) }.path == "$.a[1].b[0]")
        let strings = WriteOptions { $0.nonConformingFloats = .strings(positiveInfinity: "+Inf", negativeInfinity: "-Inf", nan: "NaN") }
        #expect(
            try written([.number(JSONNumber(Double.infinity)), .number(JSONNumber(-Double.infinity)), .number(JSONNumber(Double.nan))], strings)
                == #"["+Inf","-Inf","NaN"]"#)
        #expect(try written([.number(JSONNumber(Double.nan))], WriteOptions { $0.nonConformingFloats = .null }) == "[null]")
    }

    /// A value that fails to write (a NaN, or nesting past the limit) is
    /// reported at the same path by jansson's writer, which adds each step
    /// as the error passes its container, and by the native writer, which
    /// hands the path down: at the root, deep in arrays and objects, under
    /// keys that need quoting in a path, with keys sorted, and after
    /// members written before it.
    @Test func bothWritersReportAFailureAtTheSamePath() throws {
        let nan = JSONValue.number(JSONNumber(Double.nan))
        var generator = SeededGenerator(seed: 0x9A7_4)
        let keys = ["a", "b.c", "with space", "quote\"", "é", "0", "", "[1]"]
        func randomValue(_ depth: Int) -> JSONValue {
            if depth == 0 || Int.random(in: 0..<4, using: &generator) == 0 {
                return [JSONValue.number(JSONNumber(1)), "s", true, nil][Int.random(in: 0..<4, using: &generator)]
            }
            if Bool.random(using: &generator) {
                return .array((0..<Int.random(in: 1...4, using: &generator)).map { _ in randomValue(depth - 1) })
            }
            var object = JSONObject()
            for _ in 0..<Int.random(in: 1...4, using: &generator) { object[keys.randomElement(using: &generator)!] = randomValue(depth - 1) }
            return .object(object)
        }
        /// `value` with its first scalar reached by always taking the last child replaced by `nan`.
        func poisoned(_ value: JSONValue) -> JSONValue {
            switch value {
            case .array(var elements):
                elements[elements.count - 1] = poisoned(elements[elements.count - 1])
                return .array(elements)
            case .object(var object):
                let key = object.members[object.count - 1].key
                object[key] = poisoned(object.members[object.count - 1].value)
                return .object(object)
            default: return nan
            }
        }
        var compared = 0
        for round in 0..<300 {
            let value = round == 0 ? nan : poisoned(randomValue(6))
            for sorted in [false, true] {
                let jansson = WriteOptions { $0.sortedKeys = sorted }
                let native = WriteOptions {
                    $0.sortedKeys = sorted
                    $0.formatting = .prettyLikeFoundation
                }
                let ours = try #require(throws: CartographError.self) { try value.encoded(options: jansson) }
                let theirs = try #require(throws: CartographError.self) { try value.encoded(options: native) }
                #expect(ours.kind == .nonFiniteNumber)
                #expect(ours.path == theirs.path, "\(value)")
                compared += 1
            }
        }
        #expect(compared == 600)
        // Nesting past the limit: reported at the container one level too deep.
        var deep: JSONValue = ["leaf": 1]
        for level in 0..<6 { deep = level % 2 == 0 ? [1, deep] : ["k.\(level)": deep] }
        let limited = WriteOptions { $0.maxDepth = 4 }
        let ours = try #require(throws: CartographError.self) { try deep.encoded(options: limited) }
        let theirs = try #require(throws: CartographError.self) {
            try deep.encoded(
                options: WriteOptions {
                    $0.maxDepth = 4
                    $0.formatting = .prettyLikeFoundation
                })
        }
        #expect(ours.kind == .depthLimitExceeded)
        #expect(ours.path == theirs.path)
        #expect(ours.path == #"$["k.5"][1]["k.3"][1]"#)
    }

    /// A `Document` written with a lower `maxDepth` than it nests is
    /// reported where the native path would be: the same path as the same
    /// value written as a `JSONValue`.
    @Test func aDocumentTooDeepForTheWriterIsReportedAtItsPath() throws {
        let text = #"{"a": [1, {"b.c": [[{"d": [true]}]]}], "z": 0}"#
        let limited = WriteOptions { $0.maxDepth = 5 }
        let document = try #require(throws: CartographError.self) { try Document(parsing: text).encoded(options: limited) }
        let value = try #require(throws: CartographError.self) { try JSONValue(parsing: text).encoded(options: limited) }
        #expect(document.kind == .depthLimitExceeded)
        #expect(document.path == #"$.a[1]["b.c"][0][0]"#)
        #expect(document.path == value.path)
        #expect(try Document(parsing: text).encoded(options: WriteOptions { $0.maxDepth = 7 }).count > 0)
    }

    @Test func keyOrderIsKeptAndSortingIsByCodePoint() throws {
        let value: JSONValue = ["b": 1, "a": 2, "é": 3, "Z": 4]
        #expect(try written(value) == #"{"b":1,"a":2,"é":3,"Z":4}"#)
        #expect(try written(value, WriteOptions { $0.sortedKeys = true }) == #"{"Z":4,"a":2,"b":1,"é":3}"#)
        let document = try Document(parsing: #"{"b": 1.5, "a": [2.5, {"d": 0.1, "c": 1e2}]}"#)
        #expect(
            String(decoding: try document.encoded(options: WriteOptions { $0.sortedKeys = true }), as: UTF8.self)
                == #"{"a":[2.5,{"c":1e2,"d":0.1}],"b":1.5}"#)
    }

    @Test func escapingOptions() throws {
        let value: JSONValue = ["path": "a/b", "text": "é😀\u{0}\"\\\n"]
        #expect(try written(value) == "{\"path\":\"a/b\",\"text\":\"é😀\\u0000\\\"\\\\\\n\"}")
        #expect(
            try written(
                value,
                WriteOptions {
                    $0.escapeSlashes = true; $0.asciiOnly = true
                }) == "{\"path\":\"a\\/b\",\"text\":\"\\u00e9\\ud83d\\ude00\\u0000\\\"\\\\\\n\"}")
    }

    /// A key (jansson escapes it) and a string value (Cartograph's escaper
    /// writes it, queued behind a placeholder) with the same text come out
    /// the same, from a value and from a document's tape, under each option.
    @Test func keysAndStringValuesEscapeAlike() throws {
        let text = "a/b\u{1}\u{1F}é\"\\\t😀"
        let expected = [
            (WriteOptions(), #""a/b\u0001\u001fé\"\\\t😀""#),
            (WriteOptions { $0.escapeSlashes = true }, #""a\/b\u0001\u001fé\"\\\t😀""#),
            (WriteOptions { $0.asciiOnly = true }, #""a/b\u0001\u001f\u00e9\"\\\t\ud83d\ude00""#)
        ]
        let value: JSONValue = [text: .string(text)]
        for (options, quoted) in expected {
            let written = try self.written(value, options)
            #expect(written == "{" + quoted + ":" + quoted + "}")
            #expect(String(decoding: try Document(parsing: written).encoded(options: options), as: UTF8.self) == written)
        }
    }

    @Test func numberPlaceholdersAreNotConfusedByStringsThatLookLikeThem() throws {
        let value: JSONValue = ["0.0": "0.0", "n": 0.5, "list": ["0.0", 0.0, 2.5, "\"", "x\"0.0"]]
        let text = try written(value)
        #expect(text == #"{"0.0":"0.0","n":0.5,"list":["0.0",0,2.5,"\"","x\"0.0"]}"#)
        #expect(try JSONValue(parsing: text) == value)
        // Numbers and nulls both stand behind jansson's null: strings, keys
        // and escapes spelling `null` stay as they are.
        let nulls: JSONValue = ["null": "null", "a": nil, "b": [nil, "null", 1, nil, "\"null", "null\"", 12_345_678_901_234], "null\u{e9}": [:]]
        let nullText = try written(nulls)
        #expect(nullText == #"{"null":"null","a":null,"b":[null,"null",1,null,"\"null","null\"",12345678901234],"null\#u{e9}":{}}"#)
        #expect(try written(nulls, WriteOptions { $0.asciiOnly = true }) == nullText.replacingOccurrences(of: "\u{e9}", with: "\\u00e9"))
        #expect(try written(nil) == "null" && written(7) == "7" && written(-0.0) == "-0")
    }

    /// jansson (building its DOM, numbers and nulls queued behind its null)
    /// and the native writer write the same bytes for the same value, under
    /// every option both apply to.
    @Test(arguments: 0..<120)
    func janssonAndTheNativeWriterAgree(_ seed: Int) throws {
        var generator = SeededGenerator(seed: UInt64(seed) &+ 7_000)
        let value = RoundTripTests.randomValue(&generator)
        for options in Self.sharedOptions {
            var native = NativeJSONWriter(options: options)
            try native.write(value)
            let jansson = try JanssonWriter(options: options).write(value)
            #expect(jansson == native.output, "seed \(seed)")
            let document = try Document(parsing: jansson)
            #expect(try document.encoded(options: options) == jansson, "seed \(seed), from the tape")
        }
    }

    @Test(arguments: ["twitter.json", "canada.json"])
    func janssonAndTheNativeWriterAgreeOnTheCorpus(_ name: String) throws {
        let value = try JSONValue(parsing: try Fixtures.bytes(name))
        for options in Self.sharedOptions {
            var native = NativeJSONWriter(options: options)
            try native.write(value)
            #expect(try JanssonWriter(options: options).write(value) == native.output, "\(name)")
        }
    }

    static let sharedOptions: [WriteOptions] = [
        WriteOptions(), .pretty,
        WriteOptions {
            $0.formatting = .pretty(indent: 3); $0.sortedKeys = true
        },
        WriteOptions {
            $0.asciiOnly = true; $0.escapeSlashes = true; $0.sortedKeys = true
        }
    ]

    @Test func prettyOutputIndents() throws {
        let value: JSONValue = ["a": [1, 2], "b": [:], "c": []]
        #expect(try written(value, .pretty) == "{\n  \"a\": [\n    1,\n    2\n  ],\n  \"b\": {},\n  \"c\": []\n}\n")
    }

    @Test func nulInKeysIsWritten() throws {
        let value: JSONValue = ["a\u{0}b": "x"]
        #expect(try written(value) == "{\"a\\u0000b\":\"x\"}")
        #expect(try JSONValue(parsing: try written(value)) == value)
    }

    @Test func compactLinesMatchTheJanssonWriter() throws {
        let document = try Document(parsing: try Fixtures.bytes("twitter.json"))
        #expect(document.compactLine() == (try document.encoded()))
        var generator = SeededGenerator(seed: 21)
        for _ in 0..<50 {
            let value = RoundTripTests.randomValue(&generator)
            let parsed = try Document(parsing: try value.encoded())
            #expect(parsed.compactLine() == (try parsed.encoded()))
        }
    }
}
