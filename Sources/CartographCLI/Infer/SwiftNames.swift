/// Swift identifiers and literals made from JSON keys.
enum SwiftNames {
    /// Words a property may not be named (they would need backticks); such a
    /// name gets `Value` appended instead.
    static let keywords: Set<String> = [
        "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import", "init", "inout",
        "internal", "let", "open", "operator", "private", "precedencegroup", "protocol", "public", "rethrows", "static",
        "struct", "subscript", "typealias", "var", "break", "case", "catch", "continue", "default", "defer", "do", "else",
        "fallthrough", "for", "guard", "if", "in", "repeat", "return", "throw", "switch", "where", "while", "as", "await",
        "false", "is", "nil", "self", "super", "throws", "true", "try", "Any", "Self", "Type", "Protocol", "some", "any"
    ]

    /// Names the generated code uses itself (its protocols, the types of
    /// its properties, Cartograph's mapping DSL, the modules it imports); a
    /// nested type of one of these names would shadow it inside its parent
    /// (`struct Equatable` makes `: Equatable` mean itself), so a model
    /// with one gets `Model` appended.
    static let reservedTypes: Set<String> = [
        "Any", "AnyObject", "Array", "Bool", "Cartograph", "Character", "Codable", "CodingKey", "CodingKeys", "Data", "Date", "Decimal",
        "Decodable", "Dictionary", "Double", "Encodable", "Equatable", "Error", "Float", "Foundation", "Hashable", "Ignore", "Int",
        "JSONValue", "Map", "Mappable", "Mapping", "Never", "Optional", "Protocol", "RawRepresentable", "Self", "Sendable", "Set",
        "String", "Swift", "Transform", "Type", "URL", "UUID", "Void"
    ]

    /// The words of a key: split at anything that is not a letter or digit,
    /// and where a lowercase letter or digit is followed by an uppercase one.
    static func words(_ key: String) -> [String] {
        var words: [String] = []
        var current = ""
        var previous: Character?
        for character in key {
            guard character.isASCII, character.isLetter || character.isNumber else {
                if !current.isEmpty { words.append(current) }
                current = ""
                previous = nil
                continue
            }
            if let previous, character.isUppercase, previous.isLowercase || previous.isNumber, !current.isEmpty {
                words.append(current)
                current = ""
            }
            current.append(character)
            previous = character
        }
        if !current.isEmpty { words.append(current) }
        return words
    }

    /// Words written in capitals after the first word of a name, as Swift's
    /// API guidelines spell them (`avatarURL`, `userID`).
    static let acronyms: Set<String> = [
        "id", "ids", "url", "urls", "uri", "http", "https", "api", "json", "html", "xml", "uuid", "ip", "sql",
        "ssl", "tls", "dns", "cpu", "gpu", "utc", "iso"
    ]

    /// Keywords that cannot be a property even in backticks (or read badly
    /// so), and `mapping`, which a `Mappable` model's static requirement
    /// takes; they get `Value` appended instead.
    static let unbacktickable: Set<String> = ["self", "Self", "super", "init", "deinit", "subscript", "Type", "Protocol", "Any", "mapping"]

    /// A word of a name after the first: capitalized, or all capitals for an acronym (`id` → `ID`, `Url` → `URL`).
    static func laterWord(_ word: String) -> String {
        acronyms.contains(word.lowercased())
            ? (word.lowercased().hasSuffix("s") && word.count > 2
                ? word.dropLast().uppercased() + "s" : word.uppercased()) : capitalized(word)
    }

    /// `created_at` → `createdAt`, `avatar_url` → `avatarURL`, `ID` → `id`,
    /// `2fa` → `_2fa`, `class` → `` `class` `` (in backticks).
    static func property(_ key: String) -> String {
        let parts = words(key)
        guard let first = parts.first else { return "value" }
        var name = first.lowercased() + parts.dropFirst().map(laterWord).joined()
        if name.first!.isNumber { name = "_" + name }
        if unbacktickable.contains(name) { return name + "Value" }
        return keywords.contains(name) ? "`\(name)`" : name
    }

    /// `line_items` → `LineItems`, `avatar_url` → `AvatarURL`; a reserved name gets `Model` appended.
    static func type(_ key: String) -> String {
        let parts = words(key)
        var name = (parts.first.map(capitalized) ?? "") + parts.dropFirst().map(laterWord).joined()
        if name.isEmpty { name = "Item" }
        if name.first!.isNumber { name = "Model" + name }
        return reservedTypes.contains(name) || keywords.contains(name) ? name + "Model" : name
    }

    /// The type name for elements of an array under `key`: `orders` → `Order`,
    /// `categories` → `Category`, `boxes` → `Box`; otherwise `…Item`.
    static func elementType(_ key: String) -> String {
        let plural = type(key)
        for (irregular, singular) in [
            ("People", "Person"), ("Children", "Child"), ("Indices", "Index"), ("Matrices", "Matrix"),
            ("Analyses", "Analysis"), ("Aliases", "Alias")
        ] where plural.hasSuffix(irregular) {
            return String(plural.dropLast(irregular.count)) + singular
        }
        // statuses → Status, buses → Bus (but houses → House, below).
        for ending in ["tuses", "buses", "nuses", "puses", "ruses"] where plural.hasSuffix(ending) {
            return type(String(plural.dropLast(2)))
        }
        for (suffix, replacement) in [("ies", "y"), ("sses", "ss"), ("xes", "x"), ("ches", "ch"), ("shes", "sh")]
        where plural.hasSuffix(suffix) && plural.count > suffix.count + 1 {
            return type(String(plural.dropLast(suffix.count)) + replacement)
        }
        if plural.hasSuffix("s"), !plural.hasSuffix("ss"), plural.count > 2 { return type(String(plural.dropLast())) }
        return plural + "Item"
    }

    /// A word with its first letter uppercased (`id` → `Id`, `URL` stays).
    static func capitalized(_ word: String) -> String {
        word.prefix(1).uppercased() + word.dropFirst()
    }

    /// A Swift string literal for any text.
    static func literal(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                out += "\\u{\(String(scalar.value, radix: 16))}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// Gives a name that is not in `taken`, appending 2, 3, … as needed.
    static func unique(_ name: String, in taken: inout Set<String>) -> String {
        var candidate = name
        var number = 2
        while taken.contains(candidate) {
            candidate = name + String(number)
            number += 1
        }
        taken.insert(candidate)
        return candidate
    }
}
