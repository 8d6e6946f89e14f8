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
    ///
    /// Letters are found scalar by scalar, but the steps around them (past
    /// the first letter, from a capital to the next letter, back from a
    /// lowercase one) go by `Character`, and words are cut at those
    /// indices: Foundation's own mix, so that a capital carrying a combining
    /// mark stays one grapheme (`aB\u{301}c` → `a_b\u{301}c`) exactly as
    /// `JSONEncoder` writes it.
    static func toSnakeCase(_ key: String) -> String {
        guard !key.isEmpty else { return key }
        var words: [Range<String.Index>] = []
        var wordStart = key.startIndex
        let end = key.endIndex
        var searchStart = key.index(after: wordStart)
        while searchStart < end, let upper = key.rangeOfCharacter(from: .uppercaseLetters, options: [], range: searchStart..<end) {
            words.append(wordStart..<max(wordStart, upper.lowerBound))
            guard let lower = key.rangeOfCharacter(from: .lowercaseLetters, options: [], range: upper.lowerBound..<end) else {
                wordStart = upper.lowerBound
                searchStart = end
                break
            }
            if lower.lowerBound == key.index(after: upper.lowerBound) {
                // A capital and then a lowercase letter: the capital starts the next word.
                wordStart = upper.lowerBound
            } else {
                // A run of capitals: a word up to the capital before the lowercase letter.
                let beforeLower = max(upper.lowerBound, key.index(before: lower.lowerBound))
                words.append(upper.lowerBound..<beforeLower)
                wordStart = beforeLower
            }
            searchStart = lower.upperBound
        }
        words.append(wordStart..<end)
        return words.map { key[$0].lowercased() }.joined(separator: "_")
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
