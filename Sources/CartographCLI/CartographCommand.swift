import ArgumentParser
import Cartograph
import Foundation

/// The `cartograph` command-line tool.
@main
struct CartographCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cartograph",
        abstract: "Validate, format, convert and split JSON and property lists, and infer Swift models and JSON Schemas from samples.",
        discussion: """
            Exit status: 0 on success, 1 when an input is invalid, 2 for a usage error \
            or an unreadable file.
            """,
        version: CartographVersion.current,
        subcommands: [Validate.self, Format.self, Convert.self, Get.self, Ndjson.self, Count.self, Infer.self, Schema.self]
    )

    /// Runs the command; usage errors exit with status 2 (not ArgumentParser's 64).
    static func main() {
        Output.reportBrokenPipes()
        Foundation.exit(runReportingErrors())
    }

    /// Runs the command and reports its error; the status to exit with.
    /// Apart from ``main()`` so that what it made (the command, the
    /// message) is released before `exit`, which unwinds nothing: in an
    /// optimised build with LeakSanitizer, a message still held at `exit`
    /// was reported as a leak and turned the usage status 2 into 1.
    private static func runReportingErrors() -> Int32 {
        do {
            var command = try parseAsRoot()
            try command.run()
            return 0
        } catch let exit as ExitStatus {
            return exit.code
        } catch {
            let code = exitCode(for: error)
            let message = fullMessage(for: error)
            if code == .success {
                print(message)
                return 0
            }
            FileHandle.standardError.write(Data((message + "\n").utf8))
            return code == .validationFailure ? 2 : code.rawValue
        }
    }
}

/// Thrown by a subcommand to end with a given status after printing its own messages.
struct ExitStatus: Error {
    let code: Int32
    static let invalidInput = ExitStatus(code: 1)
    static let usage = ExitStatus(code: 2)
}
