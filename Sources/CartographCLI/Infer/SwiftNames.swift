/// Swift identifiers and literals made from JSON keys.
enum SwiftNames {
    /// Words a property may not be named (they would need backticks); such a
    /// name gets `Value` appended instead.
    static let keywords: Set<String> = [
        "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import", "init", "inout",
        "internal", "let", "open", "operator", "private", "precedencegroup", "protocol", "public", "rethrows", "static",
        "struct", "subscript", "typealias", "var", "break", "case", "catch", "continue", "default", "defer", "do", "else",
        "fallthrough", "for", "guard", "if", "in", "repeat", "return", "throw", "switch", "where", "while", "as", "await",
        "false", "is", "nil", "self", "super", "throws", "true", "try", "Any", "Self", "Type", "Protocol", "some", "any",
    ]

    /// Type names the generated code uses itself; a model with one of these
    /// names gets `Model` appended.
    static let reservedTypes: Set<String> = [
        "Any", "Array", "Bool", "Codable", "CodingKeys", "Data", "Date", "Decimal", "Dictionary", "Double", "Error", "Ignore",
        "Int", "JSONValue", "Map", "Mappable", "Mapping", "Optional", "Protocol", "Self", "Set", "String", "Transform", "Type", "URL",
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

    /// `created_at` → `createdAt`, `ID` → `id`, `2fa` → `_2fa`, `class` → `classValue`.
    static func property(_ key: String) -> String {
        let parts = words(key)
        guard let first = parts.first else { return "value" }
        var name = first.lowercased() + parts.dropFirst().map(capitalized).joined()
        if name.first!.isNumber { name = "_" + name }
        return keywords.contains(name) ? name + "Value" : name
    }

    /// `line_items` → `LineItems`; a reserved name gets `Model` appended.
    static func type(_ key: String) -> String {
        var name = words(key).map(capitalized).joined()
        if name.isEmpty { name = "Item" }
        if name.first!.isNumber { name = "Model" + name }
        return reservedTypes.contains(name) || keywords.contains(name) ? name + "Model" : name
    }

    /// The type name for elements of an array under `key`: `orders` → `Order`,
    /// `categories` → `Category`, `boxes` → `Box`; otherwise `…Item`.
    static func elementType(_ key: String) -> String {
        let plural = type(key)
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
