import Foundation
import Testing

@testable import Cartograph

/// Scalar properties of struct models are written in place
/// (``StoredScalar``); class models go through the codec path. The same
/// rules on a struct and on a class twin must agree on every value and every
/// error, creating and updating, under every null and leniency option.
@Suite struct StoredScalarTests {
    struct Inner: Equatable {
        var count = 1
    }

    struct Record: Equatable {
        var name = "default"
        var age = 7
        var id: Int64? = 5
        var ratio = 0.5
        var flag: Bool? = true
        var nickname: String? = "nick"
        var raw: JSONValue = "raw"
        var maybeRaw: JSONValue? = "raw"
        var at = Date(timeIntervalSince1970: 0)
        var small: UInt8 = 3
        var big: UInt64 = 4
        var kept = "kept"
        var must = "must"
        var loose = 0
        var inner = Inner()
        var observed = 0 {
            didSet { observations += 1 }
        }
        var observations = 0
    }

    final class RecordObject {
        var value = Record()
    }

    /// The same rules for the struct and, through `\.value`, for the class.
    static func rules<Model>(_ root: WritableKeyPath<Model, Record>) -> [MappingRule<Model>] {
        [
            Map(root.appending(path: \.name), "name"),
            Map(root.appending(path: \.age), "age"),
            Map(root.appending(path: \.id), "id"),
            Map(root.appending(path: \.ratio), "ratio"),
            Map(root.appending(path: \.flag), "flag"),
            Map(root.appending(path: \.nickname), "nickname"),
            Map(root.appending(path: \.raw), "raw"),
            Map(root.appending(path: \.maybeRaw), "maybeRaw"),
            Map(root.appending(path: \.at), "at"),
            Map(root.appending(path: \.small), "small"),
            Map(root.appending(path: \.big), "big"),
            Map(root.appending(path: \.kept), "kept", ignoreNull: true),
            Map(root.appending(path: \.must), "must", required: true),
            Map(root.appending(path: \.loose), "loose", lenient: true),
            Map(root.appending(path: \.inner.count), "inner.count"),
            Map(root.appending(path: \.observed), "observed")
        ]
    }

    static let inputs = [
        #"{}"#,
        #"{"must": "m"}"#,
        #"{"must": "m", "name": "N", "age": 30, "id": 9007199254740993, "ratio": 1e-3, "flag": false, "nickname": "x", "raw": [1, {"a": null}], "maybeRaw": 2, "at": "2023-11-14T22:13:20Z", "small": 255, "loose": "42", "inner": {"count": 8}, "observed": 3}"#,
        #"{"must": "m", "name": null, "age": null, "id": null, "ratio": null, "flag": null, "nickname": null, "raw": null, "maybeRaw": null, "at": null, "small": null, "kept": null, "loose": null, "inner": {"count": null}, "observed": null}"#,
        #"{"must": null}"#,
        #"{"must": "m", "age": "30"}"#,
        #"{"must": "m", "age": 1.5}"#,
        #"{"must": "m", "small": 256}"#,
        #"{"must": "m", "name": 12}"#,
        #"{"must": "m", "flag": "yes"}"#,
        #"{"must": "m", "at": "soon"}"#,
        #"{"must": "m", "at": "1700000000"}"#,
        #"{"must": "m", "loose": true}"#,
        #"{"must": "m", "inner": {"count": "x"}}"#,
        #"{"must": "m", "id": "12"}"#,
        // Read straight from the tape (structs) or through nodes (classes): the edges of each.
        #"{"must": "m", "age": 1e2, "id": 3.0, "big": 18446744073709551615, "ratio": -0.0, "small": 2E0}"#,
        #"{"must": "m", "id": 9223372036854775808}"#,
        #"{"must": "m", "big": -1}"#,
        #"{"must": "m", "big": 18446744073709551616}"#,
        #"{"must": "m", "ratio": 1e400}"#,
        #"{"must": "m", "ratio": 1e-400, "age": -9223372036854775808}"#,
        #"{"must": "m", "name": "caf\u00e9 \ud83d\ude00 \"q\"", "nickname": ""}"#,
        #"{"must": "m", "name": true, "age": false, "ratio": "2.5", "flag": 1}"#,
        #"{"must": "m", "loose": 7, "name": [], "age": {}}"#,
        #"{"must": "m", "small": -1}"#
    ]

