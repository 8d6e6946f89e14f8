/// The keys an encode has converted (snake_case, or a custom strategy),
/// each converted once: asked for at every member the encoders write.
///
/// A `[String: String]` hashed each key with SipHash on every member: under
/// `.snakeCase`, a sixth of a `Codable` encode of activity.json was that
/// hashing. Keys come from a program's `CodingKey` types, so an encode
/// meets few of them, and the same key usually as the same string storage,
/// which `==` compares first. Here a key is placed by its length and end
/// bytes (not a hash of every byte) in a table of 256 slots, and looked for in
/// at most eight of them; a key that finds neither itself nor a free slot
/// there (keys built to collide, or a table full of data-driven keys) is
/// converted again rather than searched for further, so no input makes a
/// lookup cost more than eight comparisons and a conversion.
struct ConvertedKeyCache {
    /// The slots: as many as a byte picks (``home(of:)``).
    private static let slotCount = 256
    private static let probes = 8

    /// The keys as given, by slot (nil: free); made at the first key.
    private var sources: [String?] = []
    /// Their conversions, beside `sources`.
    private var converted: [String] = []

    /// Where `name`'s probe starts: its length, first byte and last two
    /// bytes (where numbered keys differ), mixed by a multiplication whose
    /// top byte picks the slot; read through its span (`utf8.first` and
    /// `utf8.last` went through the generic collection paths, and a loop
    /// over more bytes cost more than the lookups it spread).
    private static func home(of name: String) -> Int {
        let bytes = name.utf8.span
        let count = bytes.count
        guard count > 1 else { return count == 0 ? 0 : Int(bytes[0]) }
        let packed = UInt64(count) << 24 | UInt64(bytes[0]) << 16 | UInt64(bytes[count &- 2]) << 8 | UInt64(bytes[count &- 1])
        return Int(truncatingIfNeeded: (packed &* 0x9E37_79B9_7F4A_7C15) >> 56)
    }

    /// `name` converted by `convert`, from the table when it was converted before.
    mutating func converted(_ name: String, by convert: (String) -> String) -> String {
        if sources.isEmpty {
            sources = Array(repeating: nil, count: Self.slotCount)
            converted = Array(repeating: "", count: Self.slotCount)
        }
        let home = Self.home(of: name)
        for probe in 0..<Self.probes {
            let slot = (home &+ probe) & (Self.slotCount - 1)
            guard let source = sources[slot] else {
                let result = convert(name)
                sources[slot] = name
                converted[slot] = result
                return result
            }
            if source == name { return converted[slot] }
        }
        return convert(name)
    }
}
