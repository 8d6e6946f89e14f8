import Foundation
import Testing

@testable import Cartograph

/// A field offset exists only where the key path's setter is a plain store,
/// and a store through it is checked against the model and value types.
@Suite struct ModelFieldsTests {
    struct Account {
        var id: Int64 = 0
        var name: String = ""
        var nickname: String?
        var tags: [String] = []
        var observed: Int = 0 {
            didSet { observedWrites += 1 }
        }
        var observedWrites = 0
        var doubled: Int {
            get { Int(id) * 2 }
            set { id = Int64(newValue / 2) }
        }
    }

    struct Other {
        var id: Int64 = 0
    }

    final class Holder {
        var id: Int64 = 0
    }

    @Test func fieldsExistOnlyForPropertiesStoredInline() {
        #expect(FieldOffset(\Account.id) != nil)
        #expect(FieldOffset(\Account.name) != nil)
        #expect(FieldOffset(\Account.nickname) != nil)
        // A computed property and a class's property are reached through code.
        #expect(FieldOffset(\Account.doubled) == nil)
        #expect(FieldOffset(\Holder.id) == nil)
        // The same property of two models is two fields.
        #expect(FieldOffset(\Account.id) != FieldOffset(\Other.id))
    }

    @Test func observedPropertiesAreNotWrittenInPlace() {
        // A store in place would skip `didSet`: such a property must take the setter.
        #expect(FieldOffset(\Account.observed) == nil)
    }

    @Test func storesWhatTheKeyPathReadsBack() throws {
        var account = Account()
        let name = try #require(FieldOffset(\Account.name))
        let nickname = try #require(FieldOffset(\Account.nickname))
        let tags = try #require(FieldOffset(\Account.tags))
        ModelFields.with(&account) { fields in
            fields.store("Ada", at: name)
            fields.store(Optional("ada"), at: nickname)
            fields.store(["x", "y"], at: tags)
        }
        #expect(account.name == "Ada")
        #expect(account.nickname == "ada")
        #expect(account.tags == ["x", "y"])
        ModelFields.with(&account) { $0.store(String?.none, at: nickname) }
        #expect(account.nickname == nil)
    }

    @Test func exchangeMovesBothWays() throws {
        var account = Account(name: "old")
        var value = "new"
        let name = try #require(FieldOffset(\Account.name))
        ModelFields.with(&account) { $0.exchange(&value, at: name) }
        #expect(account.name == "new")
        #expect(value == "old")
    }

    @Test func aFieldOfAnotherModelTraps() async {
        await #expect(processExitsWith: .failure) {
            var other = Other()
            let field = FieldOffset(\Account.id)!
            ModelFields.with(&other) { $0.store(Int64(1), at: field) }
        }
    }

    @Test func aValueOfAnotherTypeTraps() async {
        await #expect(processExitsWith: .failure) {
            var account = Account()
            let field = FieldOffset(\Account.name)!
            // An `Int` is as large as the string's first word but is not a `String`.
            ModelFields.with(&account) { $0.store(42, at: field) }
        }
    }

    @Test func theWholeModelIsReachableOnlyAsItsOwnType() async {
        var account = Account()
        ModelFields.with(&account) { fields in fields.withModel(Account.self) { $0.name = "whole" } }
        #expect(account.name == "whole")
        await #expect(processExitsWith: .failure) {
            var account = Account()
            ModelFields.with(&account) { fields in fields.withModel(Other.self) { $0.id = 1 } }
        }
    }
}
