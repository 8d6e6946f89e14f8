import Foundation

#if Hummingbird && Vapor
    import Cartograph
    import CartographHummingbird
    import CartographVapor
    import Hummingbird
    import NIOCore
    import Vapor

    /// The largest body the routes read.
    let bodyLimit = 4 << 20

    func serve(framework: String, port: Int) async throws {
        switch framework {
        case "hummingbird": try await serveHummingbird(port: port)
        case "vapor": try await serveVapor(port: port)
        default: fatalError("framework must be hummingbird or vapor")
        }
    }

    func serveHummingbird(port: Int) async throws {
        let router = Router(context: BasicRequestContext.self)
        // Cartograph's coders: over the models' `Codable` conformances, and
        // over their registered `@Mappable` mappings.
        for (path, mapper) in [("cartograph", JSONMapper()), ("cartograph-mappable", mappableMapper())] {
            let decoder = CartographRequestDecoder(mapper: mapper)
            let encoder = CartographResponseEncoder(mapper: mapper)
            router.post(RouterPath(path)) { request, context -> Hummingbird.Response in
                let records = try await decoder.decode([Record].self, from: request, context: context)
                return try encoder.encode(records, from: request, context: context)
            }
        }
        router.post("foundation") { request, context -> Hummingbird.Response in
            let records = try await JSONDecoder().decode([Record].self, from: request, context: context)
            return try JSONEncoder().encode(records, from: request, context: context)
        }
        router.post("echo") { request, _ -> Hummingbird.Response in
            let body = try await request.body.collect(upTo: bodyLimit)
            return Hummingbird.Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: body))
        }
        let app = Hummingbird.Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: port)))
        try await app.runService()
    }

    func serveVapor(port: Int) async throws {
        let app = try await Vapor.Application.make(Environment(name: "production", arguments: ["vapor"]))
        app.http.server.configuration.hostname = "127.0.0.1"
        app.http.server.configuration.port = port
        app.routes.defaultMaxBodySize = ByteCount(value: bodyLimit)
        app.logger.logLevel = .error
        for (path, mapper) in [("cartograph", JSONMapper()), ("cartograph-mappable", mappableMapper())] {
            let decoder = CartographContentDecoder(mapper: mapper)
            let encoder = CartographContentEncoder(mapper: mapper)
            app.post(PathComponent(stringLiteral: path)) { request async throws -> Vapor.Response in
                let records = try request.content.decode([Record].self, using: decoder)
                let response = Vapor.Response(status: .ok)
                try response.content.encode(records, using: encoder)
                return response
            }
        }
        app.post("foundation") { request async throws -> Vapor.Response in
            let records = try request.content.decode([Record].self, using: JSONDecoder())
            let response = Vapor.Response(status: .ok)
            try response.content.encode(records, using: JSONEncoder())
            return response
        }
        app.post("echo") { request async throws -> Vapor.Response in
            Vapor.Response(status: .ok, headers: ["Content-Type": "application/json"], body: .init(buffer: request.body.data ?? ByteBuffer()))
        }
        try await app.execute()
        try await app.asyncShutdown()
    }
#else
    func serve(framework: String, port: Int) async throws {
        FileHandle.standardError.write(Data("cartograph-http-bench serves only when built with --traits Hummingbird,Vapor\n".utf8))
        exit(2)
    }
#endif
