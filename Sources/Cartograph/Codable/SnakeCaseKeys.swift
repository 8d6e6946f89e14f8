import Foundation

/// The key conversions of Foundation's `JSONEncoder.KeyEncodingStrategy.convertToSnakeCase`
/// and `JSONDecoder.KeyDecodingStrategy.convertFromSnakeCase`, so that
/// ``CodableOptions/KeyStrategy/snakeCase`` reads and writes exactly what
/// Foundation's coders do (checked against them by `SnakeCaseKeyTests` on
/// fixed and random keys).
///
/// Foundation's rules are asymmetric, and these keep that: writing splits a
/// coding key into words at case changes; reading converts each *JSON key*
/// to camelCase and compares it with the coding key, so `my_url` reads into
/// `myUrl`, never `myURL`, and a JSON key without inner underscores is
/// compared as it is.
enum SnakeCaseKeys {
    /// `myURLProperty` → `my_url_property`: a word ends before an uppercase
    /// letter that follows a non-uppercase one, and a run of capitals followed
    /// by a lowercase letter is a word up to its last capital. Underscores and
    /// digits are not boundaries; each word is lowercased.
    static func toSnakeCase(_ key: String) -> String {
        let scalars = Array(key.unicodeScalars)
        guard scalars.count > 1 else { return key.lowercased() }
        func isUpper(_ index: Int) -> Bool { CharacterSet.uppercaseLetters.contains(scalars[index]) }
        func isLower(_ index: Int) -> Bool { CharacterSet.lowercaseLetters.contains(scalars[index]) }
        var words: [Range<Int>] = []
        var start = 0
        var position = 1
        let end = scalars.count
        while let upper = (position..<end).first(where: isUpper) {
            words.append(start..<upper)
            guard let lower = (upper..<end).first(where: isLower) else {
                start = upper
                break
            }
            if lower == upper + 1 {
                start = upper
            } else {
                words.append(upper..<(lower - 1))
                start = lower - 1
            }
            position = lower + 1
        }
        words.append(start..<scalars.count)
        return words.map { range in
            var word = String.UnicodeScalarView()
            word.append(contentsOf: scalars[range])
            return String(word).lowercased()
        }.joined(separator: "_")
    }

    /// `my_url_property` → `myUrlProperty`: leading and trailing underscores
    /// kept, the first inner word lowercased and the others capitalized
    /// (Foundation's `capitalized`); a key without inner underscores is
    /// returned unchanged (it may already be camelCase).
    static func fromSnakeCase(_ key: String) -> String {
        let characters = Array(key)
        guard let first = characters.firstIndex(where: { $0 != "_" }) else { return key }
        var last = characters.count - 1
        while last > first, characters[last] == "_" { last -= 1 }
        let middle = characters[first...last]
        let words = middle.split(separator: "_")
        guard words.count > 1 else { return key }
        let joined = String(words[0]).lowercased() + words.dropFirst().map { String($0).capitalized }.joined()
        return String(characters[..<first]) + joined + String(characters[(last + 1)...])
    }
}
