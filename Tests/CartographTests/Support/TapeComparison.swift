import CCartographTape
import Testing

@testable import Cartograph

/// Whether two Documents have the same tape: kinds, flags, counts, ends,
/// source offsets and string/number bytes.
func sameTape(_ a: Document, _ b: Document) -> Bool {
    guard a.tape.count == b.tape.count, a.roots == b.roots else { return false }
    for index in 0..<a.tape.count {
        let left = a.tape.entries[index]
        let right = b.tape.entries[index]
        guard left.kind == right.kind, left.flags == right.flags, left.length == right.length,
            left.source == right.source
        else { return false }
        switch left.kind {
        case .array, .object:
            guard left.payload == right.payload else { return false }
        case .string, .key, .number:
            guard Array(a.reader.unsafeText(of: left)) == Array(b.reader.unsafeText(of: right)) else { return false }
        default:
            break
        }
    }
    return true
}

/// Where two tapes first differ, for a failing test's message (nil when the same).
func tapeDifference(_ a: Document, _ b: Document) -> String? {
    guard !sameTape(a, b) else { return nil }
    if a.roots != b.roots { return "roots \(a.roots) / \(b.roots)" }
    for index in 0..<min(a.tape.count, b.tape.count) {
        let left = a.tape.entries[index], right = b.tape.entries[index]
        let leftBytes = left.kind == .string || left.kind == .key || left.kind == .number ? Array(a.reader.unsafeText(of: left)) : []
        let rightBytes = right.kind == .string || right.kind == .key || right.kind == .number ? Array(b.reader.unsafeText(of: right)) : []
        if left.kind != right.kind || left.flags != right.flags || left.length != right.length || left.source != right.source
            || leftBytes != rightBytes || ((left.kind == .array || left.kind == .object) && left.payload != right.payload)
        {
            return "entry \(index): \(left) \(String(decoding: leftBytes, as: UTF8.self)) / \(right) \(String(decoding: rightBytes, as: UTF8.self))"
        }
    }
    return "counts \(a.tape.count) / \(b.tape.count)"
}

/// The same yajl parse through the Swift callbacks and ``DocumentBuilder``
/// (the path streamed parses take; yajl is given the text as it is).
func swiftTape(_ bytes: [UInt8], options: ParseOptions = ParseOptions()) throws -> Document {
    let engine = YajlParser(options: options, expectedInputBytes: bytes.count, swiftCallbacks: true)
    if let error = engine.feed(bytes.span) ?? engine.finish() { throw error }
    return engine.builder.makeDocument()
}

/// Parses `bytes` through the C tape builder (``Document/init(parsing:options:)``)
/// and through the Swift callbacks (``swiftTape(_:options:)``) and records
/// an issue unless both give the same tape or both fail with the same
/// error (kind, message, offset). Returns the C builder's outcome (nil
/// when the two disagree on success).
@discardableResult
func expectSameOutcome(_ bytes: [UInt8], _ label: String, options: ParseOptions = ParseOptions()) -> Result<Document, CartographError>? {
    let native = Result { try Document(parsing: bytes, options: options) }
    let swift = Result { try swiftTape(bytes, options: options) }
    switch (native, swift) {
    case (.success(let a), .success(let b)):
        #expect(sameTape(a, b), "\(label): \(tapeDifference(a, b) ?? "")")
        return .success(a)
    case (.failure(let a as CartographError), .failure(let b as CartographError)):
        #expect(a.kind == b.kind && a.message == b.message && a.offset == b.offset, "\(label): \(a) / \(b)")
        return .failure(a)
    default:
        Issue.record("\(label): \(native) / \(swift)")
        return nil
    }
}

/// Parses by feeding the given chunk sizes in turn (the last one repeats).
func parseInChunks(_ bytes: [UInt8], sizes: [Int], options: ParseOptions = ParseOptions()) throws -> Document {
    let parser = JSONParser(options: options)
    var offset = 0
    var turn = 0
    while offset < bytes.count {
        let size = max(1, sizes[min(turn, sizes.count - 1)])
        let end = min(bytes.count, offset + size)
        try parser.feed(bytes[offset..<end])
        offset = end
        turn += 1
    }
    return try parser.finish()
}

/// A small deterministic generator (SplitMix64), so seeded tests repeat exactly.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Random chunk sizes from 1 to 64, from a seed.
func randomChunkSizes(seed: UInt64, count: Int = 4096) -> [Int] {
    var generator = SeededGenerator(seed: seed)
    return (0..<count).map { _ in Int.random(in: 1...64, using: &generator) }
}

/// Breaks `valid` text `rounds` times, each time inserting or writing one
/// of `breakers` at a random place (and every tenth time cutting up to 200
/// bytes off its end), and expects both tape builders to give the same
/// outcome (``expectSameOutcome(_:_:options:)``). Returns how many of the
/// broken texts failed to parse.
func expectSameOutcomesWhenBroken(_ valid: [UInt8], breakers: [[UInt8]], rounds: Int, using generator: inout SeededGenerator) -> Int {
    var failures = 0
    for round in 0..<rounds {
        var bytes = valid
        let position = Int.random(in: 0..<bytes.count, using: &generator)
        let breaker = breakers.randomElement(using: &generator)!
        if Bool.random(using: &generator) {
            bytes.insert(contentsOf: breaker, at: position)
        } else {
            bytes.replaceSubrange(position..<min(bytes.count, position + breaker.count), with: breaker)
        }
        if round % 10 == 0 { bytes.removeLast(Int.random(in: 1...200, using: &generator)) }
        if case .failure = expectSameOutcome(bytes, "round \(round)") { failures += 1 }
    }
    return failures
}

/// Expects a copy for yajl to be `expected` (the reference copy) and each
/// byte written to map back, through the first `recorded` shifts, to the
/// input offset `places` gives for it.
func expectCopy(
    _ target: [UInt8], written: Int, shifts: [cartograph_lexed_shift], recorded: Int, origin: Int,
    expected: [UInt8], places: [Int], _ label: String
) {
    #expect(Array(target[..<written]) == expected, "\(label): text")
    guard written == places.count else { return }
    for position in 0..<written {
        var start = origin
        for shift in shifts[..<recorded] where shift.at <= position { start = shift.origin }
        if start + position != origin + places[position] {
            Issue.record("\(label): byte \(position) maps to \(start + position - origin), not \(places[position])")
            return
        }
    }
}
