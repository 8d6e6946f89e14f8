/// Printing a value shows its JSON text.
///
/// Without these, `print(value)` and `"\(value)"` went through the
/// standard library's reflection, which walks a value recursively with
/// large frames: on a 512 KiB thread a 300-level array, within the default
/// `maxDepth`, ran the stack out (release build). The writer these use
/// checks the stack (``StackGuard``) and stops with an error, which is then
/// what is printed.
extension JSONValue: CustomStringConvertible {
    /// The value as one line of compact JSON. NaN and infinities (from JSON5
    /// or a property list) print as the strings `"NaN"`, `"Infinity"` and
    /// `"-Infinity"`; a value nested deeper than the thread's stack allows
    /// prints as a note of its kind and the error.
    public var description: String {
        do {
            return try encodedString(options: JSONValue.describing)
        } catch {
            return "<\(kind) not printable: \(error)>"
        }
    }

    /// Compact, every float written, no depth limit but the stack's.
    static let describing = WriteOptions {
        $0.nonConformingFloats = .strings(positiveInfinity: "Infinity", negativeInfinity: "-Infinity", nan: "NaN")
        $0.maxDepth = .max
    }
}

extension JSONObject: CustomStringConvertible {
    /// The object as one line of compact JSON, keys in their order (see
    /// ``JSONValue/description``).
    public var description: String { JSONValue.object(self).description }
}
