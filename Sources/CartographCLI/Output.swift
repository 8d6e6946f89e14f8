import Cartograph
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where a command writes its result: standard output or a file, through
/// `write(2)`, so that a full disk or a closed pipe ends the command with a
/// message and exit status 1 instead of a trap (`FileHandle.write(_:)`
/// traps on Linux when the write fails).
struct Output {
    private let descriptor: Int32
    private let name: String
    private let ownsDescriptor: Bool

    /// Standard output.
    static let standard = Output(descriptor: STDOUT_FILENO, name: "standard output", ownsDescriptor: false)

    private init(descriptor: Int32, name: String, ownsDescriptor: Bool) {
        self.descriptor = descriptor
        self.name = name
        self.ownsDescriptor = ownsDescriptor
    }

    /// Standard output, or the file at `path` (created or truncated); a file
    /// that cannot be opened ends the command with exit status 2.
    static func to(_ path: String?) throws -> Output {
        guard let path, path != "-" else { return .standard }
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard descriptor >= 0 else {
            InputFile.warn("\(CartographError.printable(path)): cannot be written: \(String(cString: strerror(errno)))")
            throw ExitStatus.usage
        }
        return Output(descriptor: descriptor, name: path, ownsDescriptor: true)
    }

    /// Writes every byte, or ends the command with a message and exit status 1.
    func write(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Foundation.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    throw failed()
                }
                offset += written
            }
        }
    }

    /// Closes a file opened by ``to(_:)``; a failing close (a full disk
    /// noticed late) ends the command like a failing write.
    func close() throws {
        guard ownsDescriptor else { return }
        if Foundation.close(descriptor) != 0 { throw failed() }
    }

    /// Reports the failed write (errno says why); the command ends with status 1.
    private func failed() -> ExitStatus {
        InputFile.warn("cartograph: cannot write to \(CartographError.printable(name)): \(String(cString: strerror(errno)))")
        return .invalidInput
    }

    /// A closed pipe makes `write` fail with EPIPE (reported, exit 1)
    /// instead of killing the process with SIGPIPE.
    static func reportBrokenPipes() {
        signal(SIGPIPE, SIG_IGN)
    }
}

/// Streamed output gathered into writes of about 1 MiB (for `ndjson` and
/// `get`, which produce many small values).
final class BufferedOutput {
    private let sink: Output
    private var buffer: [UInt8] = []

    init(_ sink: Output) {
        self.sink = sink
        buffer.reserveCapacity(1 << 20)
    }

    func append(_ bytes: [UInt8]) throws {
        buffer += bytes
        if buffer.count >= 1 << 20 { try flush() }
    }

    func flush() throws {
        if !buffer.isEmpty { try sink.write(buffer) }
        buffer.removeAll(keepingCapacity: true)
    }
}
