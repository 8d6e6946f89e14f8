import Cartograph
import Foundation

/// The body formats the Hummingbird coders speak, chosen from `Content-Type`
/// (requests) and `Accept` (responses).
///
/// Media types: `application/json` (the default), `application/x-plist` and
/// `application/xml` or `text/xml` for XML property lists, and
/// `application/x-bplist` for binary ones. A request whose content type names
/// a plist may be either plist format: the bytes decide.
public enum WireFormat: Sendable, Equatable {
    case json
    case xmlPropertyList
    case binaryPropertyList

    /// The format of a request body with this `Content-Type`.
    public init(contentType: String?) {
        self = Self.match(contentType) ?? .json
    }

    /// The format a client asked for with this `Accept` header: the first
    /// listed type Cartograph writes, else JSON.
    public init(accept: String?) {
        for item in (accept ?? "").split(separator: ",") {
            if let format = Self.match(String(item)) {
                self = format
                return
            }
            let type = item.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
            if type == "application/json" || type == "*/*" || type.hasSuffix("+json") { break }
        }
        self = .json
    }

    /// Whether the body is a property list.
    public var isPropertyList: Bool { self != .json }

    /// The `Content-Type` of a body in this format.
    public var mediaType: String {
        switch self {
        case .json: return "application/json; charset=utf-8"
        case .xmlPropertyList: return "application/x-plist"
        case .binaryPropertyList: return "application/x-bplist"
        }
    }

    private static func match(_ header: String?) -> WireFormat? {
        guard let header, let type = header.split(separator: ";").first else { return nil }
        switch type.trimmingCharacters(in: .whitespaces).lowercased() {
        case "application/x-bplist", "application/x-binary-plist": return .binaryPropertyList
        case "application/x-plist", "application/xml", "text/xml": return .xmlPropertyList
        default: return nil
        }
    }
}

extension WireFormat {
    /// `value` as a body in this format: JSON through `mapper`, a property
    /// list through `propertyLists`.
    public func encode(_ value: some Encodable, mapper: JSONMapper, propertyLists: PropertyListMapper) throws -> [UInt8] {
        switch self {
        case .json: return try mapper.encode(value)
        case .xmlPropertyList: return try propertyLists.encode(value, format: .xml)
        case .binaryPropertyList: return try propertyLists.encode(value, format: .binary)
        }
    }

    /// A whole body in this format as `T` (a plist body may be either plist
    /// format: the bytes decide).
    public func decode<T: Decodable>(_ type: T.Type, from bytes: UnsafeRawBufferPointer, mapper: JSONMapper,
                                     propertyLists: PropertyListMapper) throws -> T {
        isPropertyList ? try propertyLists.decode(T.self, from: bytes) : try mapper.decode(T.self, from: bytes)
    }

    /// The property-list mapper to pair with `mapper` when none is given: the same registry.
    public static func propertyLists(for mapper: JSONMapper, _ given: PropertyListMapper?) -> PropertyListMapper {
        given ?? PropertyListMapper(registry: mapper.registry)
    }
}
