import ArgumentParser
import Cartograph

/// `cartograph validate FILE...`
struct Validate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check that files are valid JSON (or property lists).",
        discussion: """
            Prints "FILE: ok" for each valid file and "FILE:LINE:COLUMN: message" for each \
            invalid one, with the offending line and a caret on standard error. \
            Exit status: 0 when every file is valid, 1 when any is invalid, 2 for a usage \
            error or an unreadable file.
            """
    )

    @Argument(help: "Files to check; - or nothing reads standard input.")
    var files: [String] = []

    @Option(help: "json, plist, or auto (detect from the bytes, the default).")
    var format: InputFormatOption = .auto

    @Flag(help: "Accept // and /* */ comments.")
    var allowComments = false

    @Flag(help: "Accept several top-level values (NDJSON, concatenated JSON).")
    var multipleValues = false

    func run() throws {
        var status: Int32 = 0
        let options = ParseOptions {
            $0.allowComments = allowComments
            $0.allowMultipleValues = multipleValues
        }
        for file in files.isEmpty ? ["-"] : files {
            let name = file == "-" ? "<stdin>" : CartographError.printable(file)
            do {
                let bytes = try InputFile.read(file)
                _ = try format.format.document(bytes, options: options)
                print("\(name): ok")
            } catch let error as CartographError {
                print(error.line != nil ? "\(name):\(error.line ?? 0):\(error.column ?? 0): \(error.message)" : error.report(file: name))
                if let excerpt = error.excerpt { InputFile.warn(excerpt) }
                status = max(status, 1)
            } catch {
                // An unreadable input: on standard error, as every command reports it.
                InputFile.warn("\(error)")
                status = 2
            }
        }
        if status != 0 { throw ExitStatus(code: status) }
    }
}

/// `--format` for `validate`.
enum InputFormatOption: String, ExpressibleByArgument, CaseIterable {
    case auto, json, plist
    var format: InputFormat { InputFormat(rawValue: rawValue) ?? .auto }
}
