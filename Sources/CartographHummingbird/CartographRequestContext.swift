#if Hummingbird
    // Compiled only with the package trait `Hummingbird` (Package.swift): without it the target is empty.
    import Cartograph
    import Hummingbird

    /// A ready-made request context whose coders are Cartograph's, for services
    /// that need nothing else in their context: `Router(context: CartographRequestContext.self)`.
    ///
    /// Services with a registry of mappings, or a context of their own, return
    /// ``CartographRequestDecoder`` and ``CartographResponseEncoder`` built from
    /// their shared `JSONMapper` instead.
    public struct CartographRequestContext: RequestContext {
        /// Hummingbird's per-request storage.
        public var coreContext: CoreRequestContextStorage

        /// A context for one request.
        public init(source: ApplicationRequestContextSource) {
            coreContext = CoreRequestContextStorage(source: source)
        }

        /// Decodes request bodies with Cartograph.
        public var requestDecoder: CartographRequestDecoder { CartographRequestDecoder() }

        /// Encodes responses with Cartograph.
        public var responseEncoder: CartographResponseEncoder { CartographResponseEncoder() }
    }
#endif
