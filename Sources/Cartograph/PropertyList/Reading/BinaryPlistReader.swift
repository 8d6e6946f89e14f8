import Foundation

/// Reads a binary property list (`bplist00`) straight into a ``Document``,
/// through the same ``DocumentBuilder`` JSON uses.
///
/// Why Cartograph has its own binary reader rather than only libplist's
/// (still available as ``PropertyListOptions/Reader/libplist``): libplist
/// 2.2 recurses without a depth limit, copies a shared object once per
/// reference, aborts on a key holding NUL and hands dates out as 32-bit
/// seconds, so every file had to be walked in full before libplist could be
/// trusted with it. Building the Document during that walk removes
/// libplist's node tree (an allocation per value and a copy per key) and the
/// second pass over it: the whole `Codable` decode of twitter's binary plist
/// went from 5.1 ms (check, libplist's parse, conversion, decode) to 2.4 ms
/// (the property lists article). Dates keep their full range.
///
/// Two passes, both iterative:
/// 1. ``measure()`` walks the containers once each: the trailer and offset
///    table are in range, every value reference points at an object, references
///    form no loop, and the values and bytes the file expands to (a shared
///    object is copied once per reference) stay within
///    ``PropertyListOptions/maxValues`` and the byte budget of
///    ``PropertyListOptions/maxExpansionFactor``.
/// 2. ``build()`` emits the values in document order; keys, scalar extents
///    and encodings are checked as they are read.
///
/// Every failure is a ``CartographError`` with the byte offset of the
/// object. The reader keeps the file as a `Span` (it is `~Escapable`), so
/// every byte it reads is bounds-checked.
struct BinaryPlistReader: ~Escapable {
    private let bytes: Span<UInt8>
    private let options: PropertyListOptions
    private let builder: DocumentBuilder
    private let rejectsNULInKeys: Bool

    private var offsetSize = 0
    private var referenceSize = 0
    private var objectCount = 0
    private var topObject = 0
    private var offsetTable = 0
    /// UTF-8 of a UTF-16 string (scratch).
    private var scratch: [UInt8] = []

    /// A container being emitted: where its next reference is and how many remain.
    private struct Frame {
        var next: Int
        var remaining: Int
        /// Bytes from a key reference to its value's reference (dicts), or 0 (arrays).
        var valueDistance: Int
    }

    /// Reads the whole plist. `rejectsNULInKeys` is for files about to be
    /// handed to libplist 2.2, which aborts (an assertion) on such keys.
    static func document(_ bytes: Span<UInt8>, options: PropertyListOptions, parse: ParseOptions, rejectsNULInKeys: Bool = false)
        throws -> Document
    {
        var reader = try BinaryPlistReader(bytes, options: options, parse: parse, rejectsNULInKeys: rejectsNULInKeys)
        try reader.measure()
        try reader.build()
        return reader.builder.makeDocument()
    }

    @_lifetime(copy bytes)
    private init(_ bytes: Span<UInt8>, options: PropertyListOptions, parse: ParseOptions, rejectsNULInKeys: Bool) throws {
        self.bytes = bytes
        self.options = options
        self.rejectsNULInKeys = rejectsNULInKeys
        builder = DocumentBuilder(options: parse, expectedInputBytes: bytes.count * 2)
        try readTrailer()
    }

    // MARK: Structure

    private func fail(_ message: String, at offset: Int?) -> CartographError {
        CartographError(.syntax, "invalid binary plist: \(message)", offset: offset)
    }

    /// A big-endian unsigned integer of `width` bytes (1 to 8) at `offset`; the caller checked the range.
    @inline(__always)
    private func unsigned(_ offset: Int, _ width: Int) -> UInt64 {
        bytes.bigEndianInteger(at: offset, width: width)
    }

