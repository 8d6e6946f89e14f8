import Testing

@testable import Cartograph

/// The lock-free publication the registry's caches use: one winner among
/// concurrent publishers, objects kept exactly as long as their holder.
@Suite struct PublishedObjectsTests {
    final class Token: Sendable {
        let number: Int
        init(_ number: Int) { self.number = number }
    }

    final class OneHolder: Sendable {
        let published = PublishedObject<Token>()
    }

    final class ManyHolder: Sendable {
        let published = PublishedObjects<Token>(limit: 3)
    }

    @Test func concurrentFirstPublishersAllSeeTheWinner() async {
        for _ in 0..<50 {
            let holder = OneHolder()
            let seen = await withTaskGroup(of: Int.self) { group in
                for number in 0..<8 { group.addTask { holder.published.publish(Token(number)) { $0.number } } }
                return await group.reduce(into: Set<Int>()) { $0.insert($1) }
            }
            #expect(seen.count == 1)
            #expect(holder.published.withObject { $0.number } == seen.first)
        }
    }

    @Test func aPublishedObjectLivesAsLongAsItsHolder() {
        weak var watched: Token?
        var holder: OneHolder? = OneHolder()
        #expect(holder?.published.withObject { $0.number } == nil)
        do {
            let token = Token(1)
            watched = token
            #expect(holder?.published.publish(token) { $0.number } == 1)
            // A second publisher loses, and its object is not kept.
            #expect(holder?.published.publish(Token(2)) { $0.number } == 1)
        }
        #expect(watched != nil)
        holder = nil
        #expect(watched == nil)
    }

    @Test func everyPublishedObjectIsKeptAndTheLatestRead() {
        weak var first: Token?
        var holder: ManyHolder? = ManyHolder()
        #expect(holder?.published.withLatest { $0.number } == nil)
        do {
            let token = Token(0)
            first = token
            #expect(holder?.published.publish(token) == true)
        }
        #expect(holder?.published.publish(Token(1)) == true)
        #expect(holder?.published.publish(Token(2)) == true)
        #expect(holder?.published.publish(Token(3)) == false)
        #expect(holder?.published.withLatest { $0.number } == 2)
        #expect(holder?.published.count == 3)
        #expect(first != nil)
        holder = nil
        #expect(first == nil)
    }
}
