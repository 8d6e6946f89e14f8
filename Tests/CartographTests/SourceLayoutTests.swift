import Foundation
import Testing

/// The library's folders are its layers (DESIGN.md): these checks keep C
/// behind `Bridge/`, so a reader knows where the C boundary is.
@Suite struct SourceLayoutTests {
    static let library = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Sources/Cartograph")

    /// Every Swift file of the library, as a path under `Sources/Cartograph`.
    static func sources() throws -> [String] {
        let walker = try #require(FileManager.default.enumerator(atPath: library.path))
        return walker.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }.sorted()
    }

    @Test func cModulesAreImportedOnlyInBridge() throws {
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
        #expect(importers.allSatisfy { $0.hasPrefix("Bridge/") }, "C imported outside Bridge/: \(importers.filter { !$0.hasPrefix("Bridge/") })")
    }
}
