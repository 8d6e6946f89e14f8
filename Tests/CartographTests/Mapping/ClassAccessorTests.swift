import Foundation
import Testing

@testable import Cartograph

/// A class's property table gives its rules direct accessors
/// (``AccessorSlot``): decoding calls the property's setter and encoding
/// its getter, as the key path would, but without the key-path runtime.
/// These cases pin that the rules call the accessors the table gives (and
/// only for the property they belong to), and that a model sees the same
/// setters, observers and overrides as through a key path.
@Suite struct ClassAccessorTests {
    /// Counts what the table's accessors were asked (a class: the closures share it).
    final class Calls: @unchecked Sendable {
        var gets: [String] = []
        var sets: [String] = []
    }

    /// A class with a hand-written table whose accessors record their calls.
    final class Probe: MappableModel, @unchecked Sendable {
        var name = ""
        var size = 0
        var note: String?
        nonisolated(unsafe) static var calls = Calls()

        static var mappableProperties: [MappableProperty] {
            [
                MappableProperty(
                    "name", \Probe.name,
                    get: {
                        calls.gets.append("name"); return $0.name
                    },
                    set: {
                        calls.sets.append("name"); $0.name = $1
                    }),
                // No accessors: its rules keep the key path.
                MappableProperty("size", \Probe.size),
                // Accessors beside rules of its own (what `@Mapped` writes on a class).
                MappableProperty(
                    "note", \Probe.note,
                    get: {
                        calls.gets.append("note"); return $0.note
                    },
                    set: {
                        calls.sets.append("note"); $0.note = $1
                    }, rules: { [Map(\Probe.note, "note_text")] })
            ]
        }

        init() {}
    }

    @Test func theDefaultMappingCallsTheTablesAccessors() throws {
        Probe.calls = Calls()
        var registry = ModelRegistry()
        registry.register(Probe.self)
        let mapper = JSONMapper(registry: registry)
        let probe = try mapper.decode(Probe.self, from: Array(#"{"name":"ada","size":3,"note_text":"y"}"#.utf8))
        #expect(probe.name == "ada" && probe.size == 3 && probe.note == "y")
        #expect(Probe.calls.sets == ["name", "note"])
        let json = String(decoding: try mapper.encode(probe), as: UTF8.self)
        #expect(json == #"{"name":"ada","size":3,"note_text":"y"}"#)
        #expect(Probe.calls.gets == ["name", "note"])
    }

    @Test func aHandWrittenMappingOfAClassWithATableCallsItsAccessors() throws {
        Probe.calls = Calls()
        let mapping = Mapping<Probe>({ Probe() }) {
            Map(\.name, "full_name")
            Map(\.size, "size")
        }
        var registry = ModelRegistry()
        registry.register(mapping)
        let mapper = JSONMapper(registry: registry)
        let probe = try mapper.decode(Probe.self, from: Array(#"{"full_name":"ada","size":3}"#.utf8))
        #expect(probe.name == "ada" && probe.size == 3)
        // Only the property whose table entry has accessors is set through them.
        #expect(Probe.calls.sets == ["name"])
        #expect(String(decoding: try mapper.encode(probe), as: UTF8.self) == #"{"full_name":"ada","size":3}"#)
        #expect(Probe.calls.gets == ["name"])
    }

    /// Non-final, with an observer: a subclass overrides the property with one of its own.
    @Mappable class Account: @unchecked Sendable {
        var balance = 0 {
            didSet { changes += 1 }
        }
        var owner = ""
        weak var manager: Account?
        @MapIgnore var changes = 0

        required init() {}
    }

    @Mappable class AuditedAccount: Account, @unchecked Sendable {
        @MapIgnore var audit: [Int] = []
        override var balance: Int {
            didSet { audit.append(balance) }
        }
    }

    @Test func setterObserversAndOverridesRunOnceAsThroughTheKeyPath() throws {
        var registry = ModelRegistry()
        registry.register(Account.self)
        registry.register(AuditedAccount.self)
        let mapper = JSONMapper(registry: registry)
        let bytes = Array(#"{"balance":40,"owner":"ada"}"#.utf8)
        let account = try mapper.decode(Account.self, from: bytes)
        #expect(account.balance == 40 && account.owner == "ada" && account.changes == 1)
        let audited = try mapper.decode(AuditedAccount.self, from: bytes)
        #expect(audited.balance == 40 && audited.changes == 1 && audited.audit == [40])
        // The key path runs the same setter once.
        let reference = AuditedAccount()
        reference[keyPath: \AuditedAccount.balance] = 40
        #expect(reference.changes == audited.changes && reference.audit == audited.audit)
        #expect(String(decoding: try mapper.encode(audited), as: UTF8.self) == #"{"balance":40,"owner":"ada"}"#)
    }

    @Test func aWeakPropertyIsSetThroughItsAccessorWhenWeakPropertiesConvert() throws {
        var registry = ModelRegistry(options: MappingOptions { $0.convertsWeakProperties = true })
        registry.register(Account.self)
        let mapper = JSONMapper(registry: registry)
        // The manager is held by nothing else: the weak property is nil once decoding returns, as through a key path.
        let account = try mapper.decode(Account.self, from: Array(#"{"balance":1,"owner":"a","manager":{"owner":"b"}}"#.utf8))
        #expect(account.manager == nil && account.owner == "a")
        // A manager held elsewhere is written through the getter.
        let manager = Account()
        manager.owner = "b"
        account.manager = manager
        #expect(String(decoding: try mapper.encode(account), as: UTF8.self).contains(#""manager":{"#))
    }
}
