import Foundation

/// Built-in leaf types: read from one node, written as one value.
protocol ScalarValue {
    /// Reads the value; `lenient` allows unambiguous conversions between kinds.
    static func scalar(from node: Node, lenient: Bool) throws -> Self
    /// Writes the value for a profile.
    func encodedScalar(profile: OutputProfile) -> EncodedValue
    /// Writes the value as JSON, what ``encodedScalar(profile:)`` for
    /// `.json` would become (the mapping layer's stream, MappingStream.swift).
    /// A requirement so that the common scalars write themselves without
    /// an ``EncodedValue`` (a box per value); `depth` is the nesting of a
    /// `JSONValue` that holds containers.
    func writeJSON(into writer: inout NativeJSONWriter, depth: Int) throws
    /// Writes an array of the type, and an array of such arrays, as JSON:
    /// requirements, as the readers above are, so that each loop is
    /// compiled for its scalar (MappingStream.swift).
    static func writeJSONArray(_ values: [Self], into writer: inout NativeJSONWriter, depth: Int) throws
    static func writeJSONMatrix(_ values: [[Self]], into writer: inout NativeJSONWriter, depth: Int) throws
    /// The expected kind, for errors.
    static var expectedKind: String { get }
    /// The type's zero (`""`, `0`, `false`, empty data), what
    /// ``NullForNonOptional/resetToDefault`` sets for a `null`; nil when it has none.
    static var zero: Self? { get }
    /// Whether `null` is one of its values (`JSONValue`).
    static var holdsNull: Bool { get }
    /// Reads every element of the array at tape `index` (nulls left out
    /// when `skippingNulls` and the type does not hold null), and arrays of
    /// such arrays one and two levels deep (a matrix; GeoJSON's polygons).
    /// Requirements, not only extension methods, so that each conformance's
    /// witness is compiled for its concrete type: the mapping layer reaches
    /// scalars through opened existentials, where a generic loop would look
    /// up `[Self]`'s metadata and call through witnesses for every element.
    /// On failure they throw ``ScalarElementFailure`` with the element's
    /// position (see ScalarArrays.swift).
    static func scalarArray(in document: Document, at index: Int, lenient: Bool, skippingNulls: Bool) throws -> [Self]
    static func scalarMatrix(in document: Document, at index: Int, lenient: Bool, skippingNulls: Bool) throws -> [[Self]]
    static func scalarMatrices(in document: Document, at index: Int, lenient: Bool, skippingNulls: Bool) throws -> [[[Self]]]
    /// The value at tape `index`, read from the tape without making a
    /// ``Node`` where the type allows: the common kinds (strings, numbers,
    /// booleans) touch no reference count. Anything else (a mismatch, a
    /// lenient conversion, `null`) goes through the node.
    static func scalar(in document: Document, at index: Int, lenient: Bool) throws -> Self
    /// Reads the value into memory holding a `Self` (a `Self?` when
    /// `optional`): a struct's stored property written in place
    /// (``StoredScalar``). A requirement for the same reason as ``scalarArray(_:lenient:skippingNulls:)``.
    static func store(from node: Node, lenient: Bool, optional: Bool, into fields: ModelFields, at field: FieldOffset) throws
    /// Stores nil (when `optional`) or ``zero`` in such a property.
    static func storeEmpty(optional: Bool, into fields: ModelFields, at field: FieldOffset)
    /// ``store(from:lenient:optional:at:)`` for the value at tape `index`
    /// (not `null`), read through ``scalar(in:at:lenient:)``.
    static func store(in document: Document, at index: Int, lenient: Bool, optional: Bool, into fields: ModelFields, at field: FieldOffset) throws
    /// Writes the property at `field` of a struct model (a `Self?` when
    /// `optional`) as JSON, as its codec's stream would (the mapping
    /// layer's stream, for a ``StoredScalar``'s rule); false, writing
    /// nothing, for nil. A requirement for the same reason as
    /// ``scalarArray(in:at:lenient:skippingNulls:)``: the value is read as
    /// its own type, not copied through generic value witnesses.
    static func writeStored(_ model: ModelView, at field: FieldOffset, optional: Bool, into writer: inout NativeJSONWriter, depth: Int) throws -> Bool
    /// A closure that reads the value at a tape index (not `null`) and
    /// hands it to a class model's setter (a `Self?` setter for the
    /// optional one): ``ClassScalarRead``. Requirements for the same reason
    /// as ``scalarArray(in:at:lenient:skippingNulls:)``: the read is compiled for the type.
    static func classAssigner<Model>(_ set: @escaping (Model, Self) -> Void) -> (inout Model, Document, Int, Bool) throws -> Void
    /// The optional one takes the model as an object (a class instance):
    /// not generic, so that it is compiled for the type.
    static func classOptionalAssigner(_ set: @escaping (AnyObject, Self?) -> Void) -> (AnyObject, Document, Int, Bool) throws -> Void
    /// A closure that writes the value a class model's getter gives as JSON:
    /// ``ClassScalarWrite`` (an optional's goes through ``writeStored(_:at:optional:into:depth:)``).
    static func classWriter<Model>(_ get: @escaping (Model) -> Self) -> (Model, inout NativeJSONWriter, Int) throws -> Bool
}

