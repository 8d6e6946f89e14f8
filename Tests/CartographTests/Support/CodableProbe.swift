import Cartograph
import Foundation

// The differential Codable probe: a random JSON value and a random plan of
// container accesses (keyed and unkeyed containers, nested containers,
// super decoders, a custom date strategy, failed reads that are caught and
// continued; one case in three with the snake-case key strategy), run
// through Foundation's `JSONDecoder` and Cartograph's `JSONMapper`; both
// must read the same values in the same order, or fail with the same error
// case at the same coding path.
//
// Shared by `CodableDifferentialTests` (seeded cases on every test run) and
// the `FuzzCodableDifferential` fuzz target, which reaches this file through
// a symbolic link (FuzzTesting cannot depend on the test target). It uses
// only Cartograph's public API.

/// Where the probe's choices come from: fuzz bytes or a seeded generator.
struct ProbeChoices {
    private var bytes: [UInt8]
    private var position = 0
    private var state: UInt64

    /// Choices read from fuzz input (zeros once it is used up).
    init(bytes: [UInt8]) {
        self.bytes = bytes
        state = 0
    }

    /// Choices from a seeded generator (splitmix64).
    init(seed: UInt64) {
        bytes = []
        state = seed
    }

    /// A number below `bound`.
    mutating func next(_ bound: Int) -> Int {
        guard bound > 1 else { return 0 }
        if !bytes.isEmpty || state == 0 {
            guard position < bytes.count else { return 0 }
            position += 1
            return Int(bytes[position - 1]) % bound
        }
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return Int((z ^ (z >> 31)) % UInt64(bound))
    }
}

/// The value types a step reads.
enum ProbeScalar: CaseIterable, Sendable {
    case int, string, bool, double, date, int8, uint
    /// Arrays of scalars, one to three levels (the decoder reads them off the tape).
    case ints, intRows, doubleRings, stringRows, boolRows
}

/// One access a plan makes. In an unkeyed container the key is ignored.
indirect enum ProbeStep: Sendable {
    case value(ProbeScalar, key: String, ifPresent: Bool)
    case contains(String)
    case decodeNil(String)
    case allKeys
    case keyed(String, [ProbeStep])
    case unkeyed(String, [ProbeStep])
    /// `superDecoder(forKey:)`, or `superDecoder()` when the key is nil,
    /// then a keyed container in it.
    case superKeyed(String?, [ProbeStep])
    /// A nested `Decodable` (a new decoder level) that opens a keyed container.
    case model(String, [ProbeStep])
    /// Runs the step; a failure is logged and the plan goes on.
    case attempt(ProbeStep)
}

/// A random JSON value and plan.
struct ProbeCase: Sendable {
    let json: String
    let root: [ProbeStep]
    let rootIsKeyed: Bool
    /// What the custom date strategy reads.
    let datePlan: [ProbeStep]
    /// Read with the snake-case key strategies (Foundation's
    /// `convertFromSnakeCase`, Cartograph's `.snakeCase`), one case in three.
    let snakeCase: Bool

    static let keys = ["a", "b", "c", "super", "d"]
    /// Under snake case: JSON keys several of which convert alike (`aB`
    /// from four spellings, the first in the object winning), with leading
    /// and trailing underscores; and the coding keys a plan asks for, some
    /// of which no JSON key converts to.
    static let snakeJSONKeys = ["a_b", "aB", "a__b", "A_B", "super", "_c", "c", "d_e_", "dE", "x_y"]
    static let snakeCodingKeys = ["aB", "a_b", "super", "_c", "c", "dE_", "dE", "xY"]

    init(_ choices: inout ProbeChoices) {
        snakeCase = choices.next(3) == 0
        let jsonKeys = snakeCase ? Self.snakeJSONKeys : Self.keys
        let codingKeys = snakeCase ? Self.snakeCodingKeys : Self.keys
        json = Self.value(&choices, depth: 0, keys: jsonKeys)
        rootIsKeyed = choices.next(4) != 0
        root = Self.plan(&choices, depth: 0, keys: codingKeys)
        datePlan = Self.plan(&choices, depth: 2, keys: codingKeys)
    }

