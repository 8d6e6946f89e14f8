import Foundation

// cartograph-bench [--json] [--rounds N] [--min-time SECONDS] [--only ID[,ID…]] [--peak-memory] [FILE…]
// cartograph-bench records generate|stream|decode|foundation PATH [BYTES]   (scripts/stream-bench)
// cartograph-bench hostile [CASE]   (scripts/hostile: what each attack costs, one process per case)
//
// With no files, measures every .json file in Benchmarks/Data. Release builds only
// give meaningful numbers: `swift run -c release cartograph-bench` (scripts/bench).

var arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == "keys" {
    do {
        try KeyScaling.run()
        exit(0)
    } catch {
        FileHandle.standardError.write(Data("cartograph-bench keys: \(error)\n".utf8))
        exit(1)
    }
}
if arguments.first == "leakcheck" {
    do {
        try LeakCheck.run()
        exit(0)
    } catch {
        FileHandle.standardError.write(Data("cartograph-bench leakcheck: \(error)\n".utf8))
        exit(1)
    }
}
if arguments.first == "hostile" {
    do {
        try HostileBenchmark.run(Array(arguments.dropFirst()))
        exit(0)
    } catch {
        FileHandle.standardError.write(Data("cartograph-bench hostile: \(error)\n".utf8))
        exit(1)
    }
}
if arguments.first == "records" {
    do {
        try StreamBenchmark.run(Array(arguments.dropFirst()))
        exit(0)
    } catch {
        FileHandle.standardError.write(Data("cartograph-bench records: \(error)\n".utf8))
        exit(1)
    }
}
var emitJSON = false
var rounds = 5
var minimumTime = 0.15
var only: Set<String>?
var paths: [String] = []
var reportPeakMemory = false
while !arguments.isEmpty {
    let argument = arguments.removeFirst()
    switch argument {
    case "--json": emitJSON = true
    case "--peak-memory": reportPeakMemory = true
    case "--rounds": rounds = Int(arguments.isEmpty ? "" : arguments.removeFirst()) ?? rounds
    case "--min-time": minimumTime = Double(arguments.isEmpty ? "" : arguments.removeFirst()) ?? minimumTime
    case "--only": only = Set((arguments.isEmpty ? "" : arguments.removeFirst()).split(separator: ",").map(String.init))
    case "-h", "--help":
        print("usage: cartograph-bench [--json] [--rounds N] [--min-time SECONDS] [--only ID,…] [--peak-memory] [FILE…]")
        exit(0)
    default: paths.append(argument)
    }
}

func warn(_ text: String) { FileHandle.standardError.write(Data((text + "\n").utf8)) }

if paths.isEmpty {
    let directory = "Benchmarks/Data"
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
    paths = names.filter { $0.hasSuffix(".json") }.sorted().map { "\(directory)/\($0)" }
    if paths.isEmpty {
        warn("cartograph-bench: no files given and no Benchmarks/Data/*.json here; run from the package root")
        exit(2)
    }
}

var files: [(name: String, bytes: [UInt8])] = []
for path in paths {
    guard let data = FileManager.default.contents(atPath: path) else {
        warn("cartograph-bench: cannot read \(path)")
        exit(2)
    }
    files.append(((path as NSString).lastPathComponent, Array(data)))
}

var contenders = ParseContenders.all + EncodeContenders.all + ModelContenders.all + CodableContenders.all + PlistContenders.all
if let only { contenders = contenders.filter { only.contains($0.id) } }

do {
    let measurement = Measurement(rounds: rounds, minimumSecondsPerRound: minimumTime)
    let results = try measurement.run(files: files, contenders: contenders) { warn($0) }
    print(emitJSON ? Report.json(results) : Report.table(results))
} catch {
    warn("cartograph-bench: \(error)")
    exit(1)
}
if benchmarkSink == 42 { warn("") }
if reportPeakMemory {
    // The process's peak resident set (VmHWM), for scripts/memory, which
    // runs one contender per process and subtracts a baseline process.
    let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
    let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") } ?? "VmHWM: 0 kB"
    warn("peak-memory-kb \(line.split(separator: " ").dropFirst().first ?? "0")")
}
