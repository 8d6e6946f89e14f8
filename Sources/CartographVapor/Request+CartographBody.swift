#if Vapor
    // Compiled only with the package trait `Vapor` (Package.swift): without it the target is empty.
    import Cartograph
    import CartographHTTP
    import NIOCore
    import Vapor

    extension Request {
        /// Decodes the request body as `T` with Cartograph, reading a JSON body
        /// as it arrives: each piece is parsed when it comes, and no copy of
        /// the whole body is collected first.
        ///
        /// Vapor's `content.decode` needs the body collected, which a route
        /// does up to its collection limit. A route registered with
        /// `body: .stream` takes bodies of any size to this method instead,
        /// bounded by `maxBytes`:
        ///
        /// ```swift
        /// app.on(.POST, "orders", body: .stream) { request async throws -> Order in
        ///     try await request.decodeBody(Order.self, using: decoder)
        /// }
        /// ```
        ///
        /// A body Vapor has already collected (a small one that arrived
        /// whole) is decoded as it is, within the same limit. A
        /// property-list body (`Content-Type` naming one) is collected within
        /// `maxBytes`, then read (the binary format's offsets point anywhere). Errors are Vapor's: `415` for a content type
        /// Cartograph does not read, `413` for a body over `maxBytes`, `400`
        /// with the line, column and path for a body that is not valid or
        /// does not fit `T`.
        ///
        /// - Parameters:
        ///   - type: The type to decode.
        ///   - decoder: Its mappers decode the body (their registry and options apply).
        ///   - maxBytes: The most bytes read; by default the application's
        ///     `routes.defaultMaxBodySize`.
        public func decodeBody<T: Decodable>(
            _ type: T.Type, using decoder: CartographContentDecoder = CartographContentDecoder(), maxBytes: Int? = nil
        ) async throws -> T {
            let contentType = headers.first(name: .contentType)
            guard let format = WireFormat(requestContentType: contentType) else {
                throw Abort(.unsupportedMediaType, reason: WireFormat.unsupportedMessage(contentType))
            }
            let limit = maxBytes ?? application.routes.defaultMaxBodySize.value
            // Vapor collects a small body that arrived whole even on a
            // streamed route: the limit holds for it too.
            if let collected = body.data {
                guard collected.readableBytes <= limit else { throw Abort.tooLarge(limit) }
                return try decoder.decode(T.self, from: collected, headers: headers)
            }
            // A property list is collected (within the limit) and read whole;
            // JSON is parsed piece by piece.
            let reader = StreamedBody(parser: format.isPropertyList ? nil : JSONParser(options: decoder.mapper.parseOptions), limit: limit)
            let eventLoop = self.eventLoop
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                reader.continuation = continuation
                // `drain` hands every storage over, a stream's pieces as they
                // arrive (iterating `body` would stop the process on a request
                // that has none).
                body.drain { result in
                    switch result {
                    case .buffer(let chunk):
                        // Once an answer is given the rest is read and
                        // dropped, as Vapor's own collecting does: a body left
                        // unread would stall the connection's next request.
                        guard reader.continuation != nil else { break }
                        if let error = reader.take(chunk) { reader.finish(.failure(error)) }
                    case .error(let error): reader.finish(.failure(error))
                    case .end: reader.finish(.success(()))
                    }
                    return eventLoop.makeSucceededVoidFuture()
                }
            }
            guard let parser = reader.parser else { return try decoder.decode(T.self, from: reader.collected, headers: headers) }
            do {
                return try decoder.mapper.decode(T.self, from: try parser.finish().root)
            } catch {
                throw Abort.answering(error)
            }
        }
    }

    /// A body read as its pieces arrive, for ``Vapor/Request/decodeBody(_:using:maxBytes:)``:
    /// JSON parsed piece by piece, a property list collected.
    ///
    /// `@unchecked Sendable`: `drain` calls its handler on the request's
    /// event loop, one call at a time, and the decoding task reads the
    /// reader only after the continuation is resumed, which orders every
    /// write before it.
    private final class StreamedBody: @unchecked Sendable {
        /// The JSON parser; nil for a property list, whose bytes are collected.
        let parser: JSONParser?
        var collected = ByteBuffer()
        let limit: Int
        var received = 0
        var continuation: CheckedContinuation<Void, any Error>?

        init(parser: JSONParser?, limit: Int) {
            self.parser = parser
            self.limit = limit
        }

        /// Parses or keeps one piece; the error to answer with, if any.
        func take(_ chunk: ByteBuffer) -> (any Error)? {
            received += chunk.readableBytes
            guard received <= limit else { return Abort.tooLarge(limit) }
            guard let parser else {
                var chunk = chunk
                collected.writeBuffer(&chunk)
                return nil
            }
            do {
                try chunk.withUnsafeReadableBytes { try parser.feed($0) }
                return nil
            } catch {
                return Abort.answering(error)
            }
        }

        /// Resumes the decoding task, once (later results are dropped).
        func finish(_ result: Result<Void, any Error>) {
            continuation?.resume(with: result)
            continuation = nil
        }
    }
#endif
