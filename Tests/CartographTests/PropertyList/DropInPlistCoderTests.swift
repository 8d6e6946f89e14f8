import Foundation
import Testing

@testable import Cartograph

/// `CartographPropertyListDecoder` / `CartographPropertyListEncoder` used as
/// Foundation's are: files pass both ways, in both formats.
@Suite struct DropInPlistCoderTests {
    struct Settings: Codable, Equatable {
        var name: String
        var retries: Int
        var ratio: Double
        var updated: Date
        var blob: Data
        var tags: [String?]
        var limits: [String: Int]
        var home: URL
    }

    static let settings = Settings(
        name: "svc", retries: 3, ratio: 0.25, updated: Date(timeIntervalSinceReferenceDate: 700_000_000),
        blob: Data([0, 1, 2]), tags: ["a", nil], limits: ["cpu": 2], home: URL(string: "https://example.com")!)

    @Test(arguments: [PropertyListSerialization.PropertyListFormat.binary, .xml])
    func filesPassBothWays(_ format: PropertyListSerialization.PropertyListFormat) throws {
        let ours = CartographPropertyListEncoder()
        ours.outputFormat = format
        let theirs = PropertyListEncoder()
        theirs.outputFormat = format
        let ourData = try ours.encode(Self.settings)
        let theirData = try theirs.encode(Self.settings)
        #expect(try PropertyListDecoder().decode(Settings.self, from: ourData) == Self.settings)
        var read = PropertyListSerialization.PropertyListFormat.openStep
        #expect(try CartographPropertyListDecoder().decode(Settings.self, from: theirData, format: &read) == Self.settings)
        #expect(read == format)
        #expect(try CartographPropertyListDecoder().decode(Settings.self, from: ourData) == Self.settings)
    }

    @Test func openStepCannotBeWritten() {
        let encoder = CartographPropertyListEncoder()
        encoder.outputFormat = .openStep
        #expect(throws: EncodingError.self) { try encoder.encode([1]) }
    }
}
