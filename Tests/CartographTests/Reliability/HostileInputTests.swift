import Foundation
import Testing

@testable import Cartograph

/// The catalogue of hostile inputs: each gives a typed error or a correct value, never a crash.
@Suite struct HostileInputTests {
    private func outcome(_ bytes: [UInt8], _ options: ParseOptions = ParseOptions()) -> String {
        do {
            let document = try Document(parsing: bytes, options: options)
            _ = try document.root.jsonValue()
            return "ok"
        } catch let error as CartographError {
            return "\(error.kind)"
        } catch {
            return "untyped"
        }
    }

    @Test func nestingAtAndPastTheLimitAndFarBeyond() {
        func arrays(_ depth: Int, closed: Bool = true) -> [UInt8] {
            Array(repeating: UInt8(ascii: "["), count: depth) + (closed ? Array(repeating: UInt8(ascii: "]"), count: depth) : [])
        }
        #expect(outcome(arrays(512)) == "ok")
        #expect(outcome(arrays(513)) == "depthLimitExceeded")
        #expect(outcome(arrays(100_000, closed: false)) == "depthLimitExceeded")
        #expect(outcome(arrays(1_000_000, closed: false)) == "depthLimitExceeded")
        let objects = Array(repeating: Array(#"{"k":"#.utf8), count: 100_000).flatMap { $0 }
        #expect(outcome(objects) == "depthLimitExceeded")
        // A deep in-memory value (deep enough to break every writer's limit; a
        // value of 100,000 levels would overflow the stack when Swift frees it,
        // whoever built it) is refused by each writer with a typed error.
        var deep: JSONValue = 1
        for _ in 0..<2_000 { deep = [deep] }
        #expect(throws: CartographError.self) { try deep.encoded() }
        #expect(throws: CartographError.self) { try PropertyListMapper().encode(deep, format: .binary) }
        #expect(throws: (any Error).self) { try JSONMapper().encode(deep) }
    }

    @Test func hostileStrings() {
        for bad: [UInt8] in [[0xC0, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xFF], [0xC3]] {
            #expect(outcome([0x22] + bad + [0x22]) == "invalidUTF8")
        }
        for escape in [#""\uD800""#, #""\uDC00""#, #""\uDC00\uD800""#] {
            #expect(outcome(Array(escape.utf8)) == "invalidEscape" || outcome(Array(escape.utf8)) == "invalidUTF8")
        }
        #expect(outcome(Array(#"{"a\u0000": "b\u0000"}"#.utf8)) == "ok")
        let hundredMegabytes = [0x22] + [UInt8](repeating: UInt8(ascii: "a"), count: 100 << 20) + [0x22]
        #expect(outcome(hundredMegabytes, ParseOptions { $0.maxStringBytes = 1 << 20 }) == "stringTooLong")
    }

    @Test func hostileNumbers() throws {
        #expect(try Document(parsing: "18446744073709551615").root.uint64() == UInt64.max)
        #expect(try Document(parsing: "-0").root.double().sign == .minus)
        #expect(throws: CartographError.self) { try Document(parsing: "1e400").root.double() }
        #expect(try Document(parsing: "1e-400").root.double() == 0)
        #expect(outcome(Array(String(repeating: "9", count: 100_000).utf8)) == "numberTooLong")
        #expect(outcome(Array("NaN".utf8)) == "syntax")
        #expect(outcome(Array("[-]".utf8)) == "syntax")
    }

    @Test func objectsWithAHundredThousandKeys() throws {
        var text = "{"
        for index in 0..<100_000 { text += "\"key\(index)\": \(index)," }
        text += "\"last\": 0}"
        let document = try Document(parsing: text)
        #expect(try document.root.object().count == 100_001)
        // Keys that collide in a naive hash (same length, same first and last bytes, same sum).
        var colliding = "{"
        for index in 0..<100_000 {
            let a = index / 26 % 26
            let b = index % 26
            let middle =
                String(UnicodeScalar(UInt8(97 + a))) + String(UnicodeScalar(UInt8(122 - a))) + String(UnicodeScalar(UInt8(97 + b)))
                + String(UnicodeScalar(UInt8(122 - b))) + String(index / 676)
            colliding += "\"x\(middle)y\": 1,"
        }
        colliding += "\"end\": 1}"
        #expect(try Document(parsing: colliding).root.object().count > 99_000)
        #expect(try Document(parsing: colliding, options: ParseOptions { $0.duplicateKeys = .reject }).root.object().count > 99_000)
    }

    @Test func everyJSONFixtureTruncatedAtEveryOffset() throws {
        for name in Fixtures.testSuiteCases("y_") {
            let bytes = try Fixtures.testSuiteBytes(name)
            for length in 0..<bytes.count {
                #expect(outcome(Array(bytes.prefix(length))) != "untyped", "\(name) at \(length)")
            }
        }
        let twitter = try Fixtures.bytes("twitter.json")
        for length in stride(from: 0, to: twitter.count, by: 4099) {
            #expect(outcome(Array(twitter.prefix(length))) == (length == 0 ? "unexpectedEnd" : outcome(Array(twitter.prefix(length)))))
            #expect(outcome(Array(twitter.prefix(length))) != "ok")
        }
    }
}
