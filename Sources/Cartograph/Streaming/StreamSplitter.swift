/// Sends the events of each streamed element to a builder of its own, and
/// everything else (the envelope) to the main builder.
///
/// It follows the envelope's containers and keys to recognise the array
/// being streamed; when a value starts directly inside it (or, for NDJSON,
/// at the top level), the element's events go to the element builder until
/// the value is complete, then ``onElement`` receives it. The element
/// builder is reset and reused for the next element, so memory is bounded
/// by the largest element, not by the input.
final class StreamSplitter {
    enum Mode {
        /// Every top-level value (NDJSON, concatenated JSON).
        case values
        /// The values the steps select; with `requiresArray` the last step
        /// (`.any`) takes only array elements: the path names an array.
        case steps([StreamPath.PathStep], requiresArray: Bool)
    }

    /// Where a value sits in its container.
    private enum Position {
        case key(String)
        case index(Int)
        /// The value of a repeated key that the whole decode would not keep
        /// (``DuplicateKeyPolicy/firstWins``): on no path.
        case shadowed

        func matches(_ step: StreamPath.PathStep, elementsOnly: Bool) -> Bool {
            switch (step, self) {
            case (.key(let wanted), .key(let key)): return wanted == key
            case (.index(let wanted), .index(let index)): return wanted == index
            case (.any, .index): return true
            case (.any, .key): return !elementsOnly
            default: return false
            }
        }
    }

    /// An open envelope container: where it sits, how many values it has
    /// begun, and (objects) the keys seen that a repeat would matter for.
    private struct Level {
        var isArray: Bool
        var position: Position?
        var children = 0
        var keys: Set<String> = []
    }

    /// What a repeated key does to the stream (the parse options' policy).
    private let duplicateKeys: DuplicateKeyPolicy
    private let maxKeys: Int
    /// Whether the value after the last envelope key is a shadowed repeat.
    private var pendingShadowed = false

    let mode: Mode
    private var stack: [Level] = []
    private var pendingKey: String?
    /// Where the value being begun sits (set as it starts, read by ``envelopeBegin(isArray:)``).
    private var startingPosition: Position?
    /// The builder of the element being read, if any.
    private(set) var activeElement: DocumentBuilder?
    var builder: DocumentBuilder
    /// Receives each complete element; returns false (after recording the
    /// failure with ``fail(_:)``) to stop the parse.
    var onElement: (DocumentBuilder) -> Bool = { _ in true }
    /// How many elements have completed.
    private(set) var elementCount = 0
    /// Whether the array at the path was opened (always true for `.values`).
    private(set) var foundArray = false
    /// Why ``onElement`` stopped the parse.
    var failure: CartographError?

    /// The values around the selected ones are checked and followed but not
    /// kept: for ``StreamPath/matches(_:)``, whose selections may lie
    /// anywhere, so that memory stays bounded by the largest selected value
    /// (a path naming one array keeps its envelope, ``ModelStream/envelope``).
    let discardsEnvelope: Bool
    /// How deep the envelope's open containers go.
    var envelopeDepth: Int { stack.count }

    init(mode: Mode, options: ParseOptions) {
        self.mode = mode
        if case .steps(_, false) = mode { discardsEnvelope = true } else { discardsEnvelope = false }
        if case .values = mode { foundArray = true }
        duplicateKeys = options.duplicateKeys
        maxKeys = options.maxKeysPerObject
        var elementOptions = options
        elementOptions.allowMultipleValues = false
        builder = DocumentBuilder(options: elementOptions, expectedInputBytes: 4 << 10)
    }

    /// Whether the value starting at `position` (nil: a top-level value) is an element.
    private func startsElement(at position: Position?) -> Bool {
        switch mode {
        case .values:
            return stack.isEmpty
        case .steps(let steps, let requiresArray):
            guard stack.count == steps.count, let position else { return false }
            for depth in 1..<max(stack.count, 1) where !(stack[depth].position?.matches(steps[depth - 1], elementsOnly: false) ?? false) {
                return false
            }
            return position.matches(steps[steps.count - 1], elementsOnly: requiresArray)
        }
    }