/// The built-in scalar `type` is, or holds as an `Optional` (`optional`);
/// nil for any other type. What the in-place readers and writers
/// (``StoredScalar``, ``ClassScalarRead``, ``ClassScalarWrite``) are made for.
func scalarType(of type: Any.Type) -> (scalar: any ScalarValue.Type, optional: Bool)? {
    if let scalar = type as? any ScalarValue.Type { return (scalar, false) }
    guard let marker = type as? any OptionalMarker.Type, let wrapped = wrappedScalar(marker) else { return nil }
    return (wrapped, true)
}

private func wrappedScalar<O: OptionalMarker>(_: O.Type) -> (any ScalarValue.Type)? {
    O.Wrapped.self as? any ScalarValue.Type
}

extension ScalarValue {
    static func writeStored(_ model: ModelView, at field: FieldOffset, optional: Bool, into writer: inout NativeJSONWriter, depth: Int) throws -> Bool
    {
        // Lent, not read: a read string was retained and released per property.
        if optional {
            return try model.lend(field, as: Self?.self) { value in
                guard let value else { return false }
                try value.writeJSON(into: &writer, depth: depth)
                return true
            }
        }
        return try model.lend(field, as: Self.self) {
            try $0.writeJSON(into: &writer, depth: depth)
            return true
        }
    }
}

extension ScalarValue {
    static func scalar(in document: Document, at index: Int, lenient: Bool) throws -> Self {
        try scalar(from: Node(document: document, index: index), lenient: lenient)
    }

    static func store(in document: Document, at index: Int, lenient: Bool, optional: Bool, into fields: ModelFields, at field: FieldOffset) throws {
        put(try scalar(in: document, at: index, lenient: lenient), optional: optional, into: fields, at: field)
    }

    /// Writes a value into a property holding a `Self` (a `Self?` when `optional`).
    @inline(__always)
    static func put(_ value: Self, optional: Bool, into fields: ModelFields, at field: FieldOffset) {
        if optional {
            fields.store(Optional(value), at: field)
        } else {
            fields.store(value, at: field)
        }
    }
}

extension ScalarValue {
    static var zero: Self? { nil }
    static var holdsNull: Bool { false }
    func writeJSON(into writer: inout NativeJSONWriter, depth: Int) throws {
        try writer.write(encodedScalar(profile: .json), depth: depth, path: "")
    }
}

extension Node {
    /// A type mismatch at this node (the caller adds the path).
    func mismatch(expected: String) -> CartographError {
        CartographError(.typeMismatch, "expected \(expected), found \(kind)", offset: sourceOffset, expected: expected, found: kind.description)
    }

    /// The string of a string node, or with `lenient` the text of a number or bool.
    func lenientString(_ lenient: Bool) throws -> String {
        switch kind {
        case .string: return try string()
        case .number where lenient: return try numberText()
        case .bool where lenient: return try bool() ? "true" : "false"
        default: throw mismatch(expected: "string")
        }
    }
}

extension String: ScalarValue {
    static var expectedKind: String { "string" }
    static var zero: String? { "" }
    static func scalar(from node: Node, lenient: Bool) throws -> String { try node.lenientString(lenient) }
    static func scalar(in document: Document, at index: Int, lenient: Bool) throws -> String {
        let entry = document.entry(index)
        guard entry.kind == .string else { return try scalar(from: Node(document: document, index: index), lenient: lenient) }
        return document.reader.string(entry)
    }
    func encodedScalar(profile: OutputProfile) -> EncodedValue { .string(self) }
    func writeJSON(into writer: inout NativeJSONWriter, depth: Int) { writer.writeString(self) }
}

extension Bool: ScalarValue {
    static var expectedKind: String { "bool" }
    static var zero: Bool? { false }
    static func scalar(in document: Document, at index: Int, lenient: Bool) throws -> Bool {
        switch document.entry(index).kind {
        case .true: return true
        case .false: return false
        default: return try scalar(from: Node(document: document, index: index), lenient: lenient)
        }
    }
    static func scalar(from node: Node, lenient: Bool) throws -> Bool {
        if node.kind == .bool { return try node.bool() }
        guard lenient else { throw node.mismatch(expected: "bool") }
        switch node.kind {
        case .number:
            switch try node.numberText() {
            case "0": return false
            case "1": return true
            default: break
            }
        case .string:
            switch try node.string().lowercased() {
            case "true", "yes", "1": return true
            case "false", "no", "0": return false
            default: break
            }
        default: break
        }
        throw node.mismatch(expected: "bool")
    }
    func encodedScalar(profile: OutputProfile) -> EncodedValue { .bool(self) }
    func writeJSON(into writer: inout NativeJSONWriter, depth: Int) { writer.sink.append(contentsOf: self ? .true : .false) }
}

