import Foundation

/// The human table and the `--json` report.
enum Report {
    /// A one-line description of this machine.
    static func machine() -> String {
        var model = "unknown CPU"
        if let info = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8),
            let line = info.split(separator: "\n").first(where: { $0.hasPrefix("model name") }),
            let colon = line.firstIndex(of: ":")
        {
            model = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        #if arch(x86_64)
            let arch = "x86_64"
        #elseif arch(arm64)
            let arch = "arm64"
        #else
            let arch = "unknown"
        #endif
        return "Linux \(arch), \(ProcessInfo.processInfo.activeProcessorCount) cores, \(model)"
    }

    /// `{"machine": "...", "results": [{"file", "bytes", "contender", "median_ms", "mbps"}]}`
    static func json(_ results: [Measurement.Result]) -> String {
        func quoted(_ text: String) -> String {
            var out = "\""
            for scalar in text.unicodeScalars {
                switch scalar {
                case "\"": out += "\\\""
                case "\\": out += "\\\\"
                case "\n": out += "\\n"
                default:
                    if scalar.value < 0x20 { out += String(format: "\\u%04x", scalar.value) } else { out.unicodeScalars.append(scalar) }
                }
            }
            return out + "\""
        }
        let rows = results.map { result in
            "{\"file\": \(quoted(result.file)), \"bytes\": \(result.bytes), \"contender\": \(quoted(result.contender)), "
                + "\"median_ms\": \(String(format: "%.3f", result.medianMilliseconds)), \"mbps\": \(String(format: "%.1f", result.megabytesPerSecond))}"
        }
        return "{\"machine\": \(quoted(machine())), \"results\": [\n  " + rows.joined(separator: ",\n  ") + "\n]}"
    }

    /// A Markdown table: file, contender, median, MB/s, and the ratio against its peer.
    static func table(_ results: [Measurement.Result]) -> String {
        var lines = ["| file | contender | median ms | MB/s | vs peer |", "| --- | --- | ---: | ---: | --- |"]
        for result in results {
            var ratio = ""
            if let peer = result.peer, let other = results.first(where: { $0.file == result.file && $0.contender == peer }) {
                ratio = String(format: "%.2fx %@", other.medianSeconds / result.medianSeconds, peer)
            }
            lines.append(
                "| \(result.file) | \(result.contender) | \(String(format: "%.3f", result.medianMilliseconds)) | \(String(format: "%.1f", result.megabytesPerSecond)) | \(ratio) |"
            )
        }
        return lines.joined(separator: "\n") + "\n\nmachine: \(machine())"
    }
}
