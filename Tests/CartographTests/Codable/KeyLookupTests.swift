import Foundation
import Testing

@testable import Cartograph

/// Keyed containers find each key in their own object, whatever order the
/// containers are opened and read in (nested containers, custom strategies,
/// super decoders), and compare with Foundation's `JSONDecoder`.
@Suite struct KeyLookupTests {
    private enum UserKeys: String, CodingKey { case user }
    private enum PersonKeys: String, CodingKey { case address, name, role }
    private enum AddressKeys: String, CodingKey { case city, zip, role }

    /// Reads `user` through nested keyed containers: the address first, then
    /// the user's own `role` and `name`.
    private struct NestedReader: Decodable, Equatable {
        var city: String
        var role: String?
        var name: String
        init(from decoder: any Decoder) throws {
            let top = try decoder.container(keyedBy: UserKeys.self)
            let user = try top.nestedContainer(keyedBy: PersonKeys.self, forKey: .user)
            let address = try user.nestedContainer(keyedBy: AddressKeys.self, forKey: .address)
            city = try address.decode(String.self, forKey: .city)
            role = try user.decodeIfPresent(String.self, forKey: .role)
            name = try user.decode(String.self, forKey: .name)
        }
    }

    private func both<T: Decodable & Equatable>(
        _ type: T.Type, _ json: String, mapper: JSONMapper = JSONMapper(),
        foundation: JSONDecoder = JSONDecoder()
    ) throws -> (T, T) {
        let ours = try mapper.decode(T.self, from: Array(json.utf8))
        let theirs = try foundation.decode(T.self, from: Data(json.utf8))
        return (ours, theirs)
    }

    @Test func nestedContainersReadTheirOwnObjectsKeys() throws {
        let json = #"{"user":{"address":{"city":"Paris","role":"admin"},"name":"Bob","role":"user"}}"#
        let (ours, theirs) = try both(NestedReader.self, json)
        #expect(ours == theirs)
        #expect(ours.role == "user")
        #expect(ours.city == "Paris")
    }

    @Test func aKeyMissingAfterANestedContainerEndsTheSearch() throws {
        // Used to loop for ever: the hint pointed into the address object.
        let json = #"{"user":{"address":{"city":"Paris","zip":"1"},"name":"Bob"}}"#
        let (ours, theirs) = try both(NestedReader.self, json)
        #expect(ours == theirs)
        #expect(ours.role == nil)
        #expect(ours.name == "Bob")
    }

    private struct Event: Decodable, Equatable {
        var when: Date
        var id: Int
    }

    @Test func customDateStrategyReadingAnObjectDoesNotDisturbItsParent() throws {
        // The date is an object; its decoder shares the parent's hint slot.
        let decodeDate: @Sendable (any Decoder) throws -> Date = { decoder in
            enum K: String, CodingKey { case id, seconds }
            let container = try decoder.container(keyedBy: K.self)
            _ = try container.decode(Int.self, forKey: .id)
            return Date(timeIntervalSince1970: try container.decode(Double.self, forKey: .seconds))
        }
        let json = #"{"when":{"seconds":10,"id":666},"id":5}"#
        let mapper = JSONMapper(options: CodableOptions { $0.dates = .custom(decode: decodeDate, encode: { _, _ in }) })
        let foundation = JSONDecoder()
        foundation.dateDecodingStrategy = .custom(decodeDate)
        let (ours, theirs) = try both(Event.self, json, mapper: mapper, foundation: foundation)
        #expect(ours == theirs)
        #expect(ours.id == 5)
        #expect(ours.when == Date(timeIntervalSince1970: 10))
    }

    private struct Streamed: Decodable, Equatable {
        var a: Int
        var b: Int?
        var inner: [String: Int]
        init(from decoder: any Decoder) throws {
            enum K: String, CodingKey { case a, b, inner }
            let container = try decoder.container(keyedBy: K.self)
            inner = try container.decode([String: Int].self, forKey: .inner)
            let nested = try container.nestedContainer(keyedBy: K.self, forKey: .inner)
            _ = try nested.decodeIfPresent(Int.self, forKey: .a)
            b = try container.decodeIfPresent(Int.self, forKey: .b)
            a = try container.decode(Int.self, forKey: .a)
        }
    }

    @Test func streamedElementsFindKeysInsideTheirOwnTape() throws {
        // Each element's Document ends right after the element: a hint past
        // a child object used to read beyond the tape.
        let json = #"[{"inner":{"a":1,"z":2},"a":7},{"a":8,"inner":{"q":1}},{"inner":{},"b":3,"a":9}]"#
        let stream = ModelStream(Streamed.self)
        var models: [Streamed] = []
        for byte in Array(json.utf8) { models += try stream.feed([byte]) }
        models += try stream.finish()
        let foundation = try JSONDecoder().decode([Streamed].self, from: Data(json.utf8))
        #expect(models == foundation)
        #expect(models.map(\.a) == [7, 8, 9])
    }

    private class Base: Decodable {
        var name: String
        required init(from decoder: any Decoder) throws {
            enum K: String, CodingKey { case name }
            name = try decoder.container(keyedBy: K.self).decodeIfPresent(String.self, forKey: .name) ?? "none"
        }
    }