/// Integers: exact or throw, never wrapped or rounded.
protocol IntegerScalar: ScalarValue, FixedWidthInteger {}

extension IntegerScalar {
    static var expectedKind: String { "integer" }
    static var zero: Self? { 0 }
    static func scalar(in document: Document, at index: Int, lenient: Bool) throws -> Self {
        let entry = document.entry(index)
        // Plain integer text that fits: everything else (exponents, range
        // errors, lenient strings) takes the node's path.
        if entry.kind == .number, let value = document.reader.int64(entry),
            let exact = Self(exactly: value)
        {
            return exact
        }
        return try scalar(from: Node(document: document, index: index), lenient: lenient)
    }
    static func scalar(from node: Node, lenient: Bool) throws -> Self {
        var source = node
        if node.kind == .string, lenient {
            let text = try node.string().trimmingCharacters(in: .whitespaces)
            guard let parsed = try? Document(parsing: text).root, parsed.kind == .number else { throw node.mismatch(expected: "integer") }
            source = parsed
        }
        guard source.kind == .number else { throw node.mismatch(expected: "integer") }
        do {
            if Self.isSigned {
                if let value = Self(exactly: try source.int64()) { return value }
            } else if let value = Self(exactly: try source.uint64()) {
                return value
            }
        } catch let error as CartographError where error.kind == .numberOutOfRange {}
        throw CartographError(
            .numberOutOfRange, "number \((try? source.numberText()) ?? "?") does not fit in \(Self.self)",
            offset: node.sourceOffset, expected: "\(Self.self)", found: "number")
    }
    func encodedScalar(profile: OutputProfile) -> EncodedValue {
        Self.isSigned ? .number(JSONNumber(Int64(self))) : .number(JSONNumber(UInt64(self)))
    }
    func writeJSON(into writer: inout NativeJSONWriter, depth: Int) throws {
        if Self.isSigned || self <= Int64.max {
            writer.writeInteger(Int64(truncatingIfNeeded: self))
        } else {
            try writer.writeNumber(JSONNumber(UInt64(self)), path: "")
        }
    }
}

extension Int: IntegerScalar {}
extension Int8: IntegerScalar {}
extension Int16: IntegerScalar {}
extension Int32: IntegerScalar {}
extension Int64: IntegerScalar {}
extension UInt: IntegerScalar {}
extension UInt8: IntegerScalar {}
extension UInt16: IntegerScalar {}
extension UInt32: IntegerScalar {}
extension UInt64: IntegerScalar {}

extension Double: ScalarValue {
    static var expectedKind: String { "number" }
    static var zero: Double? { 0 }
    // Inlined into the scalar array loop, where it is most of the work per
    // element of a coordinate array (the inliner stopped doing so by itself
    // once the number scanner read a span).
    @inline(__always)
    static func scalar(in document: Document, at index: Int, lenient: Bool) throws -> Double {
        let entry = document.entry(index)
        if entry.kind == .number {
            let value = document.reader.double(entry)
            if value.isFinite { return value }
        }
        return try scalar(from: Node(document: document, index: index), lenient: lenient)
    }
    static func scalar(from node: Node, lenient: Bool) throws -> Double {
        if node.kind == .number { return try node.double() }
        if lenient, node.kind == .string, let value = Double(try node.string().trimmingCharacters(in: .whitespaces)), value.isFinite {
            return value
        }
        throw node.mismatch(expected: "number")
    }
    func encodedScalar(profile: OutputProfile) -> EncodedValue { .number(JSONNumber(self)) }
    func writeJSON(into writer: inout NativeJSONWriter, depth: Int) throws {
        if isFinite { writer.writeDouble(self) } else { try writer.writeNumber(JSONNumber(self), path: "") }
    }
}

