import Foundation

extension Document {
    /// A Document holding an in-memory value, so that every mapping feature
    /// reads `JSONValue` (and `[String: Any]`, through ``JSONValue/init(any:)``)
    /// exactly as it reads parsed JSON. Source offsets are all 0.
    public convenience init(value: JSONValue, options: ParseOptions = ParseOptions()) throws {
        let builder = DocumentBuilder(options: options, expectedInputBytes: 256, validatesUTF8: false)
        try Document.emit(value, into: builder)
        let document = builder.makeDocument()
        self.init(tape: document.tape, roots: document.roots)
    }

    private static func emit(_ value: JSONValue, into builder: DocumentBuilder) throws {
        func check(_ accepted: Bool) throws {
            if !accepted { throw builder.failure ?? CartographError(.syntax, "the value could not be stored") }
        }
        // A Document's offsets are 32-bit: a value is held to the ceiling
        // parsed input is held to, checked before each token's text goes in.
        func room(_ textBytes: Int) throws {
            guard builder.memoryBytes + textBytes + MemoryLayout<TapeEntry>.stride + 1 <= Tape.maxDocumentBytes else {
                throw CartographError(.inputTooLarge, "the value takes more than a Document holds (\(Tape.maxDocumentBytes) bytes)")
            }
        }
        // A value given to a Document may be as deep as its maker built it:
        // each container opened is a level of this recursion, so it is
        // opened only while the stack has room (a typed error otherwise).
        func open(object: Bool) throws {
            guard StackGuard.hasRoom else { throw StackGuard.exhausted() }
            try check(builder.begin(object: object, at: 0))
        }
        try room(0)
        switch value {
        case .null: try check(builder.literal(.null, at: 0))
        case .bool(let flag): try check(builder.literal(flag ? .true : .false, at: 0))
        case .number(let number):
            guard number.isFinite else {
                throw CartographError(.nonFiniteNumber, "\(number.doubleValue) has no JSON form")
            }
            var text = number.text
            try room(text.utf8.count)
            try text.withUTF8Span { try check(builder.number($0, at: 0)) }
        case .string(var text):
            try room(text.utf8.count)
            try text.withUTF8Span { try check(builder.string($0, at: 0)) }
        case .array(let elements):
            try open(object: false)
            for element in elements { try emit(element, into: builder) }
            try check(builder.end())
        case .object(let object):
            try open(object: true)
            for (key, member) in object {
                var key = key
                try room(key.utf8.count)
                try key.withUTF8Span { try check(builder.key($0, at: 0)) }
                try emit(member, into: builder)
            }
            try check(builder.end())
        }
    }
}
