import Foundation
import Testing

@testable import Cartograph

/// OpenStep plists through `PropertyListMapper`: what they hold, the
/// strings-file form, and hostile input as typed errors at their place.
@Suite struct OpenStepPlistReaderTests {
    func read(_ text: String, _ options: PropertyListOptions = PropertyListOptions()) throws -> JSONValue {
        try PropertyListMapper(options: options).document(from: Array(text.utf8)).root.jsonValue()
    }

    @Test func dictionariesArraysStringsAndData() throws {
        let value = try read(
            """
            // a comment
            { name = "Ada Lovelace"; /* between */ tags = (math, 'poetry', "",); empty = {}; bytes = <4164 61>;
              path = /usr/lib:x.y-z_$; "quoted key" = "tab\\there"; }
            """)
        #expect(value["name"] == .string("Ada Lovelace"))
        #expect(value["tags"] == .array([.string("math"), .string("poetry"), .string("")]))
        #expect(value["empty"] == .object(JSONObject()))
        #expect(value["bytes"] == .string("QWRh")) // data on the tape is base64 (the JSON view)
        #expect(value["path"] == .string("/usr/lib:x.y-z_$"))
        #expect(value["quoted key"] == .string("tab\there"))
    }

    @Test func theStringsFileForm() throws {
        let value = try read("\"greeting\" = \"Hello\";\nfarewell = 'Bye'; // a comment\n")
        #expect(value == .object(JSONObject([("greeting", .string("Hello")), ("farewell", .string("Bye"))])))
    }

    @Test func escapesAsFoundationReadsThem() throws {
        #expect(try read(#"'\U00e9\101\n\q\200\U'"#) == .string("éA\nq\u{A0}\u{0}"))
        // A surrogate is refused, even one of a pair, as Foundation refuses it.
        for text in [#"'\UD83D\UDE00'"#, #"'\UD83Dx'"#] {
            let error = try #require(throws: CartographError.self) { try read(text) }
            #expect(error.kind == .invalidEscape)
        }
    }

    @Test func utf16InputIsConverted() throws {
        let bytes = Array("{ a = b; }".data(using: .utf16)!)
        #expect(try PropertyListMapper().document(from: bytes).root.jsonValue() == .object(JSONObject([("a", .string("b"))])))
    }

    /// Each broken input is a typed error placed in the input (nothing of it in the message).
    @Test(arguments: [
        ("{ a = b }", "without `;`"), ("{ a b; }", "without `=`"), ("(a b)", "without `,`"), ("(a,,)", "where a value belongs"),
        ("'abc", "inside a string"), ("/* open", "inside a comment"), ("(<0f0>)", "odd number"), ("(<zz>)", "not a hex digit"),
        ("{ a = b; } junk", "junk after"), ("(a", "inside an array"), ("{ a = b;", "inside a dictionary"), ("'\\U", "inside a string"),
        ("(#)", "where a value belongs")
    ])
    func brokenInputIsATypedErrorAtItsPlace(_ input: String, _ expected: String) {
        do {
            _ = try read(input)
            Issue.record("\(input) was read")
        } catch let error as CartographError {
            #expect(error.description.contains(expected), "\(input): \(error)")
            #expect(error.offset != nil, "\(input)")
        } catch {
            Issue.record("\(input): \(error)")
        }
    }

    /// Nesting past `maxDepth` is refused, however deep the input goes.
    @Test func deepNestingIsRefused() {
        let deep = String(repeating: "(", count: 100_000) + String(repeating: ")", count: 100_000)
        #expect(throws: CartographError.self) { try read(deep) }
        let shallow = String(repeating: "(", count: 100) + String(repeating: ")", count: 100)
        #expect(throws: Never.self) { try read(shallow) }
    }

    /// Every prefix and many byte flips of a real file: a value or a typed error, never a crash.
    @Test func truncationsAndByteFlips() throws {
        let file = try Array(
            Data(
                contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                    .appendingPathComponent("Fixtures/OpenStep/WasmLd.xcspec")))
        for end in stride(from: 0, to: file.count, by: 7) {
            _ = try? PropertyListMapper().document(from: Array(file[..<end]))
        }
        var generator = SeededGenerator(seed: 0x0_9E57E9)
        for _ in 0..<2_000 {
            var flipped = file
            flipped[Int.random(in: 0..<flipped.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
            do { _ = try PropertyListMapper().document(from: flipped) } catch is CartographError {} catch {
                Issue.record("\(error) is not a CartographError")
            }
        }
    }
}
