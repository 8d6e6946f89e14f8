import Foundation
import Testing

@testable import Cartograph

/// A keyed container read out of document order tries each missed key
/// first where the same turn's miss was found in the previous object of
/// its type (``LearnedKeyOrder``). A guess is only where to look first:
/// these objects change their order, size and duplicates from one to the
/// next so that the guesses point at the wrong key, a key of the same
/// length and ends, a shadowed duplicate or past the object's end, and
/// every answer must still be the one Foundation's `JSONDecoder` gives.
@Suite struct LearnedKeyOrderTests {
    private enum LongKeys: String, CodingKey, CaseIterable {
        // The same length and the same first and last eight bytes.
        case first = "aaaaaaaaXbbbbbbbb"
        case second = "aaaaaaaaYbbbbbbbb"
        case third = "aaaaaaaaZbbbbbbbb"
    }

    /// Reads its keys last to first: with keys in document order, every lookup misses the hint.
    private struct Triple: Decodable, Equatable {
        var first: Int?, second: Int?, third: Int?
        init(_ first: Int?, _ second: Int?, _ third: Int?) { (self.first, self.second, self.third) = (first, second, third) }
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: LongKeys.self)
            third = try container.decodeIfPresent(Int.self, forKey: .third)
            second = try container.decodeIfPresent(Int.self, forKey: .second)
            first = try container.decodeIfPresent(Int.self, forKey: .first)
        }
    }

    private func decodeBoth<T: Decodable & Equatable>(_: T.Type, _ json: String, policy: DuplicateKeyPolicy? = nil) throws -> (T, T) {
        let mapper = policy.map { policy in JSONMapper(parseOptions: ParseOptions { $0.duplicateKeys = policy }) } ?? JSONMapper()
        return (try mapper.decode(T.self, from: Array(json.utf8)), try JSONDecoder().decode(T.self, from: Data(json.utf8)))
    }

    @Test func aGuessPointingAtAKeyOfTheSameLengthAndEndsIsRejectedByItsBytes() throws {
        // Each object rotates the order of the one before, so every guess
        // learned from it lands on another of the three look-alike keys.
        let names = LongKeys.allCases.map(\.stringValue)
        let objects = (0..<9).map { index in
            let order = (0..<3).map { (index + $0) % 3 }
            return "{" + order.map { "\"\(names[$0])\":\(index * 10 + $0)" }.joined(separator: ",") + "}"
        }
        let (ours, theirs) = try decodeBoth([Triple].self, "[" + objects.joined(separator: ",") + "]")
        #expect(ours == theirs)
        #expect(ours[4] == Triple(40, 41, 42))
    }

    @Test func aGuessPastTheEndOfASmallerObjectIsNotRead() throws {
        // Learned on objects of three keys, then asked of objects of one and none.
        let json = #"""
            [{"aaaaaaaaXbbbbbbbb":1,"aaaaaaaaYbbbbbbbb":2,"aaaaaaaaZbbbbbbbb":3},
             {"aaaaaaaaXbbbbbbbb":4},
             {},
             {"aaaaaaaaZbbbbbbbb":5,"aaaaaaaaXbbbbbbbb":6},
             {"aaaaaaaaXbbbbbbbb":7,"aaaaaaaaYbbbbbbbb":8,"aaaaaaaaZbbbbbbbb":9}]
            """#
        let (ours, theirs) = try decodeBoth([Triple].self, json)
        #expect(ours == theirs)
        #expect(ours == [Triple(1, 2, 3), Triple(4, nil, nil), Triple(nil, nil, nil), Triple(6, nil, 5), Triple(7, 8, 9)])
    }

    @Test func aGuessAtAShadowedDuplicateFindsTheVisibleOne() throws {
        // The first object teaches where each key lies; in the second a
        // repeated key takes that place, and the policy decides which of
        // its two copies is seen.
        let json = #"""
            [{"aaaaaaaaXbbbbbbbb":1,"aaaaaaaaYbbbbbbbb":2,"aaaaaaaaZbbbbbbbb":3},
             {"aaaaaaaaXbbbbbbbb":4,"aaaaaaaaXbbbbbbbb":5,"aaaaaaaaYbbbbbbbb":6,"aaaaaaaaZbbbbbbbb":7,"aaaaaaaaYbbbbbbbb":8}]
            """#
        for (policy, expected) in [(DuplicateKeyPolicy.lastWins, Triple(5, 8, 7)), (.firstWins, Triple(4, 6, 7))] {
            let mapper = JSONMapper(parseOptions: ParseOptions { $0.duplicateKeys = policy })
            let ours = try mapper.decode([Triple].self, from: Array(json.utf8))
            #expect(ours == [Triple(1, 2, 3), expected], "\(policy)")
        }
    }

    /// Reads `count` keys `k0`… in reverse: more misses in one object than are remembered.
    private struct Many: Decodable, Equatable {
        static let count = LearnedKeyOrder.rememberedMisses + 6
        var values: [Int?]
        init(values: [Int?]) { self.values = values }
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: StringKey.self)
            values = try (0..<Self.count).reversed().map { try container.decodeIfPresent(Int.self, forKey: StringKey("k\($0)")) }.reversed()
        }
    }

    @Test func moreMissesThanAreRememberedAreStillFound() throws {
        // Three objects of the same type: in order, shifted by one (a key
        // left out at the front), then in order again with one key more.
        func object(_ range: Range<Int>, extra: Bool = false) -> String {
            "{" + (range.map { "\"k\($0)\":\($0 * 3)" } + (extra ? ["\"other\":0"] : [])).joined(separator: ",") + "}"
        }
        let json = "[" + [object(0..<Many.count), object(1..<Many.count), object(0..<Many.count, extra: true)].joined(separator: ",") + "]"
        let (ours, theirs) = try decodeBoth([Many].self, json)
        #expect(ours == theirs)
        #expect(ours[1].values.first == .some(nil))
        #expect(ours[2].values.last == .some((Many.count - 1) * 3))
    }

    /// Fourteen keys of one length and the same first and last eight bytes
    /// (so one signature), read in reverse: an object wide enough that
    /// failed guesses scan its keys' signatures.
    private struct Wide: Decodable, Equatable {
        static let names = (0..<14).map { "aaaaaaaa\(String($0, radix: 16))bbbbbbbb" }
        var values: [Int?]
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: StringKey.self)
            values = try Self.names.reversed().map { try container.decodeIfPresent(Int.self, forKey: StringKey($0)) }.reversed()
        }
    }

    @Test func wideObjectsInOrdersOfTheirOwnMatchJSONDecoder() throws {
        // Each object its own order (as `JSONEncoder` writes a dictionary),
        // and every third one leaves a key out: the guesses fail, the
        // signatures all collide, and only the bytes tell the keys apart.
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        let objects = (0..<40).map { index -> String in
            var order = Array(0..<Wide.names.count)
            for slot in order.indices.reversed() { order.swapAt(slot, next(slot + 1)) }
            if index % 3 == 0 { order.remove(at: next(order.count)) }
            return "{" + order.map { "\"\(Wide.names[$0])\":\(index * 100 + $0)" }.joined(separator: ",") + "}"
        }
        let (ours, theirs) = try decodeBoth([Wide].self, "[" + objects.joined(separator: ",") + "]")
        #expect(ours == theirs)
        #expect(ours[5].values == (0..<14).map { 500 + $0 })
        #expect(ours[3].values.filter { $0 == nil }.count == 1)
    }

    /// A non-final `Codable` class, its subclass (which reads its own keys,
    /// then its superclass's from the same object) and a property typed as
    /// another class: each is its own recycled container, learning its own
    /// order in the same objects.
    private class Owner: Codable, Equatable {
        var name: String
        var age: Int
        var email: String?
        static func == (left: Owner, right: Owner) -> Bool {
            left.name == right.name && left.age == right.age && left.email == right.email
        }
    }

    private class Account: Codable {
        var id: Int
        var label: String
        var owner: Owner
        var note: String?
    }

    private final class PremiumAccount: Account {
        var tier: Int
        var perks: [String]
        private enum CodingKeys: String, CodingKey { case tier, perks }
        required init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            perks = try container.decode([String].self, forKey: .perks)
            tier = try container.decode(Int.self, forKey: .tier)
            try super.init(from: decoder)
        }
        override func encode(to encoder: any Encoder) throws { fatalError("not encoded") }
    }

    private func accounts(_ values: [PremiumAccount]) -> [String] {
        values.map { "\($0.id) \($0.label) \($0.tier) \($0.perks) \($0.note ?? "-") \($0.owner.name) \($0.owner.age) \($0.owner.email ?? "-")" }
    }

    @Test func classModelsAndSubclassesInShiftingOrdersMatchJSONDecoder() throws {
        // Keys in an order of their own per object, optional keys left out
        // of some: the subclass, its superclass and the owner each guess
        // from the object before.
        var state: UInt64 = 42
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        func object(_ members: [String]) -> String {
            var members = members
            for slot in members.indices.reversed() { members.swapAt(slot, next(slot + 1)) }
            return "{" + members.joined(separator: ",") + "}"
        }
        let records = (0..<30).map { index -> String in
            var ownerMembers = [#""name":"owner \#(index)""#, #""age":\#(20 + index)"#]
            if index % 3 != 0 { ownerMembers.append(#""email":"o\#(index)@example.com""#) }
            var members = [
                #""id":\#(index)"#, #""label":"account \#(index)""#, #""tier":\#(index % 4)"#,
                #""perks":["p\#(index)","q"]"#, #""owner":\#(object(ownerMembers))"#
            ]
            if index % 4 == 1 { members.append(#""note":"n\#(index)""#) }
            return object(members)
        }
        let (ours, theirs) = try (
            JSONMapper().decode([PremiumAccount].self, from: Array(("[" + records.joined(separator: ",") + "]").utf8)),
            JSONDecoder().decode([PremiumAccount].self, from: Data(("[" + records.joined(separator: ",") + "]").utf8))
        )
        #expect(accounts(ours) == accounts(theirs))
        #expect(ours[5].note == "n5" && ours[5].owner.email == "o5@example.com" && ours[5].tier == 1)
        #expect(ours[6].note == nil && ours[6].owner.email == nil && ours[6].perks == ["p6", "q"])
    }

    /// The order itself, object after object, without the decoder: in a
    /// debug build (the test suite's) a kept container is not yet unique
    /// when the next object asks for it, so the decoder makes a new one,
    /// and only release builds reach the guesses through `Codable`. Every
    /// lookup is counted a miss; each answer must be the visible key a
    /// plain scan of the object finds.
    @Test func guessesAcrossObjectsAnswerAsAScanOfEachObjectDoes() throws {
        var state: UInt64 = 7
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        // Look-alike keys (one length, the same first and last eight bytes):
        // three of them, so narrow objects, and fourteen, so wide ones.
        for width in [3, 14] {
            let names = (0..<width).map { "aaaaaaaa\(String($0, radix: 16))bbbbbbbb" }
            // Rotated, shuffled, a key left out, a key repeated (the first
            // copy shadowed), an empty object.
            var objects: [[String]] = (0..<width).map { shift in (0..<width).map { names[($0 + shift) % width] } }
            for _ in 0..<12 {
                var order = names
                for slot in order.indices.reversed() { order.swapAt(slot, next(slot + 1)) }
                if next(3) == 0 { order.remove(at: next(order.count)) }
                if next(3) == 0 { order.insert(order[next(order.count)], at: 0) }
                objects.append(order)
            }
            objects.append([])
            objects.append(names)
            let json = "[" + objects.map { "{" + $0.enumerated().map { "\"\($1)\":\($0)" }.joined(separator: ",") + "}" }.joined(separator: ",") + "]"
            let document = try Document(parsing: Array(json.utf8), options: ParseOptions { $0.duplicateKeys = .lastWins })
            let tape = document.reader
            let order = LearnedKeyOrder()
            var object = 1
            for _ in objects {
                // A plain scan: each visible key's tape index.
                var visible: [String: Int] = [:]
                var position = object + 1
                while position < tape[object].payload {
                    if tape[position].flags & TapeFlags.shadowed == 0 { visible[tape.string(tape[position])] = position }
                    position = tape.next(after: position + 1)
                }
                for (miss, name) in names.reversed().enumerated() {
                    let found = order.keyPosition(of: Array(name.utf8).span, miss: miss, in: object, tape: tape)
                    #expect(found == visible[name], "width \(width), object at \(object), \(name)")
                }
                object = tape.next(after: object)
            }
        }
    }
}
