import Foundation

/// Writes the binary format (`bplist00`) as the walker goes, in one pass
/// over the value plus one over the containers.
///
/// Scalars are written the moment they arrive; an equal scalar written
/// before (same marker and bytes: keys above all) is shared instead, as
/// Foundation's writer does, found through a table keyed by a hash of the
/// encoded bytes (Swift's `String` hashing normalises Unicode and was most
/// of the old writer's time). Containers take their object number when they
/// open, gather their members' object numbers on a stack until they close,
/// and are written after the last scalar, once the object count fixes the
/// width of a reference.
/// Objects need not be in number order: the offset table maps each number to
/// its place.
struct BinaryPlistSink: PlistSink {
    private var output: [UInt8]
    /// The working arrays (object offsets, references, the tables), taken
    /// from ``BinaryPlistScratch``'s spares and handed back by ``finish()``.
    private var scratch: BinaryPlistScratch
    private var root = -1
    /// The objects for `false` and `true`, once written.
    private var bools = (-1, -1)

    init() {
        scratch = BinaryPlistScratch.take()
        output = scratch.output
        scratch.output = []
        output.append(contentsOf: "bplist00".utf8)
    }

    // MARK: Objects

    /// Files an object under the open container (or as the root).
    @inline(__always)
    private mutating func place(_ object: Int) {
        if scratch.open.isEmpty {
            root = object
        } else {
            scratch.pending.append(object)
        }
    }

    /// The scalar just written from `start` to the end of the output: kept as
    /// a new object, or dropped for an equal one written before.
    @inline(__always)
    private mutating func finishScalar(from start: Int) -> Int {
        let object = scratch.table.object(from: start, in: output, offsets: scratch.offsets, next: scratch.offsets.count)
        if object < scratch.offsets.count {
            output.removeLast(output.count - start)
        } else {
            scratch.offsets.append(start)
        }
        return object
    }

    private mutating func begin(isDict: Bool) {
        let object = scratch.offsets.count
        scratch.offsets.append(0)
        place(object)
        scratch.open.append((object, scratch.pending.count, isDict))
    }

    /// Moves the container's members from `pending` to `references` (a
    /// dict's keys before its values).
    private mutating func end() {
        let container = scratch.open.removeLast()
        let count = scratch.pending.count - container.start
        let start = scratch.references.count
        if container.isDict {
            scratch.references.reserveCapacity(start + count)
            let members = container.start..<container.start + count
            for position in stride(from: members.lowerBound, to: members.upperBound, by: 2) { scratch.references.append(scratch.pending[position]) }
            for position in stride(from: members.lowerBound + 1, to: members.upperBound, by: 2) {
                scratch.references.append(scratch.pending[position])
            }
        } else {
            scratch.references.append(contentsOf: scratch.pending[container.start...])
        }
        scratch.pending.removeLast(count)
        scratch.containers.append((container.object, start, container.isDict ? count / 2 : count, container.isDict))
    }

    mutating func beginArray() throws { begin(isDict: false) }
    mutating func endArray() throws { end() }
    mutating func beginDict() throws { begin(isDict: true) }
    mutating func endDict() throws { end() }

    mutating func key(_ key: String) throws {
        if let object = scratch.keyCache.object(for: key), holds(object, key) {
            scratch.pending.append(object)
            return
        }
        let start = output.count
        appendString(key)
        let object = finishScalar(from: start)
        scratch.keyCache.remember(key, object)
        scratch.pending.append(object)
    }

    /// Whether the object is the ASCII string `key` (a cache hit is a hint,
    /// confirmed here against the bytes written).
    private func holds(_ object: Int, _ key: String) -> Bool {
        let output = output.span
        let start = scratch.offsets[object]
        guard output[start] >> 4 == 0x5 else { return false }
        let (length, header) = ScalarTable.markedCount(at: start, in: output)
        guard key.utf8.count == length else { return false }
        var key = key
        return key.withUTF8Span { output.extracting(start + header..<start + header + length).elementsEqual($0) }
    }

    // MARK: Scalars