extension Float: ScalarValue {
    static var expectedKind: String { "number" }
    static var zero: Float? { 0 }
    static func scalar(from node: Node, lenient: Bool) throws -> Float {
        if node.kind == .number { return try node.float() }
        // Lenient text: the standard library's parser rounds once, as `strtof` does.
        guard lenient, node.kind == .string, let value = Float(try node.string().trimmingCharacters(in: .whitespaces)) else {
            throw node.mismatch(expected: "number")
        }
        guard value.isFinite else {
            throw CartographError(.numberOutOfRange, "number does not fit in Float", offset: node.sourceOffset, expected: "Float", found: "number")
        }
        return value
    }
    func encodedScalar(profile: OutputProfile) -> EncodedValue {
        // The shortest text that reads back as this Float, so 0.1 stays 0.1.
        .number(JSONNumber(text: description) ?? JSONNumber(Double(self)))
    }
}

extension Decimal: ScalarValue {
    static var expectedKind: String { "number" }
    static var zero: Decimal? { 0 }
    static func scalar(from node: Node, lenient: Bool) throws -> Decimal {
        if node.kind == .number { return try node.decimal() }
        if lenient, node.kind == .string, let value = Decimal(string: try node.string(), locale: Locale(identifier: "en_US_POSIX")) {
            return value
        }
        throw node.mismatch(expected: "number")
    }
    func encodedScalar(profile: OutputProfile) -> EncodedValue { .number(JSONNumber(self)) }
}

extension JSONValue: ScalarValue {
    static var expectedKind: String { "any JSON value" }
    static var holdsNull: Bool { true }
    static func scalar(from node: Node, lenient: Bool) throws -> JSONValue { try node.jsonValue() }
    func encodedScalar(profile: OutputProfile) -> EncodedValue { EncodedValue(self) }
    func writeJSON(into writer: inout NativeJSONWriter, depth: Int) throws { try writer.write(self, depth: depth, path: "") }
}

extension Date: ScalarValue {
    static var expectedKind: String { "ISO 8601 date string or seconds since 1970" }
    /// Without a transform: an ISO 8601 string (fractional seconds optional)
    /// or seconds since 1970; lenient, also seconds since 1970 written as a
    /// string (`"1700000000"`).
    static func scalar(from node: Node, lenient: Bool) throws -> Date {
        switch node.kind {
        case .number: return Date(timeIntervalSince1970: try node.double())
        case .string:
            let text = try node.string()
            if let date = DateFormats.parseISO8601(text) { return date }
            if lenient, NumberGrammar.isValid(text.utf8.span), let seconds = Double(text), seconds.isFinite {
                return Date(timeIntervalSince1970: seconds)
            }
            throw CartographError(
                .typeMismatch, "\"\(try node.string())\" is not an ISO 8601 date", offset: node.sourceOffset,
                expected: "ISO 8601 date", found: "string")
        default: throw node.mismatch(expected: expectedKind)
        }
    }
    func encodedScalar(profile: OutputProfile) -> EncodedValue {
        // A date ISO 8601 text cannot hold stays a date: turning it into JSON
        // (EncodedValue.jsonValue) then throws with its path.
        guard profile == .json, let text = try? DateFormats.iso8601String(self, fractional: true) else { return .date(self) }
        return .string(text)
    }
}

extension URL: ScalarValue {
    static var expectedKind: String { "URL string" }
    static func scalar(from node: Node, lenient: Bool) throws -> URL {
        guard node.kind == .string else { throw node.mismatch(expected: "URL string") }
        guard let url = URL(string: try node.string()) else {
            throw CartographError(.typeMismatch, "\"\(try node.string())\" is not a URL", offset: node.sourceOffset, expected: "URL", found: "string")
        }
        return url
    }
    func encodedScalar(profile: OutputProfile) -> EncodedValue { profile == .full ? .native(self) : .string(absoluteString) }
}

extension UUID: ScalarValue {
    static var expectedKind: String { "UUID string" }
    static func scalar(from node: Node, lenient: Bool) throws -> UUID {
        guard node.kind == .string else { throw node.mismatch(expected: "UUID string") }
        guard let uuid = UUID(uuidString: try node.string()) else {
            throw CartographError(
                .typeMismatch, "\"\(try node.string())\" is not a UUID", offset: node.sourceOffset, expected: "UUID", found: "string")
        }
        return uuid
    }
    func encodedScalar(profile: OutputProfile) -> EncodedValue { profile == .full ? .native(self) : .string(uuidString) }
}

extension Data: ScalarValue {
    static var expectedKind: String { "base64 string" }
    static var zero: Data? { Data() }
    static func scalar(from node: Node, lenient: Bool) throws -> Data {
        guard node.kind == .string else { throw node.mismatch(expected: "base64 string") }
        guard let data = Data(base64Encoded: try node.string()) else {
            throw CartographError(.typeMismatch, "string is not valid base64", offset: node.sourceOffset, expected: "base64", found: "string")
        }
        return data
    }
    func encodedScalar(profile: OutputProfile) -> EncodedValue {
        profile == .json ? .string(base64EncodedString()) : .data(self)
    }
}
