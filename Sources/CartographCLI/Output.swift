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
    /// For an output written in place of its input (``to(_:replacing:)``):
    /// the temporary file written, and the file it replaces at ``close()``.
    private let replacement: (temporary: String, target: String)?

    /// Standard output.
    static let standard = Output(descriptor: STDOUT_FILENO, name: "standard output", ownsDescriptor: false)

    private init(descriptor: Int32, name: String, ownsDescriptor: Bool, replacement: (temporary: String, target: String)? = nil) {
        self.descriptor = descriptor
        self.name = name
        self.ownsDescriptor = ownsDescriptor
        self.replacement = replacement
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

    /// The output of a command that has read all of `input` (`-`: standard
    /// input) before it writes: as ``to(_:)``, except when `path` is the
    /// input file itself (by any name or link). Truncating it and writing
    /// would leave it cut short if a write failed (a full disk, a file size
    /// limit), so the output goes to a temporary file beside it, with its
    /// permissions, which replaces it at ``close()``: a failure leaves the
    /// input as it was. (As with `sed -i`, the file is a new one: other hard
    /// links to it keep the old text.)
    static func to(_ path: String?, replacing input: String) throws -> Output {
        guard let path, path != "-", let information = InputFile.sameRegularFile(path, as: input) else { return try to(path) }
        // The file a link leads to: renaming over the link would replace the link.
        let target = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        var template = Array("\(target).cartograph-XXXXXX".utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else {
            InputFile.warn("\(CartographError.printable(path)): cannot be written: \(String(cString: strerror(errno)))")
            throw ExitStatus.usage
        }
        let temporary = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        _ = fchmod(descriptor, information.st_mode & 0o7777)
        return Output(descriptor: descriptor, name: path, ownsDescriptor: true, replacement: (temporary, target))
    }

    /// The output of a command that reads `input` as it writes (`ndjson`,
    /// `get`): as ``to(_:)``, except that opening the input file itself (by
    /// another name, a link, or as standard input) would truncate it before
    /// a byte of it was read. That is a usage error (exit 2) that leaves the
    /// file as it was.
    static func to(_ path: String?, streaming input: String) throws -> Output {
        if let path, path != "-", InputFile.sameRegularFile(path, as: input) != nil {
            InputFile.warn(
                "\(CartographError.printable(path)): is the input file; this command writes as it reads, so it would empty its input. Write elsewhere."
            )
            throw ExitStatus.usage
        }
        return try to(path)
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
        if let replacement, rename(replacement.temporary, replacement.target) != 0 { throw failed() }
    }

    /// Reports the failed write (errno says why) and removes a temporary
    /// file, so that the file it was to replace stays as it was; the
    /// command ends with status 1.
    private func failed() -> ExitStatus {
        let reason = String(cString: strerror(errno))
        if let replacement { unlink(replacement.temporary) }
        let kept = replacement == nil ? "" : " (it is left as it was)"
        InputFile.warn("cartograph: cannot write to \(CartographError.printable(name)): \(reason)\(kept)")
        return .invalidInput
    }

    /// A closed pipe makes `write` fail with EPIPE (reported, exit 1)
    /// instead of killing the process with SIGPIPE; a write past the file
    /// size limit (`ulimit -f`) fails with EFBIG instead of SIGXFSZ killing
    /// it, so the command can say so and remove a temporary file.
    static func reportBrokenPipes() {
        signal(SIGPIPE, SIG_IGN)
        signal(SIGXFSZ, SIG_IGN)
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
