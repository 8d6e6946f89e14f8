import Cartograph
import Foundation
import Testing

/// `cartograph infer`: the generated code is the code in this folder
/// (`InferredCodableOrder.swift`, `InferredMappingOrder.swift`), so it
/// compiles as part of this test target, and the tests below decode the
/// samples it came from with it. After a deliberate change to the generator,
/// regenerate both files with
/// `swift run cartograph infer Tests/CartographTests/Fixtures/Infer/*.json --name InferredCodableOrder --codable`
/// (and `--mapping` for `InferredMappingOrder`).
@Suite struct InferTests {
    let scratch = ScratchDirectory()

    static let samples = ["order-1.json", "order-2.json", "orders-page.json"]
    static var samplePaths: [String] { samples.map { Fixtures.root.appendingPathComponent("Infer/\($0)").path } }

    static func committedSource(_ name: String, file: String = #filePath) throws -> String {
        let url = URL(fileURLWithPath: file).deletingLastPathComponent().appendingPathComponent(name)
        return try String(contentsOf: url, encoding: .utf8)
    }

    @Test(arguments: [("codable", "InferredCodableOrder"), ("mapping", "InferredMappingOrder")])
    func generatedSourceIsTheCompiledSource(style: String, name: String) throws {
        let run = try CLITests.run(["infer"] + Self.samplePaths + ["--name", name, "--\(style)"])
        #expect(run.status == 0, "\(run.errors)")
        #expect(run.output == (try Self.committedSource("\(name).swift")))
    }

    @Test func codableModelsDecodeTheirSamples() throws {
        let mapper = JSONMapper(options: CodableOptions { $0.dates = .iso8601(fractionalSeconds: true) })
        let first = try mapper.decode(InferredCodableOrder.self, from: try Fixtures.bytes("Infer/order-1.json"))
        #expect(first.orderID == 1001 && first.shippingCarrier == "DHL" && first.`default` == false && first._2faVerified)
        #expect(first.ledgerRef == Decimal(string: "123456789012345678901234567890"))
        #expect(first.placedAt == Date(timeIntervalSince1970: 1_793_610_843))
        #expect(first.customer.email == "ada@example.com" && first.note == nil)
        #expect(first.lineItems.map(\.unitPrice) == [19.75, 20] && first.lineItems[1].tags.isEmpty)
        #expect(first.meta == ["source": "web"] && first.categories == [.init(id: 3, name: "books")])
        let second = try mapper.decode(InferredCodableOrder.self, from: try Fixtures.bytes("Infer/order-2.json"))
        #expect(second.customer.email == nil && second.note == "leave at the door" && second.meta == "legacy")
        #expect(second.placedAt.timeIntervalSince1970 == 1_793_727_600.25)
        let page = try mapper.decode([InferredCodableOrder].self, from: try Fixtures.bytes("Infer/orders-page.json"))
        #expect(page.count == 1 && page[0].lineItems[0].discount?.percent == 10)
        #expect(page[0].ledgerRef == Decimal(string: "18446744073709551616"))
        // Foundation reads the same types (the dates it cannot: its .iso8601 has no fractions; seconds here).
        let foundation = JSONDecoder()
        foundation.dateDecodingStrategy = .iso8601
        #expect(try foundation.decode([InferredCodableOrder].self, from: Data(try Fixtures.bytes("Infer/orders-page.json"))) == page)
    }

