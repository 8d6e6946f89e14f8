import Foundation
import Testing

@testable import Cartograph

/// Seeded random plists of every type, written by Foundation and read by
/// both of Cartograph's readers (and libplist's), then written back by
/// Cartograph's writers and read by Foundation: every value must arrive
/// with its type and value.
@Suite struct PlistDifferentialTests {
    /// A generated value, with the types a plist has.
    indirect enum Value {
        case dict([(String, Value)]), array([Value]), string(String), int(Int64), uint(UInt64), real(Double), bool(Bool), date(Date), data(Data)

        /// What Foundation's writer takes.
        var foundation: Any {
            switch self {
            case .dict(let members): return Dictionary(members.map { ($0.0, $0.1.foundation) }, uniquingKeysWith: { $1 })
            case .array(let elements): return elements.map(\.foundation)
            case .string(let text): return text
            case .int(let value): return value
            case .uint(let value): return value
            case .real(let value): return value
            case .bool(let value): return value
            case .date(let value): return value
            case .data(let value): return value
            }
        }
    }

    static let texts = ["", "plain", "a <b> & \"c\" 'd'", "line\nbreak\r\nand\ttab", "édition ✓", "日本語のテキスト", "emoji 😀👍🏽", "]]>", "&amp;", " spaced "]

    static func value(_ generator: inout SeededGenerator, depth: Int) -> Value {
        let pick = Int.random(in: 0..<(depth >= 4 ? 7 : 9), using: &generator)
        switch pick {
        case 0: return .string(texts.randomElement(using: &generator)! + String(Int.random(in: 0..<1000, using: &generator)))
        case 1:
            let choices: [Int64] = [
                0, 1, -1, 255, 256, 65_535, 65_536, Int64(UInt32.max), Int64(UInt32.max) + 1, .max, .min,
                Int64.random(in: .min ... .max, using: &generator)
            ]
            return .int(choices.randomElement(using: &generator)!)
        case 2: return .uint(UInt64.random(in: UInt64(Int64.max) + 1 ... .max, using: &generator))
        case 3:
            // Not -0.0: Foundation's XML writer drops its sign (see the test below).
            let choices: [Double] = [0, 0.1, -1.5, 1e300, .leastNonzeroMagnitude, .pi, Double(Int.random(in: -1000...1000, using: &generator)) / 7]
            return .real(choices.randomElement(using: &generator)!)
        case 4: return .bool(Bool.random(using: &generator))
        // Whole seconds (what XML holds), inside the years libplist 2.2 can read.
        case 5: return .date(Date(timeIntervalSince1970: Double(Int.random(in: -600_000_000...2_800_000_000, using: &generator))))
        case 6: return .data(Data((0..<Int.random(in: 0...40, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }))
        case 7:
            let count = Int.random(in: 0...5, using: &generator)
            return .array((0..<count).map { _ in value(&generator, depth: depth + 1) })
        default:
            let count = Int.random(in: 0...5, using: &generator)
            var keys = Set<String>()
            while keys.count < count { keys.insert(texts.randomElement(using: &generator)! + String(Int.random(in: 0..<50, using: &generator))) }
            return .dict(keys.sorted().map { ($0, value(&generator, depth: depth + 1)) })
        }
    }

    /// Whether Cartograph's node holds the value, type included.
    static func matches(_ node: Node, _ expected: Value) -> Bool {
        switch expected {
        case .dict(let members):
            guard let object = try? node.object(), object.count == members.count else { return false }
            return members.allSatisfy { key, value in object[key].map { matches($0, value) } ?? false }
        case .array(let elements):
            guard let array = try? node.array(), array.count == elements.count else { return false }
            return zip(array, elements).allSatisfy { matches($0, $1) }
        case .string(let text): return !node.isDate && !node.isData && (try? node.string()) == text
        case .int(let value): return node.kind == .number && (try? node.int64()) == value
        case .uint(let value): return node.kind == .number && (try? node.uint64()) == value
        case .real(let value): return node.kind == .number && (try? node.double())?.bitPattern == value.bitPattern
        case .bool(let value): return (try? node.bool()) == value
        case .date(let value): return node.isDate && (try? node.date()) == value
        case .data(let value): return node.isData && (try? node.data()) == value
        }
    }

    /// Whether Foundation's reading holds the value, type included.
    static func matches(_ any: Any, _ expected: Value) -> Bool {
        switch expected {
        case .dict(let members):
            guard let dict = any as? [String: Any], dict.count == members.count else { return false }
            return members.allSatisfy { key, value in dict[key].map { matches($0, value) } ?? false }
        case .array(let elements):
            guard let array = any as? [Any], array.count == elements.count else { return false }
            return zip(array, elements).allSatisfy { matches($0, $1) }
        case .string(let text): return any as? String == text
        // Foundation hands plist integers and reals out as NSNumber and
        // booleans as Bool (an NSNumber of 0 or 1 would also cast to Bool).
        case .int(let value): return type(of: any) != Bool.self && (any as? NSNumber)?.int64Value == value
        case .uint(let value): return type(of: any) != Bool.self && (any as? NSNumber)?.uint64Value == value
        case .real(let value): return type(of: any) != Bool.self && (any as? NSNumber)?.doubleValue.bitPattern == value.bitPattern
        case .bool(let value): return type(of: any) == Bool.self && any as? Bool == value
        case .date(let value): return any as? Date == value
        case .data(let value): return any as? Data == value
        }
    }

    @Test(arguments: [PropertyListSerialization.PropertyListFormat.binary, .xml])
    func foundationsPlistsReadExactlyAndCartographsReadBackInFoundation(_ format: PropertyListSerialization.PropertyListFormat) throws {
        var generator = SeededGenerator(seed: format == .binary ? 11 : 12)
        let readers = [PropertyListMapper(), PropertyListMapper(options: PropertyListOptions { $0.reader = .libplist })]
        for round in 0..<80 {
            // A dict or an array at the root, as Foundation requires of XML.
            var root = Self.value(&generator, depth: 0)
            if case .dict = root {} else if case .array = root {} else { root = .array([root]) }
            let bytes = try PropertyListSerialization.data(fromPropertyList: root.foundation, format: format, options: 0)
            for reader in readers {
                let document = try reader.document(from: bytes)
                #expect(Self.matches(document.root, root), "round \(round), \(reader.options.reader) reading Foundation's \(format)")
            }
            let document = try readers[0].document(from: bytes)
            for output in PropertyListFormat.allCases {
                let written = try readers[0].encode(document, format: output)
                let back = try PropertyListSerialization.propertyList(from: Data(written), format: nil)
                #expect(Self.matches(back, root), "round \(round), Cartograph's \(output) read by Foundation")
            }
        }
    }

    /// Negative zero keeps its sign through Cartograph's writers and readers
    /// (Foundation's XML writer writes it as `0.0`; its binary writer keeps it).
    @Test func negativeZeroKeepsItsSign() throws {
        let mapper = PropertyListMapper()
        let value: JSONValue = [.number(JSONNumber(-0.0))]
        for format in PropertyListFormat.allCases {
            let bytes = try mapper.encode(value, format: format)
            let element = try #require(try mapper.document(from: bytes).root.array()[0])
            #expect(try element.double().sign == .minus, "\(format)")
            let back = try PropertyListSerialization.propertyList(from: Data(bytes), format: nil) as? [NSNumber]
            #expect(back?.first?.doubleValue.sign == .minus, "\(format) read by Foundation")
        }
    }
}
