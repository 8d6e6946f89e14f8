#if Vapor
    // Compiled only with the package trait `Vapor` (Package.swift): without it the target is empty.
    import Cartograph
    @_exported import CartographHTTP
    import NIOCore
    import Vapor

    /// A Vapor `ContentEncoder` backed by Cartograph, writing one format: JSON,
    /// an XML property list or a binary one.
    public struct CartographContentEncoder: ContentEncoder {
        /// Encodes JSON (its registry and write options apply).
        public var mapper: JSONMapper
        /// Encodes property lists.
        public var propertyLists: PropertyListMapper
        /// What this encoder writes.
        public var format: WireFormat

        /// An encoder for `format` with the given mappers.
        public init(format: WireFormat = .json, mapper: JSONMapper = JSONMapper(), propertyLists: PropertyListMapper? = nil) {
            self.format = format
            self.mapper = mapper
            self.propertyLists = WireFormat.propertyLists(for: mapper, propertyLists)
        }

        /// Writes `encodable` to the body and sets the content type.
        public func encode<E: Encodable>(_ encodable: E, to body: inout ByteBuffer, headers: inout HTTPHeaders) throws {
            // One copy, from the encoder's output into Vapor's buffer.
            try format.withEncoded(encodable, mapper: mapper, propertyLists: propertyLists) { _ = body.writeBytes($0) }
            headers.replaceOrAdd(name: .contentType, value: format.mediaType)
        }
    }
#endif
