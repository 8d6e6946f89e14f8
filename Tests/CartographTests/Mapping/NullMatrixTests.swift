import Foundation
import Testing

@testable import Cartograph

/// Absent keys, nulls and defaults, per property and globally, creating and
/// updating (the matrix in ``NullForNonOptional``'s documentation).
@Suite struct NullMatrixTests {
    /// Non-final, as the seeds' models are.
    @Mappable
    class Profile {
        var name = "default"
        var age = 7
        var nickname: String? = "nick"
        var tags: [String] = ["t"]
        var scores: [String: Int] = [:]
        var raw: JSONValue = "raw"
        var kept = "kept"
        required init() {}
        static let mapping = Mapping<Profile>({ Profile() }) {
            Map(\.name)
            Map(\.age)
            Map(\.nickname)
            Map(\.tags)
            Map(\.scores)
            Map(\.raw)
            Map(\.kept, ignoreNull: true)
        }
    }

    private func mapper(_ configure: (inout MappingOptions) -> Void = { _ in }) -> JSONMapper {
        var registry = ModelRegistry(options: MappingOptions(configure))
        registry.register(Profile.mapping)
        return JSONMapper(registry: registry)
    }

    @Test func absentKeysLeaveProperties() throws {
        let created = try mapper().decode(Profile.self, from: "{}")
        #expect(created.name == "default" && created.age == 7 && created.nickname == "nick")
        try mapper().update(created, from: #"{"age": 8}"#)
        #expect(created.name == "default" && created.age == 8 && created.nickname == "nick")
    }

    @Test func nullClearsAnOptionalAndIsAnErrorForANonOptional() throws {
        let created = try mapper().decode(Profile.self, from: #"{"nickname": null, "raw": null, "kept": null}"#)
        #expect(created.nickname == nil)
        #expect(created.raw == .null) // null is a JSONValue
        #expect(created.kept == "kept") // this property ignores nulls
        let error = try #require(throws: CartographError.self) { try mapper().decode(Profile.self, from: #"{"age": null}"#) }
        #expect(error.kind == .typeMismatch && error.found == "null" && error.path == "$.age")
        let updated = Profile()
        #expect(throws: CartographError.self) { try mapper().update(updated, from: #"{"name": null}"#) }
    }

    @Test func ignoreNullsKeepsEveryPropertyCreatingAndUpdating() throws {
        let ignoring = mapper { $0.ignoreNulls = true }
        let created = try ignoring.decode(Profile.self, from: #"{"name": null, "age": null, "nickname": null}"#)
        #expect(created.name == "default" && created.age == 7 && created.nickname == "nick")
        let updated = Profile()
        updated.age = 30
        try ignoring.update(updated, from: #"{"age": null, "nickname": null, "name": "N"}"#)
        #expect(updated.age == 30 && updated.nickname == "nick" && updated.name == "N")
    }

    @Test func ignoreNullsAppliesInsideArraysAndDictionaries() throws {
        let json = #"{"tags": ["a", null, "b"], "scores": {"x": 1, "y": null}}"#
        let ignored = try mapper { $0.ignoreNulls = true }.decode(Profile.self, from: json)
        #expect(ignored.tags == ["a", "b"])
        #expect(ignored.scores == ["x": 1])
        #expect(throws: CartographError.self) { try mapper().decode(Profile.self, from: json) }
    }

    @Mappable
    final class Contact {
        var email: String?
        var phone: String?
        static let mapping = Mapping<Contact>({ Contact() }) {
            Map(\.email, nilEncoding: .null)
            Map(\.phone)
        }
    }

    @Test func nilEncodingPerProperty() throws {
        var registry = ModelRegistry()
        registry.register(Contact.mapping)
        #expect(String(decoding: try JSONMapper(registry: registry).encode(Contact()), as: UTF8.self) == #"{"email":null}"#)
        var writingNulls = ModelRegistry(options: MappingOptions { $0.nilEncoding = .null })
        writingNulls.register(
            Mapping<Contact>({ Contact() }) {
                Map(\.email)
                Map(\.phone, nilEncoding: .omit)
            })
        #expect(String(decoding: try JSONMapper(registry: writingNulls).encode(Contact()), as: UTF8.self) == #"{"email":null}"#)
    }

    @Mappable
    final class Stamp {
        var at = Date(timeIntervalSince1970: 0)
        static let mapping = Mapping<Stamp>({ Stamp() }) { Map(\.at, lenient: true) }
    }

    @Test func lenientDatesReadEpochSecondsWrittenAsStrings() throws {
        var registry = ModelRegistry()
        registry.register(Stamp.mapping)
        let mapper = JSONMapper(registry: registry)
        #expect(try mapper.decode(Stamp.self, from: #"{"at": "1700000000"}"#).at == Date(timeIntervalSince1970: 1_700_000_000))
        #expect(try mapper.decode(Stamp.self, from: #"{"at": "2023-11-14T22:13:20Z"}"#).at == Date(timeIntervalSince1970: 1_700_000_000))
        #expect(throws: CartographError.self) { try mapper.decode(Stamp.self, from: #"{"at": "soon"}"#) }
        var strict = ModelRegistry()
        strict.register(Mapping<Stamp>({ Stamp() }) { Map(\.at) })
        #expect(throws: CartographError.self) { try JSONMapper(registry: strict).decode(Stamp.self, from: #"{"at": "1700000000"}"#) }
    }

    @Test func resetToDefaultSetsTheTypesZero() throws {
        let resetting = mapper { $0.nullForNonOptional = .resetToDefault }
        let created = try resetting.decode(Profile.self, from: #"{"name": null, "age": null, "tags": null, "scores": null, "nickname": null}"#)
        #expect(created.name == "" && created.age == 0 && created.tags.isEmpty && created.scores.isEmpty && created.nickname == nil)
    }
}
