/// Checks a binary plist's structure before libplist parses it: the
/// trailer and offset table are in range, every object reference points at
/// an object, references form no loop, nesting stays within the depth
/// limit, and the number of values the file expands to (libplist copies an
/// object once per reference) stays within the value limit.
///
/// libplist 2.2 recurses without a depth limit, so a deeply nested file
/// would overflow the C stack inside it; this walk is iterative.
struct BinaryPlistCheck {
    let bytes: UnsafeRawBufferPointer
    let options: PropertyListOptions

    private var offsetSize = 0
    private var referenceSize = 0
    private var objectCount = 0
    private var topObject = 0
    private var offsetTable = 0
    /// Keys already checked (keys are shared objects, met once per dictionary using them).
    private var checkedKeys: [Bool] = []

    init(_ bytes: UnsafeRawBufferPointer, options: PropertyListOptions) {
        self.bytes = bytes
        self.options = options
    }

    private func fail(_ message: String, at offset: Int? = nil) -> CartographError {
        CartographError(.syntax, "invalid binary plist: \(message)", offset: offset)
    }

    private func bigEndian(_ offset: Int, _ size: Int) -> UInt64? {
        guard size >= 1, size <= 8, offset >= 0, offset + size <= bytes.count else { return nil }
        var value: UInt64 = 0
        for index in offset..<(offset + size) { value = value << 8 | UInt64(bytes[index]) }
        return value
    }

    mutating func run() throws {
        let count = bytes.count
        guard count >= 8 + 32 else { throw fail("too short for a header and a trailer") }
        let trailer = count - 32
        offsetSize = Int(bytes[trailer + 6])
        referenceSize = Int(bytes[trailer + 7])
        guard (1...8).contains(offsetSize), (1...8).contains(referenceSize) else {
            throw fail("offset or reference size \(offsetSize)/\(referenceSize) is not 1 to 8 bytes", at: trailer + 6)
        }
        guard let objects = bigEndian(trailer + 8, 8), let top = bigEndian(trailer + 16, 8), let table = bigEndian(trailer + 24, 8),
            objects > 0, objects <= UInt64(count), top < objects, table >= 8, table < UInt64(trailer),
            UInt64(trailer) - table >= objects * UInt64(offsetSize)
        else { throw fail("the trailer's object count, top object or offset table is out of range", at: trailer + 8) }
        objectCount = Int(objects)
        topObject = Int(top)
        offsetTable = Int(table)
        checkedKeys = [Bool](repeating: false, count: objectCount)
        try walk()
    }

    /// The offset of object `index`.
    private func offset(of index: Int) throws -> Int {
        guard let value = bigEndian(offsetTable + index * offsetSize, offsetSize), value >= 8, value < UInt64(offsetTable) else {
            throw fail("object \(index) has an offset outside the object area", at: offsetTable + index * offsetSize)
        }
        return Int(value)
    }

    /// Checks that a scalar object's bytes lie inside the object area.
    private func checkScalar(at offset: Int, index: Int) throws {
        let marker = bytes[offset]
        let low = Int(marker & 0x0F)
        var size: Int
        switch marker >> 4 {
        case 0x0:
            guard [0x00, 0x08, 0x09, 0x0F].contains(marker) else { throw fail("object \(index) has an unknown marker", at: offset) }
            size = 0
        case 0x1:
            guard low <= 4 else { throw fail("object \(index) is an integer wider than 16 bytes", at: offset) }
            size = 1 << low
        case 0x2:
            guard low == 2 || low == 3 else { throw fail("object \(index) is a real that is not 4 or 8 bytes", at: offset) }
            size = 1 << low
        case 0x3:
            guard marker == 0x33 else { throw fail("object \(index) has an unknown marker", at: offset) }
            size = 8
        case 0x4, 0x5, 0x6:
            var count = low
            var position = offset + 1
            if count == 0x0F {
                guard position < offsetTable else { throw fail("object \(index) is cut off", at: offset) }
                let sizeMarker = bytes[position]
                guard sizeMarker >> 4 == 0x1, sizeMarker & 0x0F <= 3, let value = bigEndian(position + 1, 1 << Int(sizeMarker & 0x0F)),
                    value <= UInt64(bytes.count)
                else { throw fail("object \(index) has an invalid length", at: position) }
                count = Int(value)
                position += 1 + (1 << Int(sizeMarker & 0x0F))
            }
            size = (marker >> 4 == 0x6 ? count * 2 : count) + (position - offset - 1)
        case 0x8:
            size = low + 1
        default:
            throw fail("object \(index) has an unknown marker 0x\(String(marker, radix: 16))", at: offset)
        }
        guard offset + 1 + size <= offsetTable else { throw fail("object \(index) runs past the object area", at: offset) }
    }

