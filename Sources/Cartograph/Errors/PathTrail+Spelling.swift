/// Spelling a path already written out as text: `$`, `$.name`, `$.list[3]`,
/// `$["odd key"]`. Errors carry their path this way; ``render(_:_:)`` spells
/// a chain of links the same way.
extension PathTrail {
    /// The path of a member `key` of the object at `path`.
    static func appending(_ key: String, to path: String) -> String {
        let plain =
            !key.isEmpty
            && key.utf8.allSatisfy { byte in
                (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
                    || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "_")
            }
        if plain { return path + "." + key }
        // Quotes and backslashes escaped, and control and bidirectional
        // characters too (``ErrorText``): a path reaches logs and HTTP bodies.
        return path + "[" + ErrorText.quoted(key) + "]"
    }

    /// The path of element `position` of the array at `path`.
    static func appending(_ position: Int, to path: String) -> String {
        path + "[\(position)]"
    }
}
