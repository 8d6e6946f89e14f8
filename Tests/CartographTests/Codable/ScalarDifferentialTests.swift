import Foundation
import Testing

@testable import Cartograph

/// Every scalar type `JSONDecoder` reads, from many spellings of each JSON
/// value, through the drop-in decoder and Foundation's: the same value
/// (numbers bit for bit) or both refusing.
@Suite struct ScalarDifferentialTests {
    static let numbers = [
        "0", "-0", "1", "-1", "1.0", "-1.0", "1.5", "-1.5", "1e0", "1E2", "1e+2", "1e-2", "100e-2", "1.00e2", "0.0", "-0.0", "0e5",
        "9223372036854775807", "9223372036854775808", "-9223372036854775808", "-9223372036854775809", "9223372036854775807.0",
        "18446744073709551615", "18446744073709551616", "1e19", "1e20", "1.8446744073709552e19", "0.1", "0.2", "0.3",
        "3.4028235e38", "3.4028236e38", "3.40282357e38", "1e39", "-1e39", "1e-46", "1.4e-45", "7e-46", "1.17549435e-38",
        "4.9e-324", "2.4703282292062328e-324", "1e-400", "1e400", "123456789012345678901234567890",
        "0.000000000000000000000000000000000000001", "1.7976931348623157e308", "1.8e308", "255", "256", "-128", "-129",
        "127.0", "128.0", "2.5e1", "2.55e2", "65535", "65536", "2147483647", "2147483648", "-2147483648", "-2147483649",
        "4294967295", "4294967296", "1.23456789012345678901234567890123456789e10", "3.14159265358979323846264338327950288419716939937510",
        "12345678901234567890.5", "0.30000000000000004", "9007199254740993", "9007199254740993.0", "1e-7", "123.456e-300",
        "-12.5e-1", "1.0000000000000000000000000000000000000001", "170141183460469231731687303715884105727",
        "1" + String(repeating: "0", count: 40), "0." + String(repeating: "0", count: 30) + "1"
    ]
    static let strings = [
        #""""#, #""x""#, #""1""#, #""true""#, #""https://example.com/a?b=c#d""#, #""a b""#, #""relative/path""#, #""http://[::1]:80/""#,
        #""file:///tmp/x""#, #""E621E1F8-C36C-495A-93FC-0C247A3E6E5F""#, #""e621e1f8-c36c-495a-93fc-0c247a3e6e5f""#,
        #""{E621E1F8-C36C-495A-93FC-0C247A3E6E5F}""#, #""E621E1F8C36C495A93FC0C247A3E6E5F""#, #""SGVsbG8=""#, #""SGVsbG8""#,
        #""SGVs bG8=""#, #""SGVsbG8==""#, #""-_8=""#, #""+/8=""#, #""\u00e9""#, #""e\u0301""#, #""\ud83d\ude00""#, #""NaN""#, #""Infinity""#,
        #""2024-01-02T03:04:05Z""#, #""2024-01-02T03:04:05.5Z""#, #""https://ex ample.com""#, #""mailto:a@b.c""#, #"":""#
    ]
    static let others = ["true", "false", "null", "[]", "{}", "[1]"]

    /// Where the two differ on purpose (``FoundationDifference``): numbers
    /// that are not whole read as integers, and a zero with an exponent.
    static let notWhole = ["1e-400", "1.0000000000000000000000000000000000000001"]
    static let zerosWithExponent = ["0e5", "0E7"]
    /// Whole numbers `Double` cannot hold, as `Int` and `Int64` (``FoundationDifference/int128WithZeroFraction``).
    static let wholeBeyondDouble = "9223372036854775807.0"

    /// One type read both ways from each of `texts`: what disagreed.
    static func compare<T: Decodable>(_: T.Type, _ texts: [String], same: (T, T) -> Bool) -> [String] {
        var differences: [String] = []
        let ours = CartographJSONDecoder()
        let theirs = JSONDecoder()
        for text in texts {
            let json = Data("[\(text)]".utf8)
            let mine = Result { try ours.decode([T].self, from: json)[0] }
            let foundation = Result { try theirs.decode([T].self, from: json)[0] }
            switch (mine, foundation) {
            case (.success(let a), .success(let b)): if !same(a, b) { differences.append("\(T.self) \(text): ours \(a), Foundation \(b)") }
            case (.failure, .failure): break
            case (.success(let a), .failure): differences.append("\(T.self) \(text): ours \(a), Foundation throws")
            case (.failure, .success(let b)): differences.append("\(T.self) \(text): ours throws, Foundation \(b)")
            }
        }
        return differences
    }

