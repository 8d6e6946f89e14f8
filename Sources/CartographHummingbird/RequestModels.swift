#if Hummingbird
    // Compiled only with the package trait `Hummingbird` (Package.swift): without it the target is empty.
    import Cartograph
    import CartographHTTP
    import Hummingbird
    import NIOConcurrencyHelpers
    import NIOCore

    extension Request {
        /// The models of a large JSON body, one per element of the array at
        /// `path`, each delivered as soon as its element has arrived: memory is
        /// bounded by the largest element, not by the body. The context's
        /// `maxUploadSize` is enforced while reading (413); a malformed element
        /// or one that does not fit the model ends the sequence with a 400 that
        /// gives the element, the position and the path.
        ///
        /// ```swift
        /// router.post("/import") { request, context -> Summary in
        ///     var count = 0
        ///     for try await order in request.models(Order.self, at: "$.orders", mapper: App.mapper, context: context) { count += 1 }
        ///     return Summary(count: count)
        /// }
        /// ```
        public func models<Model>(
            _ type: Model.Type, at path: StreamPath = .topLevelArray, mapper: JSONMapper = JSONMapper(),
            context: some RequestContext
        ) -> RequestModels<Model> {
            let limit = context.maxUploadSize
            // The transform must be Sendable; the chunks arrive one at a time,
            // so the lock is never contended.
            let received = NIOLockedValueBox(0)
            let chunks = body.map { (buffer: ByteBuffer) throws -> [UInt8] in
                let total = received.withLockedValue { bytes in
                    bytes += buffer.readableBytes
                    return bytes
                }
                guard total <= limit else { throw HTTPError(.contentTooLarge, message: WireFormat.tooLargeMessage(limit)) }
                return Array(buffer.readableBytesView)
            }
            return RequestModels(base: mapper.models(Model.self, from: chunks, path: path))
        }
    }

    /// Models streamed out of a request body (see `Request.models(_:at:mapper:context:)`):
    /// Cartograph's errors come out as `HTTPError`s.
    public struct RequestModels<Model>: AsyncSequence {
        public typealias Element = Model
        let base: DecodedModels<Model, AsyncThrowingMapSequence<RequestBody, [UInt8]>>

        /// Starts reading the body.
        public func makeAsyncIterator() -> Iterator { Iterator(base: base.makeAsyncIterator()) }

        /// Hands out models one at a time, reading the body on demand.
        public struct Iterator: AsyncIteratorProtocol {
            var base: DecodedModels<Model, AsyncThrowingMapSequence<RequestBody, [UInt8]>>.Iterator

            /// The next model, nil at the end of the array.
            public mutating func next() async throws -> Model? {
                do {
                    return try await base.next()
                } catch {
                    guard let message = ErrorMessage.text(decoding: error) else { throw error }
                    let element = (error as? CartographError)?.elementIndex.map { "element \($0): " } ?? ""
                    throw HTTPError(.badRequest, message: element + message)
                }
            }
        }
    }
#endif
