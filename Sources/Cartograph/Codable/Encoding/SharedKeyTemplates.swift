import Synchronization

/// The ``KeyTemplate``s of `CodingKey` types, kept from one encode to the
/// next.
///
/// An encode learns a type's template from the first object of that type
/// it writes: that object's keys are checked one by one, recorded and
/// escaped, and then escaped again into the template. A service's response
/// is often one object or a few, so most of its objects were first ones:
/// in a 3 KB tweet that was about a fifth of the `Codable` encode. Kept
/// here, a template learned once serves every later encode's first
/// objects too.
///
/// Only key types whose keys are code are kept: a synthesized `CodingKeys`
/// enum's `init(stringValue:)` refuses a name none of its cases has, while
/// a dictionary's key type (and any key type made for data) accepts every
/// string. A template of data keys would keep one response's keys (its
/// users' data) for the life of the process; the probe leaves them to the
/// encode that wrote them. A template is kept per key type and per way of
/// writing keys (the escaping, the key strategy), as its quoted keys
/// depend on both, and is replaced only by one with more keys (an object
/// that left optional keys out does not replace one that wrote them), as
/// within an encode. Kept templates are bounded in number and size.
///
/// Following a template never decides what is written: each key is still
/// compared with the template's, and a key that differs is written and
/// checked as before (``StreamKeyLog``).
final class SharedKeyTemplates: Sendable {
    /// The process's templates.
    static let shared = SharedKeyTemplates()

    /// How many key types (and ways of writing them) are kept at most:
    /// types are code, so a program meets a bounded number, but generic
    /// types make one per instantiation.
    static let maximumTypes = 1024
    /// The most bytes of quoted keys a kept template may hold.
    static let maximumQuotedBytes = 4096
    /// A key no `CodingKeys` enum has (see ``keysAreCode(_:)``).
    static let probe = "\u{0}cartograph.key-probe"

    /// How an encode writes keys: a template's quoted keys hold for one way only.
    struct Style: Hashable, Sendable {
        /// The escaping's option bits.
        let escaping: UInt32
        /// The key strategy (keys are compared with the template's after conversion).
        let strategy: UInt8

        init(escaping: StringEscaping, keys: CodableOptions.KeyStrategy) {
            self.escaping = escaping.flags
            switch keys {
            case .useDefaultKeys: strategy = 0
            case .snakeCase: strategy = 1
            case .snakeCaseRoundTrip: strategy = 2
            case .fuzzy: strategy = 3
            case .custom, .codingPath: strategy = 4
            }
        }
    }

    private struct Slot: Hashable {
        let type: ObjectIdentifier
        let style: Style
    }

    private enum Entry {
        /// The type's keys are code: its template, once one is learned.
        case code(KeyTemplate?)
        /// The type's keys may be data: nothing is kept.
        case data
    }

    private let entries = Mutex<[Slot: Entry]>([:])

    /// The template kept for `keyType`'s keys written in `style`, if one
    /// was learned. The first time a type is asked about, its keys are
    /// probed (``keysAreCode(_:)``) and the answer kept.
    func template(for keyType: any CodingKey.Type, style: Style) -> KeyTemplate? {
        let slot = Slot(type: ObjectIdentifier(keyType), style: style)
        switch entries.withSanitizedLock({ $0[slot] }) {
        case .code(let template): return template
        case .data: return nil
        case nil: break
        }
        // User code (the key type's initializer): called outside the lock.
        let entry: Entry = Self.keysAreCode(keyType) ? .code(nil) : .data
        entries.withSanitizedLock { entries in
            if entries[slot] == nil, entries.count < Self.maximumTypes { entries[slot] = entry }
        }
        return nil
    }

    /// Keeps `template`, learned for `type`'s keys written in `style`, if
    /// that type's keys are code and no template with as many keys is kept.
    func offer(_ template: KeyTemplate, for type: ObjectIdentifier, style: Style) {
        guard template.quotedByteCount <= Self.maximumQuotedBytes else { return }
        let slot = Slot(type: type, style: style)
        entries.withSanitizedLock { entries in
            guard case .code(let known) = entries[slot] else { return }
            if let known, known.keys.count >= template.keys.count { return }
            entries[slot] = .code(template)
        }
    }

    /// Whether a key type's keys are code, not data: its `init(stringValue:)`
    /// refuses a name no model's property has. A key type that takes every
    /// string (a dictionary's, or one made for data) is not kept; nor is
    /// an enum that maps unknown names to a case of its own (kept out for
    /// nothing, not wrongly).
    static func keysAreCode(_ keyType: any CodingKey.Type) -> Bool {
        keyType.init(stringValue: probe) == nil
    }

    /// Every key of every template kept (for tests).
    func keptKeys() -> [String] {
        entries.withSanitizedLock { entries in
            entries.values.flatMap { entry -> [String] in
                if case .code(let template?) = entry { return template.keys }
                return []
            }
        }
    }

    /// Whether a template is kept for `keyType` in `style` (for tests).
    func keepsTemplate(for keyType: any CodingKey.Type, style: Style) -> Bool {
        let slot = Slot(type: ObjectIdentifier(keyType), style: style)
        return entries.withSanitizedLock { entries in
            if case .code(let template) = entries[slot] { return template != nil }
            return false
        }
    }
}
