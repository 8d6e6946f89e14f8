/// An array that skips elements that fail to decode instead of failing the
/// whole value. With ``JSONMapper/decodeLossy(_:from:)-(T.Type,_)``, every
/// skipped element's error is reported with its path; with other decoders
/// the elements are skipped silently.
///
/// ```swift
/// struct Feed: Codable { @LossyArray var items: [Item] }
/// ```
@propertyWrapper
public struct LossyArray<Element: Codable>: Codable {
    /// The elements that decoded.
    public var wrappedValue: [Element]

    /// Elements given in code.
    public init(wrappedValue: [Element]) { self.wrappedValue = wrappedValue }

    /// Reads the elements, skipping (and reporting) the ones that fail.
    public init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        var elements: [Element] = []
        let issues = (decoder as? DocumentDecoder)?.issues
        while !container.isAtEnd {
            do {
                elements.append(try container.decode(Element.self))
            } catch {
                if let issue = DecodingErrors.cartographError(error) { issues?.record(issue) }
                _ = try container.decode(SkippedElement.self)
            }
        }
        wrappedValue = elements
    }

    /// Writes the elements.
    public func encode(to encoder: any Encoder) throws {
        try wrappedValue.encode(to: encoder)
    }
}

/// Decodes any value to nothing, to step over an element.
struct SkippedElement: Decodable {
    init(from decoder: any Decoder) throws {}
}
