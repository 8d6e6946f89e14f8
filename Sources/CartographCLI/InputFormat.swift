import Cartograph

/// What kind of document a command's input is.
enum InputFormat: String, CaseIterable {
    case auto, json, plist

    /// `plist` for bytes that start like a binary or XML property list, else `json`.
    static func detect(_ bytes: [UInt8]) -> InputFormat {
        if bytes.starts(with: Array("bplist00".utf8)) { return .plist }
        var start = bytes.drop { $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }
        if start.starts(with: [0xEF, 0xBB, 0xBF]) { start = start.dropFirst(3) }
        return start.starts(with: Array("<?xml".utf8)) || start.starts(with: Array("<plist".utf8))
            || start.starts(with: Array("<!DOCTYPE plist".utf8))
            ? .plist : .json
    }

    /// Reads the bytes as this format (detecting it for `auto`).
    func document(_ bytes: [UInt8], options: ParseOptions = ParseOptions()) throws -> Document {
        switch self == .auto ? Self.detect(bytes) : self {
        case .plist: return try PropertyListMapper().document(from: bytes)
        default: return try Document(parsing: bytes, options: options)
        }
    }
}

extension CartographError {
    /// `FILE:LINE:COLUMN: message` for text positions, `FILE: offset N: message` otherwise.
    func report(file name: String) -> String {
        // A file name may hold control characters too (a glob over uploads).
        let file = CartographError.printable(name)
        if let line, let column { return "\(file):\(line):\(column): \(message)\(path.map { " at \($0)" } ?? "")" }
        if let offset { return "\(file): offset \(offset): \(message)" }
        return "\(file): \(message)"
    }
}
