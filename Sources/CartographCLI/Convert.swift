import ArgumentParser
import Cartograph
import Foundation

/// `cartograph convert IN --to json|xml|binary`
struct Convert: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Convert between JSON and property lists (XML or binary).",
        discussion: """
            The input's format is detected: binary and XML property lists, or JSON. Plist dates \
            become ISO 8601 strings and data becomes base64 in JSON; in plists, a JSON object's null \
            members are left out and an array's null elements become the string $null \
            (Foundation's nil), so the elements after them keep their places. Progress goes to standard error when it is a terminal. Exit status: 0 on success, 1 for invalid input, 2 for a usage error or an \
            unreadable file.
            """
    )

    enum Target: String, ExpressibleByArgument, CaseIterable {
        case json, xml, binary
    }

    @Argument(help: "The input file; - or nothing reads standard input.")
    var input: String = "-"

    @Option(help: "The output format: json, xml or binary.")
    var to: Target

    @Option(name: .shortAndLong, help: "Write here instead of standard output.")
    var output: String?

    @OptionGroup var layout: Layout

    /// The earlier spelling of `--indent 2`.
    @Flag(help: .hidden)
    var pretty = false

    func run() throws {
        let bytes: [UInt8]
        do {
            bytes = try InputFile.read(input)
        } catch {
            InputFile.warn("\(error)")
            throw ExitStatus.usage
        }
        let name = input == "-" ? "<stdin>" : input
        let result: [UInt8]
        let progress = Progress("convert", total: bytes.count)
        progress.stage("parsing \(Progress.megabytes(bytes.count))")
        defer { progress.finish() }
        do {
            let document = try InputFormat.auto.document(bytes)
            progress.advance(bytes: bytes.count)
            progress.stage("writing \(to.rawValue)")
            switch to {
            case .json:
                var layout = self.layout
                if pretty, layout.indent == nil, !layout.tab { layout.indent = 2 }
                // Compact unless a layout is asked for.
                let compact = layout.isCompact(defaultCompact: true)
                result = layout.finish(try document.encoded(options: layout.writeOptions(defaultCompact: true)), compact: compact, output: output)
            case .xml: result = try PropertyListMapper().encode(document, format: .xml)
            case .binary: result = try PropertyListMapper().encode(document, format: .binary)
            }
        } catch let error as CartographError {
            InputFile.warn(error.report(file: name))
            if let excerpt = error.excerpt { InputFile.warn(excerpt) }
            throw ExitStatus.invalidInput
        }
        let sink = try Output.to(output, replacing: input)
        try sink.write(result)
        try sink.close()
    }
}
