import Foundation

/// A directory of its own under the system's temporary directory, removed
/// with everything in it when the last reference goes.
///
/// A suite holds one as a stored property: Swift Testing makes a new suite
/// instance for each test and releases it when the test ends, so each test's
/// files go with it instead of piling up in `/tmp` run after run.
final class ScratchDirectory: Sendable {
    /// The directory's location.
    let url: URL

    init() {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("cartograph-test-\(UUID().uuidString)")
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    /// Writes `contents` to a new file called `name` and returns its path.
    /// Each call gets a subdirectory of its own, so two files may share a name.
    func file(_ contents: String, name: String = "sample.json") throws -> String {
        let directory = url.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let file = directory.appendingPathComponent(name)
        try Data(contents.utf8).write(to: file)
        return file.path
    }
}