    static let options: [(String, MappingOptions)] = [
        ("default", MappingOptions()),
        ("ignoreNulls", MappingOptions { $0.ignoreNulls = true }),
        ("resetToDefault", MappingOptions { $0.nullForNonOptional = .resetToDefault }),
        ("lenientScalars", MappingOptions { $0.lenientScalars = true })
    ]

    /// A value or an error, comparable across the two paths.
    enum Outcome: Equatable {
        case value(Record)
        case failure(CartographError.Kind, String?, String)
    }

    static func outcome(_ body: () throws -> Record) -> Outcome {
        do {
            return .value(try body())
        } catch let error as CartographError {
            return .failure(error.kind, error.path, error.message)
        } catch {
            return .failure(.typeMismatch, nil, "unexpected \(error)")
        }
    }

    static func mappers(_ options: MappingOptions) -> (JSONMapper, JSONMapper) {
        var structs = ModelRegistry(options: options)
        structs.register(Mapping<Record>({ Record() }) { rules(\Record.self) })
        var objects = ModelRegistry(options: options)
        objects.register(Mapping<RecordObject>({ RecordObject() }) { rules(\RecordObject.value) })
        return (JSONMapper(registry: structs), JSONMapper(registry: objects))
    }

    @Test(arguments: 0..<options.count)
    func structsAgreeWithClassesCreating(option: Int) throws {
        let (structs, objects) = Self.mappers(Self.options[option].1)
        for input in Self.inputs {
            let viaStruct = Self.outcome { try structs.decode(Record.self, from: input) }
            let viaClass = Self.outcome { try objects.decode(RecordObject.self, from: input).value }
            #expect(viaStruct == viaClass, "\(Self.options[option].0): \(input)")
        }
    }

    @Test(arguments: 0..<options.count)
    func structsAgreeWithClassesUpdating(option: Int) throws {
        let (structs, objects) = Self.mappers(Self.options[option].1)
        for input in Self.inputs {
            var start = Record()
            start.name = "before"
            start.nickname = nil
            let viaStruct = Self.outcome {
                var model = start
                try structs.update(&model, from: input)
                return model
            }
            let viaClass = Self.outcome {
                let model = RecordObject()
                model.value = start
                try objects.update(model, from: input)
                return model.value
            }
            #expect(viaStruct == viaClass, "\(Self.options[option].0): \(input)")
        }
    }

    /// The matrix above must exercise the in-place path, or it proves nothing.
    @Test func plainStoredPropertiesTakeTheInPlacePath() {
        let rules = Self.rules(\Record.self)
        let stored = rules.filter { $0.stored != nil }.count
        // Every rule but the observed property (a key path through its setter).
        #expect(stored == rules.count - 1)
        #expect(Self.rules(\RecordObject.value).allSatisfy { $0.stored == nil })
        #expect(Map(\Record.age, coerceArray: true).stored == nil)
    }

    @Test func valuesLandInTheRightFields() throws {
        let (structs, _) = Self.mappers(MappingOptions())
        let record = try structs.decode(Record.self, from: Self.inputs[2])
        #expect(record.name == "N" && record.age == 30 && record.id == 9_007_199_254_740_993 && record.ratio == 0.001)
        #expect(record.flag == false && record.nickname == "x" && record.maybeRaw == 2 && record.small == 255 && record.loose == 42)
        #expect(record.raw == [1, ["a": nil]] && record.at == Date(timeIntervalSince1970: 1_700_000_000))
        #expect(record.inner.count == 8 && record.observed == 3 && record.observations == 1)
        let nulls = try Self.mappers(MappingOptions { $0.nullForNonOptional = .resetToDefault }).0.decode(
            Record.self,
            from: Self.inputs[3].replacingOccurrences(of: #""at": null, "#, with: ""))
        #expect(nulls.name == "" && nulls.age == 0 && nulls.id == nil && nulls.flag == nil && nulls.raw == .null && nulls.maybeRaw == nil)
        #expect(nulls.kept == "kept" && nulls.inner.count == 0 && nulls.small == 0)
    }
}
