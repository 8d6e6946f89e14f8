import Foundation

/// Runs a program to its end for a test: the outside validators, the
/// `cartograph` executable, the Swift compiler.
///
/// Its input, output and errors are temporary files, not pipes: Foundation's
/// `readDataToEndOfFile` traps when a read is interrupted (`EINTR`, the
/// child's own `SIGCHLD` arriving mid-read, seen in this suite), and a pipe
/// read only at the end stalls a child that writes more than it holds. It
/// waits on the process's termination handler, not `waitUntilExit()`, which
/// spins a run loop on the calling thread: from an async test that thread
/// belongs to Swift's concurrency pool (a crash in the runtime's
/// `destroyTask` was seen while a server test waited that way).
public enum ChildProcess {
    /// How the program ended and what it wrote.
    public struct Result: Sendable {
        public let status: Int32
        public let output: Data
        public let errors: Data
    }

    /// Runs `executable` with `arguments`, `input` on its standard input
    /// (none when nil), the environment given (this process's when nil).
    public static func run(_ executable: URL, _ arguments: [String], input: Data? = nil, environment: [String: String]? = nil) throws -> Result {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cartograph-child-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let inputFile = directory.appendingPathComponent("input")
        let outputFile = directory.appendingPathComponent("output")
        let errorFile = directory.appendingPathComponent("errors")
        try (input ?? Data()).write(to: inputFile)
        try Data().write(to: outputFile)
        try Data().write(to: errorFile)
        let reading = try FileHandle(forReadingFrom: inputFile)
        let output = try FileHandle(forWritingTo: outputFile)
        let errors = try FileHandle(forWritingTo: errorFile)
        defer {
            try? reading.close()
            try? output.close()
            try? errors.close()
        }
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let environment { process.environment = environment }
        process.standardInput = reading
        process.standardOutput = output
        process.standardError = errors
        let ended = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in ended.signal() }
        try process.run()
        ended.wait()
        return Result(status: process.terminationStatus, output: try Data(contentsOf: outputFile), errors: try Data(contentsOf: errorFile))
    }
}
