import Foundation
import Testing

@testable import Cartograph

/// Arrays of any `Decodable` element are read by the decoder element by
/// element (`TapeDecodedArray`) instead of through the standard library's
/// `Array.init(from:)`: the same values, and the same errors at the same
/// coding paths, as Foundation's `JSONDecoder` (but for a number that does
/// not fit, which Cartograph names by its path: `NestedScalarArrayTests`).
@Suite struct ModelArrayTests {
    struct Item: Codable, Equatable {
        var id: Int
        var tags: [String]?
    }

    /// A class model and its subclass, each with its own keys.
    class Shape: Codable, Equatable {
        let name: String

        init(name: String) { self.name = name }

        static func == (lhs: Shape, rhs: Shape) -> Bool {
            type(of: lhs) == type(of: rhs) && lhs.name == rhs.name && lhs.sameExtras(as: rhs)
        }

        func sameExtras(as other: Shape) -> Bool { true }
    }

    final class Polygon: Shape {
        let corners: [Corner]

        struct Corner: Codable, Equatable {
            var x: Double
            var y: Double
        }

        enum CodingKeys: String, CodingKey { case corners }

        required init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            corners = try container.decode([Corner].self, forKey: .corners)
            try super.init(from: decoder)
        }

        override func sameExtras(as other: Shape) -> Bool { (other as? Polygon)?.corners == corners }
    }

    struct Holder<Value: Codable & Equatable>: Codable, Equatable {
        var values: Value
    }

    static let itemArrays = [
        "[]", #"[{"id":1}]"#, #"[{"id":1,"tags":["a","b"]},{"id":2,"tags":null},{"id":3,"tags":[]}]"#,
        #"[{"id":1},{"id":"2"}]"#, #"[{"id":1},null]"#, #"[{"id":1},{}]"#, #"[{"id":1},{"id":2,"tags":[1]}]"#,
        "[1]", "[[]]", "{}", "null", #""x""#, #"[{"id":1},{"id":2},{"id":3},{"id":4.5}]"#
    ]

    @Test func arraysOfStructsDecodeAsFoundationDoes() {
        var problems: [String] = []
        for values in Self.itemArrays {
            problems += Differential.decode(Holder<[Item]>.self, #"{"values":\#(values)}"#)
            problems += Differential.decode(Holder<[Item?]>.self, #"{"values":\#(values)}"#)
            problems += Differential.decode(Holder<[[Item]]>.self, #"{"values":[\#(values),[{"id":9}]]}"#)
            problems += Differential.decode(Holder<[[Item]?]>.self, #"{"values":[null,\#(values)]}"#)
            problems += Differential.decode([Holder<[Item]>].self, #"[{"values":[]},{"values":\#(values)}]"#)
        }
        let unexplained = NestedScalarArrayTests.unexplained(problems)
        #expect(unexplained.isEmpty, "\(unexplained.joined(separator: "\n"))")
    }

    @Test func arraysOfClassModelsAndSubclassesDecodeAsFoundationDoes() throws {
        let inputs = [
            #"[{"name":"a","corners":[{"x":0,"y":1}]},{"name":"b","corners":[]}]"#,
            #"[{"name":"a","corners":[{"x":0,"y":1},{"x":"0","y":1}]}]"#,
            #"[{"name":"a","corners":[{"x":0}]}]"#, #"[{"corners":[]}]"#, #"[{"name":"a","corners":null}]"#, "[null]", "[]"
        ]
        var problems: [String] = []
        for values in inputs {
            problems += Differential.decode(Holder<[Polygon]>.self, #"{"values":\#(values)}"#)
            problems += Differential.decode(Holder<[Shape]>.self, #"{"values":\#(values)}"#)
        }
        let unexplained = NestedScalarArrayTests.unexplained(problems)
        #expect(unexplained.isEmpty, "\(unexplained.joined(separator: "\n"))")
        let decoded = try JSONMapper().decode(Holder<[Polygon]>.self, from: Data(inputs[0].utf8).wrapped(in: "values"))
        #expect(decoded.values.map(\.name) == ["a", "b"] && decoded.values[0].corners == [Polygon.Corner(x: 0, y: 1)])
    }

    @Test func arraysOfOtherElementsDecodeAsFoundationDoes() {
        var problems: [String] = []
        problems += Differential.decode(Holder<[Set<Int>]>.self, #"{"values":[[1,2],[],[3,3]]}"#)
        problems += Differential.decode(Holder<[Set<Int>]>.self, #"{"values":[[1,2],["x"]]}"#)
        problems += Differential.decode(Holder<[[String: Int]]>.self, #"{"values":[{"a":1},{},{"b":"2"}]}"#)
        problems += Differential.decode(Holder<[URL]>.self, #"{"values":["https://example.com/a","b"]}"#)
        problems += Differential.decode(Holder<[Decimal]>.self, #"{"values":[1.25,-3,"x"]}"#)
        problems += Differential.decode(Holder<[UInt8]>.self, #"{"values":[0,255,256]}"#)
        problems += Differential.decode(Holder<[Int?]>.self, #"{"values":[1,null,3]}"#)
        problems += Differential.decode(Holder<[[[Item]]]>.self, #"{"values":[[[{"id":1}]],[[],[{"id":"x"}]]]}"#)
        let unexplained = NestedScalarArrayTests.unexplained(problems)
        #expect(unexplained.isEmpty, "\(unexplained.joined(separator: "\n"))")
    }

    /// The failing element is named by its own index, however deep.
    @Test func errorsNameTheFailingElement() {
        let json = Data(#"{"values":[{"id":1},{"id":2},{"id":3,"tags":["a",7]}]}"#.utf8)
        #expect {
            try JSONMapper().decode(Holder<[Item]>.self, from: json)
        } throws: { error in
            guard case .typeMismatch(_, let context) = error as? DecodingError else { return false }
            return context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue } == ["values", "2", "tags", "1"]
        }
    }
}

extension Data {
    /// `{"key": self}`.
    fileprivate func wrapped(in key: String) -> Data { Data(#"{"\#(key)":"#.utf8) + self + Data("}".utf8) }
}
