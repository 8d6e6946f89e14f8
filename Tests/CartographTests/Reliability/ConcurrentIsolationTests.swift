import CorpusModels
import Foundation
import Testing

@testable import Cartograph

// Requests served at once must not see each other. What an encode or a
// decode keeps for the next one (key templates shared by the process,
// spare encoders and kept containers per run, the key orders a decoder
// learns, output buffers lent from a pool) is shared or pooled, so each
// test here gives every task values of its own (texts and ids no other
// task writes, keys in an order of its own, failures at its own places)
// through one shared coder or mapper, and checks that every task got
// exactly its own answer: the bytes a serial run wrote for that value, the
// value back, the error at that value's path. (Run under TSan by
// scripts/test-sanitizers; `scripts/test-release` runs them where the
// recycling paths are taken.)
@Suite struct ConcurrentIsolationTests {
    static let tasks = 8
    static let rounds = 120

    /// One tweet given a text, an id and a user name of task `task`'s round `round`.
    static func status(_ base: CorpusModels.Status, task: Int, round: Int) -> CorpusModels.Status {
        var status = base
        status.text = "task \(task) round \(round) \u{e9}\u{1F600} \"q\""
        status.id = Int64(task * 1_000_000 + round)
        status.idString = "\(status.id)"
        status.user.screenName = "user-\(task)-\(round)"
        status.inReplyToStatusID = round.isMultiple(of: 2) ? Int64(round) : nil
        return status
    }

    /// `value` with every object's members in an order drawn from `generator`.
    static func shuffled(_ value: JSONValue, _ generator: inout SeededGenerator) -> JSONValue {
        switch value {
        case .object(let object):
            var members = object.map { ($0.key, shuffled($0.value, &generator)) }
            members.shuffle(using: &generator)
            return .object(JSONObject(members))
        case .array(let elements):
            return .array(elements.map { shuffled($0, &generator) })
        default:
            return value
        }
    }

    /// A shared `CartographJSONEncoder` and `CartographJSONDecoder`: each
    /// task's tweets come out as the bytes a serial encode wrote for them,
    /// its reordered bytes decode to its own tweets, and its failing values
    /// (a NaN, a truncated body) fail at their own paths without
    /// disturbing the next encode or decode on the same thread.
    @Test func sharedDropInCodersGiveEachTaskItsOwnTweets() async throws {
        let twitter = try JSONDecoder().decode(TwitterResponse.self, from: Data(try Fixtures.bytes("twitter.json")))
        let encoder = CartographJSONEncoder()
        let decoder = CartographJSONDecoder()
        struct Case: Sendable {
            var response: TwitterResponse
            var expected: Data
            var reordered: Data
        }
        var cases: [[Case]] = []
        for task in 0..<Self.tasks {
            var generator = SeededGenerator(seed: UInt64(task) &+ 77)
            cases.append(
                try (0..<Self.rounds).map { round in
                    var response = TwitterResponse()
                    let base = twitter.statuses[(task + round) % twitter.statuses.count]
                    response.statuses = (0..<(1 + round % 3)).map { Self.status(base, task: task, round: round * 3 + $0) }
                    response.searchMetadata = twitter.searchMetadata
                    response.searchMetadata.query = "q-\(task)-\(round)"
                    let expected = try encoder.encode(response)
                    let tree = try JSONValue(parsing: Array(expected))
                    let reordered = Data(try Self.shuffled(tree, &generator).encoded())
                    return Case(response: response, expected: expected, reordered: reordered)
                })
        }

        let failures = try await withThrowingTaskGroup(of: Int.self) { group in
            for task in 0..<Self.tasks {
                let mine = cases[task]
                group.addTask {
                    var failures = 0
                    for (round, item) in mine.enumerated() {
                        switch round % 6 {
                        case 5:
                            // A value that fails half-way: the encode throws, nothing leaks.
                            var broken = item.response
                            broken.searchMetadata.completedIn = .nan
                            do {
                                _ = try encoder.encode(broken)
                                failures += 1
                            } catch EncodingError.invalidValue(_, let context) {
                                if context.codingPath.map(\.stringValue) != ["search_metadata", "completed_in"] { failures += 1 }
                            }
                        case 4:
                            // A truncated body: the decode throws, nothing leaks.
                            do {
                                _ = try decoder.decode(TwitterResponse.self, from: item.reordered.prefix(item.reordered.count / 2))
                                failures += 1
                            } catch is DecodingError {}
                        default:
                            if try encoder.encode(item.response) != item.expected { failures += 1 }
                            if try decoder.decode(TwitterResponse.self, from: item.reordered) != item.response { failures += 1 }
                        }
                    }
                    return failures
                }
            }
            return try await group.reduce(0, +)
        }
        #expect(failures == 0)
    }