    private mutating func readTrailer() throws {
        let count = bytes.count
        guard count >= 8 + 32 else { throw fail("too short for a header and a trailer", at: 0) }
        let trailer = count - 32
        offsetSize = Int(bytes[trailer + 6])
        referenceSize = Int(bytes[trailer + 7])
        guard (1...8).contains(offsetSize), (1...8).contains(referenceSize) else {
            throw fail("offset or reference size \(offsetSize)/\(referenceSize) is not 1 to 8 bytes", at: trailer + 6)
        }
        let objects = unsigned(trailer + 8, 8)
        let top = unsigned(trailer + 16, 8)
        let table = unsigned(trailer + 24, 8)
        guard objects > 0, objects <= UInt64(count), top < objects, table >= 8, table < UInt64(trailer),
            UInt64(trailer) - table >= objects * UInt64(offsetSize)
        else { throw fail("the trailer's object count, top object or offset table is out of range", at: trailer + 8) }
        // Foundation's and CoreFoundation's rule: the widths must hold the
        // object count and the offset table's start themselves, so a file
        // they refuse is refused here too (the drop-in coders agree with them).
        if referenceSize < 8, objects >= UInt64(1) << (8 * referenceSize) {
            throw fail("\(objects) objects do not fit \(referenceSize)-byte references", at: trailer + 7)
        }
        if offsetSize < 8, table >= UInt64(1) << (8 * offsetSize) {
            throw fail("an offset table at byte \(table) does not fit \(offsetSize)-byte offsets", at: trailer + 6)
        }
        objectCount = Int(objects)
        topObject = Int(top)
        offsetTable = Int(table)
    }

    /// The byte offset of object `index`.
    @inline(__always)
    private func offset(of index: Int) throws -> Int {
        let entry = offsetTable + index * offsetSize
        let value = unsigned(entry, offsetSize)
        guard value >= 8, value < UInt64(offsetTable) else { throw fail("object \(index) has an offset outside the object area", at: entry) }
        return Int(value)
    }

    /// The object a reference at `position` names.
    @inline(__always)
    private func reference(at position: Int) throws -> Int {
        let value = unsigned(position, referenceSize)
        guard value < UInt64(objectCount) else { throw fail("a reference names object \(value), which does not exist", at: position) }
        return Int(value)
    }

    /// The length of a sized object (the marker's low nibble, or the integer
    /// after it) and where its payload starts; `unit` bytes per element must fit.
    @inline(__always)
    private func sized(at offset: Int, unit: Int) throws -> (length: Int, start: Int) {
        var length = Int(bytes[offset] & 0x0F)
        var start = offset + 1
        if length == 0x0F {
            guard start < offsetTable else { throw fail("the object's length is cut off", at: offset) }
            let marker = bytes[start]
            let width = 1 << Int(marker & 0x0F)
            guard marker >> 4 == 0x1, marker & 0x0F <= 3, start + 1 + width <= offsetTable else {
                throw fail("the object has an invalid length", at: start)
            }
            let value = unsigned(start + 1, width)
            guard value <= UInt64(offsetTable) else { throw fail("the object claims \(value) elements, more than the file holds", at: offset) }
            length = Int(value)
            start += 1 + width
        }
        guard start + length * unit <= offsetTable else { throw fail("the object runs past the object area", at: offset) }
        return (length, start)
    }

    /// A container's references: where they start, how many elements, and the key-to-value distance.
    @inline(__always)
    private func container(at offset: Int) throws -> (start: Int, count: Int, valueDistance: Int)? {
        switch bytes[offset] >> 4 {
        case 0xA, 0xC:
            let (count, start) = try sized(at: offset, unit: referenceSize)
            return (start, count, 0)
        case 0xD:
            let (count, start) = try sized(at: offset, unit: 2 * referenceSize)
            return (start, count, count * referenceSize)
        default:
            return nil
        }
    }

