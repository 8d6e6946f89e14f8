import Foundation
import Testing

@testable import Cartograph

/// JSONTestSuite `test_parsing`: y_ accepted, n_ rejected with a typed
/// error, i_ outcomes as recorded in `i_outcomes.txt`.
@Suite struct ConformanceTests {
    @Test func suiteHasTheExpectedCaseCounts() {
        #expect(Fixtures.testSuiteCases("y_").count == 95)
        #expect(Fixtures.testSuiteCases("n_").count == 188)
        #expect(Fixtures.testSuiteCases("i_").count == 35)
    }

    @Test(arguments: Fixtures.testSuiteCases("y_"))
    func acceptsEveryValidCase(_ name: String) throws {
        let bytes = try Fixtures.testSuiteBytes(name)
        #expect(throws: Never.self, "\(name)") { _ = try Document(parsing: bytes) }
    }

    @Test(arguments: Fixtures.testSuiteCases("n_"))
    func rejectsEveryInvalidCaseWithALocatedError(_ name: String) throws {
        let bytes = try Fixtures.testSuiteBytes(name)
        do {
            _ = try Document(parsing: bytes)
            Issue.record("\(name) was accepted")
        } catch let error as CartographError {
            let offset = try #require(error.offset, "\(name): error without offset")
            #expect(offset >= 0 && offset <= bytes.count, "\(name): offset \(offset) outside input")
            #expect(error.line != nil && error.column != nil, "\(name): error without line/column")
        }
    }

    static func outcome(of name: String) -> String {
        do {
            _ = try Document(parsing: try Fixtures.testSuiteBytes(name))
            return "\(name) accept"
        } catch let error as CartographError {
            return "\(name) reject \(error.kind)"
        } catch {
            return "\(name) untyped-error"
        }
    }

    @Test func implementationDefinedOutcomesMatchTheGoldenFile() throws {
        let actual = Fixtures.testSuiteCases("i_").map(Self.outcome(of:)).joined(separator: "\n") + "\n"
        let golden = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Fixtures/JSONTestSuite/i_outcomes.txt")
        if ProcessInfo.processInfo.environment["CARTOGRAPH_RECORD_GOLDEN"] == "1" {
            try actual.write(to: golden, atomically: true, encoding: .utf8)
        }
        let expected = try String(contentsOf: Fixtures.root.appendingPathComponent("JSONTestSuite/i_outcomes.txt"), encoding: .utf8)
        #expect(actual == expected)
    }
}
