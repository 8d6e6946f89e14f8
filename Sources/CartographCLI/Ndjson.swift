import ArgumentParser
import Cartograph
import Foundation

/// `cartograph ndjson IN [--path $.items]`
struct Ndjson: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Stream the elements of an array out as NDJSON, in bounded memory.",
        discussion: """
            Reads the input in chunks and writes each element of the array at --path (the \
            top-level array by default) as one compact JSON line, as soon as it is complete: \
            memory stays bounded by the largest element. Progress goes to standard error when \
            it is a terminal. Exit status: 0 on success, 1 for \
            invalid input (the lines before the error are written), 2 for a usage error \
            (an --output that is the input file itself is one: it would be emptied before it was read).
            """
    )

    @Argument(help: "The JSON file; - or nothing reads standard input.")
    var input: String = "-"

    @Option(
        help:
            "What to stream: $ (the top-level array), an array such as $.data.items or $.batches[0].items, or with [*] every value a path selects ($.data[*].id)."
    )
    var path: String = "$"

    @Option(name: .shortAndLong, help: "Write here instead of standard output.")
    var output: String?

    func run() throws {
        let path = try StreamCommand.parse(self.path)
        let handle = try StreamCommand.open(input)
        // Closed once, below; on a failure the process ends and the kernel closes it.
        let sink = try Output.to(output, streaming: input)
        let buffered = BufferedOutput(sink)
        try StreamCommand.run(input: input, handle: handle, path: path, progress: "ndjson") { document in
            try buffered.append(document.compactLine() + [UInt8(ascii: "\n")])
        } flush: {
            try buffered.flush()
        }
        try sink.close()
    }
}

/// `cartograph count IN [--path ...]`
struct Count: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Count the elements of an array without building them, in bounded memory.",
        discussion: "Prints the number alone. Exit status: 0 on success, 1 for invalid input, 2 for a usage error."
    )

    @Argument(help: "The JSON file; - or nothing reads standard input.")
    var input: String = "-"

    @Option(
        help:
            "What to count: $ (the top-level array), an array such as $.data.items or $.batches[0].items, or with [*] every value a path selects ($.data[*].id)."
    )
    var path: String = "$"

    func run() throws {
        var count = 0
        let path = try StreamCommand.parse(self.path)
        try StreamCommand.run(input: input, handle: try StreamCommand.open(input), path: path, progress: "count") { _ in
            count += 1
        } flush: {
        }
        try Output.standard.write(Array("\(count)\n".utf8))
    }
}

/// The reading loop shared by `ndjson`, `count` and `get`.
enum StreamCommand {
    /// A `--path`; malformed text is a usage error (exit 2).
    static func parse(_ text: String) throws -> StreamPath {
        do {
            return try StreamPath(parsing: text)
        } catch let error as CartographError {
            InputFile.warn(error.message)
            throw ExitStatus.usage
        }
    }

    /// The input (`-`: standard input) opened for reading, or exit status 2
    /// with one message. Opened before the output, so that a missing input
    /// leaves an existing output file as it was.
    static func open(_ input: String) throws -> FileHandle {
        do {
            return try InputFile.open(input)
        } catch {
            InputFile.warn("\(error)")
            throw ExitStatus.usage
        }
    }

    static func run(
        input: String, handle: FileHandle, path: StreamPath, progress label: String, element: (Document) throws -> Void,
        flush: () throws -> Void
    ) throws {
        let name = input == "-" ? "<stdin>" : input
        let stream = ModelStream(Document.self, path: path)
        let progress = Progress(label, total: Progress.size(of: input))
        do {
            while let data = try handle.read(upToCount: 1 << 20), !data.isEmpty {
                let before = stream.elementCount
                try stream.feed(data) { try element($0) }
                progress.advance(bytes: data.count, items: stream.elementCount - before)
            }
            let before = stream.elementCount
            try stream.finish { try element($0) }
            progress.advance(items: stream.elementCount - before)
            try flush()
            progress.finish()
        } catch let error as CartographError {
            try flush()
            progress.finish()
            InputFile.warn(error.report(file: name) + (error.elementIndex.map { " (element \($0))" } ?? ""))
            throw ExitStatus.invalidInput
        }
    }
}