    /// Pass 1: every reachable container once, depth first with an explicit
    /// stack; loops, and expansion beyond `maxValues` values or beyond the
    /// byte budget (``PropertyListOptions/maxExpansionFactor``), are rejected
    /// here, before anything is built.
    private mutating func measure() throws {
        // 0: not seen; 1: open (on the current path); 2: done.
        var state = [UInt8](repeating: 0, count: objectCount)
        // Values and bytes each finished object expands to (itself included;
        // a dict's keys count with it). Value totals never pass their limit,
        // which is kept below 2^32, so 4 bytes hold them.
        let limit = min(options.maxValues, Int(UInt32.max))
        let budget = min(
            Tape.maxDocumentBytes,
            max(options.minExpansionBudget, options.maxExpansionFactor.multipliedReportingOverflow(by: bytes.count).partialValue))
        var expanded = [UInt32](repeating: 1, count: objectCount)
        var expandedBytes = [Int](repeating: 0, count: objectCount)
        var stack: [(object: Int, offset: Int, next: Int, end: Int, total: Int, bytes: Int)] = []
        let rootOffset = try offset(of: topObject)
        guard let rootShape = try container(at: rootOffset) else { return }
        // Opening a container is a method, not a local function: a local
        // function that used the reader would copy it (a `~Escapable` value
        // is captured by copy) for every container.
        state[topObject] = 1
        stack.append(try opened(topObject, rootOffset, rootShape, budget: budget))
        while let last = stack.indices.last {
            if stack[last].next < stack[last].end {
                let position = stack[last].next
                stack[last].next += referenceSize
                let child = try reference(at: position)
                switch state[child] {
                case 0:
                    let childOffset = try offset(of: child)
                    if let shape = try container(at: childOffset) {
                        if stack.count >= options.maxDepth {
                            throw CartographError(
                                .depthLimitExceeded, "the plist nests deeper than maxDepth (\(options.maxDepth))", offset: childOffset)
                        }
                        state[child] = 1
                        stack.append(try opened(child, childOffset, shape, budget: budget))
                    } else {
                        state[child] = 2
                        expandedBytes[child] = try scalarBytes(of: child, offset: childOffset)
                        stack[last].total += 1
                        stack[last].bytes += expandedBytes[child]
                    }
                case 1:
                    throw fail("object references form a loop (object \(child) contains itself)", at: stack[last].offset)
                default:
                    stack[last].total += Int(expanded[child])
                    stack[last].bytes += expandedBytes[child]
                }
                if stack[last].total > limit { throw tooManyValues(at: stack[last].offset) }
                if stack[last].bytes > budget { throw tooManyBytes(budget, at: stack[last].offset) }
            } else {
                let done = stack.removeLast()
                expanded[done.object] = UInt32(done.total)
                expandedBytes[done.object] = done.bytes
                state[done.object] = 2
                if let parent = stack.indices.last {
                    stack[parent].total += done.total
                    stack[parent].bytes += done.bytes
                    if stack[parent].total > limit { throw tooManyValues(at: stack[parent].offset) }
                    if stack[parent].bytes > budget { throw tooManyBytes(budget, at: stack[parent].offset) }
                }
            }
        }
    }

    /// A container's entry on ``measure()``'s stack: the object, its
    /// offset, its first and end value references, and its cost so far
    /// (one value; its tape entry and, for a dict, its keys' bytes).
    private func opened(_ object: Int, _ offset: Int, _ shape: (start: Int, count: Int, valueDistance: Int), budget: Int) throws
        -> (object: Int, offset: Int, next: Int, end: Int, total: Int, bytes: Int)
    {
        let first = shape.start + shape.valueDistance
        return (object, offset, first, first + shape.count * referenceSize, 1, try containerBytes(shape, offset: offset, budget: budget))
    }

    /// What a container costs in a Document before its values: its entry,
    /// and a dict's keys. Only values nest: keys are strings, and pass 2
    /// checks their references as it reads them; their bytes count here.
    private func containerBytes(_ shape: (start: Int, count: Int, valueDistance: Int), offset: Int, budget: Int) throws -> Int {
        var cost = Self.entryBytes
        if shape.valueDistance > 0 {
            for position in stride(from: shape.start, to: shape.start + shape.count * referenceSize, by: referenceSize) {
                let key = try reference(at: position)
                cost += try scalarBytes(of: key, offset: try self.offset(of: key))
            }
            if cost > budget { throw tooManyBytes(budget, at: offset) }
        }
        return cost
    }

    /// What one value costs in a Document besides its text.
    private static let entryBytes = MemoryLayout<TapeEntry>.stride

    /// An upper bound of the bytes a scalar (or key) takes in the Document:
    /// its tape entry and its text. Nothing is checked beyond its extent;
    /// pass 2 reads and checks it.
    private func scalarBytes(of object: Int, offset at: Int) throws -> Int {
        let marker = bytes[at]
        switch marker >> 4 {
        case 0x1, 0x2, 0x8: return Self.entryBytes + 48 // integer or real text and its NUL
        case 0x3: return Self.entryBytes + 27 // 0001-01-01T00:00:00.000000Z
        case 0x4: return Self.entryBytes + (try sized(at: at, unit: 1).length + 2) / 3 * 4 // base64
        case 0x5: return Self.entryBytes + (try sized(at: at, unit: 1).length)
        case 0x6: return Self.entryBytes + (try sized(at: at, unit: 2).length) * 3 // UTF-16 unit to at most 3 UTF-8 bytes
        default: return Self.entryBytes
        }
    }

