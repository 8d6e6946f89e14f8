import Cartograph
@_exported import CartographHTTP
import Hummingbird
import NIOCore

/// A Hummingbird `ResponseEncoder` backed by Cartograph: JSON by default,
/// an XML or binary property list when the request's `Accept` header asks
/// for one (see ``WireFormat``).
public struct CartographResponseEncoder: ResponseEncoder, Sendable {
    /// Encodes JSON responses (its registry and write options apply).
    public var mapper: JSONMapper
    /// Encodes property-list responses.
    public var propertyLists: PropertyListMapper

    /// An encoder with the given mappers; the defaults encode any `Encodable`.
    public init(mapper: JSONMapper = JSONMapper(), propertyLists: PropertyListMapper? = nil) {
        self.mapper = mapper
        self.propertyLists = propertyLists ?? PropertyListMapper(registry: mapper.registry)
    }

    /// Encodes `value` as the response body, in the format the request accepts.
    public func encode(_ value: some Encodable, from request: Request, context: some RequestContext) throws -> Response {
        let format = WireFormat(accept: request.headers[.accept])
        let bytes: [UInt8]
        switch format {
        case .json: bytes = try mapper.encode(value)
        case .xmlPropertyList: bytes = try propertyLists.encode(value, format: .xml)
        case .binaryPropertyList: bytes = try propertyLists.encode(value, format: .binary)
        }
        return Response(
            status: .ok,
            headers: [.contentType: format.mediaType, .contentLength: String(bytes.count)],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes))
        )
    }
}
