import Foundation

/// Walks a value to be written — the `Codable` encoder's tree, an
/// ``EncodedValue`` from a mapping, a ``JSONValue``, a ``Document``'s tape —
/// into a ``PlistSink``,
/// with no copy of the tree in between: null members of dicts are left out
/// and null elements of arrays written as `$null` (or both refused, by
/// ``PropertyListOptions/nulls``), numbers and other values checked for what
/// a plist can hold, nesting limited by ``PropertyListOptions/maxDepth``.
/// Every error names the path of the value.
struct PlistTreeWalker<Sink: PlistSink> {
    var sink: Sink
    let options: PropertyListOptions
    private let omitsNulls: Bool

    init(sink: Sink, options: PropertyListOptions) {
        self.sink = sink
        self.options = options
        omitsNulls = options.nulls == .omit
    }

    /// Writes the root value, which must not be null.
    mutating func write(root slot: EncodingNode) throws {
        guard !slot.isNull else { throw CartographError(.encodingFailed, "a property list cannot have null at the top level", path: "$") }
        if !options.allowsTopLevelScalars, let kind = slot.scalarKind {
            throw CartographError(
                .encodingFailed,
                "the top level is a \(kind), which these options refuse as a property-list fragment "
                    + "(PropertyListOptions.allowsTopLevelScalars; Foundation's PropertyListEncoder refuses it too)", path: "$")
        }
        try write(slot, depth: 0, path: "$")
    }

    /// Writes a Document's value straight from its tape; it must not be null.
    mutating func write(root document: Document, at index: Int) throws {
        guard document.entry(index).kind != .null else {
            throw CartographError(.encodingFailed, "a property list cannot have null at the top level", path: "$")
        }
        try write(document, at: index, depth: 0, path: "$")
    }

    private func failure(_ message: String, _ path: String) -> CartographError {
        CartographError(.encodingFailed, message, path: path)
    }

    private mutating func write(_ slot: EncodingNode, depth: Int, path: @autoclosure () -> String) throws {
        switch slot {
        // Scalars first, matched in place: most of an encoder's tree.
        case .written(let object): try sink.written(object)
        case .value(.string(let text)): try scalar(path()) { try $0.string(text) }
        case .value(.number(let number)): try self.number(number, path: path())
        case .value(.bool(let flag)): try scalar(path()) { try $0.bool(flag) }
        case .value(let value): try write(value, depth: depth, path: path())
        case .native(let native): try write(native, depth: depth, path: path())
        // The encoder's containers are walked through spans (the hot path of
        // `Codable` output): no retain per member for the null check and
        // the read.
        case .array(let array):
            try checkDepth(depth, path())
            try sink.beginArray()
            let held = array.elements
            let elements = held.span
            for position in elements.indices {
                if omitsNulls, elements[position].isNull {
                    try nullElement(PathTrail.appending(position, to: path()))
                } else {
                    try write(elements[position], depth: depth + 1, path: PathTrail.appending(position, to: path()))
                }
            }
            try sink.endArray()
        case .object(let object):
            try checkDepth(depth, path())
            try sink.beginDict()
            let held = object.members
            let members = held.span
            let sorted = sortedOrder(members.count, key: { held[$0].key })
            for ordinal in members.indices {
                let position = sorted?[ordinal] ?? ordinal
                if omitsNulls, members[position].value.isNull { continue }
                try scalar(PathTrail.appending(members[position].key, to: path())) { try $0.key(members[position].key) }
                try write(members[position].value, depth: depth + 1, path: PathTrail.appending(members[position].key, to: path()))
            }
            try sink.endDict()
        }
    }

