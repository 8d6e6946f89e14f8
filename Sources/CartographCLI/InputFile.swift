import Cartograph
import Foundation

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
