import CorpusModels
import Foundation
import Testing

@testable import Cartograph

/// The generated benchmark files with models (Benchmarks/Data), decoded and
/// encoded by Cartograph and by Foundation set up the same way
/// (``CorpusWire``): the models must be equal, and what each writes the
/// other must read back equal. activity.json's models are written as a
/// client writes its own (`let` properties, enumerations, `Date` and `URL`,
/// optionals absent or null, snake_case keys by strategy).
@Suite struct GeneratedCorpusDecodingTests {
    static let dataDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Benchmarks/Data")

    static let files = ["strings.json", "escaped.json", "records.json", "maps.json", "indented.json", "activity.json"]

    static func bytes(_ file: String) throws -> [UInt8] {
        Array(try Data(contentsOf: dataDirectory.appendingPathComponent(file)))
    }

    @Test(arguments: files)
    func decodesAndEncodesAsFoundationDoes(_ file: String) throws {
        let root = try #require(CorpusRoots.type(for: file))
        try check(root, try Self.bytes(file))
    }

    private func compare<Root: CorpusRoot & Equatable>(_ type: Root.Type, _ bytes: [UInt8]) throws {
        let wire = Root.wire
        let ours = try wire.mapper().decode(type, from: bytes)
        let foundation = try wire.jsonDecoder().decode(type, from: Data(bytes))
        #expect(ours.elementCount > 0)
        #expect(ours == foundation)
        #expect(try wire.jsonDecoder().decode(type, from: Data(wire.mapper().encode(ours))) == foundation)
        #expect(try wire.mapper().decode(type, from: wire.jsonEncoder().encode(foundation)) == ours)
    }

    private func check(_ type: any CorpusRoot.Type, _ bytes: [UInt8]) throws {
        guard let equatable = type as? any (CorpusRoot & Equatable).Type else {
            Issue.record("\(type) is not Equatable")
            return
        }
        try compare(equatable, bytes)
    }

    /// activity.json has every shape its models allow: each kind of event,
    /// optionals absent, null and present, and dates that are not midnight.
    @Test func activityHasEveryShapeItsModelsAllow() throws {
        let events = try ActivityEvent.wire.mapper().decode([ActivityEvent].self, from: try Self.bytes("activity.json"))
        #expect(Set(events.map(\.type)) == [.push, .watch, .issues, .fork, .create])
        #expect(events.contains { $0.org != nil } && events.contains { $0.org == nil })
        let issues = events.compactMap(\.payload.issue)
        #expect(issues.contains { $0.closedAt == nil } && issues.contains { $0.closedAt != nil })
        #expect(issues.contains { $0.body == nil } && issues.contains { $0.state == .closed })
        #expect(events.compactMap(\.payload.forkee).contains { $0.language == nil })
        #expect(events.contains { $0.payload.refType == .tag })
        #expect(events.first.map { Calendar(identifier: .gregorian).component(.second, from: $0.createdAt) } != nil)
    }

    /// A record of activity.json with a date or URL that is not one: both
    /// decoders refuse it, Cartograph naming where.
    @Test func activityRefusesABadDateOrURL() throws {
        let good = try Self.bytes("activity.json")
        let text = String(decoding: good, as: UTF8.self)
        let firstDate = try #require(text.range(of: #""created_at":"2026-"#))
        let broken = text.replacingCharacters(in: firstDate, with: #""created_at":"2026/"#)
        #expect(throws: DecodingError.self) { try ActivityEvent.wire.jsonDecoder().decode([ActivityEvent].self, from: Data(broken.utf8)) }
        do {
            _ = try ActivityEvent.wire.mapper().decode([ActivityEvent].self, from: Array(broken.utf8))
            Issue.record("a bad date decoded")
        } catch let error as DecodingError {
            guard case .dataCorrupted(let context) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(context.codingPath.last?.stringValue == "createdAt")
        }
    }
}
