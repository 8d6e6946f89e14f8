import Foundation
import Testing

@testable import Cartograph

/// An encode finds each class instance's entry by its own class, and keeps
/// the last eight answers (``EncodingSession/entry(for:)``): an array of a base class
/// holding instances of more subclasses than that, in turns, writes each
/// with its own subclass's mapping.
@Suite struct ManySubclassesEncodeTests {
    /// Non-final, as the seeds' models are.
    class Piece {
        var id = 0
        required init() {}
        static let mapping = Mapping<Piece>({ Piece() }) { Map(\.id, "id") }
    }

    class Variant<Tag>: Piece {
        static var variantMapping: Mapping<Variant<Tag>> {
            Mapping<Variant<Tag>>(inheriting: Piece.mapping, { Variant<Tag>() }) { Getter("tag") { (_: Variant<Tag>) in "\(Tag.self)" } }
        }
    }

    enum T0 {}
    enum T1 {}
    enum T2 {}
    enum T3 {}
    enum T4 {}
    enum T5 {}
    enum T6 {}
    enum T7 {}
    enum T8 {}
    enum T9 {}

    @Test func eachInstanceIsWrittenByItsOwnSubclassMapping() throws {
        var registry = ModelRegistry()
        registry.register(Piece.mapping)
        var makers: [(String, () -> Piece)] = [("", { Piece() })]
        func add<Tag>(_: Tag.Type) {
            registry.register(Variant<Tag>.variantMapping)
            makers.append(("\(Tag.self)", { Variant<Tag>() }))
        }
        add(T0.self)
        add(T1.self)
        add(T2.self)
        add(T3.self)
        add(T4.self)
        add(T5.self)
        add(T6.self)
        add(T7.self)
        add(T8.self)
        add(T9.self)
        var pieces: [Piece] = []
        var tags: [String] = []
        for round in 0..<3 {
            for (offset, (tag, make)) in makers.enumerated() {
                let piece = make()
                piece.id = round * 100 + offset
                pieces.append(piece)
                tags.append(tag)
            }
        }
        let mapper = JSONMapper(registry: registry)
        for bytes in [try mapper.encode(pieces), try mapper.encodeValue(pieces).encoded()] {
            let objects = try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [[String: Any]])
            #expect(objects.count == pieces.count)
            for (index, object) in objects.enumerated() {
                #expect(object["id"] as? Int == pieces[index].id)
                #expect(object["tag"] as? String == (tags[index].isEmpty ? nil : tags[index]), "element \(index)")
            }
        }
    }
}
