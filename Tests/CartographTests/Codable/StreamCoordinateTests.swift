import Foundation
import Testing

@testable import Cartograph

/// GeoJSON's coordinate shapes (`[[Double]]`, `[[[Double]]]`), which the
/// streaming encoder writes itself rather than through `Array.encode(to:)`:
/// the same bytes, errors and depth limits as the tree encoder, which
/// still goes through `encode(to:)`, and Foundation's bytes.
@Suite struct StreamCoordinateTests {
    struct Geometry: Codable, Equatable {
        var type = "Polygon"
        var line: [[Double]]
        var polygon: [[[Double]]]
        var rings: [[[[Double]]]]
    }

    static let shapes: [Geometry] = [
        Geometry(
            line: [[-65.61361699999998, 43.42027300000001], [0.1, -0.0], [Double.leastNonzeroMagnitude, Double.greatestFiniteMagnitude]],
            polygon: [[[8.5417, 47.3769], [1e-7, 123_456_789.25], [-1, 2]], [[3, 4]]],
            rings: [[[[1, 2]], []], []]),
        Geometry(line: [], polygon: [], rings: []),
        Geometry(line: [[]], polygon: [[]], rings: [[[]]]),
        Geometry(line: [[], [1]], polygon: [[], [[]], [[2.5]]], rings: [[[], [[]]]])
    ]

    @Test(arguments: 0..<StreamingEncoderTests.writeOptions.count)
    func coordinatesStreamAsTheTreeWritesThem(_ option: Int) throws {
        let mapper = JSONMapper(writeOptions: StreamingEncoderTests.writeOptions[option])
        for shape in Self.shapes {
            try StreamingEncoderTests.expectStreamed(shape, mapper)
            try StreamingEncoderTests.expectStreamed(shape.line, mapper, "a line at the root")
            try StreamingEncoderTests.expectStreamed(shape.polygon, mapper, "a polygon at the root")
            try StreamingEncoderTests.expectStreamed([shape.polygon], mapper, "polygons in an array")
        }
    }

    /// Foundation's bytes for the shapes at the root (an object's key order
    /// is Foundation's hash order, so objects are compared as values).
    @Test func coordinatesAreFoundationsBytes() throws {
        let foundation = JSONEncoder()
        for shape in Self.shapes {
            #expect(try JSONMapper().encode(shape.line) == Array(try foundation.encode(shape.line)))
            #expect(try JSONMapper().encode(shape.polygon) == Array(try foundation.encode(shape.polygon)))
            #expect(try JSONMapper().encode(shape.rings) == Array(try foundation.encode(shape.rings)))
            #expect(try JSONDecoder().decode(Geometry.self, from: Data(try JSONMapper().encode(shape))) == shape)
        }
    }

    /// The path of a NaN in an array of doubles names the array's own key
    /// and each index down to the element, as Foundation's encoder says it
    /// (the arrays written whole had left the array's key out).
    @Test func aNonFiniteElementsPathIsFoundations() throws {
        struct Holder<Value: Encodable>: Encodable { var value: Value }
        func paths(_ value: some Encodable) -> ([String], [String], [String]) {
            let mapper = JSONMapper()
            return (
                Self.path { try mapper.encode(value) }, Self.path { try mapper.encodeThroughTree(value) },
                Self.path { Array(try JSONEncoder().encode(value)) }
            )
        }
        for (stream, tree, foundation) in [
            paths(Holder(value: [1, Double.infinity])), paths(Holder(value: [[1, Double.nan]])), paths([[[0, -Double.infinity]]]),
            paths([Double.nan]), paths(Holder(value: Holder(value: [2, 3, Double.nan]))),
            paths(Geometry(line: [], polygon: [[[1, 2]], [[3, .infinity]]], rings: []))
        ] {
            #expect(stream == foundation)
            #expect(tree == foundation)
            #expect(foundation.last?.hasPrefix("Index") == true)
        }
    }

