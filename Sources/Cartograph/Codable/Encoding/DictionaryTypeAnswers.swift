/// Whether types are `[String: Value]` dictionaries, for the encoders that
/// must know it of every nested value under a key strategy (a dictionary's
/// keys are data and keep their spelling, as in Foundation's coders).
///
/// `T.self is any StringDictionaryMarker.Type` asks the runtime's
/// conformance table each time: under `.snakeCase`, 2.5% of a `Codable`
/// encode of activity.json. A value meets few types, and the same ones over
/// and over, so the last eight answers are kept by type identity. (The
/// decoder asks directly: kept in the decoder, a class, the answers cost
/// an exclusivity check per access, which ate most of the gain: 320.7M →
/// 320.0M instructions on activity.json.)
struct DictionaryTypeAnswers {
    private static let kept = 8
    private var types: [ObjectIdentifier?] = []
    private var answers: [Bool] = []
    private var next = 0

    /// Whether `type` is a `[String: Value]` dictionary.
    mutating func isStringDictionary<T>(_ type: T.Type) -> Bool {
        let id = ObjectIdentifier(type)
        for index in 0..<types.count where types[index] == id { return answers[index] }
        let answer = type is any StringDictionaryMarker.Type
        if types.isEmpty {
            types = Array(repeating: nil, count: Self.kept)
            answers = Array(repeating: false, count: Self.kept)
        }
        types[next] = id
        answers[next] = answer
        next = (next + 1) % Self.kept
        return answer
    }
}