    mutating func bool(_ value: Bool) throws { place(boolObject(value)) }
    mutating func integer(_ value: Int64) throws { place(integerObject(value)) }
    mutating func unsigned(_ value: UInt64) throws { place(unsignedObject(value)) }
    mutating func real(_ value: Double) throws { place(realObject(value)) }
    mutating func date(_ value: Date) throws { place(try dateObject(value)) }
    mutating func data(_ value: Data) throws { place(dataObject(value)) }
    mutating func string(_ value: String) throws { place(stringObject(value)) }

    /// A scalar written before, by its object number (``EncodingNode/written(_:)``).
    mutating func written(_ object: Int) throws { place(object) }

    // Each scalar's object (shared with an equal one written before),
    // written but not yet filed under a container: the walker files it, or
    // the `Codable` encoder keeps its number to file it later.

    mutating func boolObject(_ value: Bool) -> Int {
        var object = value ? bools.1 : bools.0
        if object < 0 {
            object = scratch.offsets.count
            scratch.offsets.append(output.count)
            output.append(value ? 0x09 : 0x08)
            if value { bools.1 = object } else { bools.0 = object }
        }
        return object
    }

    mutating func integerObject(_ value: Int64) -> Int {
        let start = output.count
        appendInteger(value)
        return finishScalar(from: start)
    }

    mutating func unsignedObject(_ value: UInt64) -> Int {
        let start = output.count
        output.append(0x14)
        append(0, width: 8)
        append(value, width: 8)
        return finishScalar(from: start)
    }

    mutating func realObject(_ value: Double) -> Int {
        let start = output.count
        output.append(0x23)
        append(value.bitPattern, width: 8)
        return finishScalar(from: start)
    }

    mutating func dateObject(_ value: Date) throws -> Int {
        try PlistDate.checkWritable(value)
        let start = output.count
        output.append(0x33)
        append(value.timeIntervalSinceReferenceDate.bitPattern, width: 8)
        return finishScalar(from: start)
    }

    mutating func dataObject(_ value: Data) -> Int {
        let start = output.count
        appendMarker(0x4, count: value.count)
        output.append(contentsOf: value)
        return finishScalar(from: start)
    }

    mutating func stringObject(_ value: String) -> Int {
        let start = output.count
        appendString(value)
        return finishScalar(from: start)
    }

    /// ASCII strings as bytes (marker 5), others as UTF-16 big-endian (marker 6).
    private mutating func appendString(_ text: String) {
        var text = text
        text.withUTF8Span { appendString(utf8: $0) }
    }

    private mutating func appendString(utf8: Span<UInt8>) {
        if UTF8Validation.isASCII(utf8) {
            appendMarker(0x5, count: utf8.count)
            utf8.append(to: &output)
        } else {
            appendUTF16(utf8)
        }
    }

    /// UTF-8 (valid: it came from a String) to UTF-16 big-endian.
    private mutating func appendUTF16(_ utf8: Span<UInt8>) {
        var units = 0
        for position in utf8.indices where utf8[position] & 0xC0 != 0x80 { units += utf8[position] >= 0xF0 ? 2 : 1 }
        appendMarker(0x6, count: units)
        output.reserveCapacity(output.count + units * 2)
        var index = 0
        while index < utf8.count {
            let lead = UInt32(utf8[index])
            switch lead {
            case 0..<0x80:
                appendUnit(lead)
                index += 1
            case 0xC0..<0xE0:
                appendUnit((lead & 0x1F) << 6 | UInt32(utf8[index + 1] & 0x3F))
                index += 2
            case 0xE0..<0xF0:
                appendUnit((lead & 0x0F) << 12 | UInt32(utf8[index + 1] & 0x3F) << 6 | UInt32(utf8[index + 2] & 0x3F))
                index += 3
            default:
                let scalar =
                    (lead & 0x07) << 18 | UInt32(utf8[index + 1] & 0x3F) << 12 | UInt32(utf8[index + 2] & 0x3F) << 6
                    | UInt32(utf8[index + 3] & 0x3F)
                appendUnit(0xD800 | (scalar - 0x10000) >> 10)
                appendUnit(0xDC00 | (scalar - 0x10000) & 0x3FF)
                index += 4
            }
        }
    }

    @inline(__always)
    private mutating func appendUnit(_ unit: UInt32) {
        output.append(UInt8(truncatingIfNeeded: unit >> 8))
        output.append(UInt8(truncatingIfNeeded: unit))
    }