    /// The element builder when this value belongs to an element (starting one if needed).
    @inline(__always)
    func elementBuilder(forValueIn envelope: DocumentBuilder) -> DocumentBuilder? {
        if let activeElement { return activeElement }
        // A value starts in the envelope: where it sits in its container.
        var position: Position?
        if let last = stack.indices.last {
            if stack[last].isArray {
                position = .index(stack[last].children)
            } else {
                position = pendingShadowed ? .shadowed : .key(pendingKey ?? "")
            }
            stack[last].children += 1
        }
        startingPosition = position
        guard startsElement(at: position) else { return nil }
        if case .steps = mode { foundArray = true }
        activeElement = builder
        return builder
    }

    /// After an event in the element: hands a complete element over.
    func afterElementEvent(_ element: DocumentBuilder) -> Bool {
        guard element.depth == 0 else { return true }
        activeElement = nil
        elementCount += 1
        return onElement(element)
    }

    /// A key of an envelope object; the error that stops the stream when
    /// the key repeats where a stream cannot agree with the whole decode.
    ///
    /// A stream must never deliver an element the whole decode would not
    /// produce, so a key that repeats is judged as it arrives, before any
    /// value of its second occurrence:
    /// - ``DuplicateKeyPolicy/firstWins``: the repeat's value is on no
    ///   path; its elements are not delivered (the whole decode drops them too).
    /// - ``DuplicateKeyPolicy/lastWins``: a repeat of a key on the streamed
    ///   path is refused with ``CartographError/Kind/duplicateKey``: the
    ///   whole decode keeps the last value, which the stream cannot know
    ///   until the first value's elements were delivered. A repeat elsewhere
    ///   changes nothing the stream delivers.
    /// - ``DuplicateKeyPolicy/reject``: any repeat in the envelope is
    ///   refused (the elements' own objects are checked by their builder).
    func envelopeKey(_ bytes: Span<UInt8>, at source: Int) -> CartographError? {
        let key = bytes.decodedString
        pendingKey = key
        pendingShadowed = false
        guard let last = stack.indices.last else { return nil }
        // The kept envelope's builder counts its keys; a discarded one's are counted here.
        guard stack[last].children < maxKeys else {
            return CartographError(.tooManyKeys, "object has more than maxKeysPerObject (\(maxKeys)) keys", offset: source)
        }
        let onPath = isOnPath(key, inObjectAt: last)
        guard onPath || duplicateKeys == .reject else { return nil }
        if stack[last].keys.insert(key).inserted { return nil }
        switch duplicateKeys {
        case .firstWins:
            pendingShadowed = true
            return nil
        case .lastWins:
            return CartographError(
                .duplicateKey,
                "duplicate key \(ErrorText.quoted(key)) on the streamed path: the whole body keeps its last value, so a stream cannot deliver the first",
                offset: source)
        case .reject:
            return CartographError(.duplicateKey, "duplicate key \(ErrorText.quoted(key)) in object", offset: source)
        }
    }

    /// Whether the value of `key` in the envelope object at `level` lies on
    /// the streamed path (is selected, or holds what is).
    private func isOnPath(_ key: String, inObjectAt level: Int) -> Bool {
        guard case .steps(let steps, let requiresArray) = mode else { return false }
        // The value would sit at stack index level + 1, matched by steps[level].
        guard level < steps.count else { return false }
        for depth in 1..<max(level + 1, 1) where !(stack[depth].position?.matches(steps[depth - 1], elementsOnly: false) ?? false) {
            return false
        }
        return Position.key(key).matches(steps[level], elementsOnly: requiresArray && level == steps.count - 1)
    }

    func envelopeBegin(isArray: Bool) {
        stack.append(Level(isArray: isArray, position: startingPosition))
        // The array a path names, opened (it may turn out empty).
        if isArray, !foundArray, case .steps(let steps, true) = mode, stack.count == steps.count {
            foundArray = (1..<stack.count).allSatisfy { stack[$0].position?.matches(steps[$0 - 1], elementsOnly: false) ?? false }
        }
    }

    func envelopeEnd() {
        _ = stack.popLast()
    }
}
