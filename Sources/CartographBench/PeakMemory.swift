import Foundation

/// Peak memory of the decodes themselves, for `--peak-memory`: the
/// resident set's high-water mark is reset (Linux: `5` written to
/// `/proc/self/clear_refs`) once the contenders are set up, and the growth
/// reported is the new peak minus what was resident then. Setup that a
/// service does once (a registry's compiled mappings, a decoder object, the
/// input copied into `Data`) is not counted against every decode; the whole
/// process's peak is reported beside it.
enum PeakMemory {
    nonisolated(unsafe) private static var residentAtStart = 0

    /// A `/proc/self/status` field in KiB (0 when it cannot be read).
    static func kilobytes(_ field: String) -> Int {
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix(field + ":") } ?? ""
        return Int(line.split(separator: " ").dropFirst().first ?? "0") ?? 0
    }

    /// Resets the high-water mark and notes what is resident now.
    static func start() {
        if let handle = FileHandle(forWritingAtPath: "/proc/self/clear_refs") {
            handle.write(Data("5".utf8))
            try? handle.close()
        }
        residentAtStart = kilobytes("VmRSS")
    }

    /// The high-water mark's growth since ``start()``, in KiB.
    static func growth() -> Int { max(0, kilobytes("VmHWM") - residentAtStart) }
}
