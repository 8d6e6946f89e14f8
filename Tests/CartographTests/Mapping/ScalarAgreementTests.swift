import Foundation
import Testing

@testable import Cartograph

/// A mapping reads each scalar type from the same texts as the `Codable`
/// decoder does: the same value (numbers bit for bit) or both refusing.
/// Where they differ on purpose, the mapping's leniency is named.
@Suite struct ScalarAgreementTests {
    @Mappable
    struct Scalars: Decodable {
        var int: Int?
        var int8: Int8?
        var uint64: UInt64?
        var double: Double?
        var float: Float?
        var decimal: Decimal?
        var bool: Bool?
        var string: String?
        var date: Date?
        var url: URL?
        var uuid: UUID?
        static let mapping = Mapping<Scalars>({ Scalars() }) {
            Map(\.int)
            Map(\.int8)
            Map(\.uint64)
            Map(\.double)
            Map(\.float)
            Map(\.decimal)
            Map(\.bool)
            Map(\.string)
            Map(\.date)
            Map(\.url)
            Map(\.uuid)
        }
    }

    static let properties = ["int", "int8", "uint64", "double", "float", "decimal", "bool", "string", "date", "url", "uuid"]

    /// Each property's value as text to compare (numbers by bits), or nil.
    static func describe(_ value: Scalars, _ property: String) -> String? {
        switch property {
        case "int": return value.int.map { "\($0)" }
        case "int8": return value.int8.map { "\($0)" }
        case "uint64": return value.uint64.map { "\($0)" }
        case "double": return value.double.map { "\($0.bitPattern)" }
        case "float": return value.float.map { "\($0.bitPattern)" }
        case "decimal": return value.decimal.map { "\($0)" }
        case "bool": return value.bool.map { "\($0)" }
        case "string": return value.string
        case "date": return value.date.map { "\($0.timeIntervalSinceReferenceDate.bitPattern)" }
        case "url": return value.url?.absoluteString
        default: return value.uuid?.uuidString
        }
    }

    @Test func mappingsReadScalarsAsTheCodableDecoderDoes() throws {
        var registry = ModelRegistry()
        registry.register(Scalars.self)
        let mapping = JSONMapper(registry: registry)
        let codable = JSONMapper(options: CodableOptions { $0.dates = .iso8601(fractionalSeconds: true) })
        var differences: [String] = []
        let texts = ScalarDifferentialTests.numbers + ScalarDifferentialTests.strings + ScalarDifferentialTests.others
        for property in Self.properties {
            for text in texts {
                let json = Array(#"{"\#(property)":\#(text)}"#.utf8)
                let viaMapping = Result { try mapping.decode(Scalars.self, from: json) as Scalars }
                let viaCodable = Result { try codable.decode(Scalars.self, from: json) }
                switch (viaMapping, viaCodable) {
                case (.success(let a), .success(let b)):
                    if Self.describe(a, property) != Self.describe(b, property) {
                        differences.append(
                            "\(property) \(text): mapping \(Self.describe(a, property) ?? "nil"), Codable \(Self.describe(b, property) ?? "nil")")
                    }
                case (.failure, .failure): break
                case (.success(let a), .failure):
                    differences.append("\(property) \(text): mapping \(Self.describe(a, property) ?? "nil"), Codable throws")
                case (.failure(let error), .success(let b)):
                    differences.append("\(property) \(text): mapping throws \(error), Codable \(Self.describe(b, property) ?? "nil")")
                }
            }
        }
        // The mapping's own rules (ScalarValue): a number is a date in
        // seconds since 1970; a number that underflows a Double or Float is
        // zero, not an error; a Decimal is exact or refused (over 38 digits).
        let chosen = differences.filter { line in
            let words = line.split(separator: " ")
            let (property, text) = (String(words[0]), String(words[1].dropLast()))
            let isNumber = ScalarDifferentialTests.numbers.contains(text)
            if property == "date", isNumber { return true }
            if property == "double" || property == "float", line.contains("mapping 0,"), line.hasSuffix("Codable throws") { return true }
            if property == "decimal", line.contains("mapping throws"), NumberGrammar.significantDigits(Array(text.utf8).span) > 38 { return true }
            return false
        }
        #expect(
            chosen.count == differences.count,
            "differences beyond the mapping's rules:\n\(differences.filter { !chosen.contains($0) }.joined(separator: "\n"))")
        #expect(chosen.count > 70, "the chosen differences were not met: the comparison reads nothing")
    }
}
