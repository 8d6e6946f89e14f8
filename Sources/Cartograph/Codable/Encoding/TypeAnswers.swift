/// The last eight answers to a question the encoders ask of every nested
/// value's type, kept by type identity: whether it is a `[String: Value]`
/// dictionary (under a key strategy, whose keys are data and keep their
/// spelling, as in Foundation's coders), and which registry entry it has.
///
/// Asked directly, the first is a walk of the runtime's conformance table
/// (2.5% of a `Codable` encode of activity.json under `.snakeCase`) and the
/// second a dictionary lookup that hashes the type's identity (about 5% of
/// an encode of records.json through a registry that holds models). A value
/// meets few types, and the same ones over and over. (The decoder keeps its
/// last registry answer itself: kept in the decoder, a class, eight
/// answers cost an exclusivity check per access, which ate most of the
/// gain: 320.7M → 320.0M instructions on activity.json.) The decoder asks
/// one too, of every array's type: whether it is a ``TapeDecodedArray``
/// (``ArrayReaderAnswers``).
struct TypeAnswers<Answer> {
    private static var kept: Int { 8 }
    private var answers: [(type: ObjectIdentifier, answer: Answer)] = []
    /// The slot the next new answer replaces once all eight are taken.
    private var next = 0

    /// The answer for `type`, from `ask` the first time (and again once
    /// eight other types have been asked since).
    @inline(__always)
    mutating func answer(for type: ObjectIdentifier, _ ask: () -> Answer) -> Answer {
        if let known = known(type) { return known }
        let answer = ask()
        remember(answer, for: type)
        return answer
    }

    /// The answer kept for `type`, or nil.
    @inline(__always)
    func known(_ type: ObjectIdentifier) -> Answer? {
        for index in answers.indices where answers[index].type == type { return answers[index].answer }
        return nil
    }

    /// Keeps `answer` for `type`, in place of the oldest once eight are kept.
    mutating func remember(_ answer: Answer, for type: ObjectIdentifier) {
        if answers.count < Self.kept {
            answers.append((type, answer))
        } else {
            answers[next] = (type, answer)
            next = (next + 1) % Self.kept
        }
    }
}

extension TypeAnswers where Answer == Bool {
    /// Whether `type` is a `[String: Value]` dictionary.
    mutating func isStringDictionary<T>(_ type: T.Type) -> Bool {
        answer(for: ObjectIdentifier(type)) { type is any StringDictionaryMarker.Type }
    }
}

extension TypeAnswers where Answer == ModelEntry? {
    /// The entry `registry` has for `type` (registered, with no `Mappable` fallback).
    mutating func registeredEntry<T>(for type: T.Type, in registry: ModelRegistry) -> ModelEntry? {
        answer(for: ObjectIdentifier(type)) { registry.registeredEntry(for: type) }
    }
}
