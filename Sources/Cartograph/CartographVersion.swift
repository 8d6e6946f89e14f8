/// The version of this Cartograph release.
///
/// Cartograph follows semantic versioning; while the major version is 0,
/// a minor release may change public API (CHANGELOG.md says what changed).
public enum CartographVersion {
    /// `major.minor.patch`, as in CHANGELOG.md and the release tag.
    public static let current = "0.1.0"
}
