/// Shortest round-trip text for doubles, in JSON's number grammar.
///
/// Swift's own `description` already produces the shortest digits that
/// read back to the same double (`0.1` → `"0.1"`), so this only adapts its
/// spelling: `"1e-05"` is valid JSON, and whole values keep a `.0` so that
/// they read back as doubles (`100.0`).
enum DoubleFormatting {
    /// The shortest JSON text for a finite double; `-0.0` keeps its sign.
    static func shortest(_ value: Double) -> String {
        value.description
    }
}
