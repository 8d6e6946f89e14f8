/// How a property name (`firstName`) finds its key in input and names its
/// key in output, for rules that give no explicit key.
///
/// Precedence when several input keys could match one property, or several
/// properties one key (loose strategies only): an exact match beats a
/// case-insensitive one, which beats a converted one (`first_name`), which
/// beats a first-word match (`name` for `nameString`); among equals, the
/// key earlier in the input and the rule earlier in the mapping win. With
/// ``MappingOptions/strictNaming`` such a clash throws instead.
public struct NamingStrategy: Sendable {
    enum Kind: Sendable {
        case exact, caseInsensitive, snakeCase, kebabCase, fuzzy
        case custom(@Sendable (String) -> String)
    }
    let kind: Kind

    /// The key is the property name.
    public static let exact = NamingStrategy(kind: .exact)
    /// The key is the property name in any letter case; output keeps the property name.
    public static let caseInsensitive = NamingStrategy(kind: .caseInsensitive)
    /// `myURLProperty` ↔ `my_url_property`, both ways (acronyms are one word).
    public static let snakeCase = NamingStrategy(kind: .snakeCase)
    /// `myURLProperty` ↔ `my-url-property`.
    public static let kebabCase = NamingStrategy(kind: .kebabCase)
    /// JSACollection's rules: case-insensitive; `firstName` matches
    /// `first_name` and `first-name`; the first camelCase word matches
    /// (`nameString` matches `name`); a `jsc_` prefix (any case) is not part
    /// of the name, so `jsc_description` reads and writes `description` —
    /// JSACollection's way to name a property after a key that would clash
    /// with an inherited member. Output keeps the property name, less that prefix.
    public static let fuzzy = NamingStrategy(kind: .fuzzy)

    /// The prefix ``fuzzy`` drops from property names (JSACollection's
    /// `kJSACollectionPropertyPrefix`); compared without regard to case, and
    /// only when something follows it.
    static let fuzzyPrefix = "jsc_"
    /// The key is whatever the closure makes of the property name (both ways).
    public static func custom(_ transform: @escaping @Sendable (String) -> String) -> NamingStrategy {
        NamingStrategy(kind: .custom(transform))
    }

    /// The key written when encoding a property.
    public func outputKey(for property: String) -> String {
        switch kind {
        case .exact, .caseInsensitive: return property
        case .fuzzy: return Self.droppingFuzzyPrefix(property)
        case .snakeCase: return Self.words(of: property).map { $0.lowercased() }.joined(separator: "_")
        case .kebabCase: return Self.words(of: property).map { $0.lowercased() }.joined(separator: "-")
        case .custom(let transform): return transform(property)
        }
    }

    /// Whether finding the key needs a scan of the object's keys (not one lookup).
    var scans: Bool {
        switch kind {
        case .caseInsensitive, .fuzzy: return true
        default: return false
        }
    }

    /// How well an input key matches a property (higher is better), or nil.
    func rank(key: String, property: String) -> Int? {
        if key == property { return 4 }
        switch kind {
        case .exact, .snakeCase, .kebabCase, .custom:
            return key == outputKey(for: property) ? 3 : nil
        case .caseInsensitive:
            return key.lowercased() == property.lowercased() ? 3 : nil
        case .fuzzy:
            let property = Self.droppingFuzzyPrefix(property)
            if key == property { return 4 }
            if key.lowercased() == property.lowercased() { return 3 }
            let squeezed = Self.squeeze(key)
            if squeezed == Self.squeeze(property) { return 2 }
            if let first = Self.words(of: property).first, squeezed == first.lowercased() { return 1 }
            return nil
        }
    }

    /// `property` without a leading ``fuzzyPrefix`` (in any case), when more follows it.
    static func droppingFuzzyPrefix(_ property: String) -> String {
        let prefix = fuzzyPrefix.utf8
        let bytes = property.utf8
        guard bytes.count > prefix.count,
            zip(bytes.prefix(prefix.count), prefix).allSatisfy({ ($0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0) == $1 })
        else { return property }
        return String(property.dropFirst(prefix.count))
    }

    /// Lowercased with `_` and `-` removed: `first_name`, `First-Name` and `firstName` agree.
    static func squeeze(_ text: String) -> String {
        String(text.lowercased().unicodeScalars.filter { $0 != "_" && $0 != "-" }.map(Character.init))
    }

    /// The words of a camelCase name; a run of capitals is one word (an acronym),
    /// and digits after a letter start a word:
    /// `myURLProperty` → `my`, `URL`, `Property`; `userID` → `user`, `ID`;
    /// `createdAt1234` → `created`, `At`, `1234`.
    static func words(of name: String) -> [String] {
        let characters = Array(name)
        var words: [String] = []
        var current = ""
        for (index, character) in characters.enumerated() {
            if character == "_" || character == "-" {
                if !current.isEmpty { words.append(current) }
                current = ""
                continue
            }
            if character.isNumber, let previous = current.last, previous.isLetter {
                words.append(current)
                current = ""
            }
            if character.isUppercase, !current.isEmpty {
                let previous = characters[index - 1]
                let next = index + 1 < characters.count ? characters[index + 1] : nil
                if previous.isLowercase || previous.isNumber || (previous.isUppercase && (next?.isLowercase ?? false)) {
                    words.append(current)
                    current = ""
                }
            }
            current.append(character)
        }
        if !current.isEmpty { words.append(current) }
        return words
    }
}