    /// A shared `JSONMapper` over `@Mappable` class models the way the
    /// seeds register them (a non-final class and its subclass picked by
    /// class inference, nested key paths, a weak parent): each task reads
    /// back its own users, of the class its bytes call for.
    @Test func sharedMapperGivesEachTaskItsOwnClassModels() async throws {
        var registry = ModelRegistry()
        registry.register(MAXModelUser.self)
        registry.register(MAXModelHero.self)
        registry.register(JSACModelFoo.self)
        registry.register(JSACModelOther.self)
        registry.identify { object, _ in
            object["powers"] != nil ? MAXModelHero.self : nil
        }
        let mapper = JSONMapper(registry: registry)

        let failures = try await withThrowingTaskGroup(of: Int.self) { group in
            for task in 0..<Self.tasks {
                group.addTask {
                    var failures = 0
                    for round in 0..<Self.rounds {
                        let tag = "\(task)-\(round)"
                        let user: MAXModelUser = round.isMultiple(of: 3) ? MAXModelUser() : MAXModelHero()
                        user.email = "e\(tag)@x"
                        user.firstName = "First \(tag)"
                        user.lastName = round.isMultiple(of: 4) ? nil : "Last \(tag)"
                        user.usernames = (0..<(round % 5)).map { "alias\($0)-\(tag)" }
                        (user as? MAXModelHero)?.powers = ["power-\(tag)"]
                        let bytes = try mapper.encode(user)
                        let back = try mapper.decode(MAXModelUser.self, from: bytes)
                        if type(of: back) != type(of: user) || back.email != user.email || back.firstName != user.firstName
                            || back.lastName != user.lastName || back.usernames != user.usernames
                            || (back as? MAXModelHero)?.powers != (user as? MAXModelHero)?.powers
                        {
                            failures += 1
                        }

                        let foo = JSACModelFoo()
                        foo.nameString = "foo \(tag)"
                        foo.otherFooArray = (0..<(1 + round % 3)).map { index in
                            let other = JSACModelOther()
                            other.fooString = "other \(index) \(tag)"
                            return other
                        }
                        let fooBack = try mapper.decode(JSACModelFoo.self, from: try mapper.encode(foo))
                        if fooBack.nameString != foo.nameString
                            || fooBack.otherFooArray.map(\.fooString) != foo.otherFooArray.map(\.fooString)
                            || !fooBack.otherFooArray.allSatisfy({ $0.parent === fooBack })
                        {
                            failures += 1
                        }

                        // A required path missing in one task's body fails there only.
                        if round % 7 == 6 {
                            do {
                                _ = try mapper.decode(MABModelPlace.self, from: #"{"geometry": {"lat": \#(round)}}"#)
                                failures += 1
                            } catch {}
                        }
                    }
                    return failures
                }
            }
            return try await group.reduce(0, +)
        }
        #expect(failures == 0)
    }

    /// A shared snake_case encoder and decoder over activity.json's events
    /// (ISO 8601 dates, converted keys, optionals left out): each task's
    /// events come back as its own.
    @Test func sharedSnakeCaseCodersGiveEachTaskItsOwnEvents() async throws {
        guard case .array(let events) = try JSONValue(parsing: try GeneratedCorpusDecodingTests.bytes("activity.json")) else {
            Issue.record("activity.json is not an array")
            return
        }
        let foundation = ActivityEvent.wire.jsonDecoder()
        let encoder = ActivityEvent.wire.jsonEncoder(CartographJSONEncoder())
        let decoder = ActivityEvent.wire.jsonDecoder(CartographJSONDecoder())
        var expected: [[Data]] = []
        var values: [[[ActivityEvent]]] = []
        for task in 0..<Self.tasks {
            // Each event's id and login made the task's own, read by Foundation.
            let mine = try (0..<Self.rounds).map { round in
                let batch = (0..<(1 + round % 4)).map { index -> JSONValue in
                    guard case .object(var event) = events[(task * 31 + round * 7 + index) % events.count],
                        case .object(var actor)? = event["actor"]
                    else { return .null }
                    event["id"] = .string("\(task)-\(round)-\(index)")
                    actor["login"] = .string("login-\(task)-\(round)")
                    event["actor"] = .object(actor)
                    return .object(event)
                }
                return try foundation.decode([ActivityEvent].self, from: Data(try JSONValue.array(batch).encoded()))
            }
            values.append(mine)
            expected.append(try mine.map { try encoder.encode($0) })
        }
        let failures = try await withThrowingTaskGroup(of: Int.self) { group in
            for task in 0..<Self.tasks {
                let mine = values[task]
                let bytes = expected[task]
                group.addTask {
                    var failures = 0
                    for round in 0..<Self.rounds {
                        if try encoder.encode(mine[round]) != bytes[round] { failures += 1 }
                        if try decoder.decode([ActivityEvent].self, from: bytes[round]) != mine[round] { failures += 1 }
                    }
                    return failures
                }
            }
            return try await group.reduce(0, +)
        }
        #expect(failures == 0)
    }
}
