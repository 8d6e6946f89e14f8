import Cartograph
import FuzzSupport

// Objects of one enum key type written in shapes the input chooses (keys
// left out, swapped, repeated, a second key type in the same object,
// objects nested in objects), encoded by the streaming `Codable` encoder,
// whose key templates merge and follow those shapes, and by the tree
// encoder (sorted keys always take the tree). The stream's output, read
// back with repeated keys refused and written again with sorted keys, must
// be the tree's bytes: no key lost, none written twice, no value moved.

/// Twenty keys, some written differently by each escaping option.
enum Letter: String, CodingKey, CaseIterable {
    case id, name, slash = "a/b", quote = "q\"uote", accent = "caf\u{E9}", emoji = "\u{1F600}", tab = "tab\t"
    case userName, createdAt, x, y, z, long = "longKeyNameThatIsLongerThanSixteenBytes", empty = "", k14, k15, k16, k17, k18, k19
}

/// A second key type whose tags overlap the first's.
enum Other: String, CodingKey, CaseIterable { case alpha, beta, gamma, id }

/// One member an object writes.
indirect enum Member {
    case letter(Letter, Int)
    case other(Other, String)
    case nested(Letter, Shaped)
}

struct Shaped: Encodable {
    var members: [Member]
    func encode(to encoder: any Encoder) throws {
        var letters = encoder.container(keyedBy: Letter.self)
        var others = encoder.container(keyedBy: Other.self)
        for member in members {
            switch member {
            case .letter(let key, let value): try letters.encode(value, forKey: key)
            case .other(let key, let value): try others.encode(value, forKey: key)
            case .nested(let key, let value): try letters.encode(value, forKey: key)
            }
        }
    }
}

/// Reads choices off the input, zero once it runs out.
struct Choices {
    var bytes: [UInt8]
    var position = 0
    mutating func next() -> Int {
        defer { position += 1 }
        return position < bytes.count ? Int(bytes[position]) : 0
    }
}

func shaped(_ choices: inout Choices, depth: Int) -> Shaped {
    // Most objects keep the keys' order and leave some out; a few swap, repeat or mix.
    var members: [Member] = []
    let style = choices.next()
    for (index, letter) in Letter.allCases.enumerated() {
        let roll = choices.next()
        if roll < 96 { continue }
        if roll > 250, depth < 3 {
            members.append(.nested(letter, shaped(&choices, depth: depth + 1)))
        } else {
            members.append(.letter(letter, index))
        }
        if style & 1 != 0, roll % 17 == 0 { members.append(.other(Other.allCases[roll % 4], "o\(roll)")) }
        if style & 2 != 0, roll % 23 == 0, let earlier = members.first { members.append(earlier) }
    }
    if style & 4 != 0, members.count > 1 {
        members.swapAt(choices.next() % members.count, choices.next() % members.count)
    }
    return Shaped(members: members)
}

@_cdecl("FuzzKeyTemplates_main")
func fuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv) { start, count in testOneInput(UnsafeRawPointer(start!), count) }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    var choices = Choices(bytes: Array(UnsafeRawBufferPointer(start: start, count: count)))
    let flags = choices.next()
    var options = WriteOptions()
    options.escapeSlashes = flags & 1 != 0
    options.asciiOnly = flags & 2 != 0
    var sorted = options
    sorted.sortedKeys = true
    let objects = (0..<(1 + choices.next() % 24)).map { _ in shaped(&choices, depth: 0) }
    do {
        let streamed = try JSONMapper(writeOptions: options).encode(objects)
        let tree = try JSONMapper(writeOptions: sorted).encode(objects)
        var strict = ParseOptions()
        strict.duplicateKeys = .reject
        let readBack = try JSONValue(parsing: streamed, options: strict)
        let again = try JSONMapper(writeOptions: sorted).encode(readBack)
        if again != tree {
            FuzzInput.fail("the stream and the tree differ:\n\(String(decoding: streamed, as: UTF8.self))\n\(String(decoding: tree, as: UTF8.self))")
        }
    } catch {
        FuzzInput.fail("encoding threw: \(error)")
    }
    return 0
}
