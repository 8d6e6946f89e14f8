import Foundation
import Testing

@testable import Cartograph

/// The `Codable` decoder against Foundation's on what a model's
/// `init(from:)` may do: read keys in any order, ask for the wrong type,
/// check `contains` and `decodeNil`, read optionals, open nested containers,
/// decode nested models, and catch a failure (`try?`) half-way through a
/// nested model to read on. The decoder recycles keyed containers, keeps
/// the places where keys were found for the next object of the same type,
/// and reads arrays of scalars off the tape: a failure caught in the middle
/// of any of those must leave nothing behind for what is read next.
///
/// One `Decodable` type (``Probe``) runs a seeded random program (what to
/// read, as what, caught or not) taken from the decoder's `userInfo`; each
/// program's document mostly fits it (values of the right type, extra keys,
/// keys in orders of their own) and sometimes not (a wrong type, a missing
/// key, a null). Both decoders log every value read and every error caught,
/// with its kind and coding path: the logs must be equal, through a decoder
/// made for each document and through one reused for all.
///
/// The differential probe (`Support/CodableProbe.swift`) reads one document
/// per plan through `JSONMapper`. Here each program reads three documents
/// whose keys come in orders of their own, through the drop-in
/// `CartographJSONDecoder` (its `userInfo` carries the program), one of
/// them reused for every document: what a container or a key order kept
/// from one object, or one decode, would show in the next.
@Suite struct DecodeScriptDifferentialTests {
    struct Key: CodingKey {
        var stringValue: String
        var intValue: Int?
        init(_ name: String) { stringValue = name }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) {
            self.intValue = intValue
            stringValue = "\(intValue)"
        }
    }

    /// What a probe reads.
    indirect enum Read {
        case int, string, bool, double, optionalInt, isNil, contains
        /// Types narrower than the numbers read: `Int8`, `UInt`, `Float`.
        case small, unsigned, float
        /// A property list's own kinds (in JSON, a string that is neither).
        case date, data
        /// A nested ``Probe`` running the program.
        case probe(Program)
        /// `decodeIfPresent` of a nested ``Probe``.
        case optionalProbe(Program)
        /// A nested container (keyed or unkeyed, as the program is) read in place.
        case nested(Program)
        /// `[Int]` in one call (the decoder's scalar-array path).
        case integers
    }

    struct Step {
        var key: String
        var read: Read
        /// Read under `do`/`catch`, the error logged.
        var caught: Bool
    }

    /// What one container is read for: keyed steps, or (`unkeyed`) one
    /// step per element, keys unused.
    final class Program: @unchecked Sendable {
        let unkeyed: Bool
        let steps: [Step]
        init(unkeyed: Bool, steps: [Step]) {
            self.unkeyed = unkeyed
            self.steps = steps
        }
    }

    /// The log and the program the next ``Probe`` runs, in `userInfo`.
    final class Context: @unchecked Sendable {
        var log: [String] = []
        var pending: Program?
        static let key = CodingUserInfoKey(rawValue: "cartograph.decode-script")!
    }

    static func describe(_ error: any Error) -> String {
        func path(_ context: DecodingError.Context) -> String {
            context.codingPath.map { $0.intValue.map { "#\($0)" } ?? $0.stringValue }.joined(separator: ".")
        }
        switch error {
        case DecodingError.typeMismatch(_, let context): return "typeMismatch at \(path(context))"
        case DecodingError.valueNotFound(_, let context): return "valueNotFound at \(path(context))"
        case DecodingError.keyNotFound(let key, let context): return "keyNotFound \(key.stringValue) at \(path(context))"
        case DecodingError.dataCorrupted(let context): return "dataCorrupted at \(path(context))"
        default: return "other error \(type(of: error))" // Foundation's JSONError, see log(_:_:_:)
        }
    }

    struct Probe: Decodable {
        init(from decoder: any Decoder) throws {
            let context = decoder.userInfo[Context.key] as! Context
            let program = context.pending!
            if program.unkeyed {
                var container = try decoder.unkeyedContainer()
                try Self.run(program, &container, context)
            } else {
                let container = try decoder.container(keyedBy: Key.self)
                try Self.run(program, container, context)
            }
        }

        static func run(_ program: Program, _ container: KeyedDecodingContainer<Key>, _ context: Context) throws {
            for step in program.steps {
                let key = Key(step.key)
                let body = {
                    let read: String
                    switch step.read {
                    case .int: read = "\(try container.decode(Int.self, forKey: key))"
                    case .string: read = try container.decode(String.self, forKey: key)
                    case .bool: read = "\(try container.decode(Bool.self, forKey: key))"
                    case .double: read = "\(try container.decode(Double.self, forKey: key))"
                    case .small: read = "\(try container.decode(Int8.self, forKey: key))"
                    case .unsigned: read = "\(try container.decode(UInt.self, forKey: key))"
                    case .float: read = "\(try container.decode(Float.self, forKey: key))"
                    case .date: read = "\(try container.decode(Date.self, forKey: key).timeIntervalSinceReferenceDate)"
                    case .data: read = try container.decode(Data.self, forKey: key).base64EncodedString()
                    case .optionalInt: read = "\(String(describing: try container.decodeIfPresent(Int.self, forKey: key)))"
                    case .isNil: read = "nil? \(try container.decodeNil(forKey: key))"
                    case .contains: read = "contains? \(container.contains(key))"
                    case .integers: read = "\(try container.decode([Int].self, forKey: key))"
                    case .probe(let inner):
                        context.pending = inner
                        _ = try container.decode(Probe.self, forKey: key)
                        read = "probe done"
                    case .optionalProbe(let inner):
                        context.pending = inner
                        read = try container.decodeIfPresent(Probe.self, forKey: key) == nil ? "no probe" : "probe done"
                    case .nested(let inner):
                        if inner.unkeyed {
                            var nested = try container.nestedUnkeyedContainer(forKey: key)
                            try run(inner, &nested, context)
                        } else {
                            try run(inner, try container.nestedContainer(keyedBy: Key.self, forKey: key), context)
                        }
                        read = "nested done"
                    }
                    context.log.append("\(step.key): \(read)")
                }
                if step.caught {
                    do { try body() } catch { context.log.append("\(step.key): caught \(describe(error))") }
                } else {
                    try body()
                }
            }
        }

        static func run(_ program: Program, _ container: inout any UnkeyedDecodingContainer, _ context: Context) throws {
            for step in program.steps {
                let index = container.currentIndex
                let body = { (container: inout any UnkeyedDecodingContainer) throws in
                    let read: String
                    switch step.read {
                    case .int: read = "\(try container.decode(Int.self))"
                    case .string: read = try container.decode(String.self)
                    case .bool: read = "\(try container.decode(Bool.self))"
                    case .double: read = "\(try container.decode(Double.self))"
                    case .small: read = "\(try container.decode(Int8.self))"
                    case .unsigned: read = "\(try container.decode(UInt.self))"
                    case .float: read = "\(try container.decode(Float.self))"
                    case .date: read = "\(try container.decode(Date.self).timeIntervalSinceReferenceDate)"
                    case .data: read = try container.decode(Data.self).base64EncodedString()
                    case .optionalInt: read = "\(String(describing: try container.decodeIfPresent(Int.self)))"
                    case .isNil: read = "nil? \(try container.decodeNil())"
                    case .contains: read = "at end? \(container.isAtEnd)"
                    case .integers: read = "\(try container.decode([Int].self))"
                    case .probe(let inner):
                        context.pending = inner
                        _ = try container.decode(Probe.self)
                        read = "probe done"
                    case .optionalProbe(let inner):
                        context.pending = inner
                        read = try container.decodeIfPresent(Probe.self) == nil ? "no probe" : "probe done"
                    case .nested(let inner):
                        if inner.unkeyed {
                            var nested = try container.nestedUnkeyedContainer()
                            try run(inner, &nested, context)
                        } else {
                            try run(inner, try container.nestedContainer(keyedBy: Key.self), context)
                        }
                        read = "nested done"
                    }
                    context.log.append("[\(index)]: \(read), now at \(container.currentIndex)")
                }
                if step.caught {
                    do { try body(&container) } catch {
                        context.log.append("[\(index)]: caught \(describe(error)), now at \(container.currentIndex)")
                    }
                } else {
                    try body(&container)
                }
            }
        }
    }

    // MARK: Random programs and documents

    static let keys = ["id", "name", "kids", "tags", "é", "x"]

    static func program(_ generator: inout SeededGenerator, depth: Int, unkeyed: Bool) -> Program {
        var names = keys.shuffled(using: &generator)
        let count = Int.random(in: 1...(unkeyed ? 4 : 5), using: &generator)
        let steps = (0..<count).map { _ in
            // Sometimes a key twice (a model may read one twice).
            let key = unkeyed ? "" : (Int.random(in: 0..<8, using: &generator) == 0 ? keys[0] : names.removeFirst())
            return Step(key: key, read: read(&generator, depth: depth), caught: Int.random(in: 0..<10, using: &generator) < 7)
        }
        return Program(unkeyed: unkeyed, steps: steps)
    }

    static func read(_ generator: inout SeededGenerator, depth: Int) -> Read {
        let roll = Int.random(in: 0..<100, using: &generator)
        if depth < 3 {
            switch roll {
            case 0..<14: return .probe(program(&generator, depth: depth + 1, unkeyed: Bool.random(using: &generator)))
            case 14..<20: return .optionalProbe(program(&generator, depth: depth + 1, unkeyed: false))
            case 20..<30: return .nested(program(&generator, depth: depth + 1, unkeyed: Bool.random(using: &generator)))
            default: break
            }
        }
        switch roll % 10 {
        case 0, 1: return .int
        case 2: return .string
        case 3: return .bool
        case 4: return .double
        case 5: return .optionalInt
        case 6: return .isNil
        case 7: return .contains
        case 8: return .integers
        default: return [.small, .unsigned, .float, .date, .data, .string][Int.random(in: 0..<6, using: &generator)]
        }
    }

    /// A document for `program`: mostly what it reads, sometimes not.
    static func document(for program: Program, _ generator: inout SeededGenerator) -> JSONValue {
        if program.unkeyed {
            var elements = program.steps.map { value(for: $0.read, &generator) }
            if Int.random(in: 0..<5, using: &generator) == 0 { elements.removeLast() }
            if Int.random(in: 0..<5, using: &generator) == 0 { elements.append(stray(&generator)) }
            return .array(elements)
        }
        var members: [(String, JSONValue)] = []
        for step in program.steps where !members.contains(where: { $0.0 == step.key }) {
            if Int.random(in: 0..<8, using: &generator) == 0 { continue } // missing
            members.append((step.key, value(for: step.read, &generator)))
        }
        for extra in keys where !members.contains(where: { $0.0 == extra }) && Bool.random(using: &generator) {
            members.append((extra, stray(&generator)))
        }
        members.shuffle(using: &generator)
        return .object(JSONObject(members))
    }

    static func value(for read: Read, _ generator: inout SeededGenerator) -> JSONValue {
        if Int.random(in: 0..<7, using: &generator) == 0 { return stray(&generator) }
        switch read {
        case .int, .optionalInt: return .number(JSONNumber(Int64.random(in: -99...99, using: &generator)))
        // Some past the narrow types' ranges.
        case .small, .unsigned: return .number(JSONNumber(Int64.random(in: -300...300, using: &generator)))
        case .float: return .number(JSONNumber(Double(Int.random(in: -99...99, using: &generator)) / 8))
        // Made a <date> or <data> in a property list (``plistObject(_:)``).
        case .date: return .string("date:\(Int.random(in: -1_000_000...1_000_000, using: &generator))")
        case .data: return .string("data:" + Data((0..<Int.random(in: 0...5, using: &generator)).map { UInt8($0 * 51) }).base64EncodedString())
        case .string: return .string("s\(Int.random(in: 0..<9, using: &generator))")
        case .bool: return .bool(Bool.random(using: &generator))
        case .double: return .number(JSONNumber(Double(Int.random(in: -99...99, using: &generator)) + 0.25))
        case .isNil, .contains: return Bool.random(using: &generator) ? .null : 1
        case .integers:
            return .array((0..<Int.random(in: 0...4, using: &generator)).map { _ in .number(JSONNumber(Int64.random(in: 0...9, using: &generator))) })
        case .probe(let inner), .optionalProbe(let inner), .nested(let inner): return document(for: inner, &generator)
        }
    }

    /// A value of any kind, where the program may expect another.
    static func stray(_ generator: inout SeededGenerator) -> JSONValue {
        switch Int.random(in: 0..<10, using: &generator) {
        case 0: return .null
        case 1: return "text"
        case 2: return 7
        case 3: return 2.5
        case 4: return true
        case 5: return [1, "two", nil]
        // Whole numbers written as reals, and one no integer type holds.
        case 6: return [3.0, -0.0][Int.random(in: 0..<2, using: &generator)]
        case 7: return 1e300
        case 8: return .number(JSONNumber(Int64.max))
        default: return ["id": 3, "name": ["nested"]]
        }
    }

    /// The log of decoding `bytes` into a ``Probe`` running `program`.
    ///
    /// A number that does not fit the type read (`2.5` as `Int`) is a
    /// listed difference (``FoundationDifference/numberPathEndsWithKey``):
    /// Foundation's container throws its internal `JSONError`, whose path
    /// the decode later gives as the container's, where Cartograph's
    /// `dataCorrupted` names the key. So `dataCorrupted` is logged without
    /// its path, on both sides; every other error keeps its path.
    static func log(_ program: Program, _ decode: Decode) -> [String] {
        let context = Context()
        context.pending = program
        do {
            try decode([Context.key: context])
        } catch {
            context.log.append("threw \(describe(error))")
        }
        return context.log.map { entry in
            entry.replacing("other error JSONError", with: "dataCorrupted")
                .replacing(/dataCorrupted at [^,]*/, with: "dataCorrupted")
        }
    }

    /// A decode of one document into a ``Probe``, given the `userInfo` that carries its program.
    typealias Decode = ([CodingUserInfoKey: any Sendable]) throws -> Void

    /// Where Cartograph's decoders, one made for the document and one
    /// reused, log otherwise than Foundation's: a description each (the
    /// document's given by `document`), and how many errors Foundation's
    /// log shows caught.
    static func disagreements(
        _ program: Program, foundation: Decode, fresh: @escaping Decode, reused: @escaping Decode, document: () -> String
    ) -> (problems: [String], caught: Int) {
        let expected = log(program, foundation)
        let problems = [("fresh", fresh), ("reused", reused)].compactMap { name, decode -> String? in
            let written = log(program, decode)
            return written == expected ? nil : "\(document()), \(name):\nFoundation: \(expected)\nCartograph: \(written)"
        }
        return (problems, expected.filter { $0.contains("caught") }.count)
    }

    /// `decoder` (JSON or property list) given `userInfo`, decoding `bytes` into a ``Probe``.
    static func decode(_ decoder: JSONDecoder, _ bytes: Data) -> Decode {
        { userInfo in
            decoder.userInfo = userInfo
            _ = try decoder.decode(Probe.self, from: bytes)
        }
    }

    static func decode(_ decoder: PropertyListDecoder, _ bytes: Data) -> Decode {
        { userInfo in
            decoder.userInfo = userInfo
            _ = try decoder.decode(Probe.self, from: bytes)
        }
    }

    /// A property-list object of `value` (a null is `$null`, as `PropertyListEncoder` writes nil).
    /// A real beyond `Float`'s range becomes 2^100, which a `Float` holds
    /// exactly and no integer type holds: read as a `Float`, Foundation's
    /// XML reader makes the first infinite where Cartograph refuses it, and
    /// its binary reader refuses a real no `Float` holds exactly where
    /// Cartograph reads the nearest one, two listed differences
    /// (``FoundationDifference/plistFloatOverflow``,
    /// ``FoundationDifference/binaryPlistInexactFloat``). The generated
    /// reals otherwise are quarters and eighths, which a `Float` holds.
    static func plistObject(_ value: JSONValue) -> Any {
        switch value {
        case .null: return "$null"
        case .bool(let flag): return flag
        case .number(let number):
            if let integer = number.int64Value { return Int(integer) }
            let real = number.doubleValue
            return abs(real) > Double(Float.greatestFiniteMagnitude) ? (real < 0 ? -0x1p100 : 0x1p100) : real
        case .string(let text):
            if text.hasPrefix("date:"), let seconds = Double(text.dropFirst(5)) { return Date(timeIntervalSinceReferenceDate: seconds) }
            if text.hasPrefix("data:"), let data = Data(base64Encoded: String(text.dropFirst(5))) { return data }
            return text
        case .array(let elements): return elements.map(plistObject)
        case .object(let object): return Dictionary(uniqueKeysWithValues: object.map { ($0.key, plistObject($0.value)) })
        }
    }

    @Test(arguments: 0..<8)
    func caughtFailuresAndOddReadsLogAsFoundationsDecoderLogs(_ batch: Int) throws {
        var generator = SeededGenerator(seed: UInt64(batch) &* 104_729 &+ 5)
        let reused = CartographJSONDecoder()
        var problems: [String] = []
        var caught = 0
        for round in 0..<scriptRounds(default: 120) {
            let program = Self.program(&generator, depth: 0, unkeyed: false)
            // Several documents per program: objects of one type in orders of their own.
            for variant in 0..<3 {
                let bytes = Data(try Self.document(for: program, &generator).encoded())
                let found = Self.disagreements(
                    program, foundation: Self.decode(JSONDecoder(), bytes), fresh: Self.decode(CartographJSONDecoder(), bytes),
                    reused: Self.decode(reused, bytes)
                ) { "batch \(batch) round \(round).\(variant): \(String(decoding: bytes, as: UTF8.self))" }
                problems += found.problems
                caught += found.caught
            }
            if problems.count > 3 { break }
        }
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n\n"))")
        #expect(caught > 100)
    }

    /// The same programs over the same documents as property lists, binary
    /// and XML (a null as `$null`): `CartographPropertyListDecoder`, fresh and
    /// reused, against `PropertyListDecoder`.
    @Test(arguments: 0..<4)
    func propertyListDecodersLogAsFoundationsLogs(_ batch: Int) throws {
        var generator = SeededGenerator(seed: UInt64(batch) &* 7727 &+ 3)
        let reused = CartographPropertyListDecoder()
        var problems: [String] = []
        var caught = 0
        for round in 0..<scriptRounds(default: 60) {
            let program = Self.program(&generator, depth: 0, unkeyed: false)
            for format in [PropertyListSerialization.PropertyListFormat.binary, .xml] {
                let plist = Self.plistObject(Self.document(for: program, &generator))
                let bytes = try PropertyListSerialization.data(fromPropertyList: plist, format: format, options: 0)
                let found = Self.disagreements(
                    program, foundation: Self.decode(PropertyListDecoder(), bytes), fresh: Self.decode(CartographPropertyListDecoder(), bytes),
                    reused: Self.decode(reused, bytes)
                ) { "batch \(batch) round \(round), \(format == .xml ? "XML" : "binary"): \(plist)" }
                problems += found.problems
                caught += found.caught
            }
            if problems.count > 3 { break }
        }
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n\n"))")
        #expect(caught > 50)
    }
}
