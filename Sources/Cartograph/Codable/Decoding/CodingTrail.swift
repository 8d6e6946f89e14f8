/// The coding path as a chain: one small allocation per nested container,
/// turned into `[CodingKey]` or `$.a[3].b` only when asked.
final class CodingTrail {
    let parent: CodingTrail?
    let key: any CodingKey

    init(parent: consuming CodingTrail?, key: consuming any CodingKey) {
        self.parent = parent
        self.key = key
    }

    static func keys(_ trail: CodingTrail?) -> [any CodingKey] {
        var keys: [any CodingKey] = []
        var node = trail
        while let current = node {
            keys.append(current.key)
            node = current.parent
        }
        return keys.reversed()
    }

    /// `$.statuses[3].user.id` for a coding path.
    static func render(_ keys: [any CodingKey]) -> String {
        var path = "$"
        for key in keys {
            if let index = key.intValue, key.stringValue == "Index \(index)" || key is IndexKey {
                path = PathText.appending(index, to: path)
            } else {
                path = PathText.appending(key.stringValue, to: path)
            }
        }
        return path
    }
}

/// The coding key of an array element.
struct IndexKey: CodingKey {
    let intValue: Int?
    var stringValue: String { "Index \(intValue ?? 0)" }
    init(_ index: Int) { intValue = index }
    init?(stringValue: String) { return nil }
    init?(intValue: Int) { self.intValue = intValue }
}

/// A coding key made from a JSON key (for `allKeys` and key strategies).
struct StringKey: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }
    init(_ string: String) { stringValue = string }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { return nil }
}
