import ArgumentParser
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Colours JSON written by Cartograph's writers for a terminal, as jq does:
/// keys bold blue, strings green, numbers yellow, booleans magenta, null
/// grey. It reads the writer's own output (valid JSON), so a string is
/// known by its quotes and a key by the `:` after it.
enum JSONColors {
    /// When to colour: `auto` (standard output is a terminal and `NO_COLOR`
    /// is not set), `always` or `never`.
    enum Choice: String, CaseIterable, ExpressibleByArgument {
        case auto, always, never

        /// Whether output to `path` (nil or `-`: standard output) is coloured.
        func applies(writingTo path: String?) -> Bool {
            switch self {
            case .always: return true
            case .never: return false
            case .auto:
                return (path == nil || path == "-") && isatty(STDOUT_FILENO) == 1 && ProcessInfo.processInfo.environment["NO_COLOR"] == nil
            }
        }
    }

    private static let key = Array("\u{1B}[1;34m".utf8)
    private static let string = Array("\u{1B}[0;32m".utf8)
    private static let number = Array("\u{1B}[0;33m".utf8)
    private static let boolean = Array("\u{1B}[0;35m".utf8)
    private static let null = Array("\u{1B}[1;30m".utf8)
    private static let reset = Array("\u{1B}[0m".utf8)

    /// The JSON with colour codes around every scalar and key.
    static func colour(_ json: [UInt8]) -> [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(json.count * 2)
        var index = 0
        while index < json.count {
            let byte = json[index]
            switch byte {
            case UInt8(ascii: "\""):
                var end = index + 1
                while end < json.count, json[end] != UInt8(ascii: "\"") { end += json[end] == UInt8(ascii: "\\") ? 2 : 1 }
                end = min(end + 1, json.count)
                var after = end
                while after < json.count, json[after] == 0x20 || json[after] == 0x09 || json[after] == 0x0A { after += 1 }
                let isKey = after < json.count && json[after] == UInt8(ascii: ":")
                append(json[index..<end], colour: isKey ? key : string, to: &result)
                index = end
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                var end = index + 1
                while end < json.count, !Self.ends(json[end]) { end += 1 }
                append(json[index..<end], colour: number, to: &result)
                index = end
            case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
                var end = index + 1
                while end < json.count, !Self.ends(json[end]) { end += 1 }
                append(json[index..<end], colour: byte == UInt8(ascii: "n") ? null : boolean, to: &result)
                index = end
            default:
                result.append(byte)
                index += 1
            }
        }
        return result
    }

    /// Whether a byte ends a number or a literal.
    private static func ends(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: ",") || byte == UInt8(ascii: "]") || byte == UInt8(ascii: "}") || byte == 0x20 || byte == 0x0A || byte == 0x09
    }

    private static func append(_ text: ArraySlice<UInt8>, colour: [UInt8], to result: inout [UInt8]) {
        result += colour
        result += text
        result += reset
    }
}