    private static func value(_ choices: inout ProbeChoices, depth: Int, keys: [String]) -> String {
        let kind = depth == 0 ? 5 + choices.next(2) : choices.next(depth >= 4 ? 5 : 7)
        switch kind {
        case 0: return ["0", "7", "-3", "300", "1.5", "-0.25", "1e2", "4294967296"][choices.next(8)]
        case 1: return ["\"x\"", "\"\"", "\"caf\\u00e9\"", "\"2024-01-02T03:04:05Z\"", "\"a\\\"b\""][choices.next(5)]
        case 2: return ["true", "false"][choices.next(2)]
        case 3: return "null"
        case 4: return ["12", "\"y\"", "null"][choices.next(3)]
        case 5:
            var used = Set<String>()
            var members: [String] = []
            for _ in 0..<choices.next(5) {
                let key = keys[choices.next(keys.count)]
                guard used.insert(key).inserted else { continue }
                members.append("\"\(key)\":" + value(&choices, depth: depth + 1, keys: keys))
            }
            return "{" + members.joined(separator: ",") + "}"
        default:
            return "[" + (0..<choices.next(4)).map { _ in value(&choices, depth: depth + 1, keys: keys) }.joined(separator: ",") + "]"
        }
    }

    private static func plan(_ choices: inout ProbeChoices, depth: Int, keys: [String]) -> [ProbeStep] {
        (0..<choices.next(depth >= 3 ? 3 : 5)).map { _ in step(&choices, depth: depth, keys: keys) }
    }

    private static func step(_ choices: inout ProbeChoices, depth: Int, keys: [String]) -> ProbeStep {
        let key = keys[choices.next(keys.count)]
        switch choices.next(depth >= 3 ? 4 : 10) {
        case 0, 1: return .value(ProbeScalar.allCases[choices.next(ProbeScalar.allCases.count)], key: key, ifPresent: choices.next(2) == 0)
        case 2: return .contains(key)
        case 3: return .decodeNil(key)
        case 4: return .keyed(key, plan(&choices, depth: depth + 1, keys: keys))
        case 5: return .unkeyed(key, plan(&choices, depth: depth + 1, keys: keys))
        case 6: return .superKeyed(choices.next(3) == 0 ? nil : key, plan(&choices, depth: depth + 1, keys: keys))
        case 7: return .model(key, plan(&choices, depth: depth + 1, keys: keys))
        case 8: return .allKeys
        default: return .attempt(step(&choices, depth: depth + 1, keys: keys))
        }
    }

    /// The same case through both decoders: nil when they agree, else a description.
    func disagreement() -> String? {
        let ours = ProbeOutcome.run(self) { userInfo in
            let options = CodableOptions {
                $0.userInfo = userInfo.mapValues { $0 as Any }
                $0.dates = .custom(decode: ProbeDate.decode, encode: { _, _ in })
                if snakeCase { $0.keys = .snakeCase }
            }
            return try JSONMapper(options: options).decode(ProbeRoot.self, from: Array(json.utf8))
        }
        let theirs = ProbeOutcome.run(self) { userInfo in
            let decoder = JSONDecoder()
            decoder.userInfo = userInfo
            decoder.dateDecodingStrategy = .custom(ProbeDate.decode)
            if snakeCase { decoder.keyDecodingStrategy = .convertFromSnakeCase }
            return try decoder.decode(ProbeRoot.self, from: Data(json.utf8))
        }
        return ours.agrees(with: theirs)
            ? nil
            : "\(json)\(snakeCase ? " (snake case)" : "")\nplan: \(rootIsKeyed ? "keyed" : "unkeyed") \(root)\ndate plan: \(datePlan)\nCartograph: \(ours.lines)\nFoundation: \(theirs.lines)"
    }
}

/// What a run read, step by step, and how it ended.
struct ProbeOutcome: Equatable {
    var lines: [String]

