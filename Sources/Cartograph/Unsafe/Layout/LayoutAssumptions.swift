import Foundation

/// The one switch over every place Cartograph relies on the Swift runtime's
/// private layout, which no public API promises and a toolchain update
/// could move:
///
/// - ``ContainerLayout``: `KeyedDecodingContainer` and
///   `KeyedEncodingContainer` are one reference to their box, so
///   ``RecycledContainers`` can keep a container and hand it out again;
/// - ``MetadataKind``: a type's metadata starts with its kind word, which
///   tells a protocol existential from a concrete type, and an enum from
///   a struct; a struct's metadata names its type's descriptor next, the
///   same for every `Array`;
/// - ``KeyIdentity``: a one-byte enum that holds no references is its
///   tag, so its bits name its `CodingKey` case;
/// - ``KeyCache``: a `String` is two words whose bits identify small
///   strings and large strings' storage;
/// - ``LentValue/withWrapped(_:_:)``: an `Optional` keeps its wrapped
///   value at offset 0 (a single-payload enum's layout), so the value is
///   lent from where the optional lies.
///
/// Each is checked where it can be (sizes, a round trip through a bit cast)
/// and each has a portable path that gives the same results, only slower.
/// Setting the environment variable `CARTOGRAPH_PORTABLE_LAYOUT=1` before
/// the first use takes the portable paths everywhere; `scripts/test` runs
/// the test suite both ways, so a difference between them is a failure.
enum LayoutAssumptions {
    /// Whether the layout tricks are used (read once per process).
    static let enabled: Bool = ProcessInfo.processInfo.environment["CARTOGRAPH_PORTABLE_LAYOUT"] != "1"
}
