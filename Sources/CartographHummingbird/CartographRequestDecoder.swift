#if Hummingbird
    // Compiled only with the package trait `Hummingbird` (Package.swift): without it the target is empty.
    import Cartograph
    import CartographHTTP
    import Hummingbird
    import NIOCore

    /// A Hummingbird `RequestDecoder` backed by Cartograph.
    ///
    /// JSON bodies are parsed as they arrive, chunk by chunk, into a Cartograph
    /// document (no copy of the whole body is collected first), with the
    /// context's `maxUploadSize` enforced while reading; property-list bodies
    /// (`Content-Type` naming a plist, see `WireFormat` in CartographHTTP) are collected up to
    /// the same limit and read by ``propertyLists`` (Cartograph's own readers
    /// unless its options choose libplist). Malformed bodies and bodies that do
    /// not fit the model become `400 Bad Request` responses whose message gives
    /// the line, column and path; a body over the limit becomes
    /// `413 Content Too Large`.
    ///
    /// ```swift
    /// struct AppContext: RequestContext {
    ///     var coreContext: CoreRequestContextStorage
    ///     init(source: ApplicationRequestContextSource) { coreContext = .init(source: source) }
    ///     var requestDecoder: CartographRequestDecoder { CartographRequestDecoder(mapper: App.mapper) }
    ///     var responseEncoder: CartographResponseEncoder { CartographResponseEncoder(mapper: App.mapper) }
    /// }
    /// ```
    public struct CartographRequestDecoder: RequestDecoder, Sendable {
        /// Decodes JSON bodies (its registry and options apply).
        public var mapper: JSONMapper
        /// Decodes property-list bodies.
        public var propertyLists: PropertyListMapper

        /// A decoder with the given mappers; the defaults decode any `Decodable`.
        public init(mapper: JSONMapper = JSONMapper(), propertyLists: PropertyListMapper? = nil) {
            self.mapper = mapper
            self.propertyLists = WireFormat.propertyLists(for: mapper, propertyLists)
        }

        /// Decodes the request body as `T`.
        public func decode<T: Decodable>(_ type: T.Type, from request: Request, context: some RequestContext) async throws -> T {
            let limit = context.maxUploadSize
            let contentType = request.headers[.contentType]
            guard let format = WireFormat(requestContentType: contentType) else {
                throw HTTPError(.unsupportedMediaType, message: WireFormat.unsupportedMessage(contentType))
            }
            do {
                if format.isPropertyList {
                    // Collected within the same byte budget as JSON bodies, with
                    // the same 413 message (NIO's own error has none); the binary
                    // reader's expansion budget then bounds what the bytes become.
                    let body: ByteBuffer
                    do {
                        body = try await request.body.collect(upTo: limit)
                    } catch is NIOTooManyBytesError {
                        throw HTTPError(.contentTooLarge, message: WireFormat.tooLargeMessage(limit))
                    }
                    return try body.withUnsafeReadableBytes { try format.decode(T.self, from: $0, mapper: mapper, propertyLists: propertyLists) }
                }
                let parser = JSONParser(options: mapper.parseOptions)
                var received = 0
                for try await chunk in request.body {
                    received += chunk.readableBytes
                    guard received <= limit else { throw HTTPError(.contentTooLarge, message: WireFormat.tooLargeMessage(limit)) }
                    try chunk.withUnsafeReadableBytes { try parser.feed($0) }
                }
                let document = try parser.finish()
                return try mapper.decode(T.self, from: document.root)
            } catch {
                guard let message = ErrorMessage.text(decoding: error) else { throw error }
                throw HTTPError(.badRequest, message: message)
            }
        }
    }
#endif