    /// Line for line the same, but for two chosen differences (the Foundation compatibility article,
    /// "Differences from Foundation"): Foundation reports a number that does
    /// not fit its type without the key that holds it (its coding path stops
    /// at the container), and a fraction read as an integer inside a caught
    /// decode escapes as its internal `JSONError`; Cartograph names the key
    /// and throws `DecodingError.dataCorrupted` in both.
    func agrees(with foundation: ProbeOutcome) -> Bool {
        guard lines.count == foundation.lines.count else { return false }
        return zip(lines, foundation.lines).allSatisfy { ours, theirs in
            if ours == theirs { return true }
            if theirs == "caught JSONError" || theirs == "throw JSONError" { return ours.contains(" dataCorrupted at ") }
            for prefix in ["throw dataCorrupted at ", "caught dataCorrupted at "] where ours.hasPrefix(prefix) && theirs.hasPrefix(prefix) {
                return ours.hasPrefix(theirs)
            }
            return false
        }
    }

    static func run(_ probe: ProbeCase, _ decode: ([CodingUserInfoKey: any Sendable]) throws -> ProbeRoot) -> ProbeOutcome {
        let log = ProbeLog()
        let userInfo: [CodingUserInfoKey: any Sendable] = [ProbeLog.key: log, ProbeLog.planKey: probe]
        do {
            _ = try decode(userInfo)
            log.lines.append("ok")
        } catch {
            log.lines.append("throw " + ProbeLog.describe(error))
        }
        return ProbeOutcome(lines: log.lines)
    }
}

/// The log a run writes (a class: containers are values, the log is shared).
final class ProbeLog: @unchecked Sendable {
    static let key = CodingUserInfoKey(rawValue: "probe.log")!
    static let planKey = CodingUserInfoKey(rawValue: "probe.plan")!
    var lines: [String] = []
    /// The plan of the next ProbeModel to be decoded (pushed just before).
    var pending: [[ProbeStep]] = []

    static func describe(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return "\(type(of: error))" }
        let name: String
        let context: DecodingError.Context
        switch error {
        case .typeMismatch(_, let c): (name, context) = ("typeMismatch", c)
        case .valueNotFound(_, let c): (name, context) = ("valueNotFound", c)
        case .keyNotFound(let key, let c): (name, context) = ("keyNotFound \(key.stringValue)", c)
        case .dataCorrupted(let c): (name, context) = ("dataCorrupted", c)
        @unknown default: return "unknown"
        }
        return name + " at " + context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
    }
}

/// A coding key for any string.
struct ProbeKey: CodingKey {
    var stringValue: String
    var intValue: Int?
    init(_ string: String) { stringValue = string }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) {
        stringValue = "\(intValue)"
        self.intValue = intValue
    }
}

/// The decoded root: runs the plan in `userInfo`.
struct ProbeRoot: Decodable {
    init(from decoder: any Decoder) throws {
        let probe = decoder.userInfo[ProbeLog.planKey] as! ProbeCase
        let log = decoder.userInfo[ProbeLog.key] as! ProbeLog
        if probe.rootIsKeyed {
            try ProbeRunner(log: log).run(probe.root, in: decoder.container(keyedBy: ProbeKey.self))
        } else {
            var container = try decoder.unkeyedContainer()
            try ProbeRunner(log: log).run(probe.root, in: &container)
        }
    }
}

/// A nested model: a new decoder level running a sub-plan.
struct ProbeModel: Decodable {
    init(from decoder: any Decoder) throws {
        let log = decoder.userInfo[ProbeLog.key] as! ProbeLog
        let steps = log.pending.popLast() ?? []
        try ProbeRunner(log: log).run(steps, in: decoder.container(keyedBy: ProbeKey.self))
    }
}

/// The custom date strategy: reads the case's date plan from an object,
/// then takes its `a` as seconds.
enum ProbeDate {
    @Sendable static func decode(_ decoder: any Decoder) throws -> Date {
        let probe = decoder.userInfo[ProbeLog.planKey] as! ProbeCase
        let log = decoder.userInfo[ProbeLog.key] as! ProbeLog
        let container = try decoder.container(keyedBy: ProbeKey.self)
        try ProbeRunner(log: log).run(probe.datePlan, in: container)
        return Date(timeIntervalSince1970: try container.decode(Double.self, forKey: ProbeKey("a")))
    }
}

