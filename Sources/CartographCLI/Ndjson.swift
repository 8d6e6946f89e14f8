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
            invalid input (the lines before the error are written), 2 for a usage error.
            """
    )

    @Argument(help: "The JSON file; - or nothing reads standard input.")
    var input: String = "-"

    @Option(help: "The array to stream: $ (the top-level array) or a key path such as $.data.items.")
    var path: String = "$"

    @Option(name: .shortAndLong, help: "Write here instead of standard output.")
    var output: String?

    func run() throws {
        // Closed once, below; on a failure the process ends and the kernel closes it.
        let sink = try Output.to(output)
        var buffer: [UInt8] = []
        buffer.reserveCapacity(1 << 20)
        try StreamCommand.run(input: input, path: StreamPath(path), progress: "ndjson") { document in
            buffer += document.compactLine()
            buffer.append(UInt8(ascii: "\n"))
            if buffer.count >= 1 << 20 {
                try sink.write(buffer)
                buffer.removeAll(keepingCapacity: true)
            }
        } flush: {
            if !buffer.isEmpty { try sink.write(buffer) }
            buffer.removeAll()
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

    @Option(help: "The array to count: $ (the top-level array) or a key path such as $.data.items.")
    var path: String = "$"

    func run() throws {
        var count = 0
        try StreamCommand.run(input: input, path: StreamPath(path), progress: "count") { _ in count += 1 } flush: {}
        try Output.standard.write(Array("\(count)\n".utf8))
    }
}

/// The reading loop shared by `ndjson` and `count`.
enum StreamCommand {
    static func run(input: String, path: StreamPath, progress label: String, element: (Document) throws -> Void,
                    flush: () throws -> Void) throws {
        let handle: FileHandle
        do {
            handle = try InputFile.open(input)
        } catch {
            InputFile.warn("\(error)")
            throw ExitStatus.usage
        }
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