    private func tooManyBytes(_ budget: Int, at offset: Int) -> CartographError {
        CartographError(
            .inputTooLarge,
            "the plist expands through shared references to more than \(budget) bytes (maxExpansionFactor \(options.maxExpansionFactor) times its size)",
            offset: offset)
    }

    private func tooManyValues(at offset: Int) -> CartographError {
        CartographError(
            .inputTooLarge, "the plist expands to more than maxValues (\(options.maxValues)) values through shared references",
            offset: offset)
    }

    // MARK: Values

    /// Pass 2: the values in document order.
    private mutating func build() throws {
        var frames: [Frame] = []
        try emit(topObject, into: &frames)
        while let last = frames.indices.last {
            guard frames[last].remaining > 0 else {
                frames.removeLast()
                try accept(builder.end())
                continue
            }
            frames[last].remaining -= 1
            let position = frames[last].next
            frames[last].next += referenceSize
            let distance = frames[last].valueDistance
            if distance > 0 {
                try emitKey(try reference(at: position))
                try emit(try reference(at: position + distance), into: &frames)
            } else {
                try emit(try reference(at: position), into: &frames)
            }
        }
    }

    @inline(__always)
    private func accept(_ accepted: Bool) throws {
        try PlistScalars.accept(accepted, builder)
    }

    private mutating func emitKey(_ object: Int) throws {
        let at = try offset(of: object)
        guard bytes[at] >> 4 == 0x5 || bytes[at] >> 4 == 0x6 else {
            throw fail("object \(object) is a dictionary key that is not a string", at: at)
        }
        try withString(at: at) { [builder, rejectsNULInKeys] text in
            if rejectsNULInKeys, text.firstIndex(of: 0) != nil {
                return builder.fail(CartographError(.syntax, "a dictionary key holds a NUL character, which libplist cannot read", offset: at))
            }
            return builder.key(text, at: at)
        }
    }

    /// Hands the UTF-8 bytes of the string object at `at` to `body`: ASCII
    /// strings as they are in the file, UTF-16 ones converted into ``scratch``.
    private mutating func withString(at: Int, _ body: (Span<UInt8>) -> Bool) throws {
        if bytes[at] >> 4 == 0x5 {
            let (length, start) = try sized(at: at, unit: 1)
            try accept(body(bytes.extracting(start..<start + length)))
        } else {
            try utf16(at: at)
            try accept(body(scratch.span))
        }
    }

    /// One value: a scalar is appended, a container is opened and pushed.
    private mutating func emit(_ object: Int, into frames: inout [Frame]) throws {
        let at = try offset(of: object)
        let marker = bytes[at]
        switch marker >> 4 {
        case 0x0:
            switch marker {
            case 0x00: try accept(builder.literal(.null, at: at))
            case 0x08: try accept(builder.literal(.false, at: at))
            case 0x09: try accept(builder.literal(.true, at: at))
            default: throw fail("object \(object) has the unknown marker 0x\(String(marker, radix: 16))", at: at)
            }
        case 0x1:
            try emitInteger(at: at)
        case 0x2:
            let width = 1 << Int(marker & 0x0F)
            guard width == 4 || width == 8 else { throw fail("object \(object) is a real that is not 4 or 8 bytes", at: at) }
            guard at + 1 + width <= offsetTable else { throw fail("object \(object) runs past the object area", at: at) }
            let bits = unsigned(at + 1, width)
            let value = width == 4 ? Double(Float(bitPattern: UInt32(truncatingIfNeeded: bits))) : Double(bitPattern: bits)
            try PlistScalars.real(value, at: at, into: builder)
        case 0x3:
            guard marker == 0x33, at + 9 <= offsetTable else { throw fail("object \(object) is not an 8-byte date", at: at) }
            try PlistScalars.date(secondsSince2001: Double(bitPattern: unsigned(at + 1, 8)), at: at, into: builder)
        case 0x4:
            let (length, start) = try sized(at: at, unit: 1)
            try PlistScalars.data(bytes.extracting(start..<(start + length)), at: at, into: builder)
        case 0x5, 0x6:
            try withString(at: at) { [builder] text in builder.string(text, at: at) }
        case 0x8:
            let width = Int(marker & 0x0F) + 1
            guard at + 1 + width <= offsetTable else { throw fail("object \(object) runs past the object area", at: at) }
            try PlistScalars.uid(try wideUnsigned(at + 1, width, object: object), at: at, options: options, into: builder)
        case 0xA, 0xC, 0xD:
            guard let shape = try container(at: at) else { return }
            try accept(builder.begin(object: marker >> 4 == 0xD, at: at))
            frames.append(Frame(next: shape.start, remaining: shape.count, valueDistance: shape.valueDistance))
        default:
            throw fail("object \(object) has the unknown marker 0x\(String(marker, radix: 16))", at: at)
        }
    }

