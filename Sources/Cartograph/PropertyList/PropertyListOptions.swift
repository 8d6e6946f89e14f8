/// How property lists are read and written, in one `Sendable` value.
public struct PropertyListOptions: Sendable, Hashable {
    /// Deepest nesting of dicts and arrays. Default 512. Cartograph's readers
    /// enforce it as they go; libplist 2.2 has no limit of its own, so with
    /// ``Reader/libplist`` Cartograph checks the input before libplist parses it.
    public var maxDepth: Int = 512
    /// Largest input accepted, in bytes. Default 256 MiB.
    public var maxInputBytes: Int = 256 << 20
    /// Most values a binary plist may expand to. A binary plist can refer to
    /// one object from many places, and reading copies it each time, so a
    /// small file could expand enormously; the count is checked first.
    /// Default 16,000,000; at most 2^32 − 1 is applied.
    public var maxValues: Int = 16_000_000
    /// Most memory, in bytes, the Document of a binary plist may take once
    /// shared references are expanded, as a multiple of the file's size (with
    /// ``minExpansionBudget`` as a floor for small files). Counting values is
    /// not enough: a 5 KB file whose array refers 1,000 times to a 1 KiB
    /// string, referred to 1,000 times itself, holds only 2,000 values per
    /// level but would expand to gigabytes. The budget counts each value's
    /// tape entry and its text (strings, keys, numbers, base64 data, dates),
    /// before anything is allocated. Default 64: files written without shared
    /// values expand about 8 to 25 times; reaching 64 takes thousands of
    /// references to one long value.
    public var maxExpansionFactor: Int = 64
    /// The budget of ``maxExpansionFactor`` for files too small for the
    /// factor to matter. Default 4 MiB.
    public var minExpansionBudget: Int = 4 << 20
    /// What reading does with a UID (keyed-archiver reference). Default ``UIDPolicy/integer``.
    public var uids: UIDPolicy = .integer
    /// What writing does with `nil`/`null`, which plists cannot hold. Default ``NullPolicy/omit``.
    public var nulls: NullPolicy = .omit
    /// Write each dictionary's keys sorted (Swift's `String` order), as
    /// Foundation's `PropertyListEncoder` does, instead of in the order they
    /// were encoded. Default `false`; `CartographPropertyListEncoder` sets it,
    /// so its XML is byte for byte Foundation's.
    public var sortedKeys: Bool = false
    /// Whether a bool, number, string or date may be the whole plist.
    /// Default `true` (the formats hold them and every reader here reads
    /// them); `CartographPropertyListEncoder` sets `false`, refusing them
    /// as Foundation's `PropertyListEncoder` does ("fragments").
    public var allowsTopLevelScalars: Bool = true

    /// Which code writes plists. Default ``Writer/native``.
    public var writer: Writer = .native
    /// Which code reads plists. Default ``Reader/native``.
    public var reader: Reader = .native

    /// The defaults described on each property.
    public init() {}

    /// The defaults, with some properties changed.
    public init(_ configure: (inout PropertyListOptions) -> Void) {
        configure(&self)
    }

    /// What reading does with a UID.
    public enum UIDPolicy: Sendable, Hashable {
        /// Read it as an integer.
        case integer
        /// Throw ``CartographError/Kind/typeMismatch``.
        case reject
    }

    /// Which code reads plists.
    public enum Reader: Sendable, Hashable {
        /// Cartograph's own readers, straight into the Document without a
        /// tree in between: faster than libplist 2.2 (Benchmarks/HISTORY.md) and without
        /// its limits (dates beyond 1932–2069, keys holding NUL, no depth
        /// limit of its own); XML `CF$UID` dicts read as UIDs, as Foundation does.
        case native
        /// libplist's `plist_from_bin` / `plist_from_xml`, after Cartograph's
        /// structure checks, then converted into the Document.
        case libplist
    }

    /// Which code writes plists.
    public enum Writer: Sendable, Hashable {
        /// Cartograph's Swift writer (faster than libplist 2.2's; see Benchmarks/HISTORY.md).
        case native
        /// libplist's `plist_to_xml` / `plist_to_bin`.
        case libplist
    }

    /// What writing does with a null.
    public enum NullPolicy: Sendable, Hashable {
        /// Leave a dict's member out, and write an array's element as the
        /// string `$null`, Foundation's spelling of nil, so that the later
        /// elements keep their places (Cartograph's and Foundation's
        /// `Codable` decoders read it back as nil). The default.
        case omit
        /// Throw ``CartographError/Kind/encodingFailed``.
        case reject
    }
}

/// The two property-list formats.
public enum PropertyListFormat: String, Sendable, Hashable, CaseIterable {
    /// XML (`<?xml … <plist>`).
    case xml
    /// Binary (`bplist00`).
    case binary

    /// The format of some bytes: binary when they start with `bplist00`, else XML.
    public static func detect(_ bytes: UnsafeRawBufferPointer) -> PropertyListFormat {
        unsafe withByteSpan(bytes) { detect($0) }
    }

    /// The format of some bytes: binary when they start with `bplist0`, else XML.
    public static func detect(_ bytes: Span<UInt8>) -> PropertyListFormat {
        // Any version byte after "bplist0", as Foundation reads them (the
        // layout is bplist00's; later versions were never written).
        bytes.count >= 8 && bytes.matches("bplist0", at: 0) ? .binary : .xml
    }
}