/// Runs steps against containers, logging what each read.
struct ProbeRunner {
    let log: ProbeLog

    func run(_ steps: [ProbeStep], in container: KeyedDecodingContainer<ProbeKey>) throws {
        for step in steps { try run(step, in: container) }
    }

    private func run(_ step: ProbeStep, in container: KeyedDecodingContainer<ProbeKey>) throws {
        switch step {
        case .value(let scalar, let name, let ifPresent):
            let key = ProbeKey(name)
            log.lines.append("\(name): " + (ifPresent ? try readIfPresent(scalar, key, container) : try read(scalar, key, container)))
        case .contains(let name):
            log.lines.append("contains \(name): \(container.contains(ProbeKey(name)))")
        case .decodeNil(let name):
            log.lines.append("nil \(name): \(try container.decodeNil(forKey: ProbeKey(name)))")
        case .allKeys:
            log.lines.append("keys: \(container.allKeys.map(\.stringValue).sorted())")
        case .keyed(let name, let steps):
            try run(steps, in: container.nestedContainer(keyedBy: ProbeKey.self, forKey: ProbeKey(name)))
        case .unkeyed(let name, let steps):
            var nested = try container.nestedUnkeyedContainer(forKey: ProbeKey(name))
            try run(steps, in: &nested)
        case .superKeyed(let name, let steps):
            let decoder = try name.map { try container.superDecoder(forKey: ProbeKey($0)) } ?? container.superDecoder()
            try run(steps, in: decoder.container(keyedBy: ProbeKey.self))
        case .model(let name, let steps):
            log.pending.append(steps)
            defer { log.pending.removeAll() }
            _ = try container.decode(ProbeModel.self, forKey: ProbeKey(name))
        case .attempt(let inner):
            do { try run(inner, in: container) } catch { log.lines.append("caught " + ProbeLog.describe(error)) }
        }
    }

    func run(_ steps: [ProbeStep], in container: inout any UnkeyedDecodingContainer) throws {
        for step in steps {
            log.lines.append("at \(container.currentIndex) end \(container.isAtEnd)")
            switch step {
            case .value(let scalar, _, let ifPresent):
                log.lines.append("next: " + (ifPresent ? try readIfPresent(scalar, &container) : try read(scalar, &container)))
            case .contains, .allKeys:
                log.lines.append("count \(container.count.map(String.init) ?? "?")")
            case .decodeNil:
                log.lines.append("nil: \(try container.decodeNil())")
            case .keyed(_, let steps):
                try run(steps, in: container.nestedContainer(keyedBy: ProbeKey.self))
            case .unkeyed(_, let steps):
                var nested = try container.nestedUnkeyedContainer()
                try run(steps, in: &nested)
            case .superKeyed(_, let steps):
                try run(steps, in: container.superDecoder().container(keyedBy: ProbeKey.self))
            case .model(_, let steps):
                log.pending.append(steps)
                defer { log.pending.removeAll() }
                _ = try container.decode(ProbeModel.self)
            case .attempt(let inner):
                do { try run([inner], in: &container) } catch { log.lines.append("caught " + ProbeLog.describe(error)) }
            }
        }
    }

    private func read(_ scalar: ProbeScalar, _ key: ProbeKey, _ c: KeyedDecodingContainer<ProbeKey>) throws -> String {
        switch scalar {
        case .int: return "\(try c.decode(Int.self, forKey: key))"
        case .string: return try c.decode(String.self, forKey: key)
        case .bool: return "\(try c.decode(Bool.self, forKey: key))"
        case .double: return "\(try c.decode(Double.self, forKey: key))"
        case .date: return "\(try c.decode(Date.self, forKey: key).timeIntervalSince1970)"
        case .int8: return "\(try c.decode(Int8.self, forKey: key))"
        case .uint: return "\(try c.decode(UInt.self, forKey: key))"
        case .ints: return "\(try c.decode([Int].self, forKey: key))"
        case .intRows: return "\(try c.decode([[Int]].self, forKey: key))"
        case .doubleRings: return "\(try c.decode([[[Double]]].self, forKey: key))"
        case .stringRows: return "\(try c.decode([[String]].self, forKey: key))"
        case .boolRows: return "\(try c.decode([[Bool]].self, forKey: key))"
        }
    }