    /// An unsigned value of up to 16 bytes whose leading bytes beyond 8 are zero.
    private func wideUnsigned(_ position: Int, _ width: Int, object: Int) throws -> UInt64 {
        guard width > 8 else { return unsigned(position, width) }
        for index in position..<(position + width - 8) where bytes[index] != 0 {
            throw CartographError(.numberOutOfRange, "object \(object) is an integer wider than 64 bits", offset: position - 1)
        }
        return unsigned(position + width - 8, 8)
    }

    /// Integers: 1, 2 and 4 bytes are unsigned, 8 bytes signed, 16 bytes a
    /// signed 128-bit value that must fit in Int64 or UInt64.
    private func emitInteger(at: Int) throws {
        let exponent = Int(bytes[at] & 0x0F)
        guard exponent <= 4 else { throw fail("an integer wider than 16 bytes", at: at) }
        let width = 1 << exponent
        guard at + 1 + width <= offsetTable else { throw fail("the integer runs past the object area", at: at) }
        switch width {
        case 8:
            let value = Int64(bitPattern: unsigned(at + 1, 8))
            try PlistScalars.integer(magnitude: value.magnitude, negative: value < 0, at: at, into: builder)
        case 16:
            let high = unsigned(at + 1, 8)
            let low = unsigned(at + 9, 8)
            if high == 0 {
                try PlistScalars.integer(magnitude: low, negative: false, at: at, into: builder)
            } else if high == UInt64.max, low >> 63 == 1 {
                try PlistScalars.integer(magnitude: Int64(bitPattern: low).magnitude, negative: true, at: at, into: builder)
            } else {
                throw CartographError(.numberOutOfRange, "the plist holds an integer beyond 64 bits", offset: at)
            }
        default:
            try PlistScalars.integer(magnitude: unsigned(at + 1, width), negative: false, at: at, into: builder)
        }
    }

    /// Converts the UTF-16 (big-endian) string at `at` into ``scratch`` as UTF-8.
    private mutating func utf16(at: Int) throws {
        let (units, start) = try sized(at: at, unit: 2)
        scratch.removeAll(keepingCapacity: true)
        scratch.reserveCapacity(units * 3)
        var index = 0
        while index < units {
            let unit = UInt32(unsigned(start + index * 2, 2))
            index += 1
            switch unit {
            case 0..<0x80:
                scratch.append(UInt8(unit))
            case 0x80..<0x800:
                scratch.append(UInt8(0xC0 | unit >> 6))
                scratch.append(UInt8(0x80 | unit & 0x3F))
            case 0xD800..<0xDC00:
                let low = index < units ? UInt32(unsigned(start + index * 2, 2)) : 0
                guard (0xDC00..<0xE000).contains(low) else {
                    throw CartographError(.invalidUTF8, "a UTF-16 string holds an unpaired high surrogate", offset: start + (index - 1) * 2)
                }
                index += 1
                let scalar = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
                scratch.append(UInt8(0xF0 | scalar >> 18))
                scratch.append(UInt8(0x80 | scalar >> 12 & 0x3F))
                scratch.append(UInt8(0x80 | scalar >> 6 & 0x3F))
                scratch.append(UInt8(0x80 | scalar & 0x3F))
            case 0xDC00..<0xE000:
                throw CartographError(.invalidUTF8, "a UTF-16 string holds an unpaired low surrogate", offset: start + (index - 1) * 2)
            default:
                scratch.append(UInt8(0xE0 | unit >> 12))
                scratch.append(UInt8(0x80 | unit >> 6 & 0x3F))
                scratch.append(UInt8(0x80 | unit & 0x3F))
            }
        }
    }
}
