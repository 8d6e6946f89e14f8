import Foundation

/// Test fixtures bundled from `Tests/CartographTests/Fixtures` (origins in its README).
enum Fixtures {
    static let root = Bundle.module.resourceURL!.appendingPathComponent("Fixtures")

    static func bytes(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: root.appendingPathComponent(name)))
    }

    static let testSuiteDirectory = root.appendingPathComponent("JSONTestSuite/test_parsing")

    /// The JSONTestSuite file names starting with a prefix (`y_`, `n_`, `i_`), sorted.
    static func testSuiteCases(_ prefix: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: testSuiteDirectory.path)) ?? []
        return names.filter { $0.hasPrefix(prefix) && $0.hasSuffix(".json") }.sorted()
    }

    static func testSuiteBytes(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: testSuiteDirectory.appendingPathComponent(name)))
    }
}