    /// Every type from every text but the listed exceptions.
    static func allTypes(_ texts: [String]) -> [String] {
        var differences: [String] = []
        differences += compare(Int.self, texts, same: ==)
        differences += compare(Int8.self, texts, same: ==)
        differences += compare(Int16.self, texts, same: ==)
        differences += compare(Int32.self, texts, same: ==)
        differences += compare(Int64.self, texts, same: ==)
        differences += compare(UInt.self, texts, same: ==)
        differences += compare(UInt8.self, texts, same: ==)
        differences += compare(UInt16.self, texts, same: ==)
        differences += compare(UInt32.self, texts, same: ==)
        differences += compare(UInt64.self, texts, same: ==)
        differences += compare(Double.self, texts) { $0.bitPattern == $1.bitPattern }
        differences += compare(Float.self, texts) { $0.bitPattern == $1.bitPattern }
        differences += compare(Decimal.self, texts, same: ==)
        differences += compare(Bool.self, texts, same: ==)
        differences += compare(String.self, texts) { Array($0.utf8) == Array($1.utf8) }
        differences += compare(URL.self, texts) { $0.absoluteString == $1.absoluteString }
        differences += compare(UUID.self, texts, same: ==)
        differences += compare(Data.self, texts, same: ==)
        differences += compare(Date.self, texts) { $0.timeIntervalSinceReferenceDate.bitPattern == $1.timeIntervalSinceReferenceDate.bitPattern }
        return differences
    }

    /// One value of each scalar type written both ways: what disagreed (bytes).
    static func encodeBoth<T: Encodable>(_ values: [T]) -> [String] {
        var differences: [String] = []
        for value in values {
            let mine = Result { try CartographJSONEncoder().encode([value]) }
            let theirs = Result { try JSONEncoder().encode([value]) }
            switch (mine, theirs) {
            case (.success(let a), .success(let b)):
                if a != b {
                    differences.append(
                        "\(T.self) \(value): ours \(String(decoding: a, as: UTF8.self)), Foundation \(String(decoding: b, as: UTF8.self))")
                }
            case (.failure, .failure): break
            case (.success(let a), .failure): differences.append("\(T.self) \(value): ours \(String(decoding: a, as: UTF8.self)), Foundation throws")
            case (.failure(let error), .success(let b)):
                differences.append("\(T.self) \(value): ours throws \(error), Foundation \(String(decoding: b, as: UTF8.self))")
            }
        }
        return differences
    }

    static let doubles: [Double] = [
        0, -0.0, 1, -1, 0.1, 0.2, 0.30000000000000004, 1e-7, 1e-6, 1e21, 1e22, 1e23, 123456789012345680, 1.5e300, .leastNonzeroMagnitude,
        .greatestFiniteMagnitude, .leastNormalMagnitude, 9_007_199_254_740_992, 100, 1e16, 1e15, 123.456, -0.000001, 2.5e-5, 1e-5,
        .pi, .ulpOfOne, 4.35, 0.1 + 0.2, 299_792_458, 6.02214076e23
    ]
    static let floats: [Float] = [
        0, -0.0, 0.1, 1e-7, 1e-6, 1e21, 3.4028235e38, .leastNonzeroMagnitude, .leastNormalMagnitude, 16_777_216, 0.3, 123.456, .pi, 1e10, 1e16
    ]

    /// One value of each scalar type written as a property list both ways
    /// (XML: the bytes; binary: what Foundation reads back from each).
    static func plistBoth<T: Codable>(_ values: [T], same: @escaping (T, T) -> Bool) -> [String] {
        var differences: [String] = []
        for value in values {
            let encoder = PropertyListEncoder()
            encoder.outputFormat = .xml
            let ours = CartographPropertyListEncoder()
            ours.outputFormat = .xml
            let mine = Result { try ours.encode([value]) }
            let theirs = Result { try encoder.encode([value]) }
            switch (mine, theirs) {
            case (.success(let a), .success(let b)):
                if a != b {
                    differences.append(
                        "XML \(T.self) \(value): ours \(String(decoding: a, as: UTF8.self)), Foundation \(String(decoding: b, as: UTF8.self))")
                }
            case (.failure, .failure): break
            case (.success, .failure): differences.append("XML \(T.self) \(value): Foundation throws")
            case (.failure(let error), .success): differences.append("XML \(T.self) \(value): ours throws \(error)")
            }
            // Binary: each side reads the other's file back as the value.
            let binaryEncoder = PropertyListEncoder()
            binaryEncoder.outputFormat = .binary
            if let binary = try? CartographPropertyListEncoder().encode([value]) {
                let read = try? PropertyListDecoder().decode([T].self, from: binary)
                if read.map({ same($0[0], value) }) != true {
                    differences.append("binary \(T.self) \(value): Foundation reads \(String(describing: read))")
                }
            }
            if let binary = try? binaryEncoder.encode([value]) {
                let read = try? CartographPropertyListDecoder().decode([T].self, from: binary)
                if read.map({ same($0[0], value) }) != true {
                    differences.append("binary \(T.self) \(value): ours reads Foundation's as \(String(describing: read))")
                }
            }
            if case .success(let xml) = theirs {
                let read = try? CartographPropertyListDecoder().decode([T].self, from: xml)
                if read.map({ same($0[0], value) }) != true {
                    differences.append("XML \(T.self) \(value): ours reads Foundation's as \(String(describing: read))")
                }
            }
        }
        return differences
    }

