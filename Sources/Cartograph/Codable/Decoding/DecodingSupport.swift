import Foundation
import Synchronization

/// Where a keyed container found its last key: the object it searched and
/// the index of the key after the one found (where the next search starts).
struct KeyHint {
    /// The tape index of the object the hint belongs to.
    var object: Int
    /// The tape index of a key of that object.
    var next: Int
}

extension LockedFormatter {
    private static let cache = FormatterCache()

    /// A shared formatter per format and time zone.
    static func shared(format: String, timeZone: TimeZone) -> LockedFormatter {
        cache.formatter(format: format, timeZone: timeZone)
    }
}

/// Formatters for `DateStrategy.formatted`, made once per format.
final class FormatterCache: Sendable {
    private let formatters = Mutex<[String: LockedFormatter]>([:])

    func formatter(format: String, timeZone: TimeZone) -> LockedFormatter {
        let key = format + "\u{0}" + timeZone.identifier
        return formatters.withSanitizedLock { cache in
            if let existing = cache[key] { return existing }
            let made = LockedFormatter(format: format, timeZone: timeZone)
            cache[key] = made
            return made
        }
    }
}

/// How a keyed container reads its object's keys (``DocumentDecoder/objectKeys(of:keepsKeys:)``).
enum ObjectKeys {
    /// Through the key strategy, one lookup per key.
    case byStrategy
    /// As they are: a `[String: Value]` dictionary's keys under a key strategy.
    case asGiven
    /// The JSON keys converted by a coding-path closure (or to camelCase once
    /// the decode's ``SnakeCaseKeyTable`` is full), to their value's tape
    /// index, and the converted names in document order (for `allKeys`).
    case converted([String: Int], names: [String])
    /// The JSON keys converted to camelCase (Foundation's snake_case
    /// reading), listed by the container (``SnakeCaseKeyTable``).
    case snakeCased
}