    private mutating func write(_ value: EncodedValue, depth: Int, path: @autoclosure () -> String) throws {
        switch value {
        case .null: throw failure("property lists have no null", path())
        case .bool(let flag): try scalar(path()) { try $0.bool(flag) }
        case .number(let number): try self.number(number, path: path())
        case .string(let text): try scalar(path()) { try $0.string(text) }
        case .date(let date): try scalar(path()) { try $0.date(date) }
        case .data(let data): try scalar(path()) { try $0.data(data) }
        case .native(let native):
            switch native {
            case let url as URL: try scalar(path()) { try $0.string(url.absoluteString) }
            case let uuid as UUID: try scalar(path()) { try $0.string(uuid.uuidString) }
            default: throw failure("\(type(of: native)) has no property-list form", path())
            }
        case .array(let elements):
            try array(elements, depth: depth, path: path(), isNull: { $0.isNull }) { walker, element, position in
                try walker.write(element, depth: depth + 1, path: PathTrail.appending(position, to: path()))
            }
        case .object(let members):
            try dict(members, depth: depth, path: path(), isNull: { $0.isNull }) { walker, value, key in
                try walker.write(value, depth: depth + 1, path: PathTrail.appending(key, to: path()))
            }
        }
    }

    private mutating func write(_ value: JSONValue, depth: Int, path: @autoclosure () -> String) throws {
        switch value {
        case .null: throw failure("property lists have no null", path())
        case .bool(let flag): try scalar(path()) { try $0.bool(flag) }
        case .number(let number): try self.number(number, path: path())
        case .string(let text): try scalar(path()) { try $0.string(text) }
        case .array(let elements):
            try array(elements, depth: depth, path: path(), isNull: { $0.isNull }) { walker, element, position in
                try walker.write(element, depth: depth + 1, path: PathTrail.appending(position, to: path()))
            }
        case .object(let object):
            try dict(object.members, depth: depth, path: path(), isNull: { $0.isNull }) { walker, value, key in
                try walker.write(value, depth: depth + 1, path: PathTrail.appending(key, to: path()))
            }
        }
    }

    /// A tape value: numbers keep their text's meaning, flagged strings are
    /// dates and data again, shadowed duplicate keys stay hidden.
    private mutating func write(_ document: Document, at index: Int, depth: Int, path: @autoclosure () -> String) throws {
        let tape = document.reader
        let entry = tape[index]
        switch entry.kind {
        case .null: throw failure("property lists have no null", path())
        case .true, .false: try scalar(path()) { try $0.bool(entry.kind == .true) }
        case .number:
            try number(document.jsonNumber(entry), path: path())
        case .string, .key:
            let text = document.reader.string(entry)
            if entry.flags & TapeFlags.date != 0, let date = PlistDate.date(text) {
                try scalar(path()) { try $0.date(date) }
            } else if entry.flags & TapeFlags.data != 0, let data = Data(base64Encoded: text) {
                try scalar(path()) { try $0.data(data) }
            } else {
                try scalar(path()) { try $0.string(text) }
            }
        case .array:
            try checkDepth(depth, path())
            try sink.beginArray()
            var position = index + 1
            var ordinal = 0
            while position < entry.payload {
                if omitsNulls, tape[position].kind == .null {
                    try nullElement(PathTrail.appending(ordinal, to: path()))
                } else {
                    try write(document, at: position, depth: depth + 1, path: PathTrail.appending(ordinal, to: path()))
                }
                position = document.next(after: position)
                ordinal += 1
            }
            try sink.endArray()
        case .object:
            try checkDepth(depth, path())
            try sink.beginDict()
            var members: [(name: String, value: Int)] = []
            var position = index + 1
            while position < entry.payload {
                let key = tape[position]
                if key.flags & TapeFlags.shadowed == 0, !omitsNulls || tape[position + 1].kind != .null {
                    members.append((document.reader.string(key), position + 1))
                }
                position = document.next(after: position + 1)
            }
            let sorted = sortedOrder(members.count, key: { members[$0].name })
            for ordinal in members.indices {
                let (name, value) = members[sorted?[ordinal] ?? ordinal]
                try scalar(PathTrail.appending(name, to: path())) { try $0.key(name) }
                try write(document, at: value, depth: depth + 1, path: PathTrail.appending(name, to: path()))
            }
            try sink.endDict()
        }
    }

