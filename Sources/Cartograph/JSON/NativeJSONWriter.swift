/// Writes JSON bytes straight from Swift values: the one writer of every
/// encode that does not start from a DOM.
///
/// The streaming `Codable` encoder, the mapping encoders (streamed or from
/// an ``EncodedValue``), the `Codable` tree, NDJSON lines and
/// ``WriteOptions/Formatting/prettyLikeFoundation`` all write through it
/// into its ``OutputBuffer``. jansson (``JanssonWriter``) writes
/// `Document`s and `JSONValue`s; JSONEncoding.swift makes that choice. Both
/// follow the same ``WriteOptions`` and tests check they agree byte for byte.
struct NativeJSONWriter {
    let options: WriteOptions
    /// The bytes written so far (a copy of the writer's buffer).
    var output: [UInt8] { sink.bytes }
    let sink: OutputBuffer
    let indent: Int
    /// ``WriteOptions/Formatting/prettyLikeFoundation``: `" : "`, empty
    /// containers over two lines, no final newline.
    let foundationLayout: Bool
    /// What strings escape beyond what JSON requires (from `options`).
    let escaping: StringEscaping

    /// A writer into the thread's output block, or into `lease`'s memory
    /// (an array's storage) when one is given.
    init(options: WriteOptions, capacity: Int = 4096, lease: OutputLease? = nil) {
        self.options = options
        escaping = StringEscaping(escapeSlashes: options.escapeSlashes, asciiOnly: options.asciiOnly)
        switch options.formatting {
        case .compact: indent = 0
        case .pretty(let spaces): indent = min(max(spaces, 1), 31)
        case .prettyLikeFoundation: indent = 2
        }
        if case .prettyLikeFoundation = options.formatting { foundationLayout = true } else { foundationLayout = false }
        sink = OutputBuffer(capacity: capacity, reusingBlock: true, lease: lease)
    }

    /// Writes a whole value (with a final newline when pretty, as the jansson writer does).
    mutating func write(_ slot: EncodingNode) throws {
        try write(slot, depth: 0, path: "$")
        endDocument()
    }

    /// Writes a mapping's encoded tree as ``EncodedValue/jsonValue(path:)``
    /// and then ``write(_:)-(JSONValue)`` would, without making the
    /// `JSONValue` (dates become ISO 8601 strings, data base64).
    mutating func write(_ value: EncodedValue) throws {
        try write(value, depth: 0, path: "$")
        endDocument()
    }

    /// Writes a whole JSON value.
    mutating func write(_ value: JSONValue) throws {
        try write(.value(value), depth: 0, path: "$")
        endDocument()
    }

    /// Ends a whole value: a final newline when pretty, as the jansson writer writes.
    mutating func endDocument() {
        if indent > 0, !foundationLayout { sink.append(UInt8(ascii: "\n")) }
    }

    /// Writes a Document's value compactly, straight from the tape (numbers
    /// keep their text), for streaming elements out as NDJSON.
    mutating func writeCompact(_ document: Document, at index: Int) {
        let tape = document.reader
        let entry = tape[index]
        switch entry.kind {
        case .null: sink.append(contentsOf: .null)
        case .true: sink.append(contentsOf: .true)
        case .false: sink.append(contentsOf: .false)
        // JSON5's and plists' NaN and infinities have no JSON form: null.
        case .number where entry.flags & TapeFlags.nonFinite != 0: sink.append(contentsOf: .null)
        case .number: tape.withText(of: entry) { sink.append($0) }
        case .string, .key: writeString(tape.string(entry))
        case .array:
            sink.append(UInt8(ascii: "["))
            var position = index + 1
            var first = true
            while position < entry.payload {
                if !first { sink.append(UInt8(ascii: ",")) }
                first = false
                writeCompact(document, at: position)
                position = document.next(after: position)
            }
            sink.append(UInt8(ascii: "]"))
        case .object:
            sink.append(UInt8(ascii: "{"))
            var position = index + 1
            var first = true
            while position < entry.payload {
                if tape[position].flags & TapeFlags.shadowed == 0 {
                    if !first { sink.append(UInt8(ascii: ",")) }
                    first = false
                    writeCompact(document, at: position)
                    sink.append(UInt8(ascii: ":"))
                    writeCompact(document, at: position + 1)
                }
                position = document.next(after: position + 1)
            }
            sink.append(UInt8(ascii: "}"))
        }
    }

    /// Foundation writes an empty container's brackets on lines of their own.
    mutating func emptyContainerLines(_ depth: Int) {
        sink.append(UInt8(ascii: "\n"))
        newline(depth)
    }

