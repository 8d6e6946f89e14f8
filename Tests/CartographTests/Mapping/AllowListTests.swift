import Foundation
import Testing

@testable import Cartograph

/// Allow lists and ignore lists, per direction (MAXJsonAdapter's
/// "ignoring or specifying values"): an allow list beats an ignore list,
/// allow lists can be written with key paths, and a name no rule maps is an
/// error, not a silent no-op.
@Suite struct AllowListTests {
    /// Non-final, as the seeds' models are.
    @Mappable
    class Account {
        var title = ""
        var balance = 0
        var secret = ""
        var note = ""
        required init() {}
        static let mapping = Mapping<Account>({ Account() }) {
            Map(\.title)
            Map(\.balance)
            Map(\.secret)
            Map(\.note)
            Ignore(\.secret)
            Ignore(\.note, on: .encode)
        }
    }

    private func mapper(_ mapping: Mapping<Account>) -> JSONMapper {
        var registry = ModelRegistry()
        registry.register(mapping)
        return JSONMapper(registry: registry)
    }

    private let input = Array(#"{"title": "T", "balance": 5, "secret": "s", "note": "n"}"#.utf8)

    private func written(_ mapping: Mapping<Account>, _ account: Account) throws -> Set<String> {
        let object = try JSONSerialization.jsonObject(with: Data(mapper(mapping).encode(account))) as? [String: Any]
        return Set(object?.keys.map { $0 } ?? [])
    }

    private func sample() -> Account {
        let account = Account()
        account.title = "t"
        account.balance = 1
        account.secret = "x"
        account.note = "y"
        return account
    }

    @Test func ignoresApplyPerDirection() throws {
        let account = try mapper(Account.mapping).decode(Account.self, from: input)
        #expect(account.title == "T" && account.balance == 5 && account.secret.isEmpty && account.note == "n")
        #expect(try written(Account.mapping, sample()) == ["title", "balance"])
    }

    @Test func anAllowListBeatsAnIgnoreList() throws {
        let allowed = Account.mapping.only(["title", "secret"])
        let account = try mapper(allowed).decode(Account.self, from: input)
        #expect(account.secret == "s" && account.title == "T" && account.balance == 0 && account.note.isEmpty)
        #expect(try written(allowed, sample()) == ["title", "secret"])
    }

    @Test func allowListsWithKeyPathsPerDirection() throws {
        let decodeOnly = Account.mapping.only(\.title, \.balance, on: .decode)
        let account = try mapper(decodeOnly).decode(Account.self, from: input)
        #expect(account.title == "T" && account.balance == 5 && account.note.isEmpty)
        // Encoding is not restricted (the ignores still apply).
        #expect(try written(decodeOnly, sample()) == ["title", "balance"])
        let encodeOnly = Account.mapping.only(\.note, on: .encode)
        #expect(try written(encodeOnly, sample()) == ["note"])
        let both = Account.mapping.only(\.title, on: .decode).only(\.balance, on: .encode)
        #expect(try written(both, sample()) == ["balance"])
        #expect(try mapper(both).decode(Account.self, from: input).balance == 0)
    }

    @Test func aNameNoRuleMapsIsAnError() throws {
        let typo = Account.mapping.only(["title", "balanse"])
        let error = try #require(throws: CartographError.self) { try typo.validate() }
        #expect(error.message.contains("balanse"))
        #expect(throws: CartographError.self) { try mapper(typo).decode(Account.self, from: input) }
        #expect(throws: CartographError.self) { try mapper(typo).encode(sample()) }
        let unmapped = Account.mapping.only(\.title, \Account.description, on: .decode)
        #expect(throws: CartographError.self) { try unmapped.validate() }
        #expect(throws: Never.self) { try Account.mapping.only(["title"]).validate() }
    }
}

extension AllowListTests.Account: CustomStringConvertible {
    var description: String { title }
}
