import Foundation
import Testing

@testable import Cartograph

/// Every width and length a binary plist writer chooses — reference and
/// offset sizes in the trailer, integer widths, length markers — checked at
/// each boundary against Foundation's reader, through every writer path.
///
/// Foundation (and CoreFoundation) require the object *count* to fit a
/// reference and the offset table's *start* to fit an offset: a file of
/// exactly 256 objects with one-byte references is corrupt to them, though
/// every reference in it is at most 255.
@Suite struct BinaryPlistWidthTests {
    /// One way of turning a value into binary plist bytes.
    struct WriterPath: CustomStringConvertible, Sendable {
        let description: String
        let write: @Sendable (JSONValue) throws -> [UInt8]
    }

    static let writerPaths: [WriterPath] = [
        WriterPath(description: "Codable through PropertyListMapper") { value in
            try PropertyListMapper().encode(PlistValue(value), format: .binary)
        },
        WriterPath(description: "JSONValue through PropertyListMapper") { value in
            try PropertyListMapper().encode(value, format: .binary)
        },
        WriterPath(description: "Document through PropertyListMapper") { value in
            try PropertyListMapper().encode(Document(parsing: value.encoded()), format: .binary)
        },
        WriterPath(description: "CartographPropertyListEncoder") { value in
            let encoder = CartographPropertyListEncoder()
            encoder.outputFormat = .binary
            return try [UInt8](encoder.encode(PlistValue(value)))
        },
        WriterPath(description: "libplist writer") { value in
            try PropertyListMapper(options: .init { $0.writer = .libplist }).encode(value, format: .binary)
        }
    ]

    /// A JSON value encoded through `Codable`, so the Codable encoder's
    /// write-ahead path is among the writers.
    struct PlistValue: Encodable {
        let value: JSONValue
        init(_ value: JSONValue) { self.value = value }
        func encode(to encoder: any Encoder) throws { try value.encode(to: encoder) }
    }

