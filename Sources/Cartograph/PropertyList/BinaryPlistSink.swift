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
    /// Byte offset of each object (containers: filled in by ``finish()``).
    private var offsets: [Int] = []
    /// Each closed container's object number and where its references start in `references`.
    private var containers: [(object: Int, start: Int, count: Int, isDict: Bool)] = []
    /// Closed containers' members' object numbers; a dict's keys first, then its values.
    private var references: [Int] = []
    /// Open containers: object number, where their members start on `pending`.
    private var open: [(object: Int, start: Int, isDict: Bool)] = []
    /// Members of the open containers, in arrival order (a dict's key, value, key …).
    private var pending: [Int] = []
    private var root = -1
    private var table = ScalarTable()
    private var keyCache = KeyCache()
    /// The objects for `false` and `true`, once written.
    private var bools = (-1, -1)

    init(capacity: Int = 1 << 16) {
        output = Array("bplist00".utf8)
        output.reserveCapacity(capacity)
        offsets.reserveCapacity(capacity / 16)
        references.reserveCapacity(capacity / 8)
        pending.reserveCapacity(256)
        containers.reserveCapacity(capacity / 64)
    }

    // MARK: Objects

    /// Files an object under the open container (or as the root).
    @inline(__always)
    private mutating func place(_ object: Int) {
        if open.isEmpty {
            root = object
        } else {
            pending.append(object)
        }
    }

    /// The scalar just written from `start` to the end of the output: kept as
    /// a new object, or dropped for an equal one written before.
    @inline(__always)
    private mutating func finishScalar(from start: Int) -> Int {
        let length = output.count - start
        let object = output.withUnsafeBufferPointer { buffer in
            table.object(for: UnsafeRawPointer(buffer.baseAddress! + start), length: length, in: UnsafeRawPointer(buffer.baseAddress!),
                offsets: offsets, next: offsets.count)
        }
        if object < offsets.count {
            output.removeLast(length)
        } else {
            offsets.append(start)
        }
        return object
    }

    private mutating func begin(isDict: Bool) {
        let object = offsets.count
        offsets.append(0)
        place(object)
        open.append((object, pending.count, isDict))
    }

    /// Moves the container's members from `pending` to `references` (a
    /// dict's keys before its values).
    private mutating func end() {
        let container = open.removeLast()
        let count = pending.count - container.start
        let start = references.count
        references.append(contentsOf: repeatElement(0, count: count))
        pending.withUnsafeBufferPointer { members in
            references.withUnsafeMutableBufferPointer { target in
                if container.isDict {
                    let pairs = count / 2
                    for pair in 0..<pairs {
                        target[start + pair] = members[container.start + 2 * pair]
                        target[start + pairs + pair] = members[container.start + 2 * pair + 1]
                    }
                } else {
                    for position in 0..<count { target[start + position] = members[container.start + position] }
                }
            }
        }
        pending.removeLast(count)
        containers.append((container.object, start, container.isDict ? count / 2 : count, container.isDict))
    }

    mutating func beginArray() throws { begin(isDict: false) }
    mutating func endArray() throws { end() }
    mutating func beginDict() throws { begin(isDict: true) }
    mutating func endDict() throws { end() }

    mutating func key(_ key: String) throws {
        if let object = keyCache.object(for: key), holds(object, key) {
            pending.append(object)
            return
        }
        let start = output.count
        appendString(key)
        let object = finishScalar(from: start)
        keyCache.remember(key, object)
        pending.append(object)
    }

    /// Whether the object is the ASCII string `key` (a cache hit is a hint,
    /// confirmed here against the bytes written).
    private func holds(_ object: Int, _ key: String) -> Bool {
        let offset = offsets[object]
        let marker = output[offset]
        guard marker >> 4 == 0x5 else { return false }
        var length = Int(marker & 0x0F)
        var start = offset + 1
        if length == 0x0F {
            let width = 1 << Int(output[start] & 0x0F)
            length = 0
            for index in (start + 1)..<(start + 1 + width) { length = length << 8 | Int(output[index]) }
            start += 1 + width
        }
        guard key.utf8.count == length else { return false }
        return output.withUnsafeBufferPointer { buffer in
            key.utf8.withContiguousStorageIfAvailable { memcmp(buffer.baseAddress! + start, $0.baseAddress!, length) == 0 } ?? false
        }
    }

    // MARK: Scalars

    mutating func bool(_ value: Bool) throws {
        var object = value ? bools.1 : bools.0
        if object < 0 {
            object = offsets.count
            offsets.append(output.count)
            output.append(value ? 0x09 : 0x08)
            if value { bools.1 = object } else { bools.0 = object }
        }
        place(object)
    }

    mutating func integer(_ value: Int64) throws {
        let start = output.count
        appendInteger(value)
        place(finishScalar(from: start))
    }

    mutating func unsigned(_ value: UInt64) throws {
        let start = output.count
        output.append(0x14)
        append(0, width: 8)
        append(value, width: 8)
        place(finishScalar(from: start))
    }

    mutating func real(_ value: Double) throws {
        let start = output.count
        output.append(0x23)
        append(value.bitPattern, width: 8)
        place(finishScalar(from: start))
    }

    mutating func date(_ value: Date) throws {
        try PlistDate.checkWritable(value)
        let start = output.count
        output.append(0x33)
        append(value.timeIntervalSinceReferenceDate.bitPattern, width: 8)
        place(finishScalar(from: start))
    }

    mutating func data(_ value: Data) throws {
        let start = output.count
        appendMarker(0x4, count: value.count)
        output.append(contentsOf: value)
        place(finishScalar(from: start))
    }

    mutating func string(_ value: String) throws {
        let start = output.count
        appendString(value)
        place(finishScalar(from: start))
    }

    /// ASCII strings as bytes (marker 5), others as UTF-16 big-endian (marker 6).
    private mutating func appendString(_ text: String) {
        let done: Void? = text.utf8.withContiguousStorageIfAvailable { appendString(utf8: $0) }
        if done == nil { Array(text.utf8).withUnsafeBufferPointer { appendString(utf8: $0) } }
    }

    private mutating func appendString(utf8: UnsafeBufferPointer<UInt8>) {
        if Self.isASCII(utf8) {
            appendMarker(0x5, count: utf8.count)
            output.append(contentsOf: utf8)
        } else {
            appendUTF16(utf8)
        }
    }

    private static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var index = 0
        let count = bytes.count
        guard let raw = UnsafeRawPointer(bytes.baseAddress) else { return true }
        while index + 8 <= count {
            if raw.loadUnaligned(fromByteOffset: index, as: UInt64.self) & 0x8080_8080_8080_8080 != 0 { return false }
            index += 8
        }
        while index < count {
            if bytes[index] >= 0x80 { return false }
            index += 1
        }
        return true
    }

    /// UTF-8 (valid: it came from a String) to UTF-16 big-endian, written in place.
    private mutating func appendUTF16(_ utf8: UnsafeBufferPointer<UInt8>) {
        var units = 0
        for byte in utf8 where byte & 0xC0 != 0x80 { units += byte >= 0xF0 ? 2 : 1 }
        appendMarker(0x6, count: units)
        let start = output.count
        output.append(contentsOf: repeatElement(0, count: units * 2))
        output.withUnsafeMutableBufferPointer { buffer in
            var at = start
            var index = 0
            @inline(__always) func put(_ unit: UInt32) {
                buffer[at] = UInt8(truncatingIfNeeded: unit >> 8)
                buffer[at + 1] = UInt8(truncatingIfNeeded: unit)
                at += 2
            }
            while index < utf8.count {
                let lead = UInt32(utf8[index])
                switch lead {
                case 0..<0x80:
                    put(lead)
                    index += 1
                case 0xC0..<0xE0:
                    put((lead & 0x1F) << 6 | UInt32(utf8[index + 1] & 0x3F))
                    index += 2
                case 0xE0..<0xF0:
                    put((lead & 0x0F) << 12 | UInt32(utf8[index + 1] & 0x3F) << 6 | UInt32(utf8[index + 2] & 0x3F))
                    index += 3
                default:
                    let scalar = (lead & 0x07) << 18 | UInt32(utf8[index + 1] & 0x3F) << 12 | UInt32(utf8[index + 2] & 0x3F) << 6
                        | UInt32(utf8[index + 3] & 0x3F)
                    put(0xD800 | (scalar - 0x10000) >> 10)
                    put(0xDC00 | (scalar - 0x10000) & 0x3FF)
                    index += 4
                }
            }
        }
    }

    // MARK: Encoding

    private static func width(_ value: Int) -> Int {
        value <= 0xFF ? 1 : value <= 0xFFFF ? 2 : value <= 0xFFFF_FFFF ? 4 : 8
    }

    @inline(__always)
    private mutating func append(_ value: UInt64, width: Int) {
        switch width {
        case 1: output.append(UInt8(truncatingIfNeeded: value))
        case 2:
            output.append(UInt8(truncatingIfNeeded: value >> 8))
            output.append(UInt8(truncatingIfNeeded: value))
        default:
            withUnsafeBytes(of: value.bigEndian) { output.append(contentsOf: $0.suffix(width)) }
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
    /// into space reserved at once.
    mutating func finish() -> [UInt8] {
        let referenceWidth = Self.width(max(offsets.count - 1, 0))
        var size = 0
        for container in containers {
            size += (container.count < 15 ? 1 : 10) + (container.isDict ? 2 : 1) * container.count * referenceWidth
        }
        // An upper bound: a container's count takes at most 9 bytes after its marker.
        let tableOffset = output.count + size
        let offsetWidth = Self.width(max(tableOffset, 1))
        output.reserveCapacity(tableOffset + offsets.count * offsetWidth + 32)
        for container in containers {
            offsets[container.object] = output.count
            appendMarker(container.isDict ? 0xD : 0xA, count: container.count)
            let end = container.start + (container.isDict ? 2 * container.count : container.count)
            Self.appendBigEndian(references[container.start..<end], width: referenceWidth, to: &output)
        }
        let tableStart = output.count
        Self.appendBigEndian(offsets[...], width: offsetWidth, to: &output)
        output += [0, 0, 0, 0, 0, 0, UInt8(offsetWidth), UInt8(referenceWidth)]
        append(UInt64(offsets.count), width: 8)
        append(UInt64(root), width: 8)
        append(UInt64(tableStart), width: 8)
        return output
    }

    /// Integers of one width, big-endian, written in place: a store of the
    /// width each (a loop over each value's bytes was a twentieth of
    /// twitter.json's binary encode, callgrind).
    private static func appendBigEndian(_ values: ArraySlice<Int>, width: Int, to output: inout [UInt8]) {
        let start = output.count
        output.append(contentsOf: repeatElement(0, count: values.count * width))
        output.withUnsafeMutableBytes { buffer in
            let target = buffer.baseAddress! + start
            values.withUnsafeBufferPointer { values in
                switch width {
                case 1:
                    for (index, value) in values.enumerated() { target.storeBytes(of: UInt8(truncatingIfNeeded: value), toByteOffset: index, as: UInt8.self) }
                case 2:
                    for (index, value) in values.enumerated() {
                        target.storeBytes(of: UInt16(truncatingIfNeeded: value).bigEndian, toByteOffset: 2 * index, as: UInt16.self)
                    }
                case 4:
                    for (index, value) in values.enumerated() {
                        target.storeBytes(of: UInt32(truncatingIfNeeded: value).bigEndian, toByteOffset: 4 * index, as: UInt32.self)
                    }
                default:
                    for (index, value) in values.enumerated() {
                        target.storeBytes(of: UInt64(truncatingIfNeeded: value).bigEndian, toByteOffset: 8 * index, as: UInt64.self)
                    }
                }
            }
        }
    }
}

/// The object a key probably is, by the key's own bits: `Codable` keys are
/// the same few strings over and over, so most keys skip encoding and
/// hashing their bytes. Equal bits usually mean equal text (a small string's
/// bits are its bytes, a large one's point at its storage), but a string
/// freed during the write can leave its address to another with different
/// text, so a hit is only a hint: the sink compares the key with the bytes
/// of the object before using it (``BinaryPlistSink/holds(_:_:)``). A miss
/// goes through the byte table, which shares the object anyway.
private struct KeyCache {
    private var entries: [(low: UInt64, high: UInt64, object: Int)] = Array(repeating: (0, 0, -1), count: 256)
    private static let usable = MemoryLayout<String>.size == 16

    @inline(__always)
    private static func bits(_ key: String) -> (UInt64, UInt64) {
        unsafeBitCast(key, to: (UInt64, UInt64).self)
    }

    @inline(__always)
    private static func slot(_ bits: (UInt64, UInt64)) -> Int {
        Int(truncatingIfNeeded: ((bits.0 ^ bits.1 &* 0x9E37_79B9_7F4A_7C15) &* 0xBF58_476D_1CE4_E5B9) >> 56)
    }

    func object(for key: String) -> Int? {
        guard Self.usable else { return nil }
        let bits = Self.bits(key)
        let entry = entries[Self.slot(bits)]
        return entry.object >= 0 && entry.low == bits.0 && entry.high == bits.1 ? entry.object : nil
    }

    mutating func remember(_ key: String, _ object: Int) {
        guard Self.usable else { return }
        let bits = Self.bits(key)
        entries[Self.slot(bits)] = (bits.0, bits.1, object)
    }
}

/// Open addressing from the bytes of an encoded scalar to its object
/// number; equal hashes are confirmed by comparing the bytes in the output.
private struct ScalarTable {
    private var slots: [(hash: UInt64, object: Int, length: Int)]
    private var mask: Int
    private var used = 0
    private let seed = KeyHash.seed

    init() {
        slots = Array(repeating: (0, -1, 0), count: 4096)
        mask = 4095
    }

    /// The object already holding these bytes, or `next` (now recorded for them).
    mutating func object(for bytes: UnsafeRawPointer, length: Int, in output: UnsafeRawPointer, offsets: [Int], next: Int) -> Int {
        let hash = KeyHash.hash(bytes, count: length, seed: seed)
        var index = Int(truncatingIfNeeded: hash) & mask
        while slots[index].object >= 0 {
            let slot = slots[index]
            if slot.hash == hash, slot.length == length, memcmp(output + offsets[slot.object], bytes, length) == 0 { return slot.object }
            index = (index + 1) & mask
        }
        slots[index] = (hash, next, length)
        used += 1
        if used * 2 > slots.count { grow() }
        return next
    }

    private mutating func grow() {
        let old = slots
        slots = Array(repeating: (0, -1, 0), count: old.count * 2)
        mask = slots.count - 1
        for slot in old where slot.object >= 0 {
            var index = Int(truncatingIfNeeded: slot.hash) & mask
            while slots[index].object >= 0 { index = (index + 1) & mask }
            slots[index] = slot
        }
    }
}
