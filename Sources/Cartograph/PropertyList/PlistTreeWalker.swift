import Foundation

/// Walks a value to be written — the `Codable` encoder's tree, an
/// ``EncodedValue`` from a mapping, a ``JSONValue`` — into a ``PlistSink``,
/// with no copy of the tree in between: nulls are left out (or refused, by
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
    mutating func write(root slot: EncodingSlot) throws {
        guard !slot.isNull else { throw CartographError(.encodingFailed, "a property list cannot have null at the top level", path: "$") }
        try write(slot, depth: 0, path: "$")
    }

    private func failure(_ message: String, _ path: String) -> CartographError {
        CartographError(.encodingFailed, message, path: path)
    }

    private mutating func write(_ slot: EncodingSlot, depth: Int, path: @autoclosure () -> String) throws {
        switch slot {
        case .value(let value): try write(value, depth: depth, path: path())
        case .native(let native): try write(native, depth: depth, path: path())
        case .array(let array):
            try self.array(array.elements, depth: depth, path: path(), isNull: { $0.isNull }) { walker, element, position in
                try walker.write(element, depth: depth + 1, path: PathText.appending(position, to: path()))
            }
        case .object(let object):
            let slots = object.slots
            try dict(object.keys, depth: depth, path: path(), isNull: { slots[$0].isNull }) { walker, position in
                try walker.write(slots[position], depth: depth + 1, path: PathText.appending(object.keys[position], to: path()))
            }
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
                try walker.write(element, depth: depth + 1, path: PathText.appending(position, to: path()))
            }
        case .object(let members):
            try dict(members.map(\.key), depth: depth, path: path(), isNull: { members[$0].value.isNull }) { walker, position in
                try walker.write(members[position].value, depth: depth + 1, path: PathText.appending(members[position].key, to: path()))
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
                try walker.write(element, depth: depth + 1, path: PathText.appending(position, to: path()))
            }
        case .object(let object):
            let members = object.members
            try dict(members.map(\.key), depth: depth, path: path(), isNull: { members[$0].value.isNull }) { walker, position in
                try walker.write(members[position].value, depth: depth + 1, path: PathText.appending(members[position].key, to: path()))
            }
        }
    }

    private mutating func number(_ number: JSONNumber, path: @autoclosure () -> String) throws {
        switch number.storage {
        case .int(let value): try scalar(path()) { try $0.integer(value) }
        case .uint(let value): try scalar(path()) { try $0.unsigned(value) }
        case .double(let value):
            guard value.isFinite else { throw failure("\(value) cannot be written", path()) }
            try scalar(path()) { try $0.real(value) }
        case .text:
            guard !number.isInteger else { throw failure("property lists have no integers beyond 64 bits (\(number.text))", path()) }
            try scalar(path()) { try $0.real(number.doubleValue) }
        }
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

    private mutating func array<Element>(_ elements: [Element], depth: Int, path: @autoclosure () -> String, isNull: (Element) -> Bool,
        _ element: (inout Self, Element, Int) throws -> Void) throws
    {
        guard depth < options.maxDepth else { throw CartographError(.depthLimitExceeded, "value nests deeper than maxDepth", path: path()) }
        try sink.beginArray()
        for position in elements.indices {
            let value = elements[position]
            if omitsNulls, isNull(value) { continue }
            try element(&self, value, position)
        }
        try sink.endArray()
    }

    private mutating func dict(_ keys: [String], depth: Int, path: @autoclosure () -> String, isNull: (Int) -> Bool,
        _ member: (inout Self, Int) throws -> Void) throws
    {
        guard depth < options.maxDepth else { throw CartographError(.depthLimitExceeded, "value nests deeper than maxDepth", path: path()) }
        try sink.beginDict()
        for position in keys.indices {
            if omitsNulls, isNull(position) { continue }
            let key = keys[position]
            try scalar(PathText.appending(key, to: path())) { try $0.key(key) }
            try member(&self, position)
        }
        try sink.endDict()
    }
}

extension EncodingSlot {
    /// Whether the slot holds a null.
    var isNull: Bool {
        switch self {
        case .value(.null), .native(.null): return true
        default: return false
        }
    }
}
