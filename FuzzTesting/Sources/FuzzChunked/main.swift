import Cartograph
import FuzzSupport

/// Feeding in chunks (sizes from the input) gives the same outcome as feeding whole.
@_cdecl("FuzzChunked_main")
func fuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv) { start, count in testOneInput(UnsafeRawPointer(start!), count) }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let input = FuzzInput(start, count)
    let whole = Result { try Document(parsing: input.bytes, options: input.options) }
    let parser = JSONParser(options: input.options)
    var offset = 0
    var size = Int(input.flags % 7) + 1
    let chunked = Result { () throws -> Document in
        while offset < input.bytes.count {
            let end = min(input.bytes.count, offset + size)
            try parser.feed(input.bytes[offset..<end])
            offset = end
            size = size % 5 + 1
        }
        return try parser.finish()
    }
    switch (whole, chunked) {
    case (.success(let a), .success(let b)):
        if (try? a.values.map({ try $0.jsonValue() })) != (try? b.values.map({ try $0.jsonValue() })) { FuzzInput.fail("chunked value differs") }
    case (.failure(let a as CartographError), .failure(let b as CartographError)):
        // A token past its limit is refused while still arriving in chunks;
        // whole, yajl may first find a fault later in that token.
        let refusedEarly = (b.kind == .stringTooLong || b.kind == .numberTooLong) && (a.offset ?? 0) >= (b.offset ?? 0)
        if (a.kind != b.kind || a.offset != b.offset) && !refusedEarly { FuzzInput.fail("chunked error differs: \(a) vs \(b)") }
        // The same place is the same line and column, however the input came.
        if a.offset == b.offset, a.line != b.line || a.column != b.column { FuzzInput.fail("chunked location differs: \(a) vs \(b)") }
    default:
        FuzzInput.fail("whole and chunked disagree: \(whole) vs \(chunked)")
    }
    // Streams of the same bytes do not crash either, in every mode, with
    // small stream limits so that they are reached.
    var mapper = JSONMapper()
    mapper.parseOptions = input.options
    mapper.parseOptions.maxElementBytes = 4 << 10
    mapper.parseOptions.maxEnvelopeBytes = 4 << 10
    mapper.parseOptions.maxStreamIssues = 3
    let paths: [StreamPath] = [.values, .topLevelArray, "$.a", "$.a.b"]
    let stream = ModelStream(Int.self, mapper: mapper, path: paths[Int(input.flags >> 6)], lossy: input.flags & 8 != 0)
    var streamOffset = 0
    while streamOffset < input.bytes.count {
        let end = min(input.bytes.count, streamOffset + Int(input.flags % 5) * 7 + 1)
        if (try? stream.feed(input.bytes[streamOffset..<end])) == nil { break }
        streamOffset = end
    }
    _ = try? stream.finish()
    return 0
}
