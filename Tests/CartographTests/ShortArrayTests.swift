import Foundation
import Testing

@testable import Cartograph

/// Arrays of one to four scalars are made from an array literal
/// (`ShortArray`), longer ones by the general loop. Every element's kind at
/// every position of every short length must read as the general loop
/// reads it: the same values, nulls left out or refused the same way, and
/// a failure named at the same element. The `Codable` side is checked
/// against Foundation's `JSONDecoder`, the mapping side against the same
/// elements in an array long enough for the general loop.
@Suite struct ShortArrayTests {
    /// What goes at one position: good values of each scalar type, and
    /// what each type refuses (null, another kind, a container, a number
    /// out of range).
    static let elements = ["1", "-0", "2.5", "1e400", "9223372036854775808", "\"x\"", "\"\"", "true", "null", "[]", "[1]", "{}"]

    struct Lists: Codable, Equatable {
        var ints: [Int]?
        var doubles: [Double]?
        var floats: [Float]?
        var int64s: [Int64]?
        var strings: [String]?
        var bools: [Bool]?
        var grid: [[Int]]?
        var rings: [[[Double]]]?
    }

    /// Arrays of lengths 1 to 5 with each element kind at each position
    /// (the others a value the type reads), through every element type.
    static func arrays(good: String) -> [String] {
        var arrays: [String] = []
        for length in 1...5 {
            for position in 0..<length {
                for element in elements {
                    var items = Array(repeating: good, count: length)
                    items[position] = element
                    arrays.append("[" + items.joined(separator: ",") + "]")
                }
            }
            arrays.append("[" + Array(repeating: good, count: length).joined(separator: ",") + "]")
        }
        return arrays
    }

    @Test func everyElementAtEveryPositionDecodesAsFoundationDoes() {
        var problems: [String] = []
        let fields = [
            ("ints", "7"), ("doubles", "0.1"), ("floats", "3.25"), ("int64s", "-9223372036854775808"), ("strings", "\"s\""),
            ("bools", "false")
        ]
        for (field, good) in fields {
            for array in Self.arrays(good: good) {
                problems += Differential.decode(Lists.self, #"{"\#(field)":\#(array)}"#)
            }
        }
        // Short rows inside rows: the outer levels take the general path or a short one of their own.
        for array in Self.arrays(good: "4") {
            problems += Differential.decode(Lists.self, #"{"grid":[\#(array)]}"#)
            problems += Differential.decode(Lists.self, #"{"grid":[[1,2],\#(array)]}"#)
            problems += Differential.decode(Lists.self, #"{"rings":[[\#(array)],[[0,1]]]}"#)
        }
        let unexplained = NestedScalarArrayTests.unexplained(problems)
        #expect(unexplained.isEmpty, "\(unexplained.prefix(20).joined(separator: "\n"))")
    }

    @Test func shortArraysHoldTheirValuesInOrder() throws {
        let decoder = CartographJSONDecoder()
        let read = try decoder.decode(
            Lists.self,
            from: Data(#"{"ints":[3,1,2,4],"doubles":[0.1,-2],"strings":["a","b","c"],"bools":[true],"grid":[[1],[2,3],[4,5,6],[7,8,9,10]]}"#.utf8))
        #expect(read.ints == [3, 1, 2, 4])
        #expect(read.doubles == [0.1, -2])
        #expect(read.strings == ["a", "b", "c"])
        #expect(read.bools == [true])
        #expect(read.grid == [[1], [2, 3], [4, 5, 6], [7, 8, 9, 10]])
    }

    // MARK: Mappings

    @Mappable
    struct Series: Equatable {
        var ints: [Int] = []
        var strings: [String] = []
        var grid: [[Double]] = []
    }

    func mapper(ignoringNulls: Bool) -> JSONMapper {
        var registry = ModelRegistry(options: MappingOptions { $0.ignoreNulls = ignoringNulls })
        registry.register(Series.self)
        return JSONMapper(registry: registry)
    }

    /// A short array's outcome (its elements, or its error's kind and
    /// path) is what the general loop gives for the same elements followed
    /// by enough good ones to make the array long: the extra elements
    /// come after any failure, so the same element fails first.
    @Test func mappingsReadShortArraysAsTheGeneralLoopDoes() throws {
        let extra = ShortArray.limit + 1
        var problems: [String] = []
        for ignoringNulls in [false, true] {
            let mapper = mapper(ignoringNulls: ignoringNulls)
            // The field, a good element, and whether the array is a row of `grid` (the inner level).
            for (field, good, isRow) in [("ints", "7", false), ("strings", "\"s\"", false), ("grid", "[0.5]", false), ("grid", "0.5", true)] {
                for array in Self.arrays(good: good) {
                    let padding = Array(repeating: good, count: extra).joined(separator: ",")
                    let long = String(array.dropLast()) + ",\(padding)]"
                    let short = Result { try mapper.decode(Series.self, from: #"{"\#(field)":\#(isRow ? "[\(array)]" : array)}"#) }
                    let general = Result { try mapper.decode(Series.self, from: #"{"\#(field)":\#(isRow ? "[\(long)]" : long)}"#) }
                    switch (short, general) {
                    case (.success(let a), .success(var b)):
                        switch field {
                        case "ints": b.ints.removeLast(extra)
                        case "strings": b.strings.removeLast(extra)
                        default: if isRow { b.grid[0].removeLast(extra) } else { b.grid.removeLast(extra) }
                        }
                        if a != b { problems.append("\(field) \(array) (nulls ignored: \(ignoringNulls)): \(a) against \(b)") }
                    case (.failure(let a as CartographError), .failure(let b as CartographError)):
                        if a.kind != b.kind || a.path != b.path {
                            problems.append(
                                "\(field) \(array): \(a.kind) at \(String(describing: a.path)) against \(b.kind) at \(String(describing: b.path))")
                        }
                    default:
                        problems.append("\(field) \(array) (nulls ignored: \(ignoringNulls)): \(short) against \(general)")
                    }
                }
            }
        }
        #expect(problems.isEmpty, "\(problems.prefix(20).joined(separator: "\n"))")
    }

    @Test func aFailingElementOfAShortArrayNamesItsPosition() throws {
        let mapper = mapper(ignoringNulls: false)
        for position in 0..<4 {
            var items = ["1", "2", "3", "4"]
            items[position] = "\"x\""
            let error = try #require(throws: CartographError.self) {
                try mapper.decode(Series.self, from: #"{"ints":[\#(items.joined(separator: ","))]}"#)
            }
            #expect(error.kind == .typeMismatch)
            #expect(error.path == "$.ints[\(position)]")
        }
        let ignoring = try self.mapper(ignoringNulls: true).decode(Series.self, from: #"{"ints":[null,1,null],"grid":[[null,2.5]]}"#)
        #expect(ignoring.ints == [1])
        #expect(ignoring.grid == [[2.5]])
    }
}
