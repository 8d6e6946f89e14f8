/// A `CodingKey` told by its bits: for a key type that is an enum of at
/// most 256 cases whose values hold no references (the synthesized
/// `CodingKeys`, and hand-written key enums), the case's one-byte tag
/// (0 for a single case).
///
/// The streaming encoder asks each key for its `stringValue`, converts it
/// under a key strategy and compares it with the key its type's template
/// holds at that place (``KeyTemplate``): about seventy instructions a
/// member, a twelfth of a `Codable` encode of twitter.json. Such a key's
/// bits are all there is to it, so the same bits name the same key, and a
/// template that kept each key's identity beside its name is matched by
/// one comparison of integers. A key type of any other shape is asked for
/// its name as before (``width(of:)`` is nil).
///
/// The enum's kind is read from its metadata (``MetadataKind``); under the
/// portable layout no key has an identity.
enum KeyIdentity {
    /// The bytes of a key of type `K` that identify it (0 or 1), or nil
    /// for a type whose keys are asked for their names.
    static func width<K>(of type: K.Type) -> Int? {
        guard LayoutAssumptions.enabled, _isPOD(type), MetadataKind.isEnum(type) else { return nil }
        switch MemoryLayout<K>.size {
        case 0: return 0
        case 1: return 1
        default: return nil
        }
    }

    /// `key`'s identity, for a key type whose width (``width(of:)``) is `width`.
    @inline(__always)
    static func of<K>(_ key: K, width: Int) -> Int {
        width == 0 ? 0 : Int(unsafe unsafeBitCast(key, to: UInt8.self))
    }
}