    /// A NaN or an infinity anywhere in a shape: what the tree makes of it
    /// (the error, with the element's path; or the option's strings).
    @Test func aNonFiniteCoordinateIsTheTreesToWriteOrRefuse() throws {
        let converting = CodableOptions {
            $0.nonConformingFloats = .convertFromString(positiveInfinity: "+inf", negativeInfinity: "-inf", nan: "nan")
        }
        let values: [Geometry] = [
            Geometry(line: [[1, .nan]], polygon: [], rings: []),
            Geometry(line: [], polygon: [[[1, 2]], [[3, .infinity]]], rings: []),
            Geometry(line: [], polygon: [], rings: [[[[-Double.infinity]]]])
        ]
        for value in values {
            let mapper = JSONMapper()
            #expect(
                try StreamEncoder.encode(value, options: mapper.codableOptions, writeOptions: mapper.writeOptions, registry: mapper.registry) == nil)
            #expect(Self.outcome { try mapper.encode(value) } == Self.outcome { try mapper.encodeThroughTree(value) })
            #expect(Self.outcome { try mapper.encode(value) }.contains("cannot be written as JSON"))
            _ = try StreamingEncoderTests.expectHandedToTheTree(value, JSONMapper(options: converting))
        }
        let written = try StreamingEncoderTests.expectHandedToTheTree(values[1].polygon, JSONMapper(options: converting))
        #expect(written == #"[[[1,2]],[[3,"+inf"]]]"#)
        let error = #expect(throws: EncodingError.self) { try JSONMapper().encode(values[1]) }
        guard case .invalidValue(_, let context) = error else { return }
        #expect(context.codingPath.map(\.stringValue) == ["polygon", "Index 1", "Index 0", "Index 1"])
        #expect(Self.outcome { try JSONMapper().encode(values[0]) }.contains("line[0][1]"))
    }

    /// Each limit, at every depth around the shapes' own: the stream's
    /// checks stand where `encode(to:)` would meet them.
    @Test func depthLimitsAreMetWhereTheTreeMeetsThem() throws {
        let value = Geometry(line: [[1]], polygon: [[[2]]], rings: [[[[3]]]])
        for limit in 0...6 {
            let codable = JSONMapper(options: CodableOptions { $0.maxDepth = limit })
            let writer = JSONMapper(writeOptions: WriteOptions { $0.maxDepth = limit })
            for mapper in [codable, writer] {
                for outcome in [
                    (Self.outcome { try mapper.encode(value) }, Self.outcome { try mapper.encodeThroughTree(value) }),
                    (Self.outcome { try mapper.encode(value.polygon) }, Self.outcome { try mapper.encodeThroughTree(value.polygon) }),
                    (Self.outcome { try mapper.encode(value.line) }, Self.outcome { try mapper.encodeThroughTree(value.line) })
                ] {
                    #expect(outcome.0 == outcome.1, "limit \(limit)")
                }
            }
        }
        // The limits bite inside these shapes.
        #expect(Self.outcome { try JSONMapper(options: CodableOptions { $0.maxDepth = 2 }).encode(value) }.contains("maxDepth"))
        #expect(Self.outcome { try JSONMapper(writeOptions: WriteOptions { $0.maxDepth = 3 }).encode(value) }.contains("maxDepth"))
    }

    /// The coding path of the `EncodingError` thrown.
    static func path(_ body: () throws -> [UInt8]) -> [String] {
        do {
            _ = try body()
            return ["no error"]
        } catch EncodingError.invalidValue(_, let context) {
            return context.codingPath.map(\.stringValue)
        } catch {
            return ["\(error)"]
        }
    }

    /// The bytes written, or the error's message (an `EncodingError`'s is its
    /// debug description: the mapper wraps the tree's writer errors in one).
    static func outcome(_ body: () throws -> [UInt8]) -> String {
        do {
            return String(decoding: try body(), as: UTF8.self)
        } catch EncodingError.invalidValue(_, let context) {
            return context.debugDescription
        } catch {
            return "\(error)"
        }
    }
}
