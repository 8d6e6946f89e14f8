import Cartograph
import Foundation

/// `cartograph-bench hostile [CASE]`: what the attacks of the hostile-input
/// review cost now — time, nanoseconds per input byte and peak memory — each
/// case in a process of its own (peak memory is per process), as a table.
/// `scripts/hostile` runs it on a release build.
enum HostileBenchmark {
    /// One attack: what it does, and a body that returns its outcome and the input bytes it consumed.
    struct Case {
        let name: String
        let attack: String
        let run: @Sendable () throws -> (outcome: String, bytes: Int)
    }

    static let cases: [Case] = [
        Case(name: "plist-bomb", attack: "3 KB binary plist whose shared references expand to 1 GB") {
            let string: [UInt8] = [0x5F, 0x11, 0x04, 0x00] + [UInt8](repeating: 0x61, count: 1024)
            let inner: [UInt8] = [0xAF, 0x11, 0x03, 0xE8] + [UInt8](repeating: 0, count: 1000)
            let outer: [UInt8] = [0xAF, 0x11, 0x03, 0xE8] + [UInt8](repeating: 1, count: 1000)
            let bomb = binaryPlist([string, inner, outer], top: 2)
            return (outcome { _ = try PropertyListMapper().document(from: bomb) }, bomb.count)
        },
        Case(name: "long-number-64b-chunks", attack: "256 KiB number fed in 64-byte chunks (limit raised to let it through)") {
            let input = Array("[".utf8) + [UInt8](repeating: 0x37, count: 256 << 10) + Array("]".utf8)
            let parser = JSONParser(options: ParseOptions { $0.maxNumberDigits = 1 << 20 })
            return (
                outcome {
                    try feed(input, in: 64, to: parser); _ = try parser.finish()
                }, input.count
            )
        },
        Case(name: "long-number-whole", attack: "the same number parsed whole (for comparison)") {
            let input = Array("[".utf8) + [UInt8](repeating: 0x37, count: 256 << 10) + Array("]".utf8)
            return (outcome { _ = try Document(parsing: input, options: ParseOptions { $0.maxNumberDigits = 1 << 20 }) }, input.count)
        },
        Case(name: "long-string-64b-chunks", attack: "16 MiB string with escapes fed in 64-byte chunks") {
            let input = Array(("[\"" + String(repeating: "abc\\ndef\\u00e9", count: (16 << 20) / 14) + "\"]").utf8)
            let parser = JSONParser()
            return (
                outcome {
                    try feed(input, in: 64, to: parser); _ = try parser.finish()
                }, input.count
            )
        },
        Case(name: "endless-string", attack: "a string that never ends, streamed in 64 KiB chunks (512 MiB offered)") {
            let stream = ModelStream(JSONValue.self)
            var fed = 0
            let chunk = [UInt8](repeating: 0x61, count: 64 << 10)
            let result = outcome {
                _ = try stream.feed(Array("[\"".utf8))
                while fed < 512 << 20 {
                    _ = try stream.feed(chunk)
                    fed += chunk.count
                }
            }
            return (result, fed)
        },
        Case(name: "whitespace-stream", attack: "512 MiB of newlines between two NDJSON elements, in 1 MiB chunks") {
            let stream = ModelStream(JSONValue.self, path: .values)
            let chunk = [UInt8](repeating: 0x0A, count: 1 << 20)
            var fed = 0
            let result = outcome {
                _ = try stream.feed(Array(#"{"id":1}"#.utf8))
                for _ in 0..<512 {
                    _ = try stream.feed(chunk)
                    fed += chunk.count
                }
                _ = try stream.feed(Array(#"{"id":2}"#.utf8))
                _ = try stream.finish()
            }
            return (result, fed)
        },
        Case(name: "endless-element", attack: "one array element that keeps growing (512 MiB offered)") {
            let stream = ModelStream(JSONValue.self)
            let chunk = Array(String(repeating: "1,", count: 32 << 10).utf8)
            var fed = 0
            let result = outcome {
                _ = try stream.feed(Array("[[".utf8))
                while fed < 512 << 20 {
                    _ = try stream.feed(chunk)
                    fed += chunk.count
                }
            }
            return (result, fed)
        },
        Case(name: "unmatched-path", attack: "a stream path that never matches, 512 MiB of other objects offered") {
            let stream = ModelStream(JSONValue.self, path: "$.data.items")
            let chunk = Array(String(repeating: #"{"id":12345,"name":"x"},"#, count: 4 << 10).utf8)
            var fed = 0
            let result = outcome {
                _ = try stream.feed(Array(#"{"other":["#.utf8))
                while fed < 512 << 20 {
                    _ = try stream.feed(chunk)
                    fed += chunk.count
                }
            }
            return (result, fed)
        },
        Case(name: "lossy-issues", attack: "a lossy stream of elements that all fail (33 M offered)") {
            struct Item: Decodable { var id: Int }
            let stream = ModelStream(Item.self, lossy: true)
            let chunk = Array(String(repeating: #"{"id":"x"},"#, count: 64 << 10).utf8)
            var fed = 0
            let result = outcome {
                _ = try stream.feed(Array("[".utf8))
                for _ in 0..<512 {
                    _ = try stream.feed(chunk)
                    fed += chunk.count
                }
            }
            return (result, fed)
        },
        Case(name: "swallowed-errors", attack: "40,000 bad elements skipped by @LossyArray, on 40,000 lines") {
            let input = lossyInput()
            return (outcome { _ = try JSONMapper().decodeLossy(LossyFeed.self, from: input) }, input.count)
        },
        Case(name: "swallowed-errors-foundation", attack: "the same through JSONDecoder with a failable element wrapper") {
            let input = lossyInput()
            return (outcome { _ = try JSONDecoder().decode(FailableFeed.self, from: Data(input)) }, input.count)
        }
    ]

    struct LossyFeed: Codable {
        struct Item: Codable { var id: Int }
        @LossyArray var items: [Item]
    }

    struct FailableFeed: Decodable {
        struct Failable: Decodable {
            var id: Int?
            init(from decoder: any Decoder) throws {
                struct Item: Decodable { var id: Int }
                id = (try? Item(from: decoder))?.id
            }
        }
        var items: [Failable]
    }

    static func lossyInput() -> [UInt8] {
        let lines = (0..<80_000).map { $0 % 2 == 0 ? #"{"id": \#($0)}"# : #"{"id": "bad \#($0)"}"# }
        return Array(("{\"items\": [\n" + lines.joined(separator: ",\n") + "\n]}").utf8)
    }

    static func feed(_ input: [UInt8], in size: Int, to parser: JSONParser) throws {
        var offset = 0
        while offset < input.count {
            let end = min(input.count, offset + size)
            try parser.feed(input[offset..<end])
            offset = end
        }
    }

    static func outcome(_ body: () throws -> Void) -> String {
        do {
            try body()
            return "ok"
        } catch {
            if let error = error as? CartographError { return "\(error.kind)" }
            if let error = DecodingErrors.cartographError(error) { return "\(error.kind)" }
            return "\(type(of: error))"
        }
    }

    static func binaryPlist(_ objects: [[UInt8]], top: Int) -> [UInt8] {
        var bytes = Array("bplist00".utf8)
        var offsets: [Int] = []
        for object in objects {
            offsets.append(bytes.count)
            bytes += object
        }
        let table = bytes.count
        for offset in offsets { bytes += [UInt8(offset >> 8), UInt8(offset & 0xFF)] }
        var trailer = [UInt8](repeating: 0, count: 6) + [2, 1]
        for value in [objects.count, top, table] {
            trailer += (0..<8).reversed().map { UInt8((value >> ($0 * 8)) & 0xFF) }
        }
        return bytes + trailer
    }

    static func peakKilobytes() -> Int {
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") } ?? "VmHWM: 0 kB"
        return Int(line.split(separator: " ").dropFirst().first ?? "0") ?? 0
    }

    /// With a case name: runs it and prints one table row. Without: runs
    /// every case in a child process and prints the table.
    static func run(_ arguments: [String]) throws {
        if let name = arguments.first {
            guard let hostile = cases.first(where: { $0.name == name }) else { throw CocoaError(.featureUnsupported) }
            let start = DispatchTime.now().uptimeNanoseconds
            let (result, bytes) = try hostile.run()
            let nanoseconds = Double(DispatchTime.now().uptimeNanoseconds - start)
            let perByte = bytes > 0 ? String(format: "%.1f", nanoseconds / Double(bytes)) : "–"
            print(
                String(
                    format: "| %@ | %@ | %@ | %.1f | %@ | %.0f |", hostile.name, hostile.attack, result, nanoseconds / 1e6, perByte,
                    Double(peakKilobytes()) / 1024))
            return
        }
        // Written straight to the file descriptor, ahead of the children's rows.
        FileHandle.standardOutput.write(
            Data("| case | attack | outcome | ms | ns per input byte | peak RSS MiB |\n| --- | --- | --- | ---: | ---: | ---: |\n".utf8))
        for hostile in cases {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
            process.arguments = ["hostile", hostile.name]
            try process.run()
            process.waitUntilExit()
        }
    }
}