    @Test func mappingModelsDecodeTheirSamplesAndRoundTrip() throws {
        let mapper = JSONMapper()
        let first = try mapper.decode(InferredMappingOrder.self, from: try Fixtures.bytes("Infer/order-1.json"))
        #expect(first.orderID == 1001 && first.shippingCarrier == "DHL" && first._2faVerified)
        #expect(first.ledgerRef == Decimal(string: "123456789012345678901234567890"))
        #expect(first.customer.fullName == "Ada Lovelace" && first.lineItems.count == 2 && first.meta == ["source": "web"])
        let second = try mapper.decode(InferredMappingOrder.self, from: try Fixtures.bytes("Infer/order-2.json"))
        #expect(second.note == "leave at the door" && second.customer.email == nil && second.lineItems.isEmpty)
        #expect(second.placedAt.timeIntervalSince1970 == 1_793_727_600.25)
        let page = try mapper.decode([InferredMappingOrder].self, from: try Fixtures.bytes("Infer/orders-page.json"))
        #expect(page[0].lineItems[0].discount == .init(code: "BULK", percent: 10) && page[0].categories.count == 2)
        for order in [first, second] + page {
            #expect(try mapper.decode(InferredMappingOrder.self, from: try mapper.encode(order)) == order)
        }
        // Keys present in every sample are required in the generated mapping.
        let error = try #require(throws: CartographError.self) {
            try mapper.decode(InferredMappingOrder.Category.self, from: Array(#"{"id": 1}"#.utf8))
        }
        #expect(error.path == "$.name")
    }

    @Test func propertyListSamplesGiveTheSameModelAsJSON() throws {
        let json = Fixtures.root.appendingPathComponent("Infer/order-2.json").path
        let plist = try scratch.file("", name: "order-2.plist")
        #expect(try CLITests.run(["convert", json, "--to", "binary", "-o", plist]).status == 0)
        let fromJSON = try CLITests.run(["infer", json, "--name", "Order"])
        let fromPlist = try CLITests.run(["infer", plist, "--name", "Order"])
        #expect(fromPlist.status == 0 && fromPlist.output == fromJSON.output)
        #expect(fromPlist.output.contains("var placedAt: Date"))
    }

    @Test func namesBecomeSwiftIdentifiers() throws {
        let sample =
            #"{"userID": 1, "user_id": 2, "class": "a", "HTTP-status": 200, "line items": [{"a": 1}], "boxes": [{"b": true}], "Date": {"c": null}}"#
        let run = try CLITests.run(["infer", "-", "--name", "Record"], input: sample)
        #expect(run.status == 0)
        for line in [
            "var userID: Int", "var userID2: Int", "var `class`: String", "var httpStatus: Int",
            "var lineItems: [LineItem]", "var boxes: [Box]", "var date: DateModel",
            "var c: JSONValue?", "case userID2 = \"user_id\"", "case `class` = \"class\""
        ] {
            #expect(run.output.contains(line), "\(line)")
        }
    }

    @Test func badSamplesAndNamesFailWithTheirStatus() throws {
        let scalar = try CLITests.run(["infer", "-"], input: "42")
        #expect(scalar.status == 1 && scalar.errors.contains("must be an object or an array of objects"))
        let broken = try CLITests.run(["infer", "-"], input: "{\"a\": tru}")
        #expect(broken.status == 1 && broken.errors.contains("1:"))
        #expect(try CLITests.run(["infer", "-", "--name", "9lives"], input: "{}").status == 2)
        #expect(try CLITests.run(["infer", "/no/such/file.json"]).status == 2)
    }

    /// Objects whose keys are data become `[String: Value]`: ids, one stem
    /// with varying digits, more than 40 keys, or keys that change from object
    /// to object; records stay types. Swift naming: acronyms in capitals,
    /// keywords in backticks, irregular singulars.
    @Test func mapsAndSwiftNames() throws {
        var wide: [String: Int] = [:]
        for index in 0..<1_264 { wide["field\(index)"] = index }
        var sample: [String: Any] = [
            "by_id": ["1001": ["name": "a", "avatar_url": "u"], "1002": ["name": "b", "avatar_url": "v"]],
            "by_uuid": ["6F9619FF-8B86-D011-B42D-00C04FC964FF": true, "7F9619FF-8B86-D011-B42D-00C04FC964FF": false],
            "sessions": ["user-0001": 1.5, "user-0002": 2.5, "user-0003": 3.5, "user-0004": 4.5],
            "wide": wide,
            "record": ["first": 1, "second": 2],
            "statuses": [["id": 1]],
            "one_id": ["337100890": "Seul"]
        ]
        sample["varying"] = [["a": ["x": 1]], ["b": ["x": 2]], ["c": ["x": 3]]]
        let json = String(decoding: try JSONSerialization.data(withJSONObject: sample), as: UTF8.self)
        let run = try CLITests.run(["infer", "-", "--name", "Sample"], input: json)
        #expect(run.status == 0, "\(run.errors)")
        for line in [
            "var byID: [String: ByIDItem]", "var avatarURL: String", "var byUUID: [String: Bool]", "var sessions: [String: Double]",
            "var wide: [String: Int]", "var record: Record", "var statuses: [Status]", "var varying: [[String: VaryingItem]]",
            "var oneID: [String: String]"
        ] {
            #expect(run.output.contains(line), "\(line) in \(run.output)")
        }
        #expect(run.output.count < 5_000, "a map stays one line, not 1,264 properties")
        // The generated code decodes the sample with Foundation's decoder (types checked by a
        // Swift compile in generatedSourceIsTheCompiledSource for the committed fixtures).
    }

    /// A sample with maps (ids, a stem with digits, 1,200 metrics), acronyms and
    /// a keyword, generated `--access public`: `InferredDirectory.swift`, compiled
    /// here, and decodes the sample through Cartograph and Foundation alike.
    @Test func mapsCompileAndDecodeTheirSample() throws {
        let path = Fixtures.root.appendingPathComponent("Infer/directory.json").path
        let run = try CLITests.run(["infer", path, "--name", "InferredDirectory", "--codable", "--access", "public"])
        #expect(run.output == (try Self.committedSource("InferredDirectory.swift")))
        let bytes = try Fixtures.bytes("Infer/directory.json")
        let ours = try JSONMapper(options: CodableOptions { $0.dates = .iso8601(fractionalSeconds: true) }).decode(
            InferredDirectory.self, from: bytes)
        let foundation = JSONDecoder()
        foundation.dateDecodingStrategy = .iso8601
        #expect(try foundation.decode(InferredDirectory.self, from: Data(bytes)) == ours)
        #expect(ours.usersByID["1002"]?.avatarURL == "https://x/l.png" && ours.sessions.count == 4 && ours.metrics.count == 1_200)
        #expect(ours.class == "premium" && ours.statuses.map(\.statusID) == [1, 2])
        // --access public: public types with a public memberwise init.
        let made = InferredDirectory(
            version: 1, usersByID: [:], sessions: [:], metrics: ["m": 1], class: "c", statuses: [.init(statusID: 3, label: "l")])
        #expect(made.metrics["m"] == 1 && made.statuses.first?.statusID == 3)
    }

    /// A top level keyed by ids whose values are records is a dictionary
    /// of its item type, not a type with a property per id (which failed to
    /// decode the next response, whose ids differ): `InferredIDMap.swift`,
    /// compiled here, decodes the sample and other ids through Cartograph
    /// and Foundation alike; `--mapping` writes the same dictionary of
    /// `Mappable` items, and the schema is a map of the item's definition.
    @Test func aTopLevelKeyedByIDsIsADictionaryOfItsItems() throws {
        let path = Fixtures.root.appendingPathComponent("Infer/ids.json").path
        let run = try CLITests.run(["infer", path, "--name", "InferredIDMap"])
        #expect(run.output == (try Self.committedSource("InferredIDMap.swift")))
        let bytes = try Fixtures.bytes("Infer/ids.json")
        let ours = try JSONMapper().decode(InferredIDMap.self, from: bytes)
        #expect(try JSONDecoder().decode(InferredIDMap.self, from: Data(bytes)) == ours)
        #expect(ours.keys.sorted() == ["1001", "1002", "1003"])
        #expect(ours["1002"]?.email == nil && ours["1003"]?.roles == ["dev", "ops"] && ours["1001"]?.address.zipCode == "N1")
        let other = Array(#"{"77": {"name": "Tim", "roles": [], "address": {"city": "Oslo", "zip_code": "0150"}}}"#.utf8)
        #expect(try JSONMapper().decode(InferredIDMap.self, from: other)["77"]?.address.city == "Oslo")

        let mapping = try CLITests.run(["infer", path, "--name", "IDs", "--mapping"])
        #expect(mapping.output.contains("typealias IDs = [String: IDsItem]\n"), "\(mapping.output)")
        #expect(mapping.output.contains("struct IDsItem: Mappable, Equatable, Sendable {"))

        let schemaRun = try CLITests.run(["schema", path, "--name", "Users"])
        let schema = try SchemaCommandTests.json(schemaRun.output)
        #expect(schema["$ref"] == "#/$defs/Users")
        #expect(schema["$defs"]?["Users"] == ["type": "object", "additionalProperties": ["$ref": "#/$defs/UsersItem"]])
        #expect(schema["$defs"]?["UsersItem"]?["required"] == ["name", "roles", "address"])
        let sample = try SchemaCommandTests.json(String(decoding: bytes, as: UTF8.self))
        let otherSample = try SchemaCommandTests.json(String(decoding: other, as: UTF8.self))
        #expect(try OutsideValidator.errors(in: [sample, otherSample, ["9": ["name": 1]]], against: schema).map(\.isEmpty) == [true, true, false])

        // A wide object of scalars (keys that are words) is still a model.
        let wide = "{" + (0..<50).map { "\"setting_\($0)\": \($0)" }.joined(separator: ",") + "}"
        let config = try CLITests.run(["infer", "-", "--name", "Config"], input: wide)
        #expect(config.output.contains("struct Config: Codable") && !config.output.contains("typealias"))
    }

    /// The models `infer` writes for public files the project was not
    /// built on (github_events.json: nested payloads, URLs, dates, nulls,
    /// values of mixed kinds; citm_catalog.json: maps keyed by numeric ids,
    /// empty objects), compiled here (`InferredGitHubEvent.swift`,
    /// `InferredCatalog.swift`), read each file through `JSONMapper` and
    /// the drop-in decoder to the values `JSONDecoder` reads, and the
    /// drop-in encoder writes them as `JSONEncoder` does, byte for byte.
    @Test func inferredModelsOfPublicFilesCodeAsFoundationDoes() throws {
        try codesAsFoundationDoes([InferredGitHubEvent].self, file: "github_events.json", name: "InferredGitHubEvent", count: 30)
        try codesAsFoundationDoes(InferredCatalog.self, file: "citm_catalog.json", name: "InferredCatalog", count: 1)
    }

    /// github_events.json through the `Mappable` models `infer --mapping`
    /// writes (`InferredGitHubEventMapped.swift`): decoded, written and
    /// read back to the same values, and what the mappings write is what
    /// the `Codable` models read from the file itself (`JSONDecoder`'s values).
    @Test func inferredMappingsOfAPublicFileReadWhatCodableReads() throws {
        let path = GeneratedCorpusDecodingTests.dataDirectory.appendingPathComponent("github_events.json").path
        let run = try CLITests.run(["infer", path, "--name", "InferredGitHubEventMapped", "--mapping"])
        #expect(run.output == (try Self.committedSource("InferredGitHubEventMapped.swift")))
        let bytes = try GeneratedCorpusDecodingTests.bytes("github_events.json")
        let mapper = JSONMapper()
        let mapped = try mapper.decode([InferredGitHubEventMapped].self, from: bytes)
        #expect(mapped.count == 30)
        let written = try mapper.encode(mapped)
        #expect(try mapper.decode([InferredGitHubEventMapped].self, from: written) == mapped)
        let foundation = JSONDecoder()
        foundation.dateDecodingStrategy = .iso8601
        let expected = try foundation.decode([InferredGitHubEvent].self, from: Data(bytes))
        let reread = try JSONMapper(options: CodableOptions { $0.dates = .iso8601(fractionalSeconds: true) }).decode(
            [InferredGitHubEvent].self, from: written)
        #expect(reread == expected)
    }

    private func codesAsFoundationDoes<T: Codable & Equatable>(_ type: T.Type, file: String, name: String, count: Int) throws {
        let path = GeneratedCorpusDecodingTests.dataDirectory.appendingPathComponent(file).path
        let run = try CLITests.run(["infer", path, "--name", name])
        #expect(run.output == (try Self.committedSource(name + ".swift")))
        let bytes = try GeneratedCorpusDecodingTests.bytes(file)
        let foundation = JSONDecoder()
        foundation.dateDecodingStrategy = .iso8601
        let theirs = try foundation.decode(T.self, from: Data(bytes))
        let ours = try JSONMapper(options: CodableOptions { $0.dates = .iso8601(fractionalSeconds: true) }).decode(T.self, from: bytes)
        #expect(ours == theirs, "\(file)")
        let dropIn = CartographJSONDecoder()
        dropIn.dateDecodingStrategy = .iso8601
        #expect(try dropIn.decode(T.self, from: Data(bytes)) == theirs, "\(file)")
        #expect(((theirs as? [Any])?.count ?? 1) == count)

        let encoder = JSONEncoder()
        let ourEncoder = CartographJSONEncoder()
        for formatting in [JSONEncoder.OutputFormatting.sortedKeys, [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]] {
            encoder.outputFormatting = formatting
            ourEncoder.outputFormatting = formatting
            encoder.dateEncodingStrategy = .iso8601
            ourEncoder.dateEncodingStrategy = .iso8601
            let expected = try encoder.encode(theirs)
            let written = try ourEncoder.encode(ours)
            #expect(written == expected, "\(file) \(formatting.rawValue): \(String(decoding: written.prefix(400), as: UTF8.self))")
        }
    }

    /// One shape under four keys is one type (named where it was first
    /// seen, qualified where it is used elsewhere): `InferredRepeated.swift`,
    /// compiled here, decodes its sample through its mappings.
    @Test func repeatedShapesAreOneType() throws {
        let path = Fixtures.root.appendingPathComponent("Infer/repeated.json").path
        let run = try CLITests.run(["infer", path, "--name", "InferredRepeated", "--mapping"])
        #expect(run.output == (try Self.committedSource("InferredRepeated.swift")))
        #expect(run.output.components(separatedBy: "struct ").count == 4, "three types: the root, Status, User")
        let value = try JSONMapper().decode(InferredRepeated.self, from: try Fixtures.bytes("Infer/repeated.json"))
        #expect(value.owner.name == "Grace" && value.moderators.first?.avatarURL == "https://x/t.png")
        #expect(value.statuses.map(\.retweetedBy.name) == ["Lin", "Ada"])
    }

    /// `--enums`: strings taking a few values, each seen at least twice on
    /// average, become `String` enums (titles, all different, stay strings);
    /// `InferredTicket.swift`, compiled here, decodes its samples through
    /// Cartograph and Foundation alike.
    @Test func closedStringSetsBecomeEnums() throws {
        let path = Fixtures.root.appendingPathComponent("Infer/tickets.json").path
        let run = try CLITests.run(["infer", path, "--name", "InferredTicket", "--codable", "--enums"])
        #expect(run.output == (try Self.committedSource("InferredTicket.swift")))
        #expect(run.output.contains("var title: String") && run.output.contains("case inReview = \"in-review\""))
        let bytes = try Fixtures.bytes("Infer/tickets.json")
        let ours = try JSONMapper().decode([InferredTicket].self, from: bytes)
        #expect(try JSONDecoder().decode([InferredTicket].self, from: Data(bytes)) == ours)
        #expect(ours.map(\.state) == [.open, .closed, .inReview, .open, .closed, .inReview, .open, .closed])
        #expect(try CLITests.run(["infer", path, "--name", "T"]).output.contains("var state: String"), "enums only when asked")
    }
}
