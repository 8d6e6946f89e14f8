// The main job end to end on bundled sample data (scripts/demo runs it):
// register factories and mappings, decode a realistic API payload with
// renamed and nested keys and mixed model types, print the models, encode
// them back as JSON and as both kinds of property list.
import Cartograph
import Foundation

enum OrderStatus: String, Sendable {
    case pending, shipped, delivered
}

struct LineItem: Mappable {
    var sku = ""
    var quantity = 0
    var unitPrice = Decimal(0)

    static let mapping = Mapping<LineItem>({ LineItem() }) {
        Map(\.sku, "sku")
        Map(\.quantity, "qty")
        Map(\.unitPrice, "unit_price", transform: .decimal)
    }
}

struct Customer: Sendable {
    var id: String
    var name: String
    var email: String?
}

/// A hand-written factory: the keys that identify a customer object, and how to make one.
struct CustomerFactory: ModelFactory {
    var keys: [String] { ["customer_id", "profile"] }

    func make(from object: ObjectView, context: MappingContext) throws -> Customer {
        guard let id = object["customer_id"] else {
            throw CartographError(.keyNotFound, "customer_id is missing", path: context.path)
        }
        // The API sends a profile with the name's parts; encode (below) writes
        // the whole name, which reads back as it is.
        if let name = try object["name"]?.string() {
            return Customer(id: try id.string(), name: name, email: try object["email"]?.string())
        }
        let profile = try object["profile"]?.object()
        let first = try profile?["first_name"]?.string() ?? ""
        let last = try profile?["last_name"]?.string() ?? ""
        return Customer(id: try id.string(), name: "\(first) \(last)", email: try object["email"]?.string())
    }

    func encode(_ model: Customer, context: EncodingContext) throws -> EncodedValue {
        var members: [(key: String, value: EncodedValue)] = [("customer_id", .string(model.id)), ("name", .string(model.name))]
        if let email = model.email { members.append(("email", .string(email))) }
        return .object(members)
    }
}

struct Order: Mappable {
    var id = 0
    var placedAt = Date(timeIntervalSince1970: 0)
    var status = OrderStatus.pending
    var customer = Customer(id: "", name: "")
    var lines: [LineItem] = []
    var isGift = false
    var note: String?

    static let mapping = Mapping<Order>({ Order() }) {
        Map(\.id, "order_id", required: true)
        Map(\.placedAt, "placed_at", transform: .iso8601WithFractionalSeconds)
        Map(\.status, "status", transform: .rawValue)
        Map(\.customer, "customer")
        Map(\.lines, "lines", coerceArray: true)
        Map(\.isGift, "gift")
        Map(\.note, "note")
    }
}

struct Notice: Sendable {
    var title: String
    var body: String
}

var registry = ModelRegistry()
registry.register(Order.self)
registry.register(LineItem.self)
registry.register(CustomerFactory())
registry.register(
    Notice.self, keys: ["title", "body"],
    make: { object, _ in
        Notice(title: try object["title"]?.string() ?? "", body: try object["body"]?.string() ?? "")
    })
registry.discriminator(key: "kind", ["customer": Customer.self, "notice": Notice.self])
let mapper = JSONMapper(registry: registry, writeOptions: .pretty)

let path = CommandLine.arguments.dropFirst().first ?? "Examples/Data/api-response.json"
guard let data = FileManager.default.contents(atPath: path) else {
    FileHandle.standardError.write(Data("cannot read \(path)\n".utf8))
    exit(2)
}
let bytes = Array(data)

do {
    let document = try Document(parsing: bytes)
    let orders = try mapper.decode([Order].self, from: try document.root.object()["data"]!.object()["orders"]!)
    print("== \(orders.count) orders (renamed keys, nested paths, transforms, a factory for customers)")
    for order in orders {
        let total = order.lines.reduce(Decimal(0)) { $0 + $1.unitPrice * Decimal($1.quantity) }
        print(
            "#\(order.id) \(order.status) \(order.placedAt) \(order.customer.name) <\(order.customer.email ?? "no email")>"
                + " \(order.lines.count) line(s) total \(total)\(order.isGift ? " gift" : "")\(order.note.map { " note: \($0)" } ?? "")")
    }

    print("\n== every customer and notice, found at any depth by the \"kind\" discriminator")
    let tree = try mapper.decodeAny(from: bytes)
    for customer in tree.models(of: Customer.self) { print("customer \(customer.id): \(customer.name)") }
    for notice in tree.models(of: Notice.self) { print("notice: \(notice.title) — \(notice.body)") }

    print("\n== the orders encoded back")
    print(String(decoding: try mapper.encode(orders), as: UTF8.self))

    print("== the same orders as property lists, through the same mappings")
    let plist = PropertyListMapper(registry: registry)
    for format in PropertyListFormat.allCases {
        let encoded = try plist.encode(orders, format: format)
        let back = try plist.decode([Order].self, from: encoded)
        // XML plist dates hold whole seconds (the format's limit); binary ones keep the fraction.
        var expected = orders
        if format == .xml {
            for index in expected.indices {
                expected[index].placedAt = Date(timeIntervalSince1970: expected[index].placedAt.timeIntervalSince1970.rounded(.down))
            }
        }
        let same = try mapper.encode(back) == mapper.encode(expected)
        print(
            "\(format): \(encoded.count) bytes, read back: \(same ? "the same \(back.count) orders, field for field" : "different orders")"
                + (format == .xml ? " (dates to the whole second, as XML plists hold them)" : ""))
    }

    print("\n== a bad payload gives a typed error with path and position")
    do {
        _ = try mapper.decode([Order].self, from: Array(#"[{"order_id": 1}, {"order_id": "two"}]"#.utf8))
    } catch let error as CartographError {
        print(error)
    }
} catch {
    FileHandle.standardError.write(Data("demo failed: \(error)\n".utf8))
    exit(1)
}
