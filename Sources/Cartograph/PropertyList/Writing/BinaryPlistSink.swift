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
        let length = output.count - start
        let object = unsafe output.withUnsafeBufferPointer { buffer in
            unsafe scratch.table.object(
                for: UnsafeRawPointer(buffer.baseAddress! + start), length: length, in: UnsafeRawPointer(buffer.baseAddress!),
                offsets: scratch.offsets, next: scratch.offsets.count)
        }
        if object < scratch.offsets.count {
            output.removeLast(length)
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
        scratch.references.append(contentsOf: repeatElement(0, count: count))
        unsafe scratch.pending.withUnsafeBufferPointer { members in
            unsafe scratch.references.withUnsafeMutableBufferPointer { target in
                if container.isDict {
                    let pairs = count / 2
                    for pair in 0..<pairs {
                        unsafe target[start + pair] = unsafe members[container.start + 2 * pair]
                        unsafe target[start + pairs + pair] = unsafe members[container.start + 2 * pair + 1]
                    }
                } else {
                    for position in 0..<count { unsafe target[start + position] = unsafe members[container.start + position] }
                }
            }
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
        unsafe output.withUnsafeBytes { buffer in
            let start = unsafe buffer.baseAddress! + scratch.offsets[object]
            guard unsafe start.load(as: UInt8.self) >> 4 == 0x5 else { return false }
            let (length, header) = unsafe ScalarTable.markedCount(at: start)
            guard key.utf8.count == length else { return false }
            return unsafe key.utf8.withContiguousStorageIfAvailable { unsafe memcmp(start + header, $0.baseAddress!, length) == 0 } ?? false
        }
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
        let done: Void? = unsafe text.utf8.withContiguousStorageIfAvailable { unsafe appendString(utf8: $0) }
        if done == nil { unsafe Array(text.utf8).withUnsafeBufferPointer { unsafe appendString(utf8: $0) } }
    }

    private mutating func appendString(utf8: UnsafeBufferPointer<UInt8>) {
        if unsafe Self.isASCII(utf8) {
            appendMarker(0x5, count: utf8.count)
            unsafe output.append(contentsOf: utf8)
        } else {
            unsafe appendUTF16(utf8)
        }
    }

    private static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var index = 0
        let count = bytes.count
        guard let raw = unsafe UnsafeRawPointer(bytes.baseAddress) else { return true }
        while index + 8 <= count {
            if unsafe raw.loadUnaligned(fromByteOffset: index, as: UInt64.self) & 0x8080_8080_8080_8080 != 0 { return false }
            index += 8
        }
        while index < count {
            if unsafe bytes[index] >= 0x80 { return false }
            index += 1
        }
        return true
    }

    /// UTF-8 (valid: it came from a String) to UTF-16 big-endian, written in place.
    private mutating func appendUTF16(_ utf8: UnsafeBufferPointer<UInt8>) {
        var units = 0
        for position in 0..<utf8.count where unsafe utf8[position] & 0xC0 != 0x80 { units += unsafe utf8[position] >= 0xF0 ? 2 : 1 }
        appendMarker(0x6, count: units)
        let start = output.count
        output.append(contentsOf: repeatElement(0, count: units * 2))
        unsafe output.withUnsafeMutableBufferPointer { buffer in
            var at = start
            var index = 0
            @inline(__always) func put(_ unit: UInt32) {
                unsafe buffer[at] = UInt8(truncatingIfNeeded: unit >> 8)
                unsafe buffer[at + 1] = UInt8(truncatingIfNeeded: unit)
                at += 2
            }
            while index < utf8.count {
                let lead = unsafe UInt32(utf8[index])
                switch lead {
                case 0..<0x80:
                    put(lead)
                    index += 1
                case 0xC0..<0xE0:
                    unsafe put((lead & 0x1F) << 6 | UInt32(utf8[index + 1] & 0x3F))
                    index += 2
                case 0xE0..<0xF0:
                    unsafe put((lead & 0x0F) << 12 | UInt32(utf8[index + 1] & 0x3F) << 6 | UInt32(utf8[index + 2] & 0x3F))
                    index += 3
                default:
                    let scalar =
                        unsafe (lead & 0x07) << 18 | UInt32(utf8[index + 1] & 0x3F) << 12 | UInt32(utf8[index + 2] & 0x3F) << 6
                        | UInt32(utf8[index + 3] & 0x3F)
                    put(0xD800 | (scalar - 0x10000) >> 10)
                    put(0xDC00 | (scalar - 0x10000) & 0x3FF)
                    index += 4
                }
            }
        }
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
            unsafe withUnsafeBytes(of: value.bigEndian) { unsafe output.append(contentsOf: $0.suffix(width)) }
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
        let result = unsafe [UInt8](unsafeUninitializedCapacity: output.count) { buffer, count in
            count = unsafe output.withUnsafeBufferPointer { output in unsafe buffer.initialize(fromContentsOf: output) }
        }
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
        let start = output.count
        output.append(contentsOf: repeatElement(0, count: values.count * width))
        unsafe output.withUnsafeMutableBytes { buffer in
            let target = unsafe buffer.baseAddress! + start
            unsafe values.withUnsafeBufferPointer { values in
                switch width {
                case 1:
                    for index in 0..<values.count {
                        let value = unsafe values[index]
                        unsafe target.storeBytes(of: UInt8(truncatingIfNeeded: value), toByteOffset: index, as: UInt8.self)
                    }
                case 2:
                    for index in 0..<values.count {
                        let value = unsafe values[index]
                        unsafe target.storeBytes(of: UInt16(truncatingIfNeeded: value).bigEndian, toByteOffset: 2 * index, as: UInt16.self)
                    }
                case 4:
                    for index in 0..<values.count {
                        let value = unsafe values[index]
                        unsafe target.storeBytes(of: UInt32(truncatingIfNeeded: value).bigEndian, toByteOffset: 4 * index, as: UInt32.self)
                    }
                default:
                    for index in 0..<values.count {
                        let value = unsafe values[index]
                        unsafe target.storeBytes(of: UInt64(truncatingIfNeeded: value).bigEndian, toByteOffset: 8 * index, as: UInt64.self)
                    }
                }
            }
        }
    }
}
