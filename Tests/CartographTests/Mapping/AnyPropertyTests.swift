import Foundation
import Testing

@testable import Cartograph

/// `Any`-typed properties hold plain values as plain values and identified
/// objects as models, recursively, and write them back the same way
/// (JAGPropertyConverter's heterogeneous arrays and dictionaries).
@Suite struct AnyPropertyTests {
    @Mappable
    final class Person: Mappable {
        var firstName = ""
        static let mapping = Mapping<Person>({ Person() }, keys: ["firstName"]) {
            Map(\.firstName)
        }
    }

    /// Non-final, as the seeds' models are.
    @Mappable
    class Bag {
        var things: [Any] = []
        var info: [String: Any] = [:]
        var anything: Any?
        var single: Any = 0
        required init() {}
        static let mapping = Mapping<Bag>({ Bag() }) {
            Map(\.things)
            Map(\.info)
            Map(\.anything)
            Map(\.single)
        }
    }

    private var mapper: JSONMapper {
        var registry = ModelRegistry()
        registry.register(Person.self)
        registry.register(Bag.mapping)
        return JSONMapper(registry: registry)
    }

    @Test func plainValuesStayPlainAndIdentifiedObjectsBecomeModels() throws {
        let json = Array(
            """
            {"things": ["cats", {"firstName": "Jack"}, 3, 2.5, true, null, [1, {"firstName": "Jill"}], {"other": 1}],
             "info": {"owner": {"firstName": "Ann"}, "count": 18446744073709551615, "tags": ["a"]},
             "anything": {"firstName": "Zed"}, "single": "x"}
            """.utf8)
        let bag = try mapper.decode(Bag.self, from: json)
        #expect(bag.things.count == 8)
        #expect(bag.things[0] as? String == "cats")
        #expect((bag.things[1] as? Person)?.firstName == "Jack")
        #expect(bag.things[2] as? Int == 3)
        #expect(bag.things[3] as? Double == 2.5)
        #expect(bag.things[4] as? Bool == true)
        #expect(bag.things[5] is NSNull)
        let nested = bag.things[6] as? [Any]
        #expect(nested?[0] as? Int == 1)
        #expect((nested?[1] as? Person)?.firstName == "Jill")
        #expect((bag.things[7] as? [String: Any])?["other"] as? Int == 1)
        #expect((bag.info["owner"] as? Person)?.firstName == "Ann")
        #expect(bag.info["count"] as? UInt64 == UInt64.max)
        #expect((bag.info["tags"] as? [Any])?.first as? String == "a")
        #expect((bag.anything as? Person)?.firstName == "Zed")
        #expect(bag.single as? String == "x")
    }

    @Test func anyPropertiesWriteBackWhatTheyHold() throws {
        let bag = Bag()
        let jack = Person()
        jack.firstName = "Jack"
        bag.things = ["cats", jack, 3, 2.5, false, NSNull(), [1, "two"], ["k": jack]]
        bag.info = ["n": 1, "who": jack]
        bag.anything = nil
        bag.single = Date(timeIntervalSince1970: 0)
        let text = try String(decoding: mapper.encode(bag), as: UTF8.self)
        #expect(text.contains(#""things":["cats",{"firstName":"Jack"},3,2.5,false,null,[1,"two"],{"k":{"firstName":"Jack"}}]"#), "\(text)")
        #expect(text.contains(#""info":{"n":1,"who":{"firstName":"Jack"}}"#), "\(text)")
        #expect(text.contains(#""single":"1970-01-01T00:00:00"#), "\(text)")
        // And read back to the same shapes.
        let back = try mapper.decode(Bag.self, from: Array(text.utf8))
        #expect((back.things[1] as? Person)?.firstName == "Jack")
        #expect((back.info["who"] as? Person)?.firstName == "Jack")
    }

    @Test func aValueWithNoJSONFormIsATypedError() {
        let bag = Bag()
        bag.single = NSObject()
        #expect(throws: CartographError.self) { try mapper.encode(bag) }
    }
}
