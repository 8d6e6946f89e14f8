#if Vapor
    // Compiled only with the package trait `Vapor` (Package.swift): without it the target is empty.
    import Cartograph
    import CartographVapor
    import Foundation
    import HTTPTestSupport
    import Testing
    import Vapor

    /// A real Vapor app on 127.0.0.1 (ephemeral port) with Cartograph's coders
    /// registered for JSON and plists, driven over real HTTP by URLSession.
    @Suite(.serialized) struct VaporServerTests {
        struct Order: Content, Equatable {
            var id: Int
            var customer: String
            var lines: [Line]
            struct Line: Codable, Equatable, Sendable {
                var sku: String
                var quantity: Int
            }
        }

        static let order = Order(id: 7, customer: "Ada", lines: [.init(sku: "A-1", quantity: 2), .init(sku: "B-2", quantity: 1)])

        /// What the streamed route read, and whether the body reached it unread.
        struct StreamedOrder: Content {
            var lines: Int
            var customer: String
            var streamed: Bool
        }

        /// An order with `count` lines of about 60 bytes each.
        static func orderBody(lines count: Int) -> [UInt8] {
            let line = #"{"sku": "a stock keeping unit with a long name", "quantity": 3}"#
            return Array((#"{"id": 1, "customer": "c", "lines": ["# + Array(repeating: line, count: count).joined(separator: ",") + "]}").utf8)
        }

        /// Names the `Decoder` and `Encoder` that ran it: which coder a route really used.
        struct CoderProbe: Content {
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

        /// Runs `body` against a live app, then shuts it down.
        /// `configure`: the app's coders; by default only Cartograph's (Vapor's
        /// default configuration would also decode plain text and forms, with
        /// its own decoders, a 400 for a model).
        func withApp(configure: (inout ContentConfiguration) -> Void = { $0.useCartograph() }, _ body: (URL) async throws -> Void) async throws {
            var content = ContentConfiguration()
            configure(&content)
            ContentConfiguration.global = content
            // Arguments of our own: Vapor would otherwise read the test runner's.
            let app = try await Application.make(Environment(name: "testing", arguments: ["vapor"]))
            app.routes.defaultMaxBodySize = "4mb"
            app.post("orders") { request async throws -> Order in
                try request.content.decode(Order.self)
            }
            app.post("tags") { request async throws -> HTTPStatus in
                _ = try request.content.decode([String: Int].self)
                return .ok
            }
            app.post("probe") { request async throws -> CoderProbe in
                try request.content.decode(CoderProbe.self)
            }
            // Streamed routes: the body reaches `decodeBody` in pieces
            // (`streamed` says Vapor had not collected it).
            app.on(.POST, "stream", body: .stream) { request async throws -> StreamedOrder in
                let streamed = request.body.data == nil
                let order = try await request.decodeBody(Order.self, maxBytes: 8 << 20)
                return StreamedOrder(lines: order.lines.count, customer: order.customer, streamed: streamed)
            }
            app.on(.POST, "stream", "small", body: .stream) { request async throws -> Order in
                try await request.decodeBody(Order.self, maxBytes: 200)
            }
            app.post("orders", "plist") { request async throws -> Response in
                let order = try request.content.decode(Order.self)
                let response = Response(status: .ok)
                try response.content.encode(order, as: request.headers.first(name: .accept) == "application/x-bplist" ? .binaryPlist : .plist)
                return response
            }
            do {
                try await app.server.start(address: .hostname("127.0.0.1", port: 0))
                let port = try #require(app.http.server.shared.localAddress?.port)
                try await body(URL(string: "http://127.0.0.1:\(port)")!)
            } catch {
                await app.server.shutdown()
                try await app.asyncShutdown()
                throw error
            }
            await app.server.shutdown()
            try await app.asyncShutdown()
        }

        @Test func jsonThroughCartographBothWays() async throws {
            try await withApp { base in
                let response = try await LiveHTTP.post(base.appendingPathComponent("orders"), Bodies.order)
                #expect(response.status == 200 && response.contentType == "application/json; charset=utf-8")
                #expect(try JSONMapper().decode(Order.self, from: response.body) == Self.order)
            }
        }

        /// Vapor's own `JSONDecoder`/`JSONEncoder` content coders, handed
        /// Cartograph's subclasses typed as Foundation's: Cartograph's coders
        /// run, with the Foundation properties set on them.
        @Test func cartographCodersTypedAsFoundationsServeARoute() async throws {
            let decoder: JSONDecoder = CartographJSONDecoder()
            decoder.keyDecodingStrategy = .convertFromSnakeCase
            let encoder: JSONEncoder = CartographJSONEncoder()
            encoder.outputFormatting = .sortedKeys
            try await withApp(configure: { content in
                content.use(decoder: decoder, for: .json)
                content.use(encoder: encoder, for: .json)
            }) { base in
                let reply = try await LiveHTTP.post(base.appendingPathComponent("probe"), Array(#"{"customer_name": "Ada", "lines": [1,],}"#.utf8))
                #expect(reply.status == 200, "\(reply.text)")
                let fields = try JSONMapper().decode([String: String].self, from: reply.body)
                #expect(fields["customerName"] == "Ada")
                #expect(fields["decoder"] == "DocumentDecoder", "\(fields)")
                #expect(fields["encoder"]?.hasPrefix("TreeEncoder") == true, "\(fields)")
                #expect(reply.text.hasPrefix(#"{"customerName":"Ada","decoder""#), "sorted keys: \(reply.text)")
            }
        }

        @Test func unsupportedContentTypesAreA415() async throws {
            try await withApp { base in
                for type in ["text/plain", "text/csv"] {
                    let reply = try await LiveHTTP.post(base.appendingPathComponent("orders"), Bodies.order, contentType: type)
                    #expect(reply.status == 415, "\(type): \(reply.text)")
                }
            }
        }

        @Test func invalidBodiesAreA400WithThePlace() async throws {
            try await withApp { base in
                let broken = try await LiveHTTP.post(base.appendingPathComponent("orders"), Bodies.broken)
                let brokenText = broken.text
                #expect(broken.status == 400 && brokenText.contains("2:14"), "\(brokenText)")
                let mistyped = try await LiveHTTP.post(base.appendingPathComponent("orders"), Bodies.mistyped)
                let mistypedText = mistyped.text
                #expect(mistyped.status == 400 && mistypedText.contains("$.lines[0].quantity"), "\(mistypedText)")
            }
        }

        /// A key holding CR, LF, ESC and a bidirectional override reaches the
        /// 400 body escaped: a client cannot forge a log line through it.
        @Test func controlCharactersFromTheBodyAreEscapedInThe400() async throws {
            try await withApp { base in
                let reply = try await LiveHTTP.post(base.appendingPathComponent("tags"), Bodies.forgedKey)
                #expect(reply.status == 400)
                // Vapor writes {"error": true, "reason": …}: the reason as a client reads it.
                let object = try JSONSerialization.jsonObject(with: Data(reply.body)) as? [String: Any]
                let reason = try #require(object?["reason"] as? String, "\(reply.text)")
                #expect(!Bodies.holdsUnsafeCharacters(reason), "\(reason.debugDescription)")
                #expect(reason.contains(#"x\u{D}\u{A}INFO forged entry\u{1B}[2J\u{202E}gnp"#), "\(reason)")
            }
        }

        @Test func largeBodiesAndTheLimit() async throws {
            try await withApp { base in
                let response = try await LiveHTTP.post(base.appendingPathComponent("orders"), Self.orderBody(lines: 40_000))
                #expect(response.status == 200)
                #expect(try JSONMapper().decode(Order.self, from: response.body).lines.count == 40_000)
                #expect(try await LiveHTTP.post(base.appendingPathComponent("orders"), Self.orderBody(lines: 80_000)).status == 413)
            }
        }

        /// `decodeBody` on a `body: .stream` route: a 2.4 MB body parsed as
        /// its pieces arrive, never collected by Vapor.
        @Test func aStreamedRouteDecodesTheBodyAsItArrives() async throws {
            try await withApp { base in
                let reply = try await LiveHTTP.post(base.appendingPathComponent("stream"), Self.orderBody(lines: 40_000))
                #expect(reply.status == 200, "\(reply.text.prefix(200))")
                let read = try JSONMapper().decode(StreamedOrder.self, from: reply.body)
                #expect(read.lines == 40_000 && read.customer == "c" && read.streamed)
                let small = try await LiveHTTP.post(base.appendingPathComponent("stream"), Bodies.order)
                #expect(try JSONMapper().decode(StreamedOrder.self, from: small.body).lines == 2)
                // A large property list is collected from its pieces, then read.
                let lines = Array(repeating: Order.Line(sku: "a stock keeping unit", quantity: 3), count: 40_000)
                let plist = try PropertyListMapper().encode(Order(id: 1, customer: "c", lines: lines), format: .binary)
                let plistReply = try await LiveHTTP.post(base.appendingPathComponent("stream"), plist, contentType: "application/x-bplist")
                let plistRead = try JSONMapper().decode(StreamedOrder.self, from: plistReply.body)
                #expect(plistRead.lines == 40_000 && plistRead.streamed)
                let overLimit = try await LiveHTTP.post(base.appendingPathComponent("stream/small"), plist, contentType: "application/x-bplist")
                #expect(overLimit.status == 413, "\(overLimit.text.prefix(200))")
            }
        }

        /// Its errors are the collected routes': 400 with the place, 413 over
        /// its limit, 415 for a type it does not read; an empty body is a 400.
        @Test func aStreamedRouteAnswersBadBodiesAsTheOthersDo() async throws {
            try await withApp { base in
                let url = base.appendingPathComponent("stream")
                let broken = try await LiveHTTP.post(url, Bodies.broken)
                #expect(broken.status == 400 && broken.text.contains("2:14"), "\(broken.text)")
                let mistyped = try await LiveHTTP.post(url, Bodies.mistyped)
                #expect(mistyped.status == 400 && mistyped.text.contains("$.lines[0].quantity"), "\(mistyped.text)")
                let empty = try await LiveHTTP.post(url, [])
                #expect(empty.status == 400, "\(empty.text)")
                let text = try await LiveHTTP.post(url, Bodies.order, contentType: "text/plain")
                #expect(text.status == 415, "\(text.text)")
                let small = base.appendingPathComponent("stream/small")
                #expect(try await LiveHTTP.post(small, Bodies.order).status == 200)
                let tooLarge = try await LiveHTTP.post(small, Self.orderBody(lines: 20))
                #expect(tooLarge.status == 413, "\(tooLarge.text)")
                let largePlist = try PropertyListMapper().encode(
                    Order(id: 1, customer: "c", lines: Array(repeating: .init(sku: "s", quantity: 1), count: 20)), format: .xml)
                #expect(try await LiveHTTP.post(small, largePlist, contentType: "application/x-plist").status == 413)
                // A large body broken at its start: the 400 is sent while the
                // rest still arrives (read and dropped), and the connection
                // serves the next request, as after the 413s above.
                let brokenLarge = Array("{\"id\": tru".utf8) + Self.orderBody(lines: 40_000)
                let brokenLargeReply = try await LiveHTTP.post(url, brokenLarge)
                #expect(brokenLargeReply.status == 400 && brokenLargeReply.text.contains("1:8"), "\(brokenLargeReply.text.prefix(200))")
                // A property list is collected within the limit, then read.
                let plist = try PropertyListMapper().encode(Self.order, format: .binary)
                let plistReply = try await LiveHTTP.post(url, plist, contentType: "application/x-bplist")
                #expect(try JSONMapper().decode(StreamedOrder.self, from: plistReply.body).lines == 2, "\(plistReply.text)")
            }
        }

        @Test func propertyListBodiesAndResponses() async throws {
            try await withApp { base in
                let plist = PropertyListMapper()
                for (format, type) in [(PropertyListFormat.binary, "application/x-bplist"), (.xml, "application/x-plist")] {
                    let body = try plist.encode(Self.order, format: format)
                    let response = try await LiveHTTP.post(base.appendingPathComponent("orders/plist"), body, contentType: type, accept: type)
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