    mutating func newline(_ depth: Int) {
        guard indent > 0 else { return }
        sink.append(UInt8(ascii: "\n"))
        sink.append(contentsOf: repeatElement(UInt8(ascii: " "), count: indent * depth))
    }

    private func depthError(_ path: String) -> CartographError {
        CartographError(.depthLimitExceeded, "value nests deeper than the writer's maxDepth (\(options.maxDepth))", path: path)
    }

    private mutating func write(_ slot: EncodingNode, depth: Int, path: @autoclosure () -> String) throws {
        switch slot {
        case .value(let value):
            try write(value, depth: depth, path: path())
        case .native(let native):
            // A registered model's tree inside a Codable graph: walked as it is.
            try write(native, depth: depth, path: path())
        // Through spans of the arrays: no retain per member to read it.
        case .array(let array):
            let elements = array.elements.span
            try writeArray(elements.count, depth: depth, path: path()) { writer, position in
                try writer.write(elements[position], depth: depth + 1, path: PathTrail.appending(position, to: path()))
            }
        case .object(let object):
            let members = object.members.span
            try writeObject(members.count, key: { members[$0].key }, depth: depth, path: path()) { writer, position in
                try writer.write(members[position].value, depth: depth + 1, path: PathTrail.appending(members[position].key, to: path()))
            }
        case .written:
            throw CartographError(.encodingFailed, "internal: a value written ahead into a binary plist reached the JSON writer", path: path())
        }
    }

    mutating func write(_ value: EncodedValue, depth: Int, path: @autoclosure () -> String) throws {
        switch value {
        case .null: sink.append(contentsOf: .null)
        case .bool(true): sink.append(contentsOf: .true)
        case .bool(false): sink.append(contentsOf: .false)
        case .number(let number): try writeNumber(number, path: path())
        case .string(let text): writeString(text)
        case .date, .data, .native:
            try write(value.jsonValue(path: path()), depth: depth, path: path())
        case .array(let elements):
            try writeArray(elements.count, depth: depth, path: path()) { writer, position in
                try writer.write(elements[position], depth: depth + 1, path: PathTrail.appending(position, to: path()))
            }
        case .object(let members):
            // A tree a user built may repeat a key: the JSONValue path
            // keeps one member per key, so such an object goes through it.
            guard !Self.repeatsAKey(members) else {
                try write(value.jsonValue(path: path()), depth: depth, path: path())
                return
            }
            try writeObject(members.count, key: { members[$0].key }, depth: depth, path: path()) { writer, position in
                try writer.write(members[position].value, depth: depth + 1, path: PathTrail.appending(members[position].key, to: path()))
            }
        }
    }

    /// Whether two members share a key (a set only past a few members).
    private static func repeatsAKey(_ members: [(key: String, value: EncodedValue)]) -> Bool {
        guard members.count > 1 else { return false }
        var seen = Set<String>(minimumCapacity: members.count)
        for member in members where !seen.insert(member.key).inserted { return true }
        return false
    }

    mutating func write(_ value: JSONValue, depth: Int, path: @autoclosure () -> String) throws {
        switch value {
        case .null: sink.append(contentsOf: .null)
        case .bool(true): sink.append(contentsOf: .true)
        case .bool(false): sink.append(contentsOf: .false)
        case .number(let number): try writeNumber(number, path: path())
        case .string(let text): writeString(text)
        case .array(let elements):
            try writeArray(elements.count, depth: depth, path: path()) { writer, position in
                try writer.write(elements[position], depth: depth + 1, path: PathTrail.appending(position, to: path()))
            }
        case .object(let object):
            let members = object.members
            try writeObject(members.count, key: { members[$0].key }, depth: depth, path: path()) { writer, position in
                try writer.write(members[position].value, depth: depth + 1, path: PathTrail.appending(members[position].key, to: path()))
            }
        }
    }

    private mutating func writeArray(
        _ count: Int, depth: Int, path: @autoclosure () -> String,
        _ element: (inout NativeJSONWriter, Int) throws -> Void
    ) throws {
        try open(UInt8(ascii: "["), depth: depth, path: path())
        for position in 0..<count {
            beginElement(position, depth: depth)
            try element(&self, position)
        }
        close(UInt8(ascii: "]"), count: count, depth: depth)
    }

    private mutating func writeObject(
        _ count: Int, key: (Int) -> String, depth: Int, path: @autoclosure () -> String,
        _ member: (inout NativeJSONWriter, Int) throws -> Void
    ) throws {
        try open(UInt8(ascii: "{"), depth: depth, path: path())
        // The sorted order is only made when asked for: an array per object otherwise.
        let order = options.sortedKeys && count > 1 ? (0..<count).sorted { key($0).utf8.lexicographicallyPrecedes(key($1).utf8) } : nil
        for ordinal in 0..<count {
            let position = order?[ordinal] ?? ordinal
            beginMember(key(position), ordinal, depth: depth)
            try member(&self, position)
        }
        close(UInt8(ascii: "}"), count: count, depth: depth)
    }