    private final class Derived: Base {
        var level: Int
        private enum K: String, CodingKey { case level }
        required init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: K.self)
            level = try container.decode(Int.self, forKey: .level)
            try super.init(from: container.superDecoder())
        }
    }

    @Test func superDecoderWorksWhenTheKeysHaveNoSuperCase() throws {
        let json = #"{"level":3,"super":{"name":"parent"}}"#
        let ours = try JSONMapper().decode(Derived.self, from: Array(json.utf8))
        let theirs = try JSONDecoder().decode(Derived.self, from: Data(json.utf8))
        #expect(ours.level == 3)
        #expect(ours.name == theirs.name)
        #expect(ours.name == "parent")
    }

    @Test func superDecoderForAMissingKeyDecodesNullNotTheParent() throws {
        let json = #"{"level":3,"name":"outer"}"#
        // Foundation: a decoder over null, so the keyed container fails.
        let ours = Result { try JSONMapper().decode(Derived.self, from: Array(json.utf8)) }
        let theirs = Result { try JSONDecoder().decode(Derived.self, from: Data(json.utf8)) }
        guard case .failure(let foundationError) = theirs, case .failure(let error) = ours else {
            Issue.record("both decoders must refuse a missing super key: \(ours) \(theirs)")
            return
        }
        #expect(Self.caseName(error) == Self.caseName(foundationError))
        #expect(Self.path(error) == Self.path(foundationError))
    }

    static func caseName(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return "\(type(of: error))" }
        switch error {
        case .typeMismatch: return "typeMismatch"
        case .valueNotFound: return "valueNotFound"
        case .keyNotFound: return "keyNotFound"
        case .dataCorrupted: return "dataCorrupted"
        @unknown default: return "unknown"
        }
    }

    static func path(_ error: any Error) -> [String] {
        guard let error = error as? DecodingError else { return [] }
        let context: DecodingError.Context
        switch error {
        case .typeMismatch(_, let c), .valueNotFound(_, let c), .keyNotFound(_, let c), .dataCorrupted(let c): context = c
        @unknown default: return []
        }
        return context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }
    }

    /// The hint block grows as deeper containers set hints: hints set
    /// before a growth are kept, new depths start empty, and depths at or
    /// past the limit have none.
    @Test func keyHintsGrowWithDepthAndKeepEarlierHints() {
        let hints = KeyHints(initial: 4, limit: 100)
        #expect(hints.capacity == 4)
        for depth in 0..<4 { hints.set(depth, object: depth * 10, next: depth * 10 + 1) }
        hints.set(37, object: 370, next: 371)
        #expect(hints.capacity == 64)
        for depth in 0..<4 { #expect(hints.next(at: depth, in: depth * 10) == depth * 10 + 1) }
        #expect(hints.next(at: 37, in: 370) == 371)
        #expect((4..<64).filter { $0 != 37 }.allSatisfy { hints.next(at: $0, in: 0) == nil && hints.next(at: $0, in: 370) == nil })
        hints.set(99, object: 990, next: 991)
        #expect(hints.capacity == 100)
        #expect(hints.next(at: 99, in: 990) == 991)
        #expect(hints.next(at: 37, in: 370) == 371)
        hints.set(100, object: 1000, next: 1001)
        hints.set(-1, object: 1000, next: 1001)
        #expect(hints.capacity == 100)
        #expect(hints.next(at: 100, in: 1000) == nil)
    }

    /// A chain of objects nested 150 deep, each reading its keys in the
    /// reverse of the document's order (every lookup after the first
    /// starts from a hint at its depth), as Foundation reads it.
    @Test func deeplyNestedObjectsReadOutOfOrderAsFoundationReadsThem() throws {
        final class Link: Decodable, Equatable {
            let label: Int
            let tag: String
            let next: Link?
            private enum CodingKeys: String, CodingKey { case next, tag, label }
            required init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: CodingKeys.self)
                next = try container.decodeIfPresent(Link.self, forKey: .next)
                tag = try container.decode(String.self, forKey: .tag)
                label = try container.decode(Int.self, forKey: .label)
            }
            static func == (left: Link, right: Link) -> Bool {
                var a: Link? = left
                var b: Link? = right
                while let x = a, let y = b {
                    guard x.label == y.label, x.tag == y.tag else { return false }
                    a = x.next
                    b = y.next
                }
                return a == nil && b == nil
            }
        }
        var json = "null"
        for depth in (0..<150).reversed() { json = #"{"label":\#(depth),"tag":"t\#(depth)","next":\#(json)}"# }
        let mapper = JSONMapper()
        let foundation = JSONDecoder()
        let ours = try mapper.decode(Link.self, from: Array(json.utf8))
        let theirs = try foundation.decode(Link.self, from: Data(json.utf8))
        #expect(ours == theirs)
        var depth = 0
        var link: Link? = ours
        while let current = link {
            #expect(current.label == depth && current.tag == "t\(depth)")
            depth += 1
            link = current.next
        }
        #expect(depth == 150)
    }
}