    /// Reads `bytes` with Foundation (both of its entry points) and with
    /// Cartograph, and checks all three see `expected`.
    static func expectReadable(_ bytes: [UInt8], as expected: JSONValue, _ label: String) throws {
        let data = Data(bytes)
        let serialized: Any
        do {
            serialized = try PropertyListSerialization.propertyList(from: data, format: nil)
        } catch {
            Issue.record("Foundation refused \(label): \(error)")
            return
        }
        #expect(try JSONValue(any: serialized) == expected, "\(label)")
        #expect(throws: Never.self, "PropertyListDecoder, \(label)") {
            _ = try PropertyListDecoder().decode(JSONValue.self, from: data)
        }
        let ours = try PropertyListMapper().decode(JSONValue.self, from: bytes)
        #expect(ours == expected, "\(label)")
    }

    /// N objects in all: an array holding N - 1 distinct integers.
    static func array(ofObjects objects: Int) -> JSONValue {
        .array((0..<(objects - 1)).map { .number(JSONNumber(Int64($0) * 7 + 1_000_000)) })
    }

    @Test(arguments: [255, 256, 257, 65_535, 65_536, 65_537])
    func objectCountsAtReferenceWidthBoundaries(objects: Int) throws {
        let value = Self.array(ofObjects: objects)
        for path in Self.writerPaths {
            let bytes = try path.write(value)
            let trailer = bytes.count - 32
            let count = bytes[(trailer + 8)..<(trailer + 16)].reduce(0) { $0 << 8 | Int($1) }
            #expect(count == objects, "\(path)")
            let referenceSize = Int(bytes[trailer + 7])
            #expect(objects < 1 << (8 * referenceSize), "\(path): \(objects) objects with \(referenceSize)-byte references")
            try Self.expectReadable(bytes, as: value, "\(objects) objects, \(path)")
        }
    }

    /// A lone string whose length moves the offset table's start across 256
    /// and 65,536, one byte at a time.
    @Test(arguments: [Array(232...262), Array(65_505...65_535)])
    func offsetTableStartsAtOffsetWidthBoundaries(lengths: [Int]) throws {
        for length in lengths {
            let value = JSONValue.array([.string(String(repeating: "o", count: length))])
            for path in Self.writerPaths {
                let bytes = try path.write(value)
                let trailer = bytes.count - 32
                let table = bytes[(trailer + 24)..<(trailer + 32)].reduce(0) { $0 << 8 | Int($1) }
                let offsetSize = Int(bytes[trailer + 6])
                #expect(table < 1 << (8 * offsetSize), "\(path): table at \(table) with \(offsetSize)-byte offsets")
                try Self.expectReadable(bytes, as: value, "string of \(length), \(path)")
            }
        }
    }

    /// Length markers (inline below 15, an integer after from 15), integer
    /// widths and UTF-16 lengths at their boundaries.
    @Test func lengthsAndIntegersAtTheirBoundaries() throws {
        var members: [(String, JSONValue)] = []
        for length in [0, 1, 14, 15, 16, 255, 256, 65_535, 65_536] {
            members.append(("ascii \(length)", .string(String(repeating: "a", count: length))))
            members.append(("utf16 \(length)", .string(String(repeating: "é", count: length))))
            members.append(("astral \(length)", .string(String(repeating: "𝄞", count: length / 2))))
        }
        for count in [0, 1, 14, 15, 16, 255, 256] {
            members.append(("array \(count)", .array((0..<count).map { .number(JSONNumber(Int64($0))) })))
            let object = JSONObject((0..<count).map { ("k\($0)", JSONValue.number(JSONNumber(Int64($0)))) })
            members.append(("dict \(count)", .object(object)))
        }
        let integers: [Int64] = [0, 1, 127, 128, 255, 256, 65_535, 65_536, 4_294_967_295, 4_294_967_296, .max, -1, -255, -256, .min]
        members.append(("integers", .array(integers.map { .number(JSONNumber($0)) })))
        let value = JSONValue.object(JSONObject(members))
        for path in Self.writerPaths {
            try Self.expectReadable(path.write(value), as: value, "lengths, \(path)")
        }
    }

    /// Data lengths at the same boundaries, through `Codable` (the only
    /// writers that take `Data`).
    @Test func dataLengthsAtTheirBoundaries() throws {
        let blobs = [0, 1, 14, 15, 16, 255, 256, 65_535, 65_536].map { Data((0..<$0).map { UInt8(truncatingIfNeeded: $0) }) }
        let ours = try PropertyListMapper().encode(blobs, format: .binary)
        #expect(try PropertyListDecoder().decode([Data].self, from: Data(ours)) == blobs)
        let encoder = CartographPropertyListEncoder()
        encoder.outputFormat = .binary
        #expect(try PropertyListDecoder().decode([Data].self, from: encoder.encode(blobs)) == blobs)
    }

    /// The 2^32 boundary cannot be reached with a test's memory: the width
    /// rule itself, at every boundary.
    @Test func widthsHoldTheirLimitItself() {
        let cases: [(Int, Int)] = [(0, 1), (255, 1), (256, 2), (65_535, 2), (65_536, 4), (0xFFFF_FFFF, 4), (0x1_0000_0000, 8), (.max, 8)]
        for (limit, width) in cases {
            #expect(BinaryPlistSink.width(toHold: limit) == width, "\(limit)")
        }
    }

    /// A file with 256 objects and one-byte references, as the writer made
    /// before the fix: Foundation refuses it, and so does Cartograph's
    /// reader now, so the two agree on what a valid file is.
    @Test func aReferenceWidthThatCannotHoldTheCountIsRefusedAsFoundationRefusesIt() throws {
        for (objects, referenceSize, valid) in [(255, 1, true), (256, 1, false), (256, 2, true)] {
            let bytes = Self.handWritten(objects: objects, referenceSize: referenceSize)
            let foundation = (try? PropertyListSerialization.propertyList(from: Data(bytes), format: nil)) != nil
            #expect(foundation == valid, "Foundation, \(objects) objects, \(referenceSize)-byte references")
            let cartograph = (try? PropertyListMapper().document(from: bytes)) != nil
            #expect(cartograph == valid, "Cartograph, \(objects) objects, \(referenceSize)-byte references")
        }
    }

    /// An array of `objects - 1` one-byte integers, written by hand with the
    /// given reference size and two-byte offsets.
    static func handWritten(objects: Int, referenceSize: Int) -> [UInt8] {
        var bytes = Array("bplist00".utf8)
        var offsets: [Int] = []
        for index in 0..<(objects - 1) {
            offsets.append(bytes.count)
            bytes += [0x10, UInt8(truncatingIfNeeded: index)]
        }
        let root = offsets.count
        offsets.append(bytes.count)
        bytes += [0xAF, 0x11, UInt8((objects - 1) >> 8), UInt8((objects - 1) & 0xFF)]
        for index in 0..<(objects - 1) {
            for shift in stride(from: 8 * (referenceSize - 1), through: 0, by: -8) { bytes.append(UInt8((index >> shift) & 0xFF)) }
        }
        let table = bytes.count
        for offset in offsets { bytes += [UInt8(offset >> 8), UInt8(offset & 0xFF)] }
        bytes += [0, 0, 0, 0, 0, 0, 2, UInt8(referenceSize)]
        for field in [objects, root, table] {
            for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8((field >> shift) & 0xFF)) }
        }
        return bytes
    }
}

extension CLITests {
    /// `cartograph convert --to binary` of an array that makes exactly 256
    /// objects: Foundation reads the file.
    @Test func convertWritesBinaryPlistsFoundationReadsAtTheReferenceBoundary() throws {
        let json = "[" + (0..<255).map { String($0 * 7 + 1_000_000) }.joined(separator: ",") + "]"
        let input = try scratch.file(json)
        let output = input + ".plist"
        #expect(try Self.run(["convert", input, "--to", "binary", "-o", output]).status == 0)
        let read = try PropertyListSerialization.propertyList(from: Data(contentsOf: URL(fileURLWithPath: output)), format: nil)
        #expect((read as? [Int])?.count == 255)
    }
}
