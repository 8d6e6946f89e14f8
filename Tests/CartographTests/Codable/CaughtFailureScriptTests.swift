import Foundation
import Testing

@testable import Cartograph

/// What an encoder writes when a model's `encode(to:)` catches an error
/// (`try?`) and goes on: Foundation's rules, which its
/// `sharedSubEncoderStaleState…` regression tests pin for one shape. A
/// member or element given as a value (`encode(_:forKey:)`) that throws
/// leaves nothing; a nested container is in its parent from the moment it
/// is opened, so one that a failure leaves half-written stays, with what
/// was written into it. Whatever comes after a caught failure (a nil, a
/// scalar, a container, another failure) is written as if the failure had
/// never happened.
///
/// Seeded random scripts (objects, arrays and dictionaries, nested as
/// values or as containers, failures at every depth, some caught and some
/// not) run through the streaming encoder, the tree encoder (sorted keys),
/// `JSONMapper` and an encoder reused for every script, and each output is
/// compared with what those rules say the script writes (``Script/expected``),
/// which is held to Foundation's own encode of the script with what the
/// rules drop left out (``Script/cleaned``: a script that does not fail,
/// which Foundation's encoder writes without the bug its tests pin). The
/// property-list encoder is held to the same rules in both formats.
/// The spare encoders and kept containers the stream reuses after a caught
/// error are where a stale state would show.
@Suite struct CaughtFailureScriptTests {
    struct Failure: Error {}

    struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ name: String) { stringValue = name }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// How a member or element is written.
    enum Way {
        /// Through `encode(_:forKey:)` (or `encode(_:)`): the value's own `encode(to:)`.
        case value
        /// Through `nestedContainer` / `nestedUnkeyedContainer`, written into directly.
        case container
    }

    struct Member {
        var key: String
        var value: Script
        var way: Way
        /// Written under `try?`.
        var caught: Bool
    }

    /// A value and how its `encode(to:)` goes.
    indirect enum Script: Encodable {
        case int(Int)
        case text(String)
        case null
        case object([Member])
        /// Elements: members whose keys are not used.
        case array([Member])
        case dictionary([String: Script])
        /// Writes the script it holds (if any), then throws.
        case fails(Script?)

        func encode(to encoder: any Encoder) throws {
            switch self {
            case .int(let value):
                var container = encoder.singleValueContainer()
                try container.encode(value)
            case .text(let value):
                var container = encoder.singleValueContainer()
                try container.encode(value)
            case .null:
                var container = encoder.singleValueContainer()
                try container.encodeNil()
            case .object(let members):
                var container = encoder.container(keyedBy: Key.self)
                try Self.write(members, into: &container)
            case .array(let elements):
                var container = encoder.unkeyedContainer()
                try Self.write(elements, into: &container)
            case .dictionary(let dictionary):
                var container = encoder.singleValueContainer()
                try container.encode(dictionary)
            case .fails(let partial):
                try partial?.encode(to: encoder)
                throw Failure()
            }
        }

        static func write(_ members: [Member], into container: inout KeyedEncodingContainer<Key>) throws {
            for member in members {
                let body = { (container: inout KeyedEncodingContainer<Key>) throws in
                    let key = Key(member.key)
                    switch (member.way, member.value) {
                    case (.container, .object(let members)):
                        var nested = container.nestedContainer(keyedBy: Key.self, forKey: key)
                        try Self.write(members, into: &nested)
                    case (.container, .array(let elements)):
                        var nested = container.nestedUnkeyedContainer(forKey: key)
                        try Self.write(elements, into: &nested)
                    default:
                        try container.encode(member.value, forKey: key)
                    }
                }
                if member.caught { try? body(&container) } else { try body(&container) }
            }
        }

        static func write(_ elements: [Member], into container: inout any UnkeyedEncodingContainer) throws {
            for element in elements {
                let body = { (container: inout any UnkeyedEncodingContainer) throws in
                    switch (element.way, element.value) {
                    case (.container, .object(let members)):
                        var nested = container.nestedContainer(keyedBy: Key.self)
                        try Self.write(members, into: &nested)
                    case (.container, .array(let elements)):
                        var nested = container.nestedUnkeyedContainer()
                        try Self.write(elements, into: &nested)
                    default:
                        try container.encode(element.value)
                    }
                }
                if element.caught { try? body(&container) } else { try body(&container) }
            }
        }

        // MARK: What the rules say

        /// What the script writes, or nil if its encode throws.
        var expected: JSONValue? { cleaned?.value }

        /// What a script that does not fail (a cleaned one) writes.
        private var value: JSONValue {
            switch self {
            case .int(let value): return .number(JSONNumber(Int64(value)))
            case .text(let value): return .string(value)
            case .null: return .null
            case .object(let members): return .object(JSONObject(members.map { ($0.key, $0.value.value) }))
            case .array(let elements): return .array(elements.map(\.value.value))
            case .dictionary(let dictionary): return .object(JSONObject(dictionary.map { ($0.key, $0.value.value) }))
            case .fails: preconditionFailure("a cleaned script does not fail")
            }
        }

        /// The script with what the rules drop dropped: failing values
        /// given as values left out, containers cut where an uncaught
        /// failure left them; nil if the script's encode throws. Encoding
        /// it writes what encoding the script must.
        var cleaned: Script? {
            switch self {
            case .int, .text, .null: return self
            case .object(let members):
                var kept: [Member] = []
                return Self.clean(members, into: &kept) ? .object(kept) : nil
            case .array(let elements):
                var kept: [Member] = []
                return Self.clean(elements, into: &kept) ? .array(kept) : nil
            case .dictionary(let dictionary):
                // `mapValues` keeps the dictionary's order, so both write their members alike.
                guard dictionary.values.allSatisfy({ $0.cleaned != nil }) else { return nil }
                return .dictionary(dictionary.mapValues { $0.cleaned! })
            case .fails:
                return nil
            }
        }

        /// Keeps of `members` what the encoders must write: a value that
        /// throws is left out, a container is kept from when it was opened,
        /// with what was written into it. False when an uncaught failure
        /// leaves (what was kept before it stays in `kept`).
        static func clean(_ members: [Member], into kept: inout [Member]) -> Bool {
            for member in members {
                switch (member.way, member.value) {
                case (.container, .object(let nested)), (.container, .array(let nested)):
                    var inner: [Member] = []
                    let finished = clean(nested, into: &inner)
                    let isObject = if case .object = member.value { true } else { false }
                    kept.append(Member(key: member.key, value: isObject ? .object(inner) : .array(inner), way: .container, caught: false))
                    if !finished, !member.caught { return false }
                default:
                    if let value = member.value.cleaned {
                        kept.append(Member(key: member.key, value: value, way: member.way, caught: false))
                    } else if !member.caught {
                        return false
                    }
                }
            }
            return true
        }

        /// Whether anything in the script fails.
        var fails: Bool {
            switch self {
            case .int, .text, .null: return false
            case .fails: return true
            case .object(let members), .array(let members): return members.contains { $0.value.fails }
            case .dictionary(let dictionary): return dictionary.values.contains { $0.fails }
            }
        }
    }

    // MARK: Random scripts

    static let keys = ["id", "name", "items", "é\"/\u{1}", "nil", "tail", "a", "b"]

    static func script(_ generator: inout SeededGenerator, depth: Int) -> Script {
        let roll = Int.random(in: 0..<100, using: &generator)
        if depth >= 4 || roll < 30 {
            switch Int.random(in: 0..<4, using: &generator) {
            case 0: return .int(Int.random(in: -1000...1000, using: &generator))
            case 1: return .text("t\(Int.random(in: 0..<100, using: &generator))")
            case 2: return .null
            default: return .fails(nil)
            }
        }
        switch roll {
        case 30..<55: return .object(members(&generator, depth: depth, keyed: true))
        case 55..<78: return .array(members(&generator, depth: depth, keyed: false))
        case 78..<88:
            var dictionary: [String: Script] = [:]
            for index in 0..<Int.random(in: 0...3, using: &generator) {
                dictionary["d\(index)"] = script(&generator, depth: depth + 2)
            }
            return .dictionary(dictionary)
        default:
            // A failure after writing a container of its own.
            return .fails(
                Bool.random(using: &generator)
                    ? .object(members(&generator, depth: depth + 1, keyed: true)) : .array(members(&generator, depth: depth + 1, keyed: false)))
        }
    }

    static func members(_ generator: inout SeededGenerator, depth: Int, keyed: Bool) -> [Member] {
        var names = keys.shuffled(using: &generator)
        return (0..<Int.random(in: 0...5, using: &generator)).map { _ in
            let value = script(&generator, depth: depth + 1)
            return Member(
                key: keyed ? names.removeFirst() : "",
                value: value,
                way: Bool.random(using: &generator) ? .container : .value,
                // Most failures are caught, so that the script goes on past them.
                caught: value.fails ? Int.random(in: 0..<10, using: &generator) < 8 : Bool.random(using: &generator))
        }
    }

    // MARK: Checks

    /// `bytes` (or the error) against what the rules say `script` writes,
    /// both written by `JSONValue`'s writer so that their order is compared.
    static func check(_ bytes: () throws -> [UInt8], _ script: Script, sorted: Bool, _ label: String) throws -> String? {
        let options = WriteOptions { $0.sortedKeys = sorted }
        let expected = try script.expected.map { try $0.encodedString(options: options) }
        let written: String?
        do {
            written = try JSONValue(parsing: try bytes()).encodedString(options: options)
        } catch is Failure {
            written = nil
        } catch EncodingError.invalidValue(_, let context) where context.underlyingError is Failure {
            written = nil
        }
        guard written != expected else { return nil }
        return "\(label): wrote \(written ?? "an error"), the rules say \(expected ?? "an error")"
    }

    /// The property-list encoder under the same rules, in both formats:
    /// the script's plist and its cleaned script's, each read by
    /// Foundation's `PropertyListSerialization`, hold the same values, as
    /// does Foundation's own encode of the cleaned script. (Scalars the
    /// binary writer wrote ahead for a value that then failed stay in the
    /// file unreferenced, so the bytes may differ; readers skip them.)
    @Test(arguments: 0..<4)
    func caughtFailuresLeaveTheSameInPropertyLists(_ batch: Int) throws {
        var generator = SeededGenerator(seed: UInt64(batch) &* 6007 &+ 17)
        var problems: [String] = []
        var failing = 0
        for format in [PropertyListSerialization.PropertyListFormat.binary, .xml] {
            let ours = CartographPropertyListEncoder()
            ours.outputFormat = format
            let foundation = PropertyListEncoder()
            foundation.outputFormat = format
            func read(_ data: Data) throws -> NSObject {
                try PropertyListSerialization.propertyList(from: data, format: nil) as! NSObject
            }
            for round in 0..<scriptRounds(default: 100) {
                let script: Script = .object(Self.members(&generator, depth: 0, keyed: true))
                if script.fails { failing += 1 }
                let label = "batch \(batch) round \(round) \(format == .xml ? "XML" : "binary")"
                let written = try? ours.encode(script)
                guard let cleaned = script.cleaned else {
                    if written != nil { problems.append("\(label): wrote a plist, the rules say an error") }
                    continue
                }
                guard let written else {
                    problems.append("\(label): threw, the rules say a plist")
                    continue
                }
                let clean = try ours.encode(cleaned)
                let expected = try read(clean)
                if try read(written) != expected { problems.append("\(label): \(try read(written)) against \(expected)") }
                let theirs = try foundation.encode(cleaned)
                if try read(theirs) != expected { problems.append("\(label): Foundation's own encode differs") }
                // XML is written in document order, with nothing ahead: the same bytes, Foundation's too.
                if format == .xml, written != clean || clean != theirs { problems.append("\(label): the XML bytes differ") }
            }
        }
        #expect(problems.isEmpty, "\(problems.prefix(4).joined(separator: "\n"))")
        #expect(failing > 50)
    }

    @Test(arguments: 0..<8)
    func caughtFailuresLeaveWhatFoundationsRulesLeave(_ batch: Int) throws {
        let reused = CartographJSONEncoder()
        let sorted = CartographJSONEncoder()
        sorted.outputFormatting = .sortedKeys
        let mapper = JSONMapper()
        var problems: [String] = []
        var generator = SeededGenerator(seed: UInt64(batch) &* 7919 &+ 31)
        var failing = 0
        for round in 0..<scriptRounds(default: 150) {
            // The root is a container, as a model's is.
            let script: Script = .object(Self.members(&generator, depth: 0, keyed: true))
            if script.fails { failing += 1 }
            let label = "batch \(batch) round \(round)"
            problems += [
                try Self.check({ Array(try CartographJSONEncoder().encode(script)) }, script, sorted: false, "\(label), stream"),
                try Self.check({ Array(try reused.encode(script)) }, script, sorted: false, "\(label), reused encoder"),
                try Self.check({ try mapper.encode(script) }, script, sorted: false, "\(label), JSONMapper"),
                try Self.check({ Array(try sorted.encode(script)) }, script, sorted: true, "\(label), tree")
            ].compactMap { $0 }
            // The rules' answer is Foundation's encode of the script without what they drop.
            if let cleaned = script.cleaned, try JSONValue(parsing: try JSONEncoder().encode(cleaned)) != script.expected {
                problems.append("\(label): Foundation writes the cleaned script otherwise than the rules say")
            }
            if problems.count > 5 { break }
        }
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
        // The scripts reach what they are for.
        #expect(failing > 50)
    }
}

/// How many random scripts a batch of the script tests runs:
/// `CARTOGRAPH_SCRIPT_ROUNDS` when set (for a longer search than the
/// suite's), else `default`.
func scriptRounds(default count: Int) -> Int {
    ProcessInfo.processInfo.environment["CARTOGRAPH_SCRIPT_ROUNDS"].flatMap { Int($0) } ?? count
}