    static let cases: [FoundationSuiteTests.Case] = [
        .init(name: "scalars written as property lists") {
            var problems = plistBoth(doubles + doubles.map { -$0 }) { $0.bitPattern == $1.bitPattern }
            problems += plistBoth(floats + floats.map { -$0 }) { $0.bitPattern == $1.bitPattern }
            problems += plistBoth([Int.min, -1, 0, 1, Int.max], same: ==) + plistBoth([UInt64.max, 0], same: ==)
            problems += plistBoth([Decimal(string: "0.1")!, Decimal(string: "-123.456e-10")!, Decimal(0)], same: ==)
            problems += plistBoth([URL(string: "https://example.com/a?b=c#d")!], same: ==)
            problems += plistBoth([UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!], same: ==)
            problems += plistBoth([Data(), Data([0, 1, 2, 255])], same: ==)
            problems += plistBoth(
                [Date(timeIntervalSinceReferenceDate: 0), Date(timeIntervalSinceReferenceDate: 123), Date(timeIntervalSince1970: 0)], same: ==)
            problems += plistBoth(["", "a<b&c>", "é", "😀", "\u{1F}", "]]>"], same: ==)
            problems += plistBoth([true, false], same: ==)
            return problems
        },
        .init(name: "scalars written") {
            var problems: [String] = encodeBoth(doubles) + encodeBoth(doubles.map { -$0 }) + encodeBoth(floats) + encodeBoth(floats.map { -$0 })
            problems += encodeBoth([Int.min, -1, 0, 1, Int.max]) + encodeBoth([UInt64.max, 0]) + encodeBoth([Int8.min, Int8.max])
            problems += encodeBoth([
                Decimal(string: "0.1")!, Decimal(string: "-123.456e-10")!, Decimal(string: "3.14159265358979323846264338327950288")!, Decimal(0),
                Decimal(string: "1e30")!
            ])
            problems += encodeBoth([URL(string: "https://example.com/a?b=c#d")!, URL(string: "relative/path")!, URL(fileURLWithPath: "/tmp/a b")])
            problems += encodeBoth([UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!])
            problems += encodeBoth([Data(), Data([0, 1, 2, 255]), Data("Hello".utf8)])
            problems += encodeBoth([
                Date(timeIntervalSinceReferenceDate: 0), Date(timeIntervalSinceReferenceDate: 123.456), Date(timeIntervalSince1970: 0)
            ])
            problems += encodeBoth(["", "a\u{0}b", "\u{7F}", "\u{2028}", "/", "\"", "é", "😀", "\u{1F}"])
            problems += encodeBoth([true, false])
            return problems
        },
        .init(name: "scalar spellings") {
            allTypes((numbers + strings + others).filter { !notWhole.contains($0) && !zerosWithExponent.contains($0) && $0 != wholeBeyondDouble })
                + compare(UInt64.self, [wholeBeyondDouble], same: ==) + compare(Double.self, [wholeBeyondDouble]) { $0.bitPattern == $1.bitPattern }
        },
        .init(name: "a whole number with a zero fraction beyond Double, as Int64", differences: [.int128WithZeroFraction]) {
            var problems: [String] = []
            let json = Data("[\(wholeBeyondDouble)]".utf8)
            if (try? CartographJSONDecoder().decode([Int64].self, from: json)) != [Int64.max] { problems.append("not read as Int64.max") }
            if (try? CartographJSONDecoder().decode([Int].self, from: json)) != [Int.max] { problems.append("not read as Int.max") }
            if (try? JSONDecoder().decode([Int64].self, from: json)) != nil { problems.append("Foundation reads it now") }
            return problems
        },
        .init(name: "numbers that are not whole, as integers", differences: [.integersFromFractions]) {
            var problems: [String] = []
            for text in notWhole {
                let json = Data("[\(text)]".utf8)
                if let read = try? CartographJSONDecoder().decode([Int].self, from: json) { problems.append("\(text) read as \(read)") }
                if let read = try? CartographJSONDecoder().decode([UInt8].self, from: json) { problems.append("\(text) read as \(read)") }
                if (try? JSONDecoder().decode([Int].self, from: json)) == nil { problems.append("Foundation refuses \(text) now") }
                problems += compare(Double.self, [text]) { $0.bitPattern == $1.bitPattern } + compare(Decimal.self, [text], same: ==)
            }
            return problems
        },
        .init(name: "a zero with an exponent", differences: [.zeroWithExponent]) {
            var problems: [String] = []
            for text in zerosWithExponent {
                let json = Data("[\(text)]".utf8)
                let read = try? CartographJSONDecoder().decode([Double].self, from: json)
                if read?.first != 0 { problems.append("\(text) read as \(String(describing: read))") }
                if (try? CartographJSONDecoder().decode([Int].self, from: json)) != [0] { problems.append("\(text) not read as the integer 0") }
                if (try? JSONDecoder().decode([Double].self, from: json)) != nil { problems.append("Foundation reads \(text) now") }
            }
            return problems
        }
    ]

    @Test(arguments: ScalarDifferentialTests.cases)
    func agreesWithFoundation(_ row: FoundationSuiteTests.Case) throws { try row.expectAgreement() }
}
