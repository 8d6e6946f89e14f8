import ArgumentParser
import Cartograph

/// How JSON output is laid out, spelled the same in every command that
/// writes JSON: `--indent N` (`-i`), `--tab` (`-t`), `--compact` (`-c`),
/// `--sort-keys` (`-S`, as jq).
struct Layout: ParsableArguments {
    @Option(name: [.customShort("i"), .long], help: "Indent by N spaces (1 to 31).")
    var indent: Int?

    @Flag(name: [.customShort("t"), .long], help: "Indent with one tab per level.")
    var tab = false

    @Flag(name: [.customShort("c"), .long], help: "No whitespace at all, one value per line.")
    var compact = false

    @Flag(name: [.customShort("S"), .long], help: "Sort object keys by code point.")
    var sortKeys = false

    @Option(help: "Colour the output: auto (on a terminal, unless NO_COLOR is set), always or never.")
    var color: JSONColors.Choice = .auto

    func validate() throws {
        if [indent != nil, tab, compact].filter({ $0 }).count > 1 { throw ValidationError("--indent, --tab and --compact exclude each other") }
        if let indent, !(1...31).contains(indent) { throw ValidationError("--indent takes 1 to 31 spaces") }
    }

    /// Pretty unless `--compact`; `defaultCompact` for commands whose output is compact unless asked.
    func isCompact(defaultCompact: Bool) -> Bool { compact || (defaultCompact && indent == nil && !tab) }

    /// The writer's options (a tab layout is written with one space per
    /// level, then turned into tabs by ``finish(_:compact:)``).
    func writeOptions(defaultCompact: Bool = false) -> WriteOptions {
        WriteOptions {
            $0.formatting = isCompact(defaultCompact: defaultCompact) ? .compact : .pretty(indent: tab ? 1 : indent ?? 2)
            $0.sortedKeys = sortKeys
        }
    }

    /// Written JSON with tabs for indentation when `--tab`, and a final
    /// newline for compact output. JSON text holds no raw newline inside a
    /// string, so every space at the start of a line is indentation.
    func finish(_ json: [UInt8], compact: Bool, output: String?) -> [UInt8] {
        let laidOut = finish(json, compact: compact)
        return color.applies(writingTo: output) ? JSONColors.colour(laidOut) : laidOut
    }

    private func finish(_ json: [UInt8], compact: Bool) -> [UInt8] {
        var json = json
        if compact { json.append(UInt8(ascii: "\n")) }
        guard tab, !compact else { return json }
        var result: [UInt8] = []
        result.reserveCapacity(json.count)
        var atLineStart = true
        for byte in json {
            if atLineStart, byte == UInt8(ascii: " ") {
                result.append(UInt8(ascii: "\t"))
                continue
            }
            atLineStart = byte == UInt8(ascii: "\n")
            result.append(byte)
        }
        return result
    }
}
