import ArgumentParser
import Cartograph
import Foundation

/// `cartograph get PATH [FILE]`
struct Get: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print the values a path selects, as jq '.a.b' does, in bounded memory.",
        discussion: """
            PATH is $ then steps: .key, ["quoted key"], [index], [*] or .* for every element or member \
            ($.data[*].id, $.batches[0].items, $["a.b"]). jq's spellings work too: . for the whole \
            input, .[0], .["a b"], ."a b" and [] for every element (not .., [-1], slices, or jq's ?, | and ,). Each selected value is printed as it is read \
            (pretty by default; --compact for one per line), so memory is bounded by the largest value. \
            Exit status: 0 when the path selected something, 1 for invalid input or a path that selects \
            nothing, 2 for a usage error or an unreadable file (or an --output that is the input file \
            itself: it would be emptied before it was read).
            """
    )

    @Argument(help: "The path of the values to print.")
    var path: String

    @Argument(help: "The JSON file; - or nothing reads standard input.")
    var input: String = "-"

    @OptionGroup var layout: Layout

    @Option(name: .shortAndLong, help: "Write here instead of standard output.")
    var output: String?

    func run() throws {
        let steps: [StreamPath.PathStep]
        do {
            steps = try StreamPath.steps(parsing: path)
        } catch let error as CartographError {
            InputFile.warn(error.message)
            throw ExitStatus.usage
        }
        let handle = try StreamCommand.open(input)
        let sink = try Output.to(output, streaming: input)
        let options = layout.writeOptions()
        let compact = layout.isCompact(defaultCompact: false)
        let buffered = BufferedOutput(sink)
        try StreamCommand.run(input: input, handle: handle, path: steps.isEmpty ? .values : .matches(steps), progress: "get") { document in
            try buffered.append(layout.finish(try document.encoded(options: options), compact: compact, output: output))
        } flush: {
            try buffered.flush()
        }
        try sink.close()
    }
}
