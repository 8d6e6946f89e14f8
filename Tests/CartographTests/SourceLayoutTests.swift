import Foundation
import Testing

/// The library's folders are its layers (DESIGN.md): these checks keep C
/// behind `Unsafe/C/` and unsafe code inside `Unsafe/` or in the files
/// `Tests/unsafe-outside-perimeter.txt` still lists, so a reader knows where
/// the C boundary and the unsafe perimeter are.
@Suite struct SourceLayoutTests {
    static let library = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Sources/Cartograph")

    /// Every Swift file of the library, as a path under `Sources/Cartograph`.
    static func sources() throws -> [String] {
        let walker = try #require(FileManager.default.enumerator(atPath: library.path))
        return walker.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }.sorted()
    }

    @Test func cModulesAreImportedOnlyInTheCLayer() throws {
        let sources = try Self.sources()
        #expect(sources.count > 100, "found \(sources.count) files under \(Self.library.path)")
        var importers: [String] = []
        for path in sources {
            let text = try String(contentsOf: Self.library.appendingPathComponent(path), encoding: .utf8)
            let importsC = text.split(separator: "\n").contains { line in
                let words = line.split(separator: " ")
                guard let at = words.firstIndex(of: "import"), at + 1 < words.count else { return false }
                return ["CYajl", "CJansson", "CPlist", "CCartographTape", "CCartographShims"].contains(String(words[at + 1]))
            }
            if importsC { importers.append(path) }
        }
        #expect(!importers.isEmpty, "no file imports C: the check reads nothing")
        #expect(
            importers.allSatisfy { $0.hasPrefix("Unsafe/C/") }, "C imported outside Unsafe/C/: \(importers.filter { !$0.hasPrefix("Unsafe/C/") })")
    }

    /// ThreadSanitizer does not see `Synchronization.Mutex` lock and unlock
    /// (the standard library's futex code is not instrumented), so every
    /// mutex is taken through `withSanitizedLock`, which tells it; a plain
    /// `withLock` would bring back its false reports of races.
    @Test func mutexesAreTakenSoThatThreadSanitizerSeesThem() throws {
        var plain: [String] = []
        var sanitized = 0
        for path in try Self.sources() where path != "Unsafe/C/SanitizedLock.swift" {
            let text = try String(contentsOf: Self.library.appendingPathComponent(path), encoding: .utf8)
            sanitized += text.components(separatedBy: ".withSanitizedLock").count - 1
            // BinaryPlistScratch's own `withLock` is an NSLock's, which the sanitizer models.
            if text.contains(".withLock"), !(path.hasSuffix("BinaryPlistScratch.swift") && text.contains("NSLock()")) { plain.append(path) }
        }
        #expect(sanitized > 10, "found \(sanitized) sanitized lock uses: the check reads nothing")
        #expect(plain.isEmpty, "Mutex.withLock used directly in \(plain)")
    }

    /// The unsafe marks on a file's lines of code, counted as
    /// `scripts/unsafe-perimeter` counts them: the word `unsafe` not part of
    /// a longer name, `@safe`, and `@exclusivity(unchecked)`.
    static func unsafeMarks(in text: String) -> Int {
        var marks = 0
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let code = Array((line.range(of: "//").map { line[..<$0.lowerBound] } ?? line[...]).utf8)
            func isNamePart(_ byte: UInt8) -> Bool {
                (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == 0x5F
            }
            let word = Array("unsafe".utf8)
            var at = 0
            while at + word.count <= code.count {
                if Array(code[at..<at + word.count]) == word,
                    at == 0 || !(isNamePart(code[at - 1]) || code[at - 1] == UInt8(ascii: ".")),
                    at + word.count == code.count || !(isNamePart(code[at + word.count]) || code[at + word.count] == UInt8(ascii: "("))
                {
                    marks += 1
                    at += word.count
                } else {
                    at += 1
                }
            }
            let text = String(decoding: code, as: UTF8.self)
            marks += text.components(separatedBy: "@exclusivity(unchecked)").count - 1
            var rest = text[...]
            while let found = rest.range(of: "@safe") {
                let after = rest[found.upperBound...].utf8.first
                if after.map({ !isNamePart($0) }) ?? true { marks += 1 }
                rest = rest[found.upperBound...]
            }
        }
        return marks
    }

    @Test func countingUnsafeMarksFollowsTheScriptsRule() {
        #expect(Self.unsafeMarks(in: "let a = unsafe unsafeBitCast(x, to: Int.self)") == 1)
        #expect(Self.unsafeMarks(in: "@safe final class A { unowned(unsafe) var b: B }") == 2)
        #expect(Self.unsafeMarks(in: "@exclusivity(unchecked) var c = 0 // unsafe in a comment") == 1)
        #expect(Self.unsafeMarks(in: "x.unsafeAddress; withUnsafeBytes { _ in }; @safer") == 0)
        #expect(Self.unsafeMarks(in: "f(unsafe a, unsafe b)\nunsafe g()") == 3)
    }

    /// Unsafe code outside `Unsafe/` is only where the list says, as much as
    /// it says: a file that gains a mark fails, and so does a list that
    /// overstates one (rewrite it with `scripts/unsafe-perimeter --update`),
    /// so the list only shrinks as code moves behind safe APIs.
    @Test func unsafeCodeStaysInsideThePerimeterOrTheList() throws {
        let listURL = Self.library.deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Tests/unsafe-outside-perimeter.txt")
        var listed: [String: Int] = [:]
        for line in try String(contentsOf: listURL, encoding: .utf8).split(separator: "\n") where !line.hasPrefix("#") {
            let parts = line.split(separator: " ", maxSplits: 1)
            listed[String(parts[1])] = Int(parts[0])
        }
        var found: [String: Int] = [:]
        var inside = 0
        for path in try Self.sources() {
            let marks = Self.unsafeMarks(in: try String(contentsOf: Self.library.appendingPathComponent(path), encoding: .utf8))
            if path.hasPrefix("Unsafe/") { inside += marks } else if marks > 0 { found[path] = marks }
        }
        #expect(inside > 100, "the perimeter's own files hold the unsafe code: counted \(inside)")
        for (path, marks) in found.sorted(by: { $0.key < $1.key }) {
            #expect(marks <= listed[path, default: 0], "\(path): \(marks) unsafe marks outside Unsafe/, the list allows \(listed[path, default: 0])")
        }
        for (path, marks) in listed.sorted(by: { $0.key < $1.key }) where found[path, default: 0] < marks {
            Issue.record(
                "\(path): the list says \(marks) unsafe marks, the file has \(found[path, default: 0]): run scripts/unsafe-perimeter --update")
        }
    }
}
