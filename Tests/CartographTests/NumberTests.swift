import Foundation
import Testing

@testable import Cartograph

/// Numbers keep their value: exact text on the tape, exact-or-throw conversions.
@Suite struct NumberTests {
    private func number(_ text: String) throws -> Node {
        try #require(try Document(parsing: "[\(text)]").root.array()[0])
    }

    @Test func integersConvertExactly() throws {
        #expect(try number("9223372036854775807").int64() == Int64.max)
        #expect(try number("-9223372036854775808").int64() == Int64.min)
        #expect(try number("18446744073709551615").uint64() == UInt64.max)
        #expect(try number("1e2").int() == 100)
        #expect(try number("3.0").int() == 3)
        #expect(throws: CartographError.self) { try number("9223372036854775808").int64() }
        #expect(throws: CartographError.self) { try number("18446744073709551616").uint64() }
        #expect(throws: CartographError.self) { try number("-1").uint64() }
        #expect(throws: CartographError.self) { try number("1.5").int() }
        #expect(throws: CartographError.self) { try number("\"1\"").int() }
    }

    @Test func doublesParseToTheNearestValue() throws {
        #expect(try number("0.1").double() == 0.1)
        #expect(try number("-65.613616999999977").double() == -65.613616999999977)
        #expect(try number("2.2250738585072014e-308").double() == Double.leastNormalMagnitude)
        #expect(try number("1.7976931348623157e308").double() == .greatestFiniteMagnitude)
        #expect(try number("5e-324").double() == Double.leastNonzeroMagnitude)
        #expect(try number("1e-400").double() == 0)
        #expect(try number("-0").double().sign == .minus)
        #expect(try number("123456789012345678901234567890").double() == 1.2345678901234568e29)
        let error = try #require(throws: CartographError.self) { try number("1e400").double() }
        #expect(error.kind == .numberOutOfRange)
    }

    @Test func decimalsAndHugeIntegersKeepTheirExactText() throws {
        let huge = "123456789012345678901234567890123456789012345678901234567890"
        #expect(try number(huge).numberText() == huge)
        #expect(try number("0.1000000000000000000000000000001").decimal() == Decimal(string: "0.1000000000000000000000000000001"))
        #expect(try JSONValue(parsing: "[\(huge)]")[0]?.numberValue?.text == huge)
        let hundredThousandDigits = String(repeating: "7", count: 100_000)
        let options = ParseOptions { $0.maxNumberDigits = 200_000 }
        let document = try Document(parsing: "[\(hundredThousandDigits)]", options: options)
        #expect(try document.root.array()[0]?.numberText() == hundredThousandDigits)
        #expect(throws: CartographError.self) { try Document(parsing: "[\(hundredThousandDigits)]") }
    }

    @Test func jsonNumberStorageKeepsValues() throws {
        #expect(JSONNumber(text: "0.1")?.text == "0.1")
        #expect(JSONNumber(text: "-0.0")?.text == "-0")
        #expect(JSONNumber(text: "-0.0")?.doubleValue.sign == .minus)
        #expect(JSONNumber(text: "18446744073709551615")?.uint64Value == UInt64.max)
        #expect(JSONNumber(text: "1e400")?.text == "1e400")
        #expect(JSONNumber(text: "01") == nil)
        #expect(JSONNumber(text: "1.") == nil)
        #expect(JSONNumber(text: "NaN") == nil)
        #expect(JSONNumber(1) == JSONNumber(1.0))
        #expect(JSONNumber(1).hashValue == JSONNumber(1.0).hashValue)
        #expect(JSONNumber(Decimal(string: "3.14159265358979323846264338327950288")!).text == "3.14159265358979323846264338327950288")
    }
}
