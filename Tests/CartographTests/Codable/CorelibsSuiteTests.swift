import Foundation
import Testing

@testable import Cartograph

/// Cases from swift-corelibs-foundation's `TestJSONEncoder.swift` and
/// `TestPropertyListEncoder.swift` that swift-foundation's suites do not
/// already cover, through Foundation's coders and Cartograph's drop-in pairs
/// (the helpers of ``FoundationCoderSuiteTests`` and
/// ``PlistFoundationSuiteTests``): numeric limits in both directions,
/// integers written with a zero fraction, built-in types' coding, a super
/// decoder for a missing key, a dynamic subclass type.
@Suite struct CorelibsSuiteTests {
    typealias Case = FoundationSuiteTests.Case

    @Test(arguments: CorelibsSuiteTests.cases)
    func agreesWithFoundation(_ row: Case) throws { try row.expectAgreement() }

    static func decodeBoth<T: Decodable & Equatable>(_ type: T.Type, _ json: String) -> [String] {
        FoundationCoderSuiteTests.decodeBoth(type, json, keyInPath: true)
    }

    static func encodeBoth<T: Encodable>(_ value: T) -> [String] { FoundationCoderSuiteTests.encodeBoth(value) }

    struct NumericTypes: Codable, Equatable {
        let int8Value: Int8, uint8Value: UInt8, int16Value: Int16, uint16Value: UInt16, int32Value: Int32, uint32Value: UInt32
        let int64Value: Int64, intValue: Int, uintValue: UInt, uint64Value: UInt64, floatValue: Float, doubleValue: Double, decimalValue: Decimal
    }

    /// One optional member per numeric type; a test fills exactly one.
    struct OneNumber: Codable, Equatable {
        var int8Value: Int8?, uint8Value: UInt8?, int16Value: Int16?, uint16Value: UInt16?, int32Value: Int32?, uint32Value: UInt32?
        var int64Value: Int64?, intValue: Int?, uintValue: UInt?, uint64Value: UInt64?, floatValue: Float?, doubleValue: Double?
        var decimalValue: Decimal?
    }

