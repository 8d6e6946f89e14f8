import Foundation
import Testing

/// Seeded random JSON values read through random plans of container accesses
/// (see CodableProbe.swift), Cartograph against Foundation's `JSONDecoder`.
/// The `FuzzCodableDifferential` target runs the same probe on fuzz input.
@Suite struct CodableDifferentialTests {
    @Test func randomAccessPlansReadWhatFoundationReads() {
        var failures: [String] = []
        // CARTOGRAPH_PROBE_CASES runs more cases (the default keeps the suite fast).
        let cases = ProcessInfo.processInfo.environment["CARTOGRAPH_PROBE_CASES"].flatMap(Int.init) ?? 3_000
        for seed in 1...cases {
            var choices = ProbeChoices(seed: UInt64(seed))
            let probe = ProbeCase(&choices)
            if let difference = probe.disagreement() { failures.append("seed \(seed): \(difference)") }
            if failures.count >= 5 { break }
        }
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n\n"))")
    }
}
