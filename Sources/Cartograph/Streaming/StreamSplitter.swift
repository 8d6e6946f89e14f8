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

    /// An open envelope container: where it sits, and how many values it has begun.
    private struct Level {
        var isArray: Bool
        var position: Position?
        var children = 0
    }

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
                position = .key(pendingKey ?? "")
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

    func envelopeKey(_ bytes: UnsafeRawPointer?, count: Int) {
        pendingKey = bytes.map { String(decoding: UnsafeRawBufferPointer(start: $0, count: count), as: UTF8.self) } ?? ""
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
