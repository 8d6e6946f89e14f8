import Foundation
import Testing

@testable import Cartograph

/// A stream never delivers an element the whole decode would not produce,
/// whatever keys repeat and under every duplicate-key policy. A service that
/// validates the whole body and a handler that streams it see the same data:
///
/// - the stream succeeds only when the whole decode does, with exactly its elements;
/// - when the whole decode fails, the stream fails;
/// - when the stream fails, it has delivered only elements of first
///   occurrences, in order (it refuses at the repeated key, before any
///   element of the second occurrence).
@Suite struct StreamDuplicateKeyTests {
    static let policies: [DuplicateKeyPolicy] = [.lastWins, .firstWins, .reject]

    /// The review's case and its relatives, each with the paths that reach into them.
    static let handWritten: [(String, [String])] = [
        (#"{"a":[1,2],"a":[3]}"#, ["$.a", "$.a[*]", "$.*", "$[*][*]"]),
        (#"{"a":[1,2],"b":0,"a":[3,4]}"#, ["$.a", "$.a[*]", "$.*"]),
        (#"{"x":{"a":[1]},"x":{"a":[2]}}"#, ["$.x.a", "$.x.a[*]", "$.x.*", "$.*.a"]),
        (#"{"x":{"a":[1],"a":[2]}}"#, ["$.x.a", "$.x.*", "$.*.a[*]"]),
        (#"{"a":[1],"b":1,"b":2}"#, ["$.a", "$.a[*]", "$.*"]),
        (#"{"a":[{"k":1,"k":2}],"a":[{"k":3}]}"#, ["$.a", "$.a[*].k"]),
        (#"[{"a":[1],"a":[2]},{"a":[3]}]"#, ["$[*].a", "$[*].a[*]", "$[0].a", "$[1].a"]),
        (#"{"a":1,"a":2}"#, ["$.a", "$.*"])
    ]

    @Test func handWrittenBodiesAgreeWithTheWholeDecode() throws {
        for (body, paths) in Self.handWritten {
            for path in paths {
                for policy in Self.policies {
                    try Self.check(body, path: path, policy: policy)
                }
            }
        }
    }

    /// The review's case, stated: `lastWins` refuses at the second `"a"`
    /// (after 1 and 2, before 3); `firstWins` delivers 1 and 2 and finishes;
    /// `reject` refuses at the second `"a"` with every path, wildcards too.
    @Test func theReviewedBodyUnderEachPolicy() throws {
        let body = #"{"a":[1,2],"a":[3]}"#
        for path in ["$.a", "$.a[*]"] {
            let last = Self.stream(body, path: path, policy: .lastWins)
            #expect(last.delivered == [1, 2])
            #expect(last.error?.kind == .duplicateKey)
            #expect(last.error?.offset == 11)
            let first = Self.stream(body, path: path, policy: .firstWins)
            #expect(first.delivered == [1, 2])
            #expect(first.error == nil)
            let reject = Self.stream(body, path: path, policy: .reject)
            #expect(reject.error?.kind == .duplicateKey)
            #expect(reject.delivered == [1, 2])
        }
        // A repeated key off the path: nothing a stream delivers depends on it.
        let offPath = Self.stream(#"{"a":[1],"b":1,"b":2}"#, path: "$.a", policy: .lastWins)
        #expect(offPath.delivered == [1])
        #expect(offPath.error == nil)
        #expect(Self.stream(#"{"a":[1],"b":1,"b":2}"#, path: "$.*", policy: .reject).error?.kind == .duplicateKey)
    }

    /// Seeded random bodies whose objects draw keys from three names, so
    /// repeats are common at every depth.
    @Test func randomBodiesAgreeWithTheWholeDecode() throws {
        var generator = SeededGenerator(seed: 0xD0_0B1E)
        let paths = ["$.a", "$.a[*]", "$.*", "$.x.a", "$.x.*", "$.*.a", "$.a[*].x", "$[*]", "$.b[0]"]
        for _ in 0..<600 {
            var counter = 0
            let body = Self.randomObject(depth: 0, counter: &counter, using: &generator)
            for path in paths {
                for policy in Self.policies {
                    try Self.check(body, path: path, policy: policy)
                }
            }
        }
    }

    static func randomObject(depth: Int, counter: inout Int, using generator: inout SeededGenerator) -> String {
        let members = (0..<Int.random(in: 1...4, using: &generator)).map { _ in
            "\"\(["a", "b", "x"].randomElement(using: &generator)!)\":" + randomValue(depth: depth + 1, counter: &counter, using: &generator)
        }
        return "{" + members.joined(separator: ",") + "}"
    }

    static func randomValue(depth: Int, counter: inout Int, using generator: inout SeededGenerator) -> String {
        let choice = depth >= 3 ? 0 : Int.random(in: 0..<4, using: &generator)
        switch choice {
        case 0, 1:
            counter += 1
            return "\(counter)"
        case 2:
            let elements = (0..<Int.random(in: 0...3, using: &generator)).map { _ in
                randomValue(depth: depth + 1, counter: &counter, using: &generator)
            }
            return "[" + elements.joined(separator: ",") + "]"
        default:
            return randomObject(depth: depth, counter: &counter, using: &generator)
        }
    }

    /// What the stream delivered, and how it ended.
    struct Streamed {
        var values: [JSONValue] = []
        var error: CartographError?
        var delivered: [Int64] { values.compactMap { $0.numberValue?.int64Value } }
    }

    static func stream(_ body: String, path: String, policy: DuplicateKeyPolicy) -> Streamed {
        var options = ParseOptions()
        options.duplicateKeys = policy
        let stream = ModelStream(JSONValue.self, mapper: JSONMapper(parseOptions: options), path: StreamPath(path))
        var result = Streamed()
        do {
            // One byte at a time: the decision must not depend on chunking.
            for byte in Array(body.utf8) { try stream.feed([byte]) { result.values.append($0) } }
            try stream.finish { result.values.append($0) }
        } catch let error as CartographError {
            result.error = error
        } catch {
            Issue.record("not a CartographError: \(error)")
        }
        return result
    }

    /// The values the whole decode gives for `path`, or nil when it fails.
    static func whole(_ body: String, path: String, policy: DuplicateKeyPolicy) -> [JSONValue]? {
        var options = ParseOptions()
        options.duplicateKeys = policy
        guard let root = try? JSONValue(parsing: body, options: options), let parsed = try? StreamPath(parsing: path) else { return nil }
        return select(parsed, in: root)
    }

    /// JSONPath selection over a decoded value; nil where a stream of that
    /// path must fail (the array it names is missing or not an array).
    static func select(_ path: StreamPath, in root: JSONValue) -> [JSONValue]? {
        func apply(_ steps: [StreamPath.PathStep], to values: [JSONValue]) -> [JSONValue] {
            steps.reduce(values) { current, step in
                current.flatMap { value -> [JSONValue] in
                    switch (step, value) {
                    case (.key(let key), .object(let object)): return object.position(of: key).map { [object.values[$0]] } ?? []
                    case (.index(let index), .array(let elements)): return index < elements.count ? [elements[index]] : []
                    case (.any, .array(let elements)): return elements
                    case (.any, .object(let object)): return object.values
                    default: return []
                    }
                }
            }
        }
        func elements(of steps: [StreamPath.PathStep]) -> [JSONValue]? {
            let targets = apply(steps, to: [root])
            guard targets.count == 1, case .array(let elements) = targets[0] else { return nil }
            return elements
        }
        switch path {
        case .topLevelArray: return elements(of: [])
        case .array(let keys): return elements(of: keys.map { .key($0) })
        case .arrayElements(let steps): return elements(of: steps)
        case .matches(let steps):
            let found = apply(steps, to: [root])
            return found.isEmpty ? nil : found
        case .values: return [root]
        }
    }

    /// A parsed body that keeps every member of an object, repeats included.
    indirect enum RawValue {
        case number(Int64)
        case array([RawValue])
        case object([(String, RawValue)])

        /// Parses the bodies these tests write (integers, arrays, objects, plain keys).
        static func parse(_ text: String) -> RawValue {
            var bytes = Array(text.utf8)[...]
            return value(&bytes)
        }

        private static func value(_ bytes: inout ArraySlice<UInt8>) -> RawValue {
            switch bytes.first {
            case UInt8(ascii: "["):
                bytes.removeFirst()
                var elements: [RawValue] = []
                while bytes.first != UInt8(ascii: "]") {
                    elements.append(value(&bytes))
                    if bytes.first == UInt8(ascii: ",") { bytes.removeFirst() }
                }
                bytes.removeFirst()
                return .array(elements)
            case UInt8(ascii: "{"):
                bytes.removeFirst()
                var members: [(String, RawValue)] = []
                while bytes.first != UInt8(ascii: "}") {
                    bytes.removeFirst()
                    let key = String(decoding: bytes.prefix { $0 != UInt8(ascii: "\"") }, as: UTF8.self)
                    bytes.removeFirst(key.utf8.count + 2)
                    members.append((key, value(&bytes)))
                    if bytes.first == UInt8(ascii: ",") { bytes.removeFirst() }
                }
                bytes.removeFirst()
                return .object(members)
            default:
                let digits = bytes.prefix { $0 == UInt8(ascii: "-") || ($0 >= 0x30 && $0 <= 0x39) }
                bytes.removeFirst(digits.count)
                return .number(Int64(String(decoding: digits, as: UTF8.self))!)
            }
        }

        /// As the parser gives it under `policy` (`reject` resolved as `lastWins`: only used where the body has none).
        func resolved(_ policy: DuplicateKeyPolicy) -> JSONValue {
            switch self {
            case .number(let value): return .number(JSONNumber(value))
            case .array(let elements): return .array(elements.map { $0.resolved(policy) })
            case .object(let members):
                var object = JSONObject()
                for (key, value) in members {
                    if policy == .firstWins, object.position(of: key) != nil { continue }
                    object[key] = nil
                    object[key] = value.resolved(policy)
                }
                return .object(object)
            }
        }
    }

    /// The values a stream may deliver before refusing: those under the
    /// first occurrence of each key the path steps through.
    static func firstOccurrences(_ body: String, path: String, policy: DuplicateKeyPolicy) -> [JSONValue] {
        guard let parsed = try? StreamPath(parsing: path) else { return [] }
        let steps: [StreamPath.PathStep]
        switch parsed {
        case .topLevelArray: steps = [.any]
        case .array(let keys): steps = keys.map { .key($0) } + [.any]
        case .arrayElements(let path): steps = path + [.any]
        case .matches(let path): steps = path
        case .values: return []
        }
        var current = [RawValue.parse(body)]
        for step in steps {
            current = current.flatMap { value -> [RawValue] in
                switch (step, value) {
                case (.key(let key), .object(let members)): return members.first { $0.0 == key }.map { [$0.1] } ?? []
                case (.index(let index), .array(let elements)): return index < elements.count ? [elements[index]] : []
                case (.any, .array(let elements)): return elements
                case (.any, .object(let members)):
                    var seen: Set<String> = []
                    return members.filter { seen.insert($0.0).inserted }.map(\.1)
                default: return []
                }
            }
        }
        return current.map { $0.resolved(policy) }
    }

    static func check(_ body: String, path: String, policy: DuplicateKeyPolicy) throws {
        let streamed = stream(body, path: path, policy: policy)
        let expected = whole(body, path: path, policy: policy)
        let label = "\(body) at \(path) under \(policy)"
        if streamed.error == nil {
            #expect(streamed.values == expected, "stream succeeded with other values than the whole decode: \(label)")
        }
        if expected == nil {
            #expect(streamed.error != nil, "the whole decode fails but the stream succeeded: \(label)")
        }
        if streamed.error != nil {
            // Only elements under first occurrences of the path's keys, in
            // order (their own objects resolved by the policy).
            let firsts = firstOccurrences(body, path: path, policy: policy)
            #expect(Array(firsts.prefix(streamed.values.count)) == streamed.values, "delivered an element of a later occurrence: \(label)")
        }
        if policy == .firstWins, expected != nil {
            #expect(streamed.error == nil, "firstWins needs no refusal: \(label)")
        }
    }
}
