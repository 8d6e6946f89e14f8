import CorpusModels
import Foundation
import Testing

@testable import Cartograph

/// One configured mapper and registry shared by many tasks: results equal
/// to serial ones (run under TSan by scripts/test-sanitizers).
@Suite struct ConcurrencyTests {
    @Test func eightTasksOfAThousandMixedDecodesAndEncodesMatchSerialResults() async throws {
        var registry = ModelRegistry.corpusMappings()
        registry.register(Person.self)
        registry.register(UserFactory())
        registry.identify { object, _ in object.contains("userID") ? User.self : nil }
        let mapper = JSONMapper(registry: registry)
        let plist = PropertyListMapper(registry: registry)
        let person = Array(#"{"personInfo": {"firstName": "Ada", "age": 36}, "contact": {"email": "a@x"}}"#.utf8)
        let users = Array(#"{"data": [{"userID": 1, "name": "a"}, {"wrap": {"userID": 2}}]}"#.utf8)
        let twitter = try Fixtures.bytes("twitter.json")
        let statusBytes = Array(try JSONValue(parsing: twitter)["statuses"]![0]!.encoded())
        let plistBytes = try plist.encode(try JSONValue(parsing: statusBytes), format: .binary)

        func round(_ index: Int) throws -> String {
            switch index % 5 {
            case 0:
                let decoded = try mapper.decode(Person.self, from: person)
                return String(decoding: try mapper.encode(decoded), as: UTF8.self)
            case 1:
                return try mapper.collect(User.self, from: users).map { "\($0.id)" }.joined(separator: ",")
            case 2:
                let status = try mapper.decode(CorpusModels.Status.self, from: statusBytes)
                return try mapper.encodeString(status)
            case 3:
                let status = try plist.decode(CorpusModels.Status.self, from: plistBytes)
                return "\(status.id) \(status.user.screenName)"
            default:
                let value = try JSONValue(parsing: statusBytes)
                return try value.encodedString(options: WriteOptions { $0.sortedKeys = true })
            }
        }

        let serial = try (0..<5).map(round)
        let results = try await withThrowingTaskGroup(of: [String].self) { group in
            for task in 0..<8 {
                group.addTask {
                    try (0..<1000).map { try round($0 + task) }
                }
            }
            return try await group.reduce(into: [[String]]()) { $0.append($1) }
        }
        #expect(results.count == 8)
        for result in results {
            #expect(result.count == 1000)
            for value in result { #expect(serial.contains(value)) }
        }
    }
}
