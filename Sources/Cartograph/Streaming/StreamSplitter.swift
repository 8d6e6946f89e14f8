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
        /// The elements of the array at this key path (`[]`: the top-level array).
        case array(at: [String])
    }

    let mode: Mode
    private var stack: [(isArray: Bool, key: String?)] = []
    private var pendingKey: String?
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

    init(mode: Mode, options: ParseOptions) {
        self.mode = mode
        if case .values = mode { foundArray = true }
        var elementOptions = options
        elementOptions.allowMultipleValues = false
        builder = DocumentBuilder(options: elementOptions, expectedInputBytes: 4 << 10)
    }

    private var startsElement: Bool {
        switch mode {
        case .values:
            return stack.isEmpty
        case .array(let keys):
            guard stack.count == keys.count + 1, stack[stack.count - 1].isArray else { return false }
            for (position, key) in keys.enumerated() where stack[position + 1].key != key { return false }
            return true
        }
    }

    /// The element builder when this value belongs to an element (starting one if needed).
    @inline(__always)
    func elementBuilder(forValueIn envelope: DocumentBuilder) -> DocumentBuilder? {
        if let activeElement { return activeElement }
        guard startsElement else { return nil }
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
        let key = stack.last.map { $0.isArray ? nil : pendingKey } ?? nil
        stack.append((isArray, key))
        if isArray, !foundArray, case .array(let keys) = mode, stack.count == keys.count + 1 {
            foundArray = zip(keys, stack.dropFirst()).allSatisfy { $0 == $1.key }
        }
    }

    func envelopeEnd() {
        _ = stack.popLast()
    }
}
