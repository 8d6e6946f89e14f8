import Foundation
import Testing

@testable import Cartograph

/// Every `Map` overload takes the same per-property options, a transform on
/// an optional property treats `null` as the property's absence of a value,
/// and `Getter` writes what the model computes.
@Suite struct MapOverloadTests {
    @Mappable final class Tenant {
        var firstName: String?
    }

    @Mappable final class Lease {
        var code: String?
        var note: String?
        var start: Date?
        var days: [Date] = []
        var tenant: Tenant?
    }

    /// A transform written as closures over `String`, for a `String?`
    /// property: its type is inferred as `Transform<String?>`.
    static let upper = Transform(decode: { try $0.string().uppercased() }, encode: { JSONValue.string($0.lowercased()) })

    private func mapper(_ mapping: Mapping<Lease>, _ configure: (inout MappingOptions) -> Void = { _ in }) -> JSONMapper {
        var options = MappingOptions()
        configure(&options)
        var registry = ModelRegistry(options: options)
        registry.register(mapping)
        registry.register(Tenant.self)
        return JSONMapper(registry: registry)
    }

    @Test func aTransformInferredAsOptionalClearsOnNullOrLeavesWithIgnoreNull() throws {
        let clearing = mapper(Mapping<Lease>({ Lease() }) { Map(\.code, transform: Self.upper) })
        let lease = try clearing.decode(Lease.self, from: #"{"code": "ab"}"#)
        #expect(lease.code == "AB")
        try clearing.update(lease, from: #"{"code": null}"#)
        #expect(lease.code == nil)
        // Nil is left out when writing, as for any optional.
        #expect(String(decoding: try clearing.encode(lease), as: UTF8.self) == "{}")
        let keeping = mapper(Mapping<Lease>({ Lease() }) { Map(\.code, transform: Self.upper, ignoreNull: true) })
        lease.code = "KEEP"
        try keeping.update(lease, from: #"{"code": null}"#)
        #expect(lease.code == "KEEP")
        // The registry's option does the same.
        let ignoring = mapper(Mapping<Lease>({ Lease() }) { Map(\.code, transform: Self.upper) }) { $0.ignoreNulls = true }
        try ignoring.update(lease, from: #"{"code": null}"#)
        #expect(lease.code == "KEEP")
    }

    @Test func everyOverloadTakesNilEncodingAndKeysPerDirection() throws {
        let mapping = Mapping<Lease>({ Lease() }) {
            Map(\.note, decode: "legacy_note", encode: "note", nilEncoding: .null)
            Map(\.start, decode: "started", encode: "start", transform: .iso8601, nilEncoding: .null)
            Map(\.days, decode: "dayList", encode: "days", transform: .iso8601)
            Map(\.code, "code", transform: Self.upper, nilEncoding: .null)
        }
        let mapper = mapper(mapping)
        let lease = try mapper.decode(
            Lease.self, from: #"{"legacy_note": "n", "started": "2020-01-01T00:00:00Z", "dayList": ["2020-01-02T00:00:00Z"]}"#)
        #expect(lease.note == "n" && lease.start == Date(timeIntervalSince1970: 1_577_836_800) && lease.days.count == 1)
        #expect(try mapper.encodeValue(lease) == ["note": "n", "start": "2020-01-01T00:00:00Z", "days": ["2020-01-02T00:00:00Z"], "code": nil])
        let empty = Lease()
        #expect(try mapper.encodeValue(empty) == ["note": nil, "start": nil, "days": [], "code": nil])
    }

    @Test func aGetterWritesAPathThroughAnOptionalReference() throws {
        let mapping = Mapping<Lease>({ Lease() }) {
            Map(\.code)
            Getter("tenantName") { $0.tenant?.firstName }
            Getter("tenant.initial", nilEncoding: .null) { $0.tenant?.firstName?.first.map(String.init) }
        }
        try mapping.validate()
        let mapper = mapper(mapping)
        let lease = Lease()
        lease.code = "c"
        #expect(try mapper.encodeValue(lease) == ["code": "c", "tenant": ["initial": nil]])
        lease.tenant = Tenant()
        lease.tenant?.firstName = "Ada"
        #expect(try mapper.encodeValue(lease) == ["code": "c", "tenantName": "Ada", "tenant": ["initial": "A"]])
        // Never read: a key of that name in the input changes nothing.
        let read = try mapper.decode(Lease.self, from: #"{"code": "x", "tenantName": "Bob"}"#)
        #expect(read.code == "x" && read.tenant == nil)
        // Nor used to recognise the model's objects.
        #expect(mapping.compile(options: MappingOptions()).keys == ["code"])
    }

    @Test func aGetterWithoutAKeyIsReported() {
        let mapping = Mapping<Lease>({ Lease() }) { Getter { $0.code } }
        #expect(throws: CartographError.self) { try mapping.validate() }
    }
}
