import Foundation

/// One thing to measure on one input file.
struct Contender: Sendable {
    /// The stable id in `--json` output (other tools read it).
    let id: String
    /// The id of the contender this one is compared with in the human table, if any.
    let peer: String?
    /// Prepares per-file state outside the timed region and returns the timed work.
    let prepare: @Sendable (_ file: String, _ bytes: [UInt8]) throws -> () throws -> Int
}

/// Keeps results alive so the optimiser cannot drop the measured work.
nonisolated(unsafe) var benchmarkSink = 0
