import Foundation
import Testing

@testable import Cartograph

/// A struct's scalar properties are streamed straight from its memory
/// (``ScalarValue/writeStored(_:at:optional:into:depth:)``), a class's
/// through its rules' closures. Both must write what the tree writes, for
/// every built-in scalar, set and nil, under every write option.
@Suite struct StoredScalarStreamTests {
    struct Everything: Mappable {
        var text = "Grüße \u{1F30D} \"q\" / \\ \u{7}"
        var flag = true
        var int = -42
        var int8: Int8 = -8
        var int16: Int16 = 16
        var int32: Int32 = -32
        var int64 = Int64.min
        var uint: UInt = 7
        var uint8: UInt8 = 255
        var uint16: UInt16 = 65_535
        var uint32 = UInt32.max
        var uint64 = UInt64.max
        var double = 0.1
        var float: Float = 0.3
        var decimal = Decimal(string: "12345678901234567890.123")!
        var json: JSONValue = ["a": [1, [2, [3]]], "b": nil]
        var date = Date(timeIntervalSince1970: 1_700_000_000.5)
        var url = URL(string: "https://example.com/a?b=c")!
        var uuid = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!
        var data = Data([0, 1, 2, 250])
        var maybeText: String?
        var maybeInt: Int? = 3
        var maybeDouble: Double?
        var maybeDate: Date? = Date(timeIntervalSince1970: 0)
        var maybeJSON: JSONValue?

        static let mapping = Mapping<Everything>({ Everything() }) {
            Map(\.text, "text")
            Map(\.flag, "flag")
            Map(\.int, "int")
            Map(\.int8, "int8")
            Map(\.int16, "int16")
            Map(\.int32, "int32")
            Map(\.int64, "int64")
            Map(\.uint, "uint")
            Map(\.uint8, "uint8")
            Map(\.uint16, "uint16")
            Map(\.uint32, "uint32")
            Map(\.uint64, "uint64")
            Map(\.double, "double")
            Map(\.float, "float")
            Map(\.decimal, "decimal")
            Map(\.json, "json")
            Map(\.date, "date")
            Map(\.url, "url")
            Map(\.uuid, "uuid")
            Map(\.data, "data")
            Map(\.maybeText, "maybe_text")
            Map(\.maybeInt, "maybe_int")
            Map(\.maybeDouble, "maybe_double")
            Map(\.maybeDate, "maybe_date")
            Map(\.maybeJSON, "maybe_json")
        }
    }

    /// The same properties on a non-final class: its rules run their closures.
    class Boxed {
        var inner = Everything()
        static let mapping = Mapping<Boxed>({ Boxed() }) {
            Map(\.inner.text, "text")
            Map(\.inner.flag, "flag")
            Map(\.inner.int, "int")
            Map(\.inner.int8, "int8")
            Map(\.inner.int16, "int16")
            Map(\.inner.int32, "int32")
            Map(\.inner.int64, "int64")
            Map(\.inner.uint, "uint")
            Map(\.inner.uint8, "uint8")
            Map(\.inner.uint16, "uint16")
            Map(\.inner.uint32, "uint32")
            Map(\.inner.uint64, "uint64")
            Map(\.inner.double, "double")
            Map(\.inner.float, "float")
            Map(\.inner.decimal, "decimal")
            Map(\.inner.json, "json")
            Map(\.inner.date, "date")
            Map(\.inner.url, "url")
            Map(\.inner.uuid, "uuid")
            Map(\.inner.data, "data")
            Map(\.inner.maybeText, "maybe_text")
            Map(\.inner.maybeInt, "maybe_int")
            Map(\.inner.maybeDouble, "maybe_double")
            Map(\.inner.maybeDate, "maybe_date")
            Map(\.inner.maybeJSON, "maybe_json")
        }
    }

    static let options: [WriteOptions] = [
        WriteOptions(), WriteOptions { $0.sortedKeys = true }, .pretty,
        WriteOptions {
            $0.asciiOnly = true; $0.escapeSlashes = true
        },
        WriteOptions { $0.formatting = .prettyLikeFoundation }
    ]

    static func mapper(_ options: WriteOptions, nulls: Bool) -> JSONMapper {
        var registry = ModelRegistry(options: MappingOptions { if nulls { $0.nilEncoding = .null } })
        registry.register(Everything.self)
        registry.register(Boxed.mapping)
        return JSONMapper(registry: registry, writeOptions: options)
    }

    static func samples() -> [Everything] {
        var set = Everything()
        set.maybeText = "here"
        set.maybeDouble = -1.5e300
        set.maybeJSON = [true, nil, "x"]
        set.maybeInt = nil
        return [Everything(), set]
    }

