import Foundation
import Testing

@testable import Cartograph

/// The `Codable` encoders against Foundation's `JSONEncoder` on random
/// values: nested objects and arrays holding the shapes the encoders write
/// whole (`[Double]`, `[[Double]]`, `[[[Double]]]`, `[Int]`, `[String]`,
/// `[Bool]`) beside scalars and optionals, with NaN and the infinities
/// placed at random, under both non-conforming float strategies. Both must
/// write the same JSON value (compared parsed: Foundation orders an
/// object's keys by hash) or fail with an `invalidValue` at the same coding
/// path; some cases under the snake-case key strategy, some with sorted
/// keys. `JSONMapper`, the drop-in `CartographJSONEncoder` and the tree
/// encoder alone are each held to it.
@Suite struct EncodeDifferentialTests {
    /// A random value with a hand-written `encode(to:)`, so that each array
    /// is encoded as its own static type (which picks the encoders' paths).
    indirect enum Value: Encodable {
        case object([(String, Value)])
        case array([Value])
        case doubles([Double])
        case rows([[Double]])
        case matrices([[[Double]]])
        case integers([Int])
        case strings([String])
        case booleans([Bool])
        case double(Double)
        case float(Float)
        case optionalDoubles([Double]?)
        case text(String)

        struct Key: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }

