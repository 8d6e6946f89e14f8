import ArgumentParser
import Cartograph
import Foundation

/// `cartograph format FILE`
struct Format: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Re-write a JSON file (or a property list, as JSON), pretty (the default) or compact.",
        discussion: """
            Numbers keep their exact text. Binary and XML property lists are detected and written as JSON \
            (dates as ISO 8601 strings, data as base64). Exit status: 0 on success, 1 for invalid input or a \
            failed write, 2 for a usage error or an unreadable file.
            """
    )

    @Argument(help: "The input file; - or nothing reads standard input.")
    var file: String = "-"

    @Option(name: .shortAndLong, help: "Write here instead of standard output.")
    var output: String?

    @OptionGroup var layout: Layout

    /// The earlier spelling of `--indent`.
    @Option(help: .hidden)
    var pretty: Int?

    @Flag(help: "Escape every non-ASCII character as \\uXXXX.")
    var ascii = false

    @Flag(help: "Escape / as \\/.")
    var escapeSlashes = false

    func validate() throws {
        if pretty != nil, layout.indent != nil || layout.tab || layout.compact {
            throw ValidationError("--pretty (now --indent) excludes --indent, --tab and --compact")
        }
        if let pretty, !(1...31).contains(pretty) { throw ValidationError("--pretty takes 1 to 31 spaces") }
    }

    func run() throws {
        let bytes: [UInt8]
        do {
            bytes = try InputFile.read(file)
        } catch {
            InputFile.warn("\(error)")
            throw ExitStatus.usage
        }
        let name = file == "-" ? "<stdin>" : file
        do {
            let document = try InputFormat.auto.document(bytes)
            var layout = self.layout
            if let pretty { layout.indent = pretty }
            var options = layout.writeOptions()
            options.asciiOnly = ascii
            options.escapeSlashes = escapeSlashes
            let output = layout.finish(try document.encoded(options: options), compact: layout.isCompact(defaultCompact: false), output: self.output)
            let sink = try Output.to(self.output, replacing: file)
            try sink.write(output)
            try sink.close()
        } catch let error as CartographError {
            InputFile.warn(error.report(file: name))
            if let excerpt = error.excerpt { InputFile.warn(excerpt) }
            throw ExitStatus.invalidInput
        }
    }
}
