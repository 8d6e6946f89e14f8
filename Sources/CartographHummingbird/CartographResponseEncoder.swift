#if Hummingbird
    // Compiled only with the package trait `Hummingbird` (Package.swift): without it the target is empty.
    import Cartograph
    @_exported import CartographHTTP
    import Hummingbird
    import NIOCore

    /// A Hummingbird `ResponseEncoder` backed by Cartograph: JSON by default,
    /// an XML or binary property list when the request's `Accept` header asks
    /// for one (see `WireFormat` in CartographHTTP).
    public struct CartographResponseEncoder: ResponseEncoder, Sendable {
        /// Encodes JSON responses (its registry and write options apply).
        public var mapper: JSONMapper
        /// Encodes property-list responses.
        public var propertyLists: PropertyListMapper

        /// An encoder with the given mappers; the defaults encode any `Encodable`.
        public init(mapper: JSONMapper = JSONMapper(), propertyLists: PropertyListMapper? = nil) {
            self.mapper = mapper
            self.propertyLists = WireFormat.propertyLists(for: mapper, propertyLists)
        }

        /// Encodes `value` as the response body, in the format the request accepts.
        public func encode(_ value: some Encodable, from request: Request, context: some RequestContext) throws -> Response {
            let format = WireFormat(accept: request.headers[.accept])
            // One copy, from the encoder's output into the response's buffer.
            let buffer = try format.withEncoded(value, mapper: mapper, propertyLists: propertyLists) { bytes in
                var buffer = ByteBufferAllocator().buffer(capacity: bytes.count)
                buffer.writeBytes(bytes)
                return buffer
            }
            return Response(
                status: .ok,
                headers: [.contentType: format.mediaType, .contentLength: String(buffer.readableBytes)],
                body: ResponseBody(byteBuffer: buffer)
            )
        }
    }
#endif