    @Test(arguments: 0..<options.count)
    func structsStreamWhatTheTreeAndTheClassRulesWrite(_ index: Int) throws {
        for nulls in [false, true] {
            let mapper = Self.mapper(Self.options[index], nulls: nulls)
            for sample in Self.samples() {
                let streamed = try mapper.encode(sample)
                #expect(streamed == (try mapper.encodeValue(sample).encoded(options: Self.options[index])), "option set \(index)")
                let boxed = Boxed()
                boxed.inner = sample
                #expect(streamed == (try mapper.encode(boxed)), "option set \(index)")
            }
            #expect(try mapper.encode(Self.samples()) == (try mapper.encodeValue(Self.samples()).encoded(options: Self.options[index])))
        }
    }

    /// Three stored scalars under keys of one length each, the first an
    /// optional (so that with nil left out the second member is the first
    /// written, with no comma before it).
    struct Keyed {
        var first: Int?
        var second = "two"
        var third = 3.5

        static func mapping(_ keys: [String]) -> Mapping<Keyed> {
            Mapping<Keyed>({ Keyed() }) {
                Map(\.first, .key(keys[0]))
                Map(\.second, .key(keys[1]))
                Map(\.third, .key(keys[2]))
            }
        }
    }

    /// A member's comma, key and colon are copied from framed key bytes in
    /// two 16-byte words up to 32 bytes, byte by byte past that: keys of
    /// every length around that bound (and keys the options escape, which
    /// are not framed) stream what the tree writes, first member or not.
    @Test(arguments: [1, 2, 13, 14, 15, 16, 27, 28, 29, 30, 31, 32, 45, 80])
    func keysOfEveryLengthStreamWhatTheTreeWrites(_ length: Int) throws {
        let plain = String(repeating: "k", count: length)
        let keySets = [
            [plain + "1", plain + "2", plain + "3"], ["a", plain, "b"], [plain, "é" + plain, "x/" + plain],
            [String(plain.prefix(length - 1)) + "\"", plain + "\u{1}", "z"]
        ]
        for keys in keySets {
            for options in Self.options {
                for nulls in [false, true] {
                    var registry = ModelRegistry(options: MappingOptions { if nulls { $0.nilEncoding = .null } })
                    registry.register(Keyed.mapping(keys))
                    let mapper = JSONMapper(registry: registry, writeOptions: options)
                    for sample in [Keyed(), Keyed(first: 1, second: "", third: -0.0)] {
                        let streamed = try mapper.encode(sample)
                        let tree = try mapper.encodeValue(sample).encoded(options: options)
                        #expect(streamed == tree, "\(keys) \(options) nulls: \(nulls)")
                        let read = try JSONSerialization.jsonObject(with: Data(streamed)) as? [String: Any]
                        #expect(read?.count == (sample.first == nil && !nulls ? 2 : 3) && read?[keys[1]] as? String == sample.second)
                    }
                }
            }
        }
    }

    @Test func nilsAreLeftOutOrWrittenAsNull() throws {
        let plain = String(decoding: try Self.mapper(WriteOptions(), nulls: false).encode(Everything()), as: UTF8.self)
        #expect(!plain.contains("maybe_text") && plain.contains(#""maybe_int":3"#) && plain.contains(#""maybe_date":"#))
        let nulls = String(decoding: try Self.mapper(WriteOptions(), nulls: true).encode(Everything()), as: UTF8.self)
        #expect(nulls.contains(#""maybe_text":null"#) && nulls.contains(#""maybe_json":null"#))
    }

    @Test func aNonFiniteDoubleOrADeepJSONValueFailsAsTheTreeDoes() throws {
        var broken = Everything()
        broken.maybeDouble = .infinity
        let mapper = Self.mapper(WriteOptions(), nulls: false)
        let error = try #require(throws: CartographError.self) { try mapper.encode(broken) }
        #expect(error.kind == .nonFiniteNumber && error.path == "$.maybe_double", "\(error)")
        // A JSONValue property's own nesting counts toward the writer's depth.
        let shallow = JSONMapper(registry: mapper.registry, writeOptions: WriteOptions { $0.maxDepth = 3 })
        let deep = try #require(throws: CartographError.self) { try shallow.encode(Everything()) }
        #expect(deep.kind == .depthLimitExceeded, "\(deep)")
        var flat = Everything()
        flat.json = [1, 2]
        #expect(throws: Never.self) { try shallow.encode(flat) }
    }
}
