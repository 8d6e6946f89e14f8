internal import CCartographTape

extension OutputBuffer {
    /// Appends a finite double's shortest round-trip text, as
    /// ``DoubleFormatting/json(_:)`` spells it (`shortest_double.c`: the
    /// standard library's formatter took about 500 instructions per double,
    /// two thirds of a mapping encode of canada.json).
    func appendShortest(_ value: Double) {
        unsafe appendInPlace(minimum: 32) { target, _ in unsafe cartograph_format_double(value, target) }
    }
}