    // MARK: Encoding

    /// The bytes a trailer field needs so that `limit` itself fits: readers
    /// (Foundation's and CoreFoundation's) require the object *count* to be
    /// below `1 << (8 * referenceWidth)` and the offset table's start to be
    /// below `1 << (8 * offsetWidth)`, so a file of exactly 256 objects takes
    /// two-byte references though no reference is above 255.
    static func width(toHold limit: Int) -> Int {
        limit <= 0xFF ? 1 : limit <= 0xFFFF ? 2 : limit <= 0xFFFF_FFFF ? 4 : 8
    }

    @inline(__always)
    private mutating func append(_ value: UInt64, width: Int) {
        switch width {
        case 1: output.append(UInt8(truncatingIfNeeded: value))
        case 2:
            output.append(UInt8(truncatingIfNeeded: value >> 8))
            output.append(UInt8(truncatingIfNeeded: value))
        default:
            for shift in stride(from: 8 * (width - 1), through: 0, by: -8) { output.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
        }
    }

    /// Integers as Foundation writes them: non-negative ones in 1, 2 or 4
    /// bytes when they fit, everything else in 8 (signed).
    private mutating func appendInteger(_ value: Int64) {
        if value >= 0, value <= 0xFF {
            output.append(0x10)
            append(UInt64(value), width: 1)
        } else if value >= 0, value <= 0xFFFF {
            output.append(0x11)
            append(UInt64(value), width: 2)
        } else if value >= 0, value <= 0xFFFF_FFFF {
            output.append(0x12)
            append(UInt64(value), width: 4)
        } else {
            output.append(0x13)
            append(UInt64(bitPattern: value), width: 8)
        }
    }

    private mutating func appendMarker(_ kind: UInt8, count: Int) {
        if count < 15 {
            output.append(kind << 4 | UInt8(count))
        } else {
            output.append(kind << 4 | 0x0F)
            appendInteger(Int64(count))
        }
    }

    /// The containers, the offset table and the trailer, written in place
    /// into space reserved at once; the result is a copy of exactly its
    /// length, and the sink's working memory goes back to
    /// ``BinaryPlistScratch`` (the sink is done).
    mutating func finish() -> [UInt8] {
        let referenceWidth = Self.width(toHold: scratch.offsets.count)
        var size = 0
        for container in scratch.containers {
            size += (container.count < 15 ? 1 : 10) + (container.isDict ? 2 : 1) * container.count * referenceWidth
        }
        // An upper bound: a container's count takes at most 9 bytes after its marker.
        let tableOffset = output.count + size
        let offsetWidth = Self.width(toHold: tableOffset)
        output.reserveCapacity(tableOffset + scratch.offsets.count * offsetWidth + 32)
        for container in scratch.containers {
            scratch.offsets[container.object] = output.count
            appendMarker(container.isDict ? 0xD : 0xA, count: container.count)
            let end = container.start + (container.isDict ? 2 * container.count : container.count)
            Self.appendBigEndian(scratch.references[container.start..<end], width: referenceWidth, to: &output)
        }
        let tableStart = output.count
        Self.appendBigEndian(scratch.offsets[...], width: offsetWidth, to: &output)
        output += [0, 0, 0, 0, 0, 0, UInt8(offsetWidth), UInt8(referenceWidth)]
        append(UInt64(scratch.offsets.count), width: 8)
        append(UInt64(root), width: 8)
        append(UInt64(tableStart), width: 8)
        // A copy of exactly its length (an array made from a slice gets its own storage).
        let result = Array(output[...])
        // The working memory goes back for the next write, held by nothing here.
        scratch.output = output
        output = []
        var spent = BinaryPlistScratch.none
        swap(&spent, &scratch)
        BinaryPlistScratch.recycle(spent)
        return result
    }

    /// Integers of one width, big-endian, written in place: a store of the
    /// width each, not a loop over each value's bytes.
    private static func appendBigEndian(_ values: ArraySlice<Int>, width: Int, to output: inout [UInt8]) {
        var at = output.count
        output.append(contentsOf: repeatElement(0, count: values.count * width))
        var target = output.mutableSpan
        for value in values {
            target.storeBigEndian(value, width: width, at: at)
            at += width
        }
    }
}
