#if Hummingbird
    // Compiled only with the package trait `Hummingbird` (Package.swift): without it the target is empty.
    import Cartograph
    import CartographHTTP
    import CartographHummingbird
    import Foundation
    import HTTPTestSupport
    import Hummingbird
    import Testing

    /// A real Hummingbird server on 127.0.0.1 (ephemeral port) with Cartograph's
    /// coders, driven over real HTTP by URLSession.
    @Suite struct HummingbirdServerTests {
        struct Order: ResponseCodable, Equatable, Sendable {
            var id: Int
            var customer: String
            var lines: [Line]
            struct Line: Codable, Equatable, Sendable {
                var sku: String
                var quantity: Int
            }
        }

        struct Summary: ResponseCodable, Equatable, Sendable {
            var count: Int
            var quantity: Int
        }

        /// The service's context: Cartograph's coders and a 4 MiB upload limit.
        struct ServiceContext: RequestContext {
            var coreContext: CoreRequestContextStorage
            init(source: ApplicationRequestContextSource) { coreContext = .init(source: source) }
            var requestDecoder: CartographRequestDecoder { CartographRequestDecoder() }
            var responseEncoder: CartographResponseEncoder { CartographResponseEncoder() }
            var maxUploadSize: Int { 4 << 20 }
        }

        /// A context that takes Foundation's coder types, given Cartograph's
        /// subclasses: what a service already typed `JSONDecoder` switches to.
        struct FoundationTypedContext: RequestContext {
            var coreContext: CoreRequestContextStorage
            init(source: ApplicationRequestContextSource) { coreContext = .init(source: source) }
            var requestDecoder: JSONDecoder {
                let decoder: JSONDecoder = CartographJSONDecoder()
                decoder.keyDecodingStrategy = .convertFromSnakeCase
                return decoder
            }
            var responseEncoder: JSONEncoder {
                let encoder: JSONEncoder = CartographJSONEncoder()
                encoder.outputFormatting = [.sortedKeys]
                return encoder
            }
        }

        /// Names the `Decoder` and `Encoder` that ran it: which coder a route really used.
        struct CoderProbe: ResponseCodable, Sendable {
            var customerName: String
            var decoder: String
            var encoder = ""
            enum CodingKeys: String, CodingKey { case customerName, decoder, encoder }
            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: CodingKeys.self)
                customerName = try container.decode(String.self, forKey: .customerName)
                self.decoder = String(describing: type(of: decoder))
            }
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(customerName, forKey: .customerName)
                try container.encode(decoder, forKey: .decoder)
                try container.encode(String(describing: type(of: encoder)), forKey: .encoder)
            }
        }

        /// Runs `body` against a live server, then shuts it down.
        func withServer(_ body: @Sendable (URL) async throws -> Void) async throws {
            let router = Router(context: ServiceContext.self)
            router.post("/orders") { request, context -> Order in
                try await request.decode(as: Order.self, context: context)
            }
            router.post("/summary") { request, context -> Summary in
                let orders = try await request.decode(as: [Order].self, context: context)
                return Summary(count: orders.count, quantity: orders.flatMap(\.lines).map(\.quantity).reduce(0, +))
            }
            router.post("/tags") { request, context -> Summary in
                let tags = try await request.decode(as: [String: Int].self, context: context)
                return Summary(count: tags.count, quantity: tags.values.reduce(0, +))
            }
            router.post("/summary/stream") { request, context -> Summary in
                var summary = Summary(count: 0, quantity: 0)
                for try await order in request.models(Order.self, context: context) {
                    summary.count += 1
                    summary.quantity += order.lines.map(\.quantity).reduce(0, +)
                }
                return summary
            }
            try await run(router, body)
        }

        /// Serves `router` on 127.0.0.1 (an ephemeral port) while `body` runs.
        func run<Context: RequestContext>(_ router: Router<Context>, _ body: @Sendable (URL) async throws -> Void) async throws
        where Context.Source == ApplicationRequestContextSource {
            let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
            let app = Application(
                router: router,
                configuration: .init(address: .hostname("127.0.0.1", port: 0)),
                onServerRunning: { channel in
                    continuation.yield(channel.localAddress?.port ?? 0)
                    continuation.finish()
                }
            )
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await app.runService(gracefulShutdownSignals: []) }
                var iterator = ports.makeAsyncIterator()
                let port = try #require(await iterator.next())
                do {
                    try await body(URL(string: "http://127.0.0.1:\(port)")!)
                } catch {
                    group.cancelAll()
                    throw error
                }
                group.cancelAll()
            }
        }

        static let order = Order(id: 7, customer: "Ada", lines: [.init(sku: "A-1", quantity: 2), .init(sku: "B-2", quantity: 1)])

        @Test func decodesJSONAndEncodesTheResponse() async throws {
            try await withServer { base in
                let response = try await LiveHTTP.post(base.appendingPathComponent("orders"), Bodies.order)
                #expect(response.status == 200)
                #expect(response.contentType == "application/json; charset=utf-8")
                #expect(try JSONMapper().decode(Order.self, from: response.body) == Self.order)
            }
        }

        /// Hummingbird's own `JSONDecoder`/`JSONEncoder` conformances, handed
        /// Cartograph's subclasses: Cartograph's coders run (the probe names
        /// them), with the Foundation properties the context set.
        @Test func cartographCodersTypedAsFoundationsServeARoute() async throws {
            let router = Router(context: FoundationTypedContext.self)
            router.post("/probe") { request, context -> CoderProbe in
                try await request.decode(as: CoderProbe.self, context: context)
            }
            try await run(router) { base in
                let reply = try await LiveHTTP.post(base.appendingPathComponent("probe"), Array(#"{"customer_name": "Ada", "lines": [1,],}"#.utf8))
                #expect(reply.status == 200, "\(reply.text)")
                let fields = try JSONMapper().decode([String: String].self, from: reply.body)
                #expect(fields["customerName"] == "Ada")
                #expect(fields["decoder"] == "DocumentDecoder", "\(fields)")
                #expect(fields["encoder"]?.hasPrefix("TreeEncoder") == true, "\(fields)")
                #expect(reply.text.hasPrefix(#"{"customerName":"Ada","decoder""#), "sorted keys: \(reply.text)")
            }
        }

        /// A model read and written through a mapping, with keys per direction.
        struct Ticket: Mappable, ResponseCodable, Sendable {
            var id = 0
            var subject = ""
            var opened = Date(timeIntervalSince1970: 0)
            static let mapping = Mapping<Ticket>({ Ticket() }) {
                Map(\.id, decode: "ticket_id", encode: "id", required: true)
                Map(\.subject, "subject", required: true)
                Map(\.opened, "opened_at", transform: .iso8601)
            }
        }

        /// As the example service does: `GET /openapi.json` serves a document
        /// whose schemas come from the registry the routes run, and an outside
        /// validator accepts it.
        @Test func servesAnOpenAPIDocumentBuiltFromItsRegistry() async throws {
            var registry = ModelRegistry()
            registry.register(Ticket.self)
            let components = try registry.openAPIComponents(for: [Ticket.self])
            let document: JSONValue = [
                "openapi": "3.1.0", "info": ["title": "Tickets", "version": "1"],
                "paths": [
                    "/tickets": [
                        "post": [
                            "requestBody": ["content": ["application/json": ["schema": ["$ref": "#/components/schemas/Ticket-Input"]]]],
                            "responses": [
                                "200": [
                                    "description": "the ticket",
                                    "content": ["application/json": ["schema": ["$ref": "#/components/schemas/Ticket-Output"]]]
                                ]
                            ]
                        ]
                    ]
                ],
                "components": components
            ]
            let bytes = try document.encoded(options: .pretty)
            let router = Router(context: ServiceContext.self)
            router.get("/openapi.json") { _, _ in
                Response(status: .ok, headers: [.contentType: "application/json"], body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
            }
            try await run(router) { base in
                let reply = try await LiveHTTP.get(base.appendingPathComponent("openapi.json"))
                #expect(reply.status == 200 && reply.contentType == "application/json")
                let served = try JSONMapper().decode(JSONValue.self, from: reply.body)
                #expect(served["components"]?["schemas"]?["Ticket-Input"]?["required"] == ["ticket_id", "subject"])
                #expect(served["components"]?["schemas"]?["Ticket-Output"]?["properties"]?["opened_at"]?["format"] == "date-time")
                #expect(try OutsideValidators.openAPIProblem(reply.body) == nil)
            }
        }

        @Test func unsupportedContentTypesAreA415AndAcceptQualitiesAreHonoured() async throws {
            try await withServer { base in
                let url = base.appendingPathComponent("orders")
                for type in ["text/plain", "application/x-www-form-urlencoded", "text/csv", "multipart/form-data; boundary=x"] {
                    let reply = try await LiveHTTP.post(url, Bodies.order, contentType: type)
                    #expect(reply.status == 415, "\(type)")
                    #expect(reply.text.contains("is not read here"), "\(reply.text)")
                }
                #expect(try await LiveHTTP.post(url, Bodies.order, contentType: "application/vnd.api+json").status == 200)
                #expect(try await LiveHTTP.post(url, Bodies.order, contentType: "application/json; charset=utf-8").status == 200)
                let json = try await LiveHTTP.post(url, Bodies.order, accept: "application/x-plist;q=0, application/json")
                #expect(json.status == 200 && json.contentType == "application/json; charset=utf-8")
                let plist = try await LiveHTTP.post(url, Bodies.order, accept: "application/json;q=0.5, application/x-bplist")
                #expect(plist.status == 200 && plist.contentType == "application/x-bplist")
            }
        }

        @Test func propertyListBodiesShareTheUploadLimitAndItsMessage() async throws {
            try await withServer { base in
                // Distinct strings (a binary plist stores equal ones once): about 5 MB.
                let strings = (0..<5_000).map { String($0) + String(repeating: "x", count: 1_000) }
                let body = try PropertyListMapper().encode(strings, format: .binary)
                #expect(body.count > 4 << 20)
                let reply = try await LiveHTTP.post(base.appendingPathComponent("orders"), body, contentType: "application/x-bplist")
                #expect(reply.status == 413)
                #expect(reply.text.contains("the body is larger than 4194304 bytes"), "\(reply.text)")
            }
        }

        @Test(
            arguments: [
                (nil, WireFormat.json), ("application/x-plist;q=0, application/json", .json),
                ("application/json;q=0.5, application/x-bplist", .binaryPropertyList), ("text/html, application/x-plist;q=0.9", .xmlPropertyList),
                ("*/*;q=0.1, application/x-plist", .xmlPropertyList), ("application/x-bplist;q=0", .json), ("text/html", .json),
                ("application/x-plist, application/x-bplist", .xmlPropertyList), ("application/json, application/x-bplist;q=1", .json)
            ] as [(String?, WireFormat)])
        func acceptHeaderChoosesByQuality(_ header: String?, _ expected: WireFormat) {
            #expect(WireFormat(accept: header) == expected)
        }

        @Test func requestContentTypes() {
            #expect(WireFormat(requestContentType: nil) == .json)
            #expect(WireFormat(requestContentType: "Application/JSON; charset=utf-8") == .json)
            #expect(WireFormat(requestContentType: "application/problem+json") == .json)
            #expect(WireFormat(requestContentType: "application/x-bplist") == .binaryPropertyList)
            #expect(WireFormat(requestContentType: "text/xml") == .xmlPropertyList)
            #expect(WireFormat(requestContentType: "text/plain") == nil)
            #expect(WireFormat(requestContentType: "text/json+csv") == nil)
        }

        @Test func invalidBodiesAreA400WithThePlace() async throws {
            try await withServer { base in
                let broken = try await LiveHTTP.post(base.appendingPathComponent("orders"), Bodies.broken)
                #expect(broken.status == 400)
                let brokenText = broken.text
                #expect(brokenText.contains("2:14"), "\(brokenText)")
                let mistyped = try await LiveHTTP.post(base.appendingPathComponent("orders"), Bodies.mistyped)
                #expect(mistyped.status == 400)
                let mistypedText = mistyped.text
                #expect(mistypedText.contains("$.lines[0].quantity") && mistypedText.contains("offset 66"), "\(mistypedText)")
            }
        }

        /// A key holding CR, LF, ESC and a bidirectional override reaches the
        /// 400 body escaped: a client cannot forge a log line through it.
        @Test func controlCharactersFromTheBodyAreEscapedInThe400() async throws {
            try await withServer { base in
                let reply = try await LiveHTTP.post(base.appendingPathComponent("tags"), Bodies.forgedKey)
                #expect(reply.status == 400)
                // Hummingbird writes {"error": {"message": …}}: the message as a client reads it.
                let object = try JSONSerialization.jsonObject(with: reply.body) as? [String: Any]
                let message = try #require((object?["error"] as? [String: Any])?["message"] as? String, "\(reply.text)")
                #expect(!Bodies.holdsUnsafeCharacters(message), "\(message.debugDescription)")
                #expect(message.contains(#"x\u{D}\u{A}INFO forged entry\u{1B}[2J\u{202E}gnp"#), "\(message)")
            }
        }

        @Test func largeBodiesStreamInAndTheUploadLimitHolds() async throws {
            try await withServer { base in
                let line = #"{"id": 1, "customer": "a customer with a long name", "lines": [{"sku": "S", "quantity": 3}]}"#
                let count = 30_000 // about 2.8 MB: many reads on the server
                let body = Array(("[" + Array(repeating: line, count: count).joined(separator: ",") + "]").utf8)
                let response = try await LiveHTTP.post(base.appendingPathComponent("summary"), body)
                #expect(response.status == 200)
                #expect(try JSONMapper().decode(Summary.self, from: response.body) == Summary(count: count, quantity: 3 * count))
                let tooLarge = Array(("[" + Array(repeating: line, count: 50_000).joined(separator: ",") + "]").utf8)
                #expect(tooLarge.count > 4 << 20)
                #expect(try await LiveHTTP.post(base.appendingPathComponent("summary"), tooLarge).status == 413)
                // A large body broken at its start: the 400 is sent before the
                // rest is read, and the next requests are still served.
                let broken = Array("[tru".utf8) + body
                let brokenReply = try await LiveHTTP.post(base.appendingPathComponent("summary"), broken)
                #expect(brokenReply.status == 400 && brokenReply.text.contains("1:2"), "\(brokenReply.text.prefix(200))")
                for _ in 0..<3 {
                    #expect(try await LiveHTTP.post(base.appendingPathComponent("orders"), Bodies.order).status == 200)
                }
            }
        }

        @Test func modelsStreamOutOfALargeBody() async throws {
            try await withServer { base in
                let line = #"{"id": 1, "customer": "a customer with a long name", "lines": [{"sku": "S", "quantity": 3}]}"#
                let count = 30_000
                let body = Array(("[" + Array(repeating: line, count: count).joined(separator: ",") + "]").utf8)
                let url = base.appendingPathComponent("summary/stream")
                let response = try await LiveHTTP.post(url, body)
                #expect(response.status == 200)
                #expect(try JSONMapper().decode(Summary.self, from: response.body) == Summary(count: count, quantity: 3 * count))
                let bad = Array(("[" + line + "," + line.replacingOccurrences(of: "3}", with: "\"x\"}") + "]").utf8)
                let rejected = try await LiveHTTP.post(url, bad)
                #expect(rejected.status == 400 && rejected.text.contains("element 1") && rejected.text.contains("quantity"), "\(rejected.text)")
                let tooLarge = Array(("[" + Array(repeating: line, count: 50_000).joined(separator: ",") + "]").utf8)
                #expect(try await LiveHTTP.post(url, tooLarge).status == 413)
            }
        }

        @Test func propertyListBodiesAndResponses() async throws {
            try await withServer { base in
                let plist = PropertyListMapper()
                for (format, type) in [(PropertyListFormat.binary, "application/x-bplist"), (.xml, "application/x-plist")] {
                    let body = try plist.encode(Self.order, format: format)
                    let response = try await LiveHTTP.post(base.appendingPathComponent("orders"), body, contentType: type, accept: type)
                    #expect(response.status == 200 && response.contentType == type)
                    #expect(try plist.decode(Order.self, from: response.body) == Self.order)
                }
                let corrupt = try await LiveHTTP.post(
                    base.appendingPathComponent("orders"), Array("bplist00garbage".utf8), contentType: "application/x-bplist")
                #expect(corrupt.status == 400)
            }
        }
    }
#endif
