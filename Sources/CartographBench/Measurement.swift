import Foundation

/// Times contenders in interleaved rounds and reports medians.
struct Measurement {
    struct Result {
        let file: String
        let bytes: Int
        let contender: String
        let peer: String?
        let medianSeconds: Double
        var medianMilliseconds: Double { medianSeconds * 1000 }
        var megabytesPerSecond: Double { Double(bytes) / 1_000_000 / medianSeconds }
    }

    let rounds: Int
    let minimumSecondsPerRound: Double

    private static func now() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }

    /// Runs every contender on every file: one warm-up pass, then `rounds`
    /// rounds in which each contender runs in turn for at least
    /// `minimumSecondsPerRound` (and at least twice); the median of all timed
    /// runs is reported.
    func run(files: [(name: String, bytes: [UInt8])], contenders: [Contender], progress: (String) -> Void) throws -> [Result] {
        var results: [Result] = []
        for file in files {
            var work: [(Contender, () throws -> Int)] = []
            for contender in contenders {
                do {
                    work.append((contender, try contender.prepare(file.name, file.bytes)))
                } catch {
                    progress("skipping \(contender.id) on \(file.name): \(error)")
                }
            }
            var samples = [[Double]](repeating: [], count: work.count)
            for (_, body) in work { benchmarkSink &+= try body() }
            for round in 0..<rounds {
                progress("\(file.name): round \(round + 1) of \(rounds)")
                for (position, (_, body)) in work.enumerated() {
                    let roundStart = Self.now()
                    var runs = 0
                    while runs < 2 || Self.now() - roundStart < minimumSecondsPerRound {
                        let start = Self.now()
                        benchmarkSink &+= try body()
                        samples[position].append(Self.now() - start)
                        runs += 1
                    }
                }
            }
            for (position, (contender, _)) in work.enumerated() {
                let sorted = samples[position].sorted()
                let median = sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
                results.append(Result(file: file.name, bytes: file.bytes.count, contender: contender.id, peer: contender.peer, medianSeconds: median))
            }
        }
        return results
    }
}
