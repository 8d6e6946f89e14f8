import Foundation

/// Writes property lists in Swift, the default writer.
///
/// libplist 2.2's writers were measured below Foundation's (binary 0.22x on
/// canada.json, where its object-deduplication table degrades on 110,000
/// reals; XML 0.7–0.9x), so Cartograph writes both formats itself: binary
/// with equal scalars shared (as Foundation does), XML in Apple's layout.
/// libplist still reads everything, and remains available as a writer
/// (``PropertyListOptions/Writer/libplist``); tests check that libplist and
/// Foundation read this writer's output back to equal values.
struct NativePlistWriter {
    let format: PropertyListFormat
    let options: PropertyListOptions

    func write(_ value: EncodedValue) throws -> [UInt8] {
        let cleaned = try clean(value, depth: 0, path: "$")
        guard let cleaned else { throw CartographError(.encodingFailed, "a property list cannot have null at the top level", path: "$") }
        switch format {
        case .binary:
            var writer = BinaryWriter(cleaned)
            return try writer.bytes()
        case .xml:
            var writer = XMLWriter()
            try writer.document(cleaned)
            return writer.output
        }
    }

    /// The value with nulls left out (or rejected), checked for what plists cannot hold.
    private func clean(_ value: EncodedValue, depth: Int, path: @autoclosure () -> String) throws -> EncodedValue? {
        switch value {
        case .null:
            if options.nulls == .reject { throw CartographError(.encodingFailed, "property lists have no null", path: path()) }
            return nil
        case .number(let number):
            if case .text = number.storage, number.isInteger {
                throw CartographError(.encodingFailed, "property lists have no integers beyond 64 bits (\(number.text))", path: path())
            }
            if case .double(let double) = number.storage, !double.isFinite {
                throw CartographError(.encodingFailed, "\(double) cannot be written", path: path())
            }
            return value
        case .native(let native):
            switch native {
            case let url as URL: return .string(url.absoluteString)
            case let uuid as UUID: return .string(uuid.uuidString)
            default: throw CartographError(.encodingFailed, "\(type(of: native)) has no property-list form", path: path())
            }
        case .array(let elements):
            guard depth < options.maxDepth else { throw CartographError(.depthLimitExceeded, "value nests deeper than maxDepth", path: path()) }
            return .array(try elements.enumerated().compactMap { try clean($1, depth: depth + 1, path: PathText.appending($0, to: path())) })
        case .object(let members):
            guard depth < options.maxDepth else { throw CartographError(.depthLimitExceeded, "value nests deeper than maxDepth", path: path()) }
            return .object(try members.compactMap { member in
                try clean(member.value, depth: depth + 1, path: PathText.appending(member.key, to: path())).map { (member.key, $0) }
            })
        default:
            return value
        }
    }
}

/// The binary format (`bplist00`): objects, an offset table, a trailer.
private struct BinaryWriter {
    private enum Object {
        case scalar(EncodedValue)
        case array([Int])
        case dictionary(keys: [Int], values: [Int])
    }

    /// What makes two scalars the same object.
    private enum ScalarKey: Hashable {
        case bool(Bool), integer(Int64), unsigned(UInt64), real(UInt64), date(UInt64), data(Data), string(String)
    }

    private var objects: [Object] = []
    private var shared: [ScalarKey: Int] = [:]
    private let root: EncodedValue

    init(_ root: EncodedValue) { self.root = root }

    private mutating func add(_ value: EncodedValue) -> Int {
        switch value {
        case .array(let elements):
            let index = objects.count
            objects.append(.array([]))
            let references = elements.map { add($0) }
            objects[index] = .array(references)
            return index
        case .object(let members):
            let index = objects.count
            objects.append(.dictionary(keys: [], values: []))
            let keys = members.map { add(.string($0.key)) }
            let values = members.map { add($0.value) }
            objects[index] = .dictionary(keys: keys, values: values)
            return index
        default:
            let key = scalarKey(value)
            if let existing = shared[key] { return existing }
            objects.append(.scalar(value))
            shared[key] = objects.count - 1
            return objects.count - 1
        }
    }

    private func scalarKey(_ value: EncodedValue) -> ScalarKey {
        switch value {
        case .bool(let flag): return .bool(flag)
        case .number(let number):
            switch number.storage {
            case .int(let integer): return .integer(integer)
            case .uint(let unsigned): return .unsigned(unsigned)
            default: return .real(number.doubleValue.bitPattern)
            }
        case .date(let date): return .date(date.timeIntervalSinceReferenceDate.bitPattern)
        case .data(let data): return .data(data)
        case .string(let text): return .string(text)
        default: return .string("")
        }
    }

    private static func width(_ value: Int) -> Int {
        value <= 0xFF ? 1 : value <= 0xFFFF ? 2 : value <= 0xFFFF_FFFF ? 4 : 8
    }

