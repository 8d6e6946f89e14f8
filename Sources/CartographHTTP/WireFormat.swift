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

    /// The format of a request body with this `Content-Type` (JSON for
    /// anything that is not a plist; see ``init(requestContentType:)`` for
    /// the check servers make).
    public init(contentType: String?) {
        self = Self.match(contentType) ?? .json
    }

    /// The format of a request body, or nil when Cartograph does not read
    /// its `Content-Type` (`text/plain`, form data, CSV…): the server answers
    /// `415 Unsupported Media Type` instead of parsing it as JSON. No
    /// `Content-Type` at all is read as JSON; `application/json` and any
    /// `+json` type are JSON.
    public init?(requestContentType contentType: String?) {
        guard let contentType, let type = Self.mediaType(contentType) else {
            self = .json
            return
        }
        if let plist = Self.match(contentType) {
            self = plist
        } else if type == "application/json" || (type.hasPrefix("application/") && type.hasSuffix("+json")) {
            self = .json
        } else {
            return nil
        }
    }

    /// The format a client asked for with this `Accept` header, honouring
    /// quality values (RFC 9110 §12.5.1): the acceptable type with the
    /// highest `q` that Cartograph writes (`q=0` means "not this"); among
    /// equal `q`, the first listed. JSON when nothing listed is written
    /// here (or the header is absent).
    public init(accept: String?) {
        var best: (format: WireFormat, quality: Double)?
        for item in (accept ?? "").split(separator: ",") {
            let parts = item.split(separator: ";")
            guard let type = parts.first.map({ $0.trimmingCharacters(in: .whitespaces).lowercased() }), !type.isEmpty else { continue }
            var quality = 1.0
            for parameter in parts.dropFirst() {
                let pair = parameter.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                if pair.count == 2, pair[0].lowercased() == "q" { quality = Double(pair[1]).map { min(max($0, 0), 1) } ?? 0 }
            }
            guard quality > 0 else { continue }
            let format: WireFormat?
            if let plist = Self.match(type) {
                format = plist
            } else if type == "application/json" || type.hasSuffix("+json") || type == "*/*" || type == "application/*" {
                format = .json
            } else {
                format = nil
            }
            if let format, quality > (best?.quality ?? 0) { best = (format, quality) }
        }
        self = best?.format ?? .json
    }

    /// The lowercased `type/subtype` of a header value, without parameters.
    private static func mediaType(_ header: String) -> String? {
        let type = header.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
        return type.isEmpty ? nil : type
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
    /// The message of a `415` for a request body of this `Content-Type`.
    public static func unsupportedMessage(_ contentType: String?) -> String {
        "Content-Type \(contentType ?? "") is not read here: send application/json, application/x-plist or application/x-bplist"
    }

    /// The message of a `413` for a body over `limit` bytes (both formats, both servers).
    public static func tooLargeMessage(_ limit: Int) -> String { "the body is larger than \(limit) bytes" }

    /// `value` as a body in this format: JSON through `mapper`, a property
    /// list through `propertyLists`.
    public func encode(_ value: some Encodable, mapper: JSONMapper, propertyLists: PropertyListMapper) throws -> [UInt8] {
        switch self {
        case .json: return try mapper.encode(value)
        case .xmlPropertyList: return try propertyLists.encode(value, format: .xml)
        case .binaryPropertyList: return try propertyLists.encode(value, format: .binary)
        }
    }

    /// `value` as a body in this format, handed to `body` in place (valid
    /// only inside it): JSON is not copied into an array first, so a server
    /// copies it once, into its own buffer.
    public func withEncoded<Result>(
        _ value: some Encodable, mapper: JSONMapper, propertyLists: PropertyListMapper, _ body: (UnsafeRawBufferPointer) throws -> Result
    ) throws -> Result {
        switch self {
        case .json: return try mapper.withEncodedBytes(value, body)
        case .xmlPropertyList, .binaryPropertyList: return try encode(value, mapper: mapper, propertyLists: propertyLists).withUnsafeBytes(body)
        }
    }

    /// A whole body in this format as `T` (a plist body may be either plist
    /// format: the bytes decide).
    public func decode<T: Decodable>(
        _ type: T.Type, from bytes: UnsafeRawBufferPointer, mapper: JSONMapper,
        propertyLists: PropertyListMapper
    ) throws -> T {
        isPropertyList ? try propertyLists.decode(T.self, from: bytes) : try mapper.decode(T.self, from: bytes)
    }

    /// The property-list mapper to pair with `mapper` when none is given: the same registry.
    public static func propertyLists(for mapper: JSONMapper, _ given: PropertyListMapper?) -> PropertyListMapper {
        given ?? PropertyListMapper(registry: mapper.registry)
    }
}
