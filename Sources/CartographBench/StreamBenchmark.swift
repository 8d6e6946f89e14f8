import Cartograph
import Foundation

/// The streaming benchmark's pieces, run one per process by
/// scripts/stream-bench so that each gets its own peak-memory reading:
///
///     cartograph-bench records generate PATH BYTES   deterministic records, a JSON array
///     cartograph-bench records stream PATH           ModelStream into Record models
///     cartograph-bench records decode PATH           the whole file, then [Record] (not streamed)
///     cartograph-bench records foundation PATH       JSONSerialization.jsonObject on the whole file
enum StreamBenchmark {
    struct Record: Codable {
        struct Address: Codable {
            var street: String
            var city: String
            var zip: String
            var lat: Double
            var lng: Double
        }

        struct Order: Codable {
            var sku: String
            var quantity: Int
            var price: Double
            var placedAt: Date
        }

        var id: Int
        var uuid: String
        var name: String
        var email: String
        var createdAt: Date
        var score: Double
        var active: Bool
        var tags: [String]
        var address: Address
        var orders: [Order]
        var note: String?
    }

    static let options = CodableOptions { $0.dates = .iso8601(fractionalSeconds: true) }

    static func run(_ arguments: [String]) throws {
        guard arguments.count >= 2 else { throw BenchmarkError("usage: records generate|stream|decode|foundation PATH [BYTES]") }
        let path = arguments[1]
        let start = Date()
        switch arguments[0] {
        case "generate":
            try generate(path, bytes: Int(arguments.count > 2 ? arguments[2] : "") ?? (1 << 30))
        case "stream":
            let mapper = JSONMapper(options: options)
            var count = 0
            let stream = ModelStream(Record.self, mapper: mapper)
            guard let handle = FileHandle(forReadingAtPath: path) else { throw BenchmarkError("cannot read \(path)") }
            while let data = try handle.read(upToCount: 1 << 20), !data.isEmpty {
                try stream.feed(data) { _ in count += 1 }
            }
            try stream.finish { _ in count += 1 }
            report(path, records: count, since: start)
        case "decode":
            guard let data = FileManager.default.contents(atPath: path) else { throw BenchmarkError("cannot read \(path)") }
            let records = try JSONMapper(options: options).decode([Record].self, from: data)
            report(path, records: records.count, since: start)
        case "foundation":
            guard let data = FileManager.default.contents(atPath: path) else { throw BenchmarkError("cannot read \(path)") }
            let object = try JSONSerialization.jsonObject(with: data)
            report(path, records: (object as? [Any])?.count ?? 0, since: start)
        default:
            throw BenchmarkError("unknown records command \(arguments[0])")
        }
    }

    static func report(_ path: String, records: Int, since start: Date) {
        let seconds = Date().timeIntervalSince(start)
        let bytes = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        print(String(format: "records %d bytes %d seconds %.3f mbps %.1f", records, bytes, seconds, Double(bytes) / 1_000_000 / seconds))
    }

    /// Writes a JSON array of deterministic records until it holds `bytes` bytes.
    static func generate(_ path: String, bytes target: Int) throws {
        guard FileManager.default.createFile(atPath: path, contents: nil), let handle = FileHandle(forWritingAtPath: path) else {
            throw BenchmarkError("cannot write \(path)")
        }
        var state: UInt64 = 0x5EED
        func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        let words = ["alpha", "beta", "gamma", "delta", "Zürich", "東京", "São Paulo", "naïve", "quartz", "harbor", "maple", "cedar"]
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        var buffer = Data("[".utf8)
        var written = 0
        var id = 0
        while written + buffer.count < target {
            let orders = (0..<Int(next() % 4)).map { index in
                Record.Order(
                    sku: "SKU-\(next() % 100_000)", quantity: Int(next() % 9) + 1, price: Double(next() % 100_000) / 100,
                    placedAt: Date(timeIntervalSince1970: Double(1_600_000_000 + Int(next() % 100_000_000))))
            }
            let record = Record(
                id: id, uuid: String(format: "%016llx-%016llx", next(), next()),
                name: "\(words[Int(next() % 12)]) \(words[Int(next() % 12)])", email: "user\(id)@example.com",
                createdAt: Date(timeIntervalSince1970: Double(1_500_000_000 + Int(next() % 200_000_000))),
                score: Double(next() % 1_000_000) / 997, active: next() % 2 == 0,
                tags: (0..<Int(next() % 5)).map { _ in words[Int(next() % 12)] },
                address: .init(
                    street: "\(next() % 999) \(words[Int(next() % 12)]) street", city: words[Int(next() % 12)],
                    zip: String(next() % 100_000), lat: Double(Int(next() % 180_000)) / 1000 - 90, lng: Double(Int(next() % 360_000)) / 1000 - 180),
                orders: orders, note: next() % 3 == 0 ? "line one\nline \"two\"" : nil)
            if id > 0 { buffer.append(UInt8(ascii: ",")) }
            buffer.append(try encoder.encode(record))
            id += 1
            if buffer.count >= 4 << 20 {
                handle.write(buffer)
                written += buffer.count
                buffer.removeAll(keepingCapacity: true)
            }
        }
        buffer.append(UInt8(ascii: "]"))
        handle.write(buffer)
        try handle.close()
    }
}