    struct MissingSuper: Decodable, Equatable {
        enum CodingKeys: String, CodingKey { case superDecoder = "super" }
        var found: Bool
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            let sub = try container.superDecoder(forKey: .superDecoder)
            found = (try? sub.singleValueContainer().decodeNil()) ?? false
        }
    }

    class Base: Decodable, Equatable {
        static func == (a: Base, b: Base) -> Bool { type(of: a) == type(of: b) }
    }
    final class Child: Base {}

    static let cases: [Case] = [
        Case(name: "encodeDecodeNumericTypesBaseline (integers with a zero fraction)") {
            let source = NumericTypes(
                int8Value: -12, uint8Value: 34, int16Value: -5678, uint16Value: 9011, int32Value: -12_141_516, uint32Value: 17_181_920,
                int64Value: -21_222_324_252_627, intValue: -2_829_303_132, uintValue: 33_343_536, uint64Value: 373_839_404_142, floatValue: 1.234,
                doubleValue: 5.101520, decimalValue: 10)
            let json =
                #"{"int8Value": -12.0, "uint8Value": 34.0, "int16Value": -5678.0, "uint16Value": 9011.0, "int32Value": -12141516.0,"#
                + #""uint32Value": 17181920.0, "int64Value": -21222324252627.0, "intValue": -2829303132.0, "uintValue": 33343536.0,"#
                + #""uint64Value": 373839404142.0, "floatValue": 1.234, "doubleValue": 5.101520, "decimalValue": 10.0}"#
            return encodeBoth(source) + decodeBoth(NumericTypes.self, json)
        },
        Case(name: "numericLimits", differences: [.numberPathEndsWithKey]) {
            let good = [
                ("int8", "-128"), ("int8", "127"), ("uint8", "255"), ("uint8", "-0"), ("int16", "-32768"), ("uint16", "65535"), ("uint16", "34.0"),
                ("int32", "-2147483648"), ("uint32", "4294967295"), ("int64", "-9223372036854775808"), ("int64", "9223372036854775807"),
                ("uint64", "18446744073709551615"), ("double", "2.2250738585072014e-308"), ("double", "1.7976931348623157e+308"),
                ("double", "5e-324"),
                ("decimal", "1.2"), ("decimal", "3.14159265358979323846264338327950288419"),
                (
                    "decimal",
                    "-3402823669209384634633746074317682114550000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
                ),
                ("int", "-9223372036854775808"), ("uint", "18446744073709551615")
            ]
            let bad = [
                ("int8", "-129"), ("int8", "128"), ("int8", "1.2"), ("uint8", "-1"), ("uint8", "256"), ("int16", "32768"), ("uint16", "65536"),
                ("int32", "2147483648"), ("uint32", "-1"), ("uint32", "4294967296"), ("int64", "9223372036854775808"),
                ("int64", "-100000000000000000000"),
                ("uint64", "-1"), ("uint64", "18446744073709600000"), ("int64", "10000000000000000000000000000000000000"), ("float", "1e100"),
                ("int8", "0000000000000000000000000000001"), ("double", "-.1"), ("int32", "+1"), ("int", ".012")
            ]
            return (good + bad).flatMap { decodeBoth(OneNumber.self, "{ \"\($0.0)Value\": \($0.1) }") }
        },
        Case(name: "codingOf built-in types") {
            var problems = encodeBoth([true]) + encodeBoth(Optional<Int>.none) + encodeBoth([Int8.min, .max]) + encodeBoth([UInt8.max])
            problems += encodeBoth([Int16.min]) + encodeBoth([UInt16.max]) + encodeBoth([Int32.min]) + encodeBoth([UInt32.max])
            problems += encodeBoth([Int64.min, .max]) + encodeBoth([UInt64.min, .max]) + encodeBoth([Int.min]) + encodeBoth([UInt.max])
            problems += encodeBoth([Float(1.5)]) + encodeBoth([Double(1.5)]) + encodeBoth(Decimal.pi) + encodeBoth("Hello, world!")
            problems += encodeBoth(URL(string: "https://swift.org")!) + decodeBoth(Decimal.self, "3.14159265358979323846264338327950288419")
            problems += decodeBoth(Float.self, "1e100") + decodeBoth(Optional<Int>.self, "null")
            return problems
        },
        Case(name: "notFoundSuperDecoder") { decodeBoth(MissingSuper.self, "{}") + decodeBoth(MissingSuper.self, #"{"super": null}"#) },
        Case(name: "childTypeDecoder (a dynamic subclass type)") {
            let type: Base.Type = Child.self
            let theirs = try JSONDecoder().decode(type, from: Data("{}".utf8))
            let ours = try CartographJSONDecoder().decode(type, from: Data("{}".utf8))
            let plist = try PropertyListEncoder().encode([String: Int]())
            let ourPlist = try CartographPropertyListDecoder().decode(type, from: plist)
            return Swift.type(of: theirs) == Swift.type(of: ours) && ourPlist is Child
                ? [] : ["Cartograph made \(Swift.type(of: ours)), \(Swift.type(of: ourPlist))"]
        },
        Case(name: "dictionary_snake_case_decoding / encoding") {
            let snake: (JSONDecoder, CartographJSONDecoder) -> Void = {
                $0.keyDecodingStrategy = .convertFromSnakeCase; $1.keyDecodingStrategy = .convertFromSnakeCase
            }
            return FoundationCoderSuiteTests.decodeBoth([String: [String: Int]].self, #"{"snake_case_key": {"nested_key": 1}}"#, configure: snake)
                + FoundationCoderSuiteTests.encodeBoth(["camelCaseKey": ["nestedKey": 1]]) {
                    $0.keyEncodingStrategy = .convertToSnakeCase
                    $1.keyEncodingStrategy = .convertToSnakeCase
                }
        },
        Case(name: "TestPropertyListEncoder basicEncodeDecode / xmlDecoder") {
            struct Basic: Codable, Equatable { var name: String; var count: Int; var ratio: Double; var flags: [Bool]; var nested: [String: String] }
            let value = Basic(name: "n", count: 3, ratio: 0.5, flags: [true, false], nested: ["a": "b"])
            return PlistFoundationSuiteTests.roundTripBoth(value)
                + PlistFoundationSuiteTests.decodeBoth(
                    Basic.self,
                    PlistFoundationSuiteTests.header
                        + "<dict><key>name</key><string>n</string><key>count</key><integer>3</integer><key>ratio</key><real>0.5</real>"
                        + "<key>flags</key><array><true/><false/></array><key>nested</key><dict><key>a</key><string>b</string></dict></dict></plist>")
        }
    ]
}