    // MARK: Containers written piece by piece
    //
    // The tree walks above and the mapping layer's stream (MappingStream.swift)
    // write containers through these four, so both lay them out alike.

    /// Opens an array (`[`) or object (`{`) at `depth`, within
    /// ``WriteOptions/maxDepth`` and the thread's stack.
    mutating func open(_ bracket: UInt8, depth: Int, path: @autoclosure () -> String) throws {
        guard depth < options.maxDepth else { throw depthError(path()) }
        guard StackGuard.hasRoom else { throw StackGuard.exhausted(path: path()) }
        sink.append(bracket)
    }

    /// Starts the element at `position` of the array open at `depth`.
    mutating func beginElement(_ position: Int, depth: Int) {
        if position > 0 { sink.append(UInt8(ascii: ",")) }
        newline(depth + 1)
    }

    /// Starts the member at `position` of the object open at `depth`: its
    /// key and separator, leaving its value to the caller.
    mutating func beginMember(_ key: String, _ position: Int, depth: Int) {
        beginElement(position, depth: depth)
        writeString(key)
        endKey()
    }

    /// ``beginMember(_:_:depth:)`` for a key whose JSON text (quotes
    /// included) is the same under every escaping option, written ahead of time.
    mutating func beginMember(quoted key: Span<UInt8>, _ position: Int, depth: Int) {
        // Compact (Foundation's layout is indented): comma, key and colon at once.
        if indent == 0 { return sink.appendMemberStart(quoted: key, first: position == 0) }
        beginElement(position, depth: depth)
        sink.append(key)
        endKey()
    }

    /// ``beginMember(quoted:_:depth:)`` for a key framed ahead of time
    /// (``OutputBuffer/appendMemberStart(framed:key:first:)``): a comma
    /// before it and a colon after it in `framed`.
    @inline(__always)
    mutating func beginMember(framed: Span<UInt8>, key: Range<Int>, _ position: Int, depth: Int) {
        if indent == 0 { return sink.appendMemberStart(framed: framed, key: key, first: position == 0) }
        beginElement(position, depth: depth)
        sink.append(framed.extracting(key))
        endKey()
    }

    /// The separator after a member's key, spaced as the layout says.
    mutating func endKey() {
        if foundationLayout { sink.append(UInt8(ascii: " ")) }
        sink.append(UInt8(ascii: ":"))
        if indent > 0 { sink.append(UInt8(ascii: " ")) }
    }

    /// Closes the container open at `depth` after `count` elements or members.
    mutating func close(_ bracket: UInt8, count: Int, depth: Int) {
        if count == 0 {
            if foundationLayout { emptyContainerLines(depth) }
        } else {
            newline(depth)
        }
        sink.append(bracket)
    }

    mutating func writeNumber(_ number: JSONNumber, path: @autoclosure () -> String) throws {
        switch number.storage {
        case .int(let value): writeInteger(value)
        case .double(let value) where !value.isFinite:
            switch options.nonConformingFloats {
            case .throw:
                throw CartographError(
                    .nonFiniteNumber,
                    "\(value) cannot be written as JSON; set WriteOptions.nonConformingFloats to write it as a string or null", path: path())
            case .null: sink.append(contentsOf: .null)
            case .strings(let positive, let negative, let nan): writeString(value.isNaN ? nan : (value > 0 ? positive : negative))
            }
        case .double(let value): writeDouble(value)
        default: sink.append(contentsOf: number.text.utf8)
        }
    }

    mutating func writeInteger(_ value: Int64) {
        if value >= 0, value < 10 {
            sink.append(UInt8(ascii: "0") + UInt8(value))
            return
        }
        sink.appendDecimal(value)
    }

    /// Writes `text` as a JSON string, escaped as the options say (see
    /// `json_escape.c`: quotes, backslashes and control bytes always;
    /// slashes and non-ASCII when asked; lowercase hex, as Foundation's
    /// `JSONEncoder` writes `\u001f`).
    mutating func writeString(_ text: String) {
        sink.appendJSONString(text, escaping)
    }
}

extension NativeJSONWriter {
    /// A finite double as ``JSONNumber``'s text writes it
    /// (``DoubleFormatting/json(_:)``: shortest digits, whole values
    /// without `.0`), straight into the output.
    mutating func writeDouble(_ value: Double) {
        sink.appendShortest(value)
    }
}
