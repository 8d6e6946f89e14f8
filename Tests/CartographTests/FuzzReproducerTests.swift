import Foundation
import Testing

@testable import Cartograph

/// Every input a fuzzer once crashed on (Fixtures/FuzzReproducers, found by
/// scripts/fuzz), replayed through what the fuzz targets do: each must give
/// a value or a typed error.
@Suite struct FuzzReproducerTests {
    static let directory = Fixtures.root.appendingPathComponent("FuzzReproducers")
    static let files = ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).filter { !$0.hasPrefix(".") }.sorted()

    struct Item: Codable {
        var id: Int
        var name: String?
    }

    @Test func reproducersArePresent() {
        #expect(!Self.files.isEmpty)
    }

    @Test(arguments: files)
    func reproducerNoLongerCrashes(_ name: String) throws {
        let all = Array(try Data(contentsOf: Self.directory.appendingPathComponent(name)))
        let flags = all.first ?? 0
        let bytes = Array(all.dropFirst())
        var options = ParseOptions()
        options.allowComments = flags & 1 != 0
        options.allowMultipleValues = flags & 2 != 0
        options.duplicateKeys = flags & 4 != 0 ? .firstWins : (flags & 8 != 0 ? .reject : .lastWins)
        options.byteOrderMark = flags & 16 != 0 ? .reject : .skip
        options.maxDepth = flags & 32 != 0 ? 16 : 512
        options.maxStringBytes = flags & 64 != 0 ? 8 : options.maxStringBytes
        // FuzzChunked's invariant: its chunk sizes give the whole parse's outcome.
        let whole = Result { try Document(parsing: bytes, options: options) }
        let sizes = sequence(first: Int(flags % 7) + 1) { $0 % 5 + 1 }.prefix(bytes.count + 1)
        let chunked = Result { try parseInChunks(bytes, sizes: Array(sizes), options: options) }
        switch (whole, chunked) {
        case (.success(let a), .success(let b)): #expect(sameTape(a, b))
        case (.failure(let a as CartographError), .failure(let b as CartographError)):
            // A token past its limit is refused while still arriving in chunks.
            let refusedEarly = (b.kind == .stringTooLong || b.kind == .numberTooLong) && (a.offset ?? 0) >= (b.offset ?? 0)
            #expect((a.kind == b.kind && a.offset == b.offset) || refusedEarly, "\(a) vs \(b)")
            if a.offset == b.offset { #expect(a.line == b.line && a.column == b.column, "\(a) vs \(b)") }
        default: Issue.record("whole \(whole) vs chunked \(chunked)")
        }
        var mapper = JSONMapper()
        mapper.parseOptions = options
        if let document = try? Document(parsing: bytes, options: options) {
            _ = try document.root.jsonValue()
            _ = try document.values.map { try $0.jsonValue() }
            _ = try? document.encoded()
        }
        _ = try? mapper.decodeAny(from: bytes)
        _ = try? mapper.decode([Item].self, from: bytes)
        // FuzzPropertyList's invariant: what reads re-encodes and reads back.
        let plist = PropertyListMapper(
            options: PropertyListOptions {
                $0.maxDepth = flags & 1 != 0 ? 8 : 512
                $0.maxValues = 100_000
                $0.reader = flags & 2 != 0 ? .libplist : .native
                $0.nulls = .reject
            })
        if let document = try? plist.document(from: bytes) {
            for format in PropertyListFormat.allCases {
                guard let encoded = try? plist.encode(document, format: format) else { continue }
                let again = try plist.document(from: encoded)
                if format == .binary { #expect(try again.root.jsonValue() == document.root.jsonValue()) }
            }
        }
        let stream = ModelStream(JSONValue.self, path: flags & 128 != 0 ? .values : .topLevelArray)
        _ = try? stream.feed(bytes)
        _ = try? stream.finish()
    }

    @Test func anEmptyMultiValueDocumentHasANullRoot() throws {
        let document = try Document(parsing: "", options: ParseOptions { $0.allowMultipleValues = true })
        #expect(document.values.isEmpty)
        #expect(document.root.isNull)
        #expect(
            try JSONMapper(parseOptions: ParseOptions { $0.allowMultipleValues = true }).decodeAny(from: Array("  ".utf8)).model(as: Int.self) == nil)
    }
}
