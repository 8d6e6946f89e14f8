import Foundation

/// Progress on standard error for long work, shown only when standard error
/// is a terminal (so pipes, logs and CI stay clean). `CARTOGRAPH_PROGRESS=1`
/// forces it on and `=0` off.
final class Progress {
    private let label: String
    private let total: Int?
    private let enabled: Bool
    private var done = 0
    private var items = 0
    private var lastDraw = Date.distantPast
    private var drew = false
    private let started = Date()

    /// - Parameters:
    ///   - label: what is being done ("ndjson", "convert").
    ///   - total: the input's size in bytes, when known (a regular file).
    init(_ label: String, total: Int?) {
        self.label = label
        self.total = total
        switch ProcessInfo.processInfo.environment["CARTOGRAPH_PROGRESS"] {
        case "1": enabled = true
        case "0": enabled = false
        default: enabled = isatty(STDERR_FILENO) == 1
        }
    }

    /// The size of a regular file, or nil (standard input, pipes).
    static func size(of path: String) -> Int? {
        guard path != "-", let attributes = try? FileManager.default.attributesOfItem(atPath: path),
            attributes[.type] as? FileAttributeType == .typeRegular
        else { return nil }
        return (attributes[.size] as? NSNumber)?.intValue
    }

    /// Records bytes read and elements written; redraws at most four times a second.
    func advance(bytes: Int = 0, items: Int = 0) {
        done += bytes
        self.items += items
        guard enabled else { return }
        let now = Date()
        if now.timeIntervalSince(lastDraw) >= 0.25 {
            lastDraw = now
            draw()
        }
    }

    /// Says what stage the work is in ("writing binary plist").
    func stage(_ text: String) {
        guard enabled else { return }
        write("\r\u{1B}[K\(label): \(text)")
        drew = true
    }

    /// Ends the progress line with the totals.
    func finish() {
        guard enabled, drew || Date().timeIntervalSince(started) >= 0.25 else { return }
        draw()
        write(String(format: " in %.1f s\n", Date().timeIntervalSince(started)))
    }

    private func draw() {
        var text = "\(label): \(Self.megabytes(done))"
        if let total, total > 0 {
            text += " of \(Self.megabytes(total)) (\(min(100, done * 100 / total))%)"
        }
        if items > 0 { text += ", \(items) elements" }
        write("\r\u{1B}[K" + text)
        drew = true
    }

    private func write(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }

    static func megabytes(_ bytes: Int) -> String {
        String(format: "%.1f MB", Double(bytes) / 1_000_000)
    }
}