    private mutating func number(_ number: JSONNumber, path: @autoclosure () -> String) throws {
        switch number.storage {
        case .int(let value): try scalar(path()) { try $0.integer(value) }
        case .uint(let value): try scalar(path()) { try $0.unsigned(value) }
        // Plists hold NaN and the infinities (Foundation writes them too).
        case .double(let value): try scalar(path()) { try $0.real(value) }
        case .text:
            guard !number.isInteger else { throw failure("property lists have no integers beyond 64 bits (\(number.text))", path()) }
            try scalar(path()) { try $0.real(number.doubleValue) }
        }
    }

    /// A null element of an array, under ``PropertyListOptions/NullPolicy/omit``:
    /// Foundation's nil marker (``PlistNull``), where a dict's null member is
    /// left out. Left out too, it moved every later element down a place
    /// (`[null, 2]` was read back as `[2]`); `$null` keeps the places, and
    /// Cartograph's and Foundation's decoders read it as nil.
    private mutating func nullElement(_ path: @autoclosure () -> String) throws {
        try scalar(path()) { try $0.string(PlistNull.marker) }
    }

    /// A scalar; what the sink refuses gets the path.
    @inline(__always)
    private mutating func scalar(_ path: @autoclosure () -> String, _ write: (inout Sink) throws -> Void) throws {
        do {
            try write(&sink)
        } catch let error as CartographError {
            throw error.at(path: path())
        }
    }

    @inline(__always)
    private func checkDepth(_ depth: Int, _ path: @autoclosure () -> String) throws {
        guard depth < options.maxDepth else { throw CartographError(.depthLimitExceeded, "value nests deeper than maxDepth", path: path()) }
        guard StackGuard.hasRoom else { throw StackGuard.exhausted(path: path()) }
    }

    /// An array's elements through a span (no retain per element for the null check).
    private mutating func array<Element>(
        _ elements: [Element], depth: Int, path: @autoclosure () -> String, isNull: (borrowing Element) -> Bool,
        _ element: (inout Self, borrowing Element, Int) throws -> Void
    ) throws {
        try checkDepth(depth, path())
        try sink.beginArray()
        let span = elements.span
        for position in span.indices {
            if omitsNulls, isNull(span[position]) {
                try nullElement(PathTrail.appending(position, to: path()))
            } else {
                try element(&self, span[position], position)
            }
        }
        try sink.endArray()
    }

    /// The positions of a dict's members in key order, when
    /// ``PropertyListOptions/sortedKeys`` asks for it (Swift's `String`
    /// order, as Foundation sorts); nil: as encoded.
    private func sortedOrder(_ count: Int, key: (Int) -> String) -> [Int]? {
        guard options.sortedKeys, count > 1 else { return nil }
        return (0..<count).sorted { key($0) < key($1) }
    }

    /// A dict's members through a span; `member` gets the value and its key.
    private mutating func dict<Value>(
        _ members: [(key: String, value: Value)], depth: Int, path: @autoclosure () -> String,
        isNull: (borrowing Value) -> Bool, _ member: (inout Self, borrowing Value, String) throws -> Void
    ) throws {
        try checkDepth(depth, path())
        try sink.beginDict()
        let span = members.span
        let sorted = sortedOrder(span.count, key: { members[$0].key })
        for ordinal in span.indices {
            let position = sorted?[ordinal] ?? ordinal
            if omitsNulls, isNull(span[position].value) { continue }
            try scalar(PathTrail.appending(span[position].key, to: path())) { try $0.key(span[position].key) }
            try member(&self, span[position].value, span[position].key)
        }
        try sink.endDict()
    }
}

extension EncodingNode {
    /// What a scalar slot holds that Foundation refuses at a plist's top
    /// level (a bool, number, string or date; data is allowed); nil otherwise.
    var scalarKind: String? {
        switch self {
        case .value(.bool), .native(.bool): return "boolean"
        case .value(.number), .native(.number): return "number"
        case .value(.string), .native(.string): return "string"
        case .native(.date): return "date"
        case .native(.native(let native)) where native is URL || native is UUID: return "string"
        default: return nil
        }
    }

    /// Whether the slot holds a null.
    var isNull: Bool {
        switch self {
        case .value(.null), .native(.null): return true
        default: return false
        }
    }
}
