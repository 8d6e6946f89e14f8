import Foundation
import Testing

@testable import Cartograph

/// Arrays the streaming encoder encodes itself (``StreamedArray``): the
/// elements lent from the array's buffer, with the calls
/// `Array.encode(to:)` makes. Bytes, errors and reference counts are as
/// they are through `Array.encode(to:)` (Foundation's encoder, the tree).
@Suite struct StreamedArrayTests {
    struct Item: Codable, Equatable {
        var name: String
        var tags: [String]
        var score: Double?
    }

    class Shape: Encodable {
        let id: Int
        init(id: Int) { self.id = id }
        private enum CodingKeys: String, CodingKey { case id }
    }

    final class Circle: Shape {
        let radius: Double
        init(id: Int, radius: Double) {
            self.radius = radius
            super.init(id: id)
        }
        private enum CodingKeys: String, CodingKey { case radius }
        override func encode(to encoder: any Encoder) throws {
            try super.encode(to: encoder)
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(radius, forKey: .radius)
        }
    }

    final class Owner {
        let name: String
        init(name: String) { self.name = name }
    }

    /// Holds a weak reference: not bitwise-takable, lent as an ordinary copy.
    struct Weakly: Encodable {
        weak var owner: Owner?
        var label: String
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: StringKey.self)
            try container.encode(label, forKey: StringKey("label"))
            try container.encodeIfPresent(owner?.name, forKey: StringKey("owner"))
        }
    }

    static func cartograph<T: Encodable>(_ value: T) throws -> String {
        String(decoding: try JSONMapper().encode(value), as: UTF8.self)
    }

    static let items = (0..<40).map {
        Item(name: "item \($0) \u{E9}", tags: (0..<($0 % 4)).map { "t\($0)" }, score: $0 % 3 == 0 ? nil : Double($0) / 8)
    }

    /// The stream writes the tree's bytes for `value`, and they read as
    /// Foundation's (whose encoder writes keys in hash order).
    static func expectFoundations<T: Encodable>(_ value: T, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        try StreamingEncoderTests.expectStreamed(value, JSONMapper(), sourceLocation: sourceLocation)
        let ours = try JSONSerialization.jsonObject(with: JSONMapper().encode(value)) as? NSArray
        let theirs = try JSONSerialization.jsonObject(with: JSONEncoder().encode(value)) as? NSArray
        #expect(ours != nil && ours == theirs, sourceLocation: sourceLocation)
    }

    @Test func arraysOfStructsClassesAndOptionalsWriteFoundationsBytes() throws {
        let owner = Owner(name: "ann")
        try Self.expectFoundations(Self.items)
        try Self.expectFoundations([Self.items, [], Array(Self.items.prefix(3))])
        let optionals: [Item?] = [Self.items[0], nil, Self.items[2]]
        try Self.expectFoundations(optionals)
        let shapes: [Shape] = [Shape(id: 1), Circle(id: 2, radius: 1.5), Shape(id: 3)]
        try Self.expectFoundations(shapes)
        let weakly = [Weakly(owner: owner, label: "a"), Weakly(owner: nil, label: "b"), Weakly(owner: owner, label: "c")]
        try Self.expectFoundations(weakly)
        #expect(try Self.cartograph([Item]()) == "[]")
        try Self.expectFoundations(ContiguousArray(Self.items))
        withExtendedLifetime(owner) {}
    }

    /// Only `Array`s are taken for the encoder's own loop, and every
    /// `Array` is (under the portable layout none is: they encode themselves).
    @Test func onlyArraysAreStreamedArrays() {
        let enabled = LayoutAssumptions.enabled
        #expect(MetadataKind.isArray([Int].self) == enabled)
        #expect(MetadataKind.isArray([Item].self) == enabled)
        #expect(MetadataKind.isArray([[Item?]].self) == enabled)
        #expect(!MetadataKind.isArray(Int.self))
        #expect(!MetadataKind.isArray(ContiguousArray<Int>.self))
        #expect(!MetadataKind.isArray([Int]?.self))
        #expect(!MetadataKind.isArray([String: Int].self))
        #expect(!MetadataKind.isArray(Item.self))
        #expect(!MetadataKind.isArray(Shape.self))
        var answers = TypeAnswers<(any StreamedArray.Type)?>()
        #expect((answers.streamedArray([Item].self) != nil) == enabled)
        #expect(answers.streamedArray(Set<Int>.self) == nil)
        #expect(MetadataKind.isEnum(KeyIdentityTests.Letter.self) == enabled)
        #expect(!MetadataKind.isEnum(Item.self))
        #expect(!MetadataKind.isEnum(Int?.self))
    }

    @Test func elementsLentFromTheBufferKeepTheirReferenceCounts() throws {
        var circles = (0..<16).map { Circle(id: $0, radius: Double($0)) }
        for _ in 0..<3 { _ = try JSONMapper().encode(circles) }
        for index in circles.indices { #expect(isKnownUniquelyReferenced(&circles[index])) }
        let wrapped = (0..<16).map { [Item(name: "n\($0)", tags: ["x\($0)"], score: nil)] }
        _ = try JSONMapper().encode(wrapped)
        #expect(wrapped.map { $0[0].tags[0] } == (0..<16).map { "x\($0)" })
    }

    /// Throws at one element: the error names its index, as Foundation's does.
    struct Failing: Encodable {
        var fails: Bool
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: StringKey.self)
            try container.encode(1, forKey: StringKey("a"))
            if fails {
                throw EncodingError.invalidValue(0, EncodingError.Context(codingPath: encoder.codingPath, debugDescription: "no"))
            }
        }
    }

    struct Holder: Encodable {
        var list: [Failing]
    }

    @Test func anElementsErrorNamesItsIndex() throws {
        let value = Holder(list: [Failing(fails: false), Failing(fails: false), Failing(fails: true)])
        func path(_ encode: () throws -> Void) -> [String] {
            do {
                try encode()
            } catch let EncodingError.invalidValue(_, context) {
                return context.codingPath.map { $0.intValue.map { "\($0)" } ?? $0.stringValue }
            } catch { return ["other: \(error)"] }
            return []
        }
        let ours = path { _ = try JSONMapper().encode(value) }
        #expect(ours == ["list", "2"])
        #expect(ours == path { _ = try JSONEncoder().encode(value) })
    }
}
