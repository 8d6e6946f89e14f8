import Foundation

/// The types the `Codable` encoders (the stream and the tree) write
/// themselves instead of calling their `encode(to:)`: arrays of the common
/// scalars, and the values with a JSON form of their own. The stream also
/// writes GeoJSON's coordinate shapes itself, `[[Double]]` (a line, a
/// ring) and `[[[Double]]]` (a polygon): through `Array.encode(to:)`, each
/// point was an unkeyed container's generic `encode`, a boxed index key
/// and a frame, three times the cost of writing its two numbers.
///
/// Every value encoded is asked (a `[[Double]]` of coordinates asks once
/// per pair), so the answer is one comparison of type identities per kind,
/// against identities looked up once: comparing metatypes (`T.self ==
/// [Double].self`) asks the runtime for the generic type's metadata each
/// time, and the cast after it (`as!`) was a dynamic cast; a fifth of a
/// `Codable` encode of canada.json went to the two.
enum SpecialEncoding {
    case doubles, integers, strings, int64s, booleans, date, data, decimal, url, jsonValue, doubleRows, doubleMatrices

    /// The kind of `type`, or nil for a type encoded through its `encode(to:)`.
    @inline(__always)
    static func of<T>(_ type: T.Type) -> SpecialEncoding? {
        let id = ObjectIdentifier(type)
        let known = Identities.shared
        if id == known.doubles { return .doubles }
        if id == known.integers { return .integers }
        if id == known.strings { return .strings }
        if id == known.int64s { return .int64s }
        if id == known.booleans { return .booleans }
        if id == known.date { return .date }
        if id == known.data { return .data }
        if id == known.decimal { return .decimal }
        if id == known.url { return .url }
        if id == known.jsonValue { return .jsonValue }
        if id == known.doubleRows { return .doubleRows }
        if id == known.doubleMatrices { return .doubleMatrices }
        return nil
    }

    private struct Identities {
        static let shared = Identities()
        let doubles = ObjectIdentifier([Double].self)
        let integers = ObjectIdentifier([Int].self)
        let strings = ObjectIdentifier([String].self)
        let int64s = ObjectIdentifier([Int64].self)
        let booleans = ObjectIdentifier([Bool].self)
        let date = ObjectIdentifier(Date.self)
        let data = ObjectIdentifier(Data.self)
        let decimal = ObjectIdentifier(Decimal.self)
        let url = ObjectIdentifier(URL.self)
        let jsonValue = ObjectIdentifier(JSONValue.self)
        let doubleRows = ObjectIdentifier([[Double]].self)
        let doubleMatrices = ObjectIdentifier([[[Double]]].self)
    }
}
