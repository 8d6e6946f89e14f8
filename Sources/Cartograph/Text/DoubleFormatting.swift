/// Shortest round-trip text for doubles.
///
/// Swift's own `description` already produces the shortest digits that
/// read back to the same double (`0.1` → `"0.1"`), in a spelling JSON
/// accepts (`"1e-05"`, `"1e+16"`).
enum DoubleFormatting {
    /// The shortest text for a finite double, whole values with `.0`
    /// (`100.0`); `-0.0` keeps its sign. The text a property list's real
    /// keeps on the tape.
    static func shortest(_ value: Double) -> String {
        value.description
    }

    /// The shortest JSON text for a finite double, as Foundation's
    /// `JSONEncoder` and `JSONSerialization` write it: a whole value without
    /// `.0` (`100`, `-0`), so that golden files written by Foundation's
    /// coders stay byte-identical (its XML property lists write reals the
    /// same way). Either spelling reads back as the same double.
    static func json(_ value: some BinaryFloatingPoint & CustomStringConvertible) -> String {
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        return text
    }
}
