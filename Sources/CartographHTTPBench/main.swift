// The server `scripts/bench-http` drives with wrk: one Hummingbird 2 or
// Vapor 4 server on 127.0.0.1 with four routes taking the same JSON body
// (an array of nested records, `cartograph-http-bench body` prints it):
//
// - `POST /cartograph`: decoded with Cartograph's request decoder over one
//   shared `JSONMapper`, encoded back with its response encoder;
// - `POST /cartograph-mappable`: the same coders over a mapper whose
//   registry holds the records' types, read and written through their
//   `@Mappable` mappings (`check` says both answer the same bytes);
// - `POST /foundation`: the same with the framework's default coders
//   (Foundation's `JSONDecoder` and `JSONEncoder`);
// - `POST /echo`: the body's bytes sent back unparsed, the ceiling.
//
// Usage: cartograph-http-bench body
//        cartograph-http-bench check  (the Codable and @Mappable routes answer the same bytes)
//        cartograph-http-bench time   (the route's JSON work alone: InProcess.swift)
//        cartograph-http-bench serve hummingbird|vapor PORT
// Built only with both traits (`--traits Hummingbird,Vapor`); without them
// it says so and exits.
import Cartograph
import Foundation

/// One record of the request body: nested objects, an array of them, strings, numbers, a date string.
/// `Codable` for every route; `@Mappable` too (its property table written
/// at compile time), which only the `/cartograph-mappable` route's mapper
/// registers: there the mapping layer reads and writes it.
@Mappable
struct Record: Codable, Sendable {
    @Mappable
    struct Address: Codable, Sendable {
        var street = ""
        var city = ""
        var postcode = ""
        var location: [Double] = []
    }
    @Mappable
    struct Item: Codable, Sendable {
        var sku = ""
        var quantity = 0
        var price = 0.0
        var tags: [String] = []
    }
    var id = 0
    var name = ""
    var email = ""
    var active = false
    var score = 0.0
    var created = ""
    var address = Address()
    var items: [Item] = []
    var note: String?
}

/// A mapper whose registry holds ``Record`` and its nested types: they are
/// read and written through their `@Mappable` mappings, not `Codable`.
func mappableMapper() -> JSONMapper {
    var registry = ModelRegistry()
    registry.register(Record.self)
    registry.register(Record.Address.self)
    registry.register(Record.Item.self)
    return JSONMapper(registry: registry)
}

/// The body every route is sent: 120 records, about 45 KB of JSON.
func benchmarkRecords() -> [Record] {
    (0..<120).map(record)
}

/// The body the in-process parts read: `JSONEncoder`'s encoding of
/// ``benchmarkRecords()``, whose keys come in a hash order that changes
/// from process to process, or the file `CARTOGRAPH_HTTP_BODY` names (saved
/// from `body`), so that profiles of two builds read the same bytes.
func benchmarkBody() throws -> [UInt8] {
    if let path = ProcessInfo.processInfo.environment["CARTOGRAPH_HTTP_BODY"] {
        guard let data = FileManager.default.contents(atPath: path) else { throw CocoaError(.fileReadNoSuchFile) }
        return Array(data)
    }
    return Array(try JSONEncoder().encode(benchmarkRecords()))
}

func record(_ index: Int) -> Record {
    let offset = Double(index) / 1000
    let address = Record.Address(
        street: "\(index + 1) Long Street", city: index % 2 == 0 ? "Zürich" : "Lisbon", postcode: "\(8000 + index)",
        location: [47.3769 + offset, 8.5417 - offset])
    let items = (0..<2).map { item in
        Record.Item(sku: "SKU-\(index)-\(item)", quantity: item + 1, price: 9.99 + Double(item), tags: ["tag\(item)", "sale"])
    }
    let score = Double(index) * 1.375 + 0.1
    let created = "2026-11-\(10 + index % 18)T08:\(10 + index % 50):00Z"
    return Record(
        id: 10_000 + index, name: "Customer \(index) Ölmez", email: "customer\(index)@example.com", active: index % 3 != 0,
        score: score, created: created, address: address, items: items,
        note: index % 4 == 0 ? nil : "Deliver \"before noon\", ring twice")
}

let arguments = CommandLine.arguments.dropFirst()
switch arguments.first {
case "body":
    let encoder = JSONEncoder()
    FileHandle.standardOutput.write(try encoder.encode(benchmarkRecords()))
case "check":
    // Every Cartograph route answers the bytes the others do: the
    // `Codable` and `@Mappable` paths write the same JSON for the body.
    let body = try benchmarkBody()
    let codable = JSONMapper()
    let mappable = mappableMapper()
    let viaCodable = try codable.encode(try codable.decode([Record].self, from: body))
    let viaMappings = try mappable.encode(try mappable.decode([Record].self, from: body))
    guard viaCodable == viaMappings else {
        FileHandle.standardError.write(Data("the Codable and @Mappable routes answer different bytes\n".utf8))
        exit(1)
    }
    print("the Codable and @Mappable routes answer the same \(viaCodable.count) bytes")
case "time":
    // Per round on one thread, and per round of each of two threads running at once.
    let one = try timeRoute(threads: 1, rounds: 400, runs: 5)
    let two = try timeRoute(threads: 2, rounds: 400, runs: 5)
    print(String(format: "one thread: %.1f us per request; two threads: %.1f us per request each (%.2fx)", one, two, two / one))
    // The same with Foundation's coders: what two threads cost any coder on this machine.
    let oneFoundation = try timeRoute(threads: 1, rounds: 100, runs: 5, foundation: true)
    let twoFoundation = try timeRoute(threads: 2, rounds: 100, runs: 5, foundation: true)
    print(
        String(
            format: "Foundation's coders, one thread: %.1f us per request; two threads: %.1f us per request each (%.2fx)",
            oneFoundation, twoFoundation, twoFoundation / oneFoundation))
    for (part, micros) in try timeParts() { print(String(format: "%@: %.1f us", part, micros)) }
case "profile" where arguments.count == 3:
    // One part, N times, for a profiler: `profile decode 200`, `profile encode 200`,
    // or the whole route on one thread (`route`) or on two at once (`route2`).
    try profilePart(Array(arguments)[1], times: Int(arguments.last!) ?? 100)
case "serve" where arguments.count == 3:
    guard let port = Int(arguments.last!) else { fatalError("PORT must be a number") }
    try await serve(framework: Array(arguments)[1], port: port)
default:
    FileHandle.standardError.write(Data("usage: cartograph-http-bench body | check | time | profile PART N | serve hummingbird|vapor PORT\n".utf8))
    exit(2)
}
