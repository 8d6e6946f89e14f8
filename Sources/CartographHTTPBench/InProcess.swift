import Cartograph
import Foundation

// `cartograph-http-bench time`: the /cartograph route's JSON work without
// the server, to tell the coders' cost from the server's. One round
// decodes the body as the request decoder does (fed in the chunk sizes NIO
// hands a handler: 2 KB doubling to 64 KB) and encodes the records back;
// the same rounds then run on two threads at once over one shared mapper,
// as the server's two event loops do.

/// Chunk sizes like NIO's adaptive receive allocator's, doubling from 2 KB.
func chunked(_ bytes: [UInt8]) -> [[UInt8]] {
    var chunks: [[UInt8]] = []
    var start = 0
    var size = 2048
    while start < bytes.count {
        let end = min(bytes.count, start + size)
        chunks.append(Array(bytes[start..<end]))
        start = end
        size = min(size * 2, 65536)
    }
    return chunks
}

/// One request's JSON work with Foundation's coders, as the `/foundation`
/// route does it (the body collected into one `Data` first).
func foundationRound(_ chunks: [[UInt8]]) throws -> Int {
    var body = Data()
    for chunk in chunks { body.append(contentsOf: chunk) }
    let records = try JSONDecoder().decode([Record].self, from: body)
    return try JSONEncoder().encode(records).count
}

/// One request's JSON work: the body decoded chunk by chunk, then encoded.
func routeRound(_ mapper: JSONMapper, _ chunks: [[UInt8]]) throws -> Int {
    let parser = JSONParser(options: mapper.parseOptions)
    for chunk in chunks { try parser.feed(chunk.span) }
    let records = try mapper.decode([Record].self, from: try parser.finish().root)
    return try mapper.withEncodedBytes(records) { $0.count }
}

/// Microseconds per round, the median of `runs` runs of `rounds` rounds,
/// on `threads` threads at once; with Foundation's coders where `foundation`.
func timeRoute(threads: Int, rounds: Int, runs: Int, foundation: Bool = false) throws -> Double {
    let body = try benchmarkBody()
    let chunks = chunked(body)
    let mapper = JSONMapper()
    let round: @Sendable () throws -> Int = { foundation ? try foundationRound(chunks) : try routeRound(mapper, chunks) }
    _ = try round()
    var results: [Double] = []
    for _ in 0..<runs {
        let start = DispatchTime.now().uptimeNanoseconds
        DispatchQueue.concurrentPerform(iterations: threads) { _ in
            for _ in 0..<rounds { _ = try? round() }
        }
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1000
        results.append(elapsed / Double(rounds))
    }
    return results.sorted()[runs / 2]
}

/// The route's parts apart, in microseconds (medians of five runs of 400).
func timeParts() throws -> [(String, Double)] {
    let body = try benchmarkBody()
    let chunks = chunked(body)
    let mapper = JSONMapper()
    let records = try mapper.decode([Record].self, from: body)
    let mappable = mappableMapper()
    func time(_ body: () throws -> Void) rethrows -> Double {
        var results: [Double] = []
        for _ in 0..<5 {
            let start = DispatchTime.now().uptimeNanoseconds
            for _ in 0..<400 { try body() }
            results.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1000 / 400)
        }
        return results.sorted()[2]
    }
    return [
        (
            "parse, chunked",
            try time {
                let p = JSONParser(options: mapper.parseOptions); for c in chunks { try p.feed(c.span) }; _ = try p.finish()
            }
        ),
        ("parse, whole", try time { _ = try Document(parsing: body) }),
        (
            "decode, chunked",
            try time {
                let p = JSONParser(options: mapper.parseOptions); for c in chunks { try p.feed(c.span) };
                _ = try mapper.decode([Record].self, from: try p.finish().root)
            }
        ),
        ("decode, whole", try time { _ = try mapper.decode([Record].self, from: body) }),
        ("decode, JSONDecoder", try time { _ = try JSONDecoder().decode([Record].self, from: Data(body)) }),
        ("encode", try time { _ = try mapper.withEncodedBytes(records) { $0.count } }),
        (
            "decode, @Mappable, chunked",
            try time {
                let p = JSONParser(options: mappable.parseOptions); for c in chunks { try p.feed(c.span) };
                _ = try mappable.decode([Record].self, from: try p.finish().root)
            }
        ),
        ("encode, @Mappable", try time { _ = try mappable.withEncodedBytes(records) { $0.count } }),
        ("encode, JSONEncoder", try time { _ = try JSONEncoder().encode(records) })
    ]
}

/// Runs one part of the route `times` times (for callgrind or perf).
func profilePart(_ part: String, times: Int) throws {
    let body = try benchmarkBody()
    let chunks = chunked(body)
    let mapper = JSONMapper()
    let mappable = mappableMapper()
    let records = try mapper.decode([Record].self, from: body)
    for _ in 0..<times {
        switch part {
        case "decode":
            let parser = JSONParser(options: mapper.parseOptions)
            for chunk in chunks { try parser.feed(chunk.span) }
            _ = try mapper.decode([Record].self, from: try parser.finish().root)
        case "decode-whole": _ = try mapper.decode([Record].self, from: body)
        case "encode": _ = try mapper.withEncodedBytes(records) { $0.count }
        case "decode-mappable":
            let parser = JSONParser(options: mappable.parseOptions)
            for chunk in chunks { try parser.feed(chunk.span) }
            _ = try mappable.decode([Record].self, from: try parser.finish().root)
        case "encode-mappable": _ = try mappable.withEncodedBytes(records) { $0.count }
        case "route", "route2":
            // The whole route, on one thread or on two at once over the shared mapper.
            DispatchQueue.concurrentPerform(iterations: part == "route" ? 1 : 2) { _ in _ = try? routeRound(mapper, chunks) }
        default: fatalError("part must be decode, decode-whole, encode, decode-mappable, encode-mappable, route or route2")
        }
    }
}