    private func readIfPresent(_ scalar: ProbeScalar, _ key: ProbeKey, _ c: KeyedDecodingContainer<ProbeKey>) throws -> String {
        switch scalar {
        case .int: return "\(try c.decodeIfPresent(Int.self, forKey: key) as Any)"
        case .string: return "\(try c.decodeIfPresent(String.self, forKey: key) as Any)"
        case .bool: return "\(try c.decodeIfPresent(Bool.self, forKey: key) as Any)"
        case .double: return "\(try c.decodeIfPresent(Double.self, forKey: key) as Any)"
        case .date: return "\(try c.decodeIfPresent(Date.self, forKey: key)?.timeIntervalSince1970 as Any)"
        case .int8: return "\(try c.decodeIfPresent(Int8.self, forKey: key) as Any)"
        case .uint: return "\(try c.decodeIfPresent(UInt.self, forKey: key) as Any)"
        case .ints: return "\(try c.decodeIfPresent([Int].self, forKey: key) as Any)"
        case .intRows: return "\(try c.decodeIfPresent([[Int]].self, forKey: key) as Any)"
        case .doubleRings: return "\(try c.decodeIfPresent([[[Double]]].self, forKey: key) as Any)"
        case .stringRows: return "\(try c.decodeIfPresent([[String]].self, forKey: key) as Any)"
        case .boolRows: return "\(try c.decodeIfPresent([[Bool]].self, forKey: key) as Any)"
        }
    }

    private func read(_ scalar: ProbeScalar, _ c: inout any UnkeyedDecodingContainer) throws -> String {
        switch scalar {
        case .int: return "\(try c.decode(Int.self))"
        case .string: return try c.decode(String.self)
        case .bool: return "\(try c.decode(Bool.self))"
        case .double: return "\(try c.decode(Double.self))"
        case .date: return "\(try c.decode(Date.self).timeIntervalSince1970)"
        case .int8: return "\(try c.decode(Int8.self))"
        case .uint: return "\(try c.decode(UInt.self))"
        case .ints: return "\(try c.decode([Int].self))"
        case .intRows: return "\(try c.decode([[Int]].self))"
        case .doubleRings: return "\(try c.decode([[[Double]]].self))"
        case .stringRows: return "\(try c.decode([[String]].self))"
        case .boolRows: return "\(try c.decode([[Bool]].self))"
        }
    }

    private func readIfPresent(_ scalar: ProbeScalar, _ c: inout any UnkeyedDecodingContainer) throws -> String {
        switch scalar {
        case .int: return "\(try c.decodeIfPresent(Int.self) as Any)"
        case .string: return "\(try c.decodeIfPresent(String.self) as Any)"
        case .bool: return "\(try c.decodeIfPresent(Bool.self) as Any)"
        case .double: return "\(try c.decodeIfPresent(Double.self) as Any)"
        case .date: return "\(try c.decodeIfPresent(Date.self)?.timeIntervalSince1970 as Any)"
        case .int8: return "\(try c.decodeIfPresent(Int8.self) as Any)"
        case .uint: return "\(try c.decodeIfPresent(UInt.self) as Any)"
        case .ints: return "\(try c.decodeIfPresent([Int].self) as Any)"
        case .intRows: return "\(try c.decodeIfPresent([[Int]].self) as Any)"
        case .doubleRings: return "\(try c.decodeIfPresent([[[Double]]].self) as Any)"
        case .stringRows: return "\(try c.decodeIfPresent([[String]].self) as Any)"
        case .boolRows: return "\(try c.decodeIfPresent([[Bool]].self) as Any)"
        }
    }
}
