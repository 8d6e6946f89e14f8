import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What both servers' tests send and how: real HTTP through URLSession.
public enum LiveHTTP {
    /// A response's status, body and content type.
    public struct Reply: Sendable {
        public let status: Int
        public let body: Data
        public let contentType: String?
        /// The body as text.
        public var text: String { String(decoding: body, as: UTF8.self) }
    }

    struct NotHTTP: Error {}

    /// POSTs `body` with a content type (and an `Accept` header when given).
    public static func post(_ url: URL, _ body: [UInt8], contentType: String = "application/json", accept: String? = nil) async throws -> Reply {
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        // The suite's CPU-bound tests share two cores with the live servers:
        // a request may wait its turn longer than URLSession's 60 s default.
        request.timeoutInterval = 180
        request.setValue(contentType, forHTTPHeaderField: "Content-Type")
        if let accept { request.setValue(accept, forHTTPHeaderField: "Accept") }
        let (data, response) = try await URLSession.shared.upload(for: request, from: Data(body))
        guard let http = response as? HTTPURLResponse else { throw NotHTTP() }
        return Reply(status: http.statusCode, body: data, contentType: http.value(forHTTPHeaderField: "Content-Type"))
    }

    /// GETs `url`.
    public static func get(_ url: URL) async throws -> Reply {
        let (data, response) = try await URLSession.shared.data(from: url)
        guard let http = response as? HTTPURLResponse else { throw NotHTTP() }
        return Reply(status: http.statusCode, body: data, contentType: http.value(forHTTPHeaderField: "Content-Type"))
    }

}

/// Request bodies both servers' tests send.
public enum Bodies {
    /// An order with two lines.
    public static let order = Array(#"{"id": 7, "customer": "Ada", "lines": [{"sku": "A-1", "quantity": 2}, {"sku": "B-2", "quantity": 1}]}"#.utf8)
    /// Malformed JSON: the error is at line 2, column 14.
    public static let broken = Array("{\"id\": 7,\n \"customer\": tru}".utf8)
    /// Well-formed JSON whose `$.lines[0].quantity` is a string: at offset 66.
    public static let mistyped = Array(#"{"id": 7, "customer": "Ada", "lines": [{"sku": "A-1", "quantity": "two"}]}"#.utf8)
    /// A `[String: Int]` body whose mistyped member's key holds CR, LF, ESC
    /// and a right-to-left override: a client forging a log line.
    public static let forgedKey = Array(#"{"ok": 1, "x\r\nINFO forged entry\u001b[2J\u202egnp": "two"}"#.utf8)

    /// Whether `text` holds a character no message may carry as itself
    /// (C0 and C1 controls, DEL, line separators, bidirectional controls).
    public static func holdsUnsafeCharacters(_ text: String) -> Bool {
        text.unicodeScalars.contains { scalar in
            switch scalar.value {
            case 0..<0x20, 0x7F...0x9F, 0x061C, 0x200E, 0x200F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069: return true
            default: return false
            }
        }
    }
}