        func encode(to encoder: any Encoder) throws {
            switch self {
            case .object(let members):
                var container = encoder.container(keyedBy: Key.self)
                for (name, member) in members {
                    let key = Key(stringValue: name)
                    switch member {
                    case .doubles(let values): try container.encode(values, forKey: key)
                    case .rows(let values): try container.encode(values, forKey: key)
                    case .matrices(let values): try container.encode(values, forKey: key)
                    case .double(let value): try container.encode(value, forKey: key)
                    case .optionalDoubles(let values): try container.encodeIfPresent(values, forKey: key)
                    default: try container.encode(member, forKey: key)
                    }
                }
            case .array(let elements):
                var container = encoder.unkeyedContainer()
                for element in elements {
                    switch element {
                    case .doubles(let values): try container.encode(values)
                    case .rows(let values): try container.encode(values)
                    case .matrices(let values): try container.encode(values)
                    case .double(let value): try container.encode(value)
                    default: try container.encode(element)
                    }
                }
            case .doubles(let values): try values.encode(to: encoder)
            case .rows(let values): try values.encode(to: encoder)
            case .matrices(let values): try values.encode(to: encoder)
            case .integers(let values): try values.encode(to: encoder)
            case .strings(let values): try values.encode(to: encoder)
            case .booleans(let values): try values.encode(to: encoder)
            case .double(let value):
                var container = encoder.singleValueContainer()
                try container.encode(value)
            case .float(let value):
                var container = encoder.singleValueContainer()
                try container.encode(value)
            case .optionalDoubles(let values):
                var container = encoder.singleValueContainer()
                try container.encode(values)
            case .text(let value):
                var container = encoder.singleValueContainer()
                try container.encode(value)
            }
        }
    }

    /// splitmix64, seeded.
    struct Choices {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return Int((z ^ (z >> 31)) % UInt64(bound))
        }

        /// Mostly ordinary doubles; one in `rareness` a NaN or an infinity.
        mutating func double(rareness: Int) -> Double {
            if next(rareness) == 0 { return [Double.nan, .infinity, -.infinity][next(3)] }
            return [0.1, -0.0, 47.3769, 1e-7, 123_456_789.25, .leastNonzeroMagnitude, -1.5e300, Double(next(1000))][next(8)]
        }

        mutating func doubles(rareness: Int) -> [Double] { (0..<next(4)).map { _ in double(rareness: rareness) } }
        mutating func rows(rareness: Int) -> [[Double]] { (0..<next(4)).map { _ in doubles(rareness: rareness) } }
    }

    static func value(_ choices: inout Choices, depth: Int, rareness: Int) -> Value {
        let kind = depth > 3 ? 2 + choices.next(11) : choices.next(13)
        switch kind {
        case 0, 1:
            let names = ["a", "b", "coordinates", "xY", "é", "URLValue"]
            return .object(
                (0..<choices.next(4)).map { position in
                    (names[(position + choices.next(2)) % names.count] + "\(position)", value(&choices, depth: depth + 1, rareness: rareness))
                })
        case 2: return .array((0..<choices.next(4)).map { _ in value(&choices, depth: depth + 1, rareness: rareness) })
        case 3: return .doubles(choices.doubles(rareness: rareness))
        case 4, 5: return .rows(choices.rows(rareness: rareness))
        case 6: return .matrices((0..<choices.next(3)).map { _ in choices.rows(rareness: rareness) })
        case 7: return .integers((0..<choices.next(4)).map { _ in choices.next(100) - 50 })
        case 8: return .strings((0..<choices.next(3)).map { _ in ["", "a\"b", "ü/\u{1}"][choices.next(3)] })
        case 9: return .booleans((0..<choices.next(3)).map { _ in choices.next(2) == 0 })
        case 10: return .double(choices.double(rareness: rareness))
        case 11: return .optionalDoubles(choices.next(3) == 0 ? nil : choices.doubles(rareness: rareness))
        default: return choices.next(2) == 0 ? .float(Float(choices.double(rareness: rareness))) : .text("t")
        }
    }

    /// What an encode gave: its JSON parsed by Foundation, or the error's
    /// case and coding path.
    enum Outcome: Equatable, CustomStringConvertible {
        case json(NSObject)
        case invalidValue([String])
        case other(String)

        init(_ body: () throws -> Data) {
            do {
                let data = try body()
                self = .json(try JSONSerialization.jsonObject(with: data, options: .fragmentsAllowed) as! NSObject)
            } catch EncodingError.invalidValue(_, let context) {
                self = .invalidValue(context.codingPath.map(\.stringValue))
            } catch {
                self = .other("\(error)")
            }
        }

        var description: String {
            switch self {
            case .json(let object): return "json \(object)"
            case .invalidValue(let path): return "invalidValue at \(path)"
            case .other(let text): return text
            }
        }
    }

    @Test(arguments: 0..<8)
    func randomValuesEncodeAsFoundationEncodesThem(_ batch: Int) throws {
        var failures: [String] = []
        var errors = 0
        for seed in (batch * 50)..<(batch * 50 + 50) {
            var choices = Choices(state: UInt64(seed) &* 0x2545_F491_4F6C_DD1D)
            let rareness = [4, 12, 40][seed % 3]
            let value = Self.value(&choices, depth: 0, rareness: rareness)
            let converting = seed % 2 == 0
            let foundation = JSONEncoder()
            let dropIn = CartographJSONEncoder()
            var options = CodableOptions()
            if converting {
                foundation.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "+inf", negativeInfinity: "-inf", nan: "nan")
                dropIn.nonConformingFloatEncodingStrategy = foundation.nonConformingFloatEncodingStrategy
                options.nonConformingFloats = .convertFromString(positiveInfinity: "+inf", negativeInfinity: "-inf", nan: "nan")
            }
            // Some cases under a key strategy, some with sorted keys (which go to the tree from the start).
            if seed % 5 == 0 {
                foundation.keyEncodingStrategy = .convertToSnakeCase
                dropIn.keyEncodingStrategy = .convertToSnakeCase
                options.keys = .snakeCase
            }
            var writeOptions = WriteOptions()
            if seed % 7 == 3 {
                foundation.outputFormatting = [.sortedKeys, .prettyPrinted]
                dropIn.outputFormatting = foundation.outputFormatting
                writeOptions.sortedKeys = true
                writeOptions.formatting = .prettyLikeFoundation
            }
            let mapper = JSONMapper(options: options, writeOptions: writeOptions)
            let expected = Outcome { try foundation.encode(value) }
            if case .invalidValue = expected { errors += 1 }
            for (name, outcome) in [
                ("JSONMapper", Outcome { Data(try mapper.encode(value)) }),
                ("CartographJSONEncoder", Outcome { try dropIn.encode(value) }),
                ("tree", Outcome { Data(try mapper.encodeThroughTree(value)) })
            ] where outcome != expected {
                failures.append("seed \(seed), \(name): \(outcome), Foundation: \(expected); value \(value)")
            }
        }
        #expect(failures.isEmpty, "\(failures.prefix(3).joined(separator: "\n"))")
        // The batch reaches the error paths, not only the happy ones.
        #expect(errors > 0)
    }
}