    private static func append(_ value: UInt64, width: Int, to output: inout [UInt8]) {
        for shift in stride(from: (width - 1) * 8, through: 0, by: -8) { output.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
    }

    private static func appendInteger(_ value: Int64, to output: inout [UInt8]) {
        if value >= 0, value <= 0xFF {
            output.append(0x10)
            append(UInt64(value), width: 1, to: &output)
        } else if value >= 0, value <= 0xFFFF {
            output.append(0x11)
            append(UInt64(value), width: 2, to: &output)
        } else if value >= 0, value <= 0xFFFF_FFFF {
            output.append(0x12)
            append(UInt64(value), width: 4, to: &output)
        } else {
            output.append(0x13)
            append(UInt64(bitPattern: value), width: 8, to: &output)
        }
    }

    private static func appendMarker(_ kind: UInt8, count: Int, to output: inout [UInt8]) {
        if count < 15 {
            output.append(kind << 4 | UInt8(count))
        } else {
            output.append(kind << 4 | 0x0F)
            appendInteger(Int64(count), to: &output)
        }
    }

    mutating func bytes() throws -> [UInt8] {
        _ = add(root)
        let referenceWidth = Self.width(objects.count - 1)
        var output = Array("bplist00".utf8)
        output.reserveCapacity(objects.count * 8)
        var offsets: [Int] = []
        offsets.reserveCapacity(objects.count)
        for object in objects {
            offsets.append(output.count)
            switch object {
            case .scalar(let value): try Self.appendScalar(value, to: &output)
            case .array(let references):
                Self.appendMarker(0xA, count: references.count, to: &output)
                for reference in references { Self.append(UInt64(reference), width: referenceWidth, to: &output) }
            case .dictionary(let keys, let values):
                Self.appendMarker(0xD, count: keys.count, to: &output)
                for reference in keys { Self.append(UInt64(reference), width: referenceWidth, to: &output) }
                for reference in values { Self.append(UInt64(reference), width: referenceWidth, to: &output) }
            }
        }
        let tableOffset = output.count
        let offsetWidth = Self.width(max(tableOffset, 1))
        for offset in offsets { Self.append(UInt64(offset), width: offsetWidth, to: &output) }
        output += [0, 0, 0, 0, 0, 0, UInt8(offsetWidth), UInt8(referenceWidth)]
        Self.append(UInt64(objects.count), width: 8, to: &output)
        Self.append(0, width: 8, to: &output)
        Self.append(UInt64(tableOffset), width: 8, to: &output)
        return output
    }

    private static func appendScalar(_ value: EncodedValue, to output: inout [UInt8]) throws {
        switch value {
        case .bool(let flag): output.append(flag ? 0x09 : 0x08)
        case .number(let number):
            switch number.storage {
            case .int(let integer): appendInteger(integer, to: &output)
            case .uint(let unsigned):
                output.append(0x14)
                append(0, width: 8, to: &output)
                append(unsigned, width: 8, to: &output)
            default:
                output.append(0x23)
                append(number.doubleValue.bitPattern, width: 8, to: &output)
            }
        case .date(let date):
            output.append(0x33)
            append(date.timeIntervalSinceReferenceDate.bitPattern, width: 8, to: &output)
        case .data(let data):
            appendMarker(0x4, count: data.count, to: &output)
            output += data
        case .string(let text):
            if text.utf8.allSatisfy({ $0 < 0x80 }) {
                appendMarker(0x5, count: text.utf8.count, to: &output)
                output += text.utf8
            } else {
                let units = Array(text.utf16)
                appendMarker(0x6, count: units.count, to: &output)
                for unit in units { append(UInt64(unit), width: 2, to: &output) }
            }
        default:
            throw CartographError(.encodingFailed, "a value with no property-list form reached the binary writer")
        }
    }
}

/// The XML format, in the layout Apple's tools write.
private struct XMLWriter {
    var output: [UInt8] = []

    mutating func document(_ value: EncodedValue) throws {
        output += Array("""
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">

            """.utf8)
        try write(value, depth: 0)
        output += Array("</plist>\n".utf8)
    }

    private mutating func indent(_ depth: Int) {
        output += repeatElement(UInt8(ascii: "\t"), count: depth)
    }

    private mutating func element(_ name: String, _ text: String, depth: Int) {
        indent(depth)
        output += Array("<\(name)>".utf8)
        escaped(text)
        output += Array("</\(name)>\n".utf8)
    }

    private mutating func escaped(_ text: String) {
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "&"): output += Array("&amp;".utf8)
            case UInt8(ascii: "<"): output += Array("&lt;".utf8)
            case UInt8(ascii: ">"): output += Array("&gt;".utf8)
            default: output.append(byte)
            }
        }
    }

    private mutating func write(_ value: EncodedValue, depth: Int) throws {
        switch value {
        case .bool(let flag):
            indent(depth)
            output += Array((flag ? "<true/>\n" : "<false/>\n").utf8)
        case .number(let number):
            switch number.storage {
            case .int, .uint: element("integer", number.text, depth: depth)
            default: element("real", number.text, depth: depth)
            }
        case .string(let text): element("string", text, depth: depth)
        case .date(let date): element("date", DateFormats.iso8601String(date, fractional: false), depth: depth)
        case .data(let data): element("data", data.base64EncodedString(), depth: depth)
        case .array(let elements):
            indent(depth)
            if elements.isEmpty {
                output += Array("<array/>\n".utf8)
                return
            }
            output += Array("<array>\n".utf8)
            for element in elements { try write(element, depth: depth + 1) }
            indent(depth)
            output += Array("</array>\n".utf8)
        case .object(let members):
            indent(depth)
            if members.isEmpty {
                output += Array("<dict/>\n".utf8)
                return
            }
            output += Array("<dict>\n".utf8)
            for (key, member) in members {
                element("key", key, depth: depth + 1)
                try write(member, depth: depth + 1)
            }
            indent(depth)
            output += Array("</dict>\n".utf8)
        default:
            throw CartographError(.encodingFailed, "a value with no property-list form reached the XML writer")
        }
    }
}
