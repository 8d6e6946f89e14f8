#if Vapor
    // Compiled only with the package trait `Vapor` (Package.swift): without it the target is empty.
    import Cartograph
    import CartographHTTP
    import NIOCore
    import Vapor

    /// A Vapor `ContentDecoder` backed by Cartograph: JSON, or a property list
    /// (XML or binary, the bytes decide) when the content type names one.
    /// Bodies that cannot be decoded become `400 Bad Request` with the
    /// position and the path in the reason.
    public struct CartographContentDecoder: ContentDecoder {
        /// Decodes JSON bodies (its registry and options apply).
        public var mapper: JSONMapper
        /// Decodes property-list bodies.
        public var propertyLists: PropertyListMapper

        /// A decoder with the given mappers; the defaults decode any `Decodable`.
        public init(mapper: JSONMapper = JSONMapper(), propertyLists: PropertyListMapper? = nil) {
            self.mapper = mapper
            self.propertyLists = WireFormat.propertyLists(for: mapper, propertyLists)
        }

        /// Decodes the body as `D`.
        public func decode<D: Decodable>(_ decodable: D.Type, from body: ByteBuffer, headers: HTTPHeaders) throws -> D {
            let contentType = headers.first(name: .contentType)
            guard let format = WireFormat(requestContentType: contentType) else {
                throw Abort(.unsupportedMediaType, reason: WireFormat.unsupportedMessage(contentType))
            }
            do {
                return try body.withUnsafeReadableBytes { try format.decode(D.self, from: $0, mapper: mapper, propertyLists: propertyLists) }
            } catch {
                throw Abort.answering(error)
            }
        }
    }

    extension Abort {
        /// What a server answers to an error raised while decoding a body: a
        /// 400 whose reason gives the place and the path for Cartograph's
        /// errors; any other error as it is.
        static func answering(_ error: any Error) -> any Error {
            guard let message = ErrorMessage.text(decoding: error) else { return error }
            return Abort(.badRequest, reason: message)
        }

        /// A 413 for a body over `limit` bytes, with the message the Hummingbird integration sends too.
        static func tooLarge(_ limit: Int) -> Abort { Abort(.payloadTooLarge, reason: WireFormat.tooLargeMessage(limit)) }
    }
#endif