    /// The references of the container object at `offset` (empty for scalars).
    private mutating func references(at offset: Int, index: Int) throws -> [Int] {
        let marker = bytes[offset]
        let kind = marker >> 4
        guard kind == 0xA || kind == 0xC || kind == 0xD else {
            try checkScalar(at: offset, index: index)
            return []
        }
        var count = Int(marker & 0x0F)
        var position = offset + 1
        if count == 0x0F {
            guard position < offsetTable else { throw fail("object \(index) is cut off", at: offset) }
            let sizeMarker = bytes[position]
            guard sizeMarker >> 4 == 0x1, sizeMarker & 0x0F <= 3,
                let value = bigEndian(position + 1, 1 << Int(sizeMarker & 0x0F)), value <= UInt64(bytes.count)
            else { throw fail("object \(index) has an invalid element count", at: position) }
            // Not bounded by the number of objects: writers (Cartograph's,
            // Foundation's) share equal values, so an array may hold more
            // references than the file has objects. The byte count bounds it
            // here (against overflow below); the references must fit too.
            count = Int(value)
            position += 1 + (1 << Int(sizeMarker & 0x0F))
        }
        let referenceCount = kind == 0xD ? count * 2 : count
        guard position + referenceCount * referenceSize <= offsetTable else {
            throw fail("object \(index) lists more references than the file holds", at: offset)
        }
        var result: [Int] = []
        result.reserveCapacity(referenceCount)
        for ordinal in 0..<referenceCount {
            guard let reference = bigEndian(position + ordinal * referenceSize, referenceSize), reference < UInt64(objectCount) else {
                throw fail("object \(index) refers to an object that does not exist", at: position + ordinal * referenceSize)
            }
            result.append(Int(reference))
        }
        if kind == 0xD {
            for key in result.prefix(count) where !checkedKeys[key] {
                try checkKey(key)
                checkedKeys[key] = true
            }
        }
        return result
    }

    /// libplist 2.2 aborts (an assertion) on a dictionary key holding NUL:
    /// such keys are rejected here.
    private func checkKey(_ index: Int) throws {
        let offset = try offset(of: index)
        try checkScalar(at: offset, index: index)
        let marker = bytes[offset]
        guard marker >> 4 == 0x5 || marker >> 4 == 0x6 else {
            throw fail("object \(index) is a dictionary key that is not a string", at: offset)
        }
        var count = Int(marker & 0x0F)
        var position = offset + 1
        if count == 0x0F {
            let width = 1 << Int(bytes[position] & 0x0F)
            count = Int(bigEndian(position + 1, width) ?? 0)
            position += 1 + width
        }
        let unit = marker >> 4 == 0x6 ? 2 : 1
        for character in 0..<count {
            var zero = true
            for byte in 0..<unit where bytes[position + character * unit + byte] != 0 { zero = false }
            if zero { throw fail("a dictionary key holds a NUL character, which libplist cannot read", at: position + character * unit) }
        }
    }

    /// Depth-first over the object graph with an explicit stack.
    private mutating func walk() throws {
        // 0: not seen; 1: on the current path; 2: done (its expanded size is known).
        var state = [UInt8](repeating: 0, count: objectCount)
        var expanded = [Int](repeating: 0, count: objectCount)
        var stack: [(index: Int, children: [Int], next: Int, offset: Int)] = []
        func push(_ index: Int) throws {
            let offset = try offset(of: index)
            let children = try references(at: offset, index: index)
            if !children.isEmpty, stack.count >= options.maxDepth {
                throw CartographError(.depthLimitExceeded, "the plist nests deeper than maxDepth (\(options.maxDepth))", offset: offset)
            }
            state[index] = 1
            stack.append((index, children, 0, offset))
        }
        try push(topObject)
        while !stack.isEmpty {
            let top = stack.count - 1
            if stack[top].next < stack[top].children.count {
                let child = stack[top].children[stack[top].next]
                stack[top].next += 1
                switch state[child] {
                case 0: try push(child)
                case 1: throw fail("object references form a loop (object \(child) contains itself)", at: stack[top].offset)
                default: continue
                }
            } else {
                let done = stack.removeLast()
                var total = 1
                for child in done.children {
                    total += expanded[child]
                    if total > options.maxValues {
                        throw CartographError(.inputTooLarge,
                            "the plist expands to more than maxValues (\(options.maxValues)) values through shared references", offset: done.offset)
                    }
                }
                expanded[done.index] = total
                state[done.index] = 2
            }
        }
    }
}
