import Cartograph
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads a command's input: a file path, or `-` for standard input.
enum InputFile {
    /// The bytes of the file or of standard input.
    static func read(_ path: String) throws -> [UInt8] {
        if path == "-" {
            return Array(FileHandle.standardInput.readDataToEndOfFile())
        }
        // FileHandle, not FileManager.contents(atPath:): the latter leaks a
        // buffer on empty files in this Foundation (LeakSanitizer reports it).
        guard let handle = FileHandle(forReadingAtPath: path), let data = try? handle.readToEnd() ?? Data() else {
            var isDirectory: ObjCBool = false
            let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
            throw ReadError(path: path, reason: !exists ? "no such file" : isDirectory.boolValue ? "is a directory" : "cannot be read")
        }
        return Array(data)
    }

    /// A handle to read the file (or standard input for `-`) in pieces; the
    /// same messages as ``read(_:)`` when it cannot be opened.
    static func open(_ path: String) throws -> FileHandle {
        if path == "-" { return FileHandle.standardInput }
        var isDirectory: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
        guard exists, !isDirectory.boolValue, let handle = FileHandle(forReadingAtPath: path) else {
            throw ReadError(path: path, reason: !exists ? "no such file" : isDirectory.boolValue ? "is a directory" : "cannot be read")
        }
        return handle
    }

    /// The status of `output` when it is the regular file `input` names
    /// (`-`: the file standard input comes from), else nil. Compared by
    /// device and inode, so that another spelling of the path, or a link to
    /// the file, counts too; devices and pipes (`/dev/null`, a terminal) are
    /// never the same file.
    static func sameRegularFile(_ output: String, as input: String) -> stat? {
        var target = stat()
        guard stat(output, &target) == 0, target.st_mode & S_IFMT == S_IFREG else { return nil }
        var source = stat()
        let found = input == "-" ? fstat(STDIN_FILENO, &source) : stat(input, &source)
        return found == 0 && source.st_dev == target.st_dev && source.st_ino == target.st_ino ? target : nil
    }

    /// A file that could not be read.
    struct ReadError: Error, CustomStringConvertible {
        let path: String
        let reason: String
        var description: String { "\(CartographError.printable(path)): \(reason)" }
    }

    /// Writes to standard error.
    static func warn(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }
}
