import Foundation
import Testing

@testable import Cartograph

/// Keys told by their bits (``KeyIdentity``): the streaming encoder finds
/// a one-byte enum key in its type's template by its tag, without asking
/// for its name. Whatever order, repeats, other key types or key strategy
/// an object brings, the bytes are the tree encoder's (and Foundation's
/// where it defines them).
@Suite struct KeyIdentityTests {
    /// Twenty keys whose names every escaping option writes differently.
    enum Letter: String, CodingKey, CaseIterable {
        case id, name, slash = "a/b", quote = "q\"uote", accent = "caf\u{E9}", emoji = "\u{1F600}", tab = "tab\t"
        case userName, createdAt, x, y, z, longKeyNameThatIsLongerThanSixteenBytes, empty = "", k14, k15, k16, k17, k18, k19
    }

    /// Writes its letters in order, each with its position as the value.
    struct Scripted: Encodable {
        var letters: [Letter]
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Letter.self)
            for (position, letter) in letters.enumerated() { try container.encode(position, forKey: letter) }
        }
    }

    /// Compact options (the identity path is the compact writer's) and one pretty one.
    static let options: [WriteOptions] = [
        WriteOptions(),
        WriteOptions { $0.escapeSlashes = true },
        WriteOptions { $0.asciiOnly = true },
        WriteOptions { $0.formatting = .pretty(indent: 2) }
    ]

    @Test(arguments: 0..<options.count)
    func scriptedEnumKeysAreWrittenAsTheTreeWritesThem(_ option: Int) throws {
        let mapper = JSONMapper(writeOptions: Self.options[option])
        var generator = SeededGenerator(seed: UInt64(0x1D_E7 + option))
        let names = Letter.allCases.map(\.rawValue)
        for size in [2, 5, 12, 20] {
            let base = Array(names.prefix(size))
            for rates in [(0, 0, 0, 0), (20, 0, 0, 0), (10, 20, 5, 0), (5, 30, 10, 0), (60, 0, 0, 0)] {
                let elements = (0..<12).map { _ in
                    let script = StreamKeyTemplateTests.script(
                        base, omit: rates.0, swap: rates.1, repeatKey: rates.2, newKey: rates.3, using: &generator)
                    return Scripted(letters: script.map { Letter(stringValue: $0)! })
                }
                // A key written twice in an object gives the value to the tree; any other script streams.
                if elements.allSatisfy({ Set($0.letters).count == $0.letters.count }) {
                    try StreamingEncoderTests.expectStreamed(elements, mapper, "size \(size) rates \(rates)")
                } else {
                    try StreamKeyTemplateTests.expectAsTheTree(elements, mapper, "size \(size) rates \(rates)")
                }
            }
        }
    }

    enum First: String, CodingKey { case alpha, beta, gamma }
    enum Second: String, CodingKey { case one, two, three }

    /// Two keyed containers of different key types write into one object:
    /// the second's keys have the tags of the first's, and must be written
    /// by their own names, in the first object and in those after it.
    struct TwoKeyTypes: Encodable {
        var order: Int
        func encode(to encoder: any Encoder) throws {
            var first = encoder.container(keyedBy: First.self)
            var second = encoder.container(keyedBy: Second.self)
            switch order % 3 {
            case 0:
                try first.encode(1, forKey: .alpha)
                try second.encode(2, forKey: .two)
                try first.encode(3, forKey: .gamma)
            case 1:
                try second.encode(1, forKey: .one)
                try second.encode(2, forKey: .two)
                try first.encode(3, forKey: .gamma)
            default:
                try first.encode(1, forKey: .alpha)
                try first.encode(2, forKey: .beta)
                try second.encode(3, forKey: .three)
            }
        }
    }

    @Test func twoKeyTypesInOneObjectKeepTheirOwnNames() throws {
        for option in Self.options {
            let mapper = JSONMapper(writeOptions: option)
            let values = (0..<9).map { TwoKeyTypes(order: $0) }
            try StreamingEncoderTests.expectStreamed(values, mapper)
            let text = String(decoding: try mapper.encode(values), as: UTF8.self)
            if option.formatting == .compact {
                #expect(text.hasPrefix(#"[{"alpha":1,"two":2,"gamma":3},{"one":1,"two":2,"gamma":3},{"alpha":1,"beta":2,"three":3}"#))
            }
        }
    }

    /// A key enum with a payload: `.on(true)`, `.on(false)` and `.off`
    /// are one byte each, and each its own name.
    enum Flag: CodingKey {
        case on(Bool), off
        var stringValue: String {
            switch self {
            case .on(let value): return "on-\(value)"
            case .off: return "off"
            }
        }
        init?(stringValue: String) { nil }
        var intValue: Int? { nil }
        init?(intValue: Int) { nil }
    }

    struct Flags: Encodable {
        var keys: [Flag]
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Flag.self)
            for (position, key) in keys.enumerated() { try container.encode(position, forKey: key) }
        }
    }

    @Test func keysWithPayloadsAreToldApartByTheirBits() throws {
        #expect(KeyIdentity.width(of: Flag.self) == (LayoutAssumptions.enabled ? 1 : nil))
        let mapper = JSONMapper()
        let values = [
            Flags(keys: [.on(true), .off, .on(false)]), Flags(keys: [.on(false), .off, .on(true)]),
            Flags(keys: [.on(true), .on(false), .off]), Flags(keys: [.off, .on(true), .on(false)])
        ]
        try StreamingEncoderTests.expectStreamed(values, mapper)
        #expect(
            String(decoding: try mapper.encode(values), as: UTF8.self)
                == #"[{"on-true":0,"off":1,"on-false":2},{"on-false":0,"off":1,"on-true":2},"#
                + #"{"on-true":0,"on-false":1,"off":2},{"off":0,"on-true":1,"on-false":2}]"#)
    }

    enum Only: String, CodingKey { case only }

    struct Single: Encodable {
        var value: Int
        var twice: Bool
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Only.self)
            try container.encode(value, forKey: .only)
            // A second write of the one key: the tree keeps the last value in the first place.
            if twice { try container.encode(value + 100, forKey: .only) }
        }
    }

    @Test func aSingleCaseKeyHasNoBitsAndIsStillOneKey() throws {
        #expect(KeyIdentity.width(of: Only.self) == (LayoutAssumptions.enabled ? 0 : nil))
        let once = [Single(value: 1, twice: false), Single(value: 2, twice: false), Single(value: 3, twice: false)]
        try StreamingEncoderTests.expectStreamed(once, JSONMapper())
        let values = [Single(value: 1, twice: false), Single(value: 2, twice: true), Single(value: 3, twice: false)]
        try StreamKeyTemplateTests.expectAsTheTree(values, JSONMapper(), "a key written twice")
        #expect(String(decoding: try JSONMapper().encode(values), as: UTF8.self) == #"[{"only":1},{"only":102},{"only":3}]"#)
    }

    struct OneByte: CodingKey {
        let byte: UInt8
        var stringValue: String { "b\(byte)" }
        init?(stringValue: String) { nil }
        var intValue: Int? { nil }
        init?(intValue: Int) { nil }
    }

    @Test func onlyEnumsOfOneByteOrNoneHaveAnIdentity() {
        let enabled = LayoutAssumptions.enabled
        #expect(KeyIdentity.width(of: Letter.self) == (enabled ? 1 : nil))
        #expect(KeyIdentity.width(of: OneByte.self) == nil)
        #expect(KeyIdentity.width(of: StringKey.self) == nil)
        #expect(KeyIdentity.width(of: IndexKey.self) == nil)
        #expect(KeyIdentity.width(of: Letter?.self) == nil)
        if enabled {
            for letter in Letter.allCases {
                #expect(KeyIdentity.of(letter, width: 1) == Letter.allCases.firstIndex(of: letter))
            }
        }
    }

    /// Synthesized keys under the snake_case strategy: the template keeps
    /// the converted names, found again by the keys' bits.
    struct Person: Codable, Equatable {
        var userName: String
        var createdAt: Int
        var homePage: String?
        var isAdmin: Bool
    }

    @Test func convertedKeysAreFoundByIdentityAndReadBackByFoundation() throws {
        let mapper = JSONMapper(options: CodableOptions { $0.keys = .snakeCase })
        let people = (0..<6).map { Person(userName: "u\($0)", createdAt: $0, homePage: $0 % 2 == 0 ? nil : "h\($0)", isAdmin: $0 % 3 == 0) }
        for _ in 0..<3 {
            try StreamingEncoderTests.expectStreamed(people, mapper)
            let bytes = try mapper.encode(people)
            let decoder = JSONDecoder()
            decoder.keyDecodingStrategy = .convertFromSnakeCase
            #expect(try decoder.decode([Person].self, from: Data(bytes)) == people)
            #expect(String(decoding: bytes, as: UTF8.self).hasPrefix(#"[{"user_name":"u0","created_at":0,"is_admin":true},"#))
        }
    }
}
