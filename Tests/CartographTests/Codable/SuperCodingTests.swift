import Foundation
import Testing

@testable import Cartograph

/// The class patterns of Foundation's coders: a subclass encoding and
/// decoding its superclass through `superEncoder()` / `superDecoder()`, and
/// a decode asked for a base type through a subclass's metatype.
@Suite struct SuperCodingTests {
    class Person: Codable {
        var name: String
        init(name: String) { self.name = name }
        private enum Keys: String, CodingKey { case name }
        required init(from decoder: any Decoder) throws {
            name = try decoder.container(keyedBy: Keys.self).decode(String.self, forKey: .name)
        }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(name, forKey: .name)
        }
    }

    final class Employee: Person {
        var badge: Int
        init(name: String, badge: Int) {
            self.badge = badge
            super.init(name: name)
        }
        private enum Keys: String, CodingKey { case badge }
        required init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Keys.self)
            badge = try container.decode(Int.self, forKey: .badge)
            try super.init(from: container.superDecoder())
        }
        override func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(badge, forKey: .badge)
            try super.encode(to: container.superEncoder())
        }
    }

    private func foundationJSON<T: Encodable>(_ value: T) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    private func cartographJSON<T: Encodable>(_ value: T) throws -> String {
        try JSONMapper(options: CodableOptions(), writeOptions: WriteOptions { $0.sortedKeys = true }).encodeString(value)
    }

    @Test func superEncoderAndSuperDecoderRoundTripAsFoundationWrites() throws {
        let employee = Employee(name: "Ada", badge: 7)
        let ours = try cartographJSON(employee)
        #expect(ours == (try foundationJSON(employee)))
        #expect(ours == #"{"badge":7,"super":{"name":"Ada"}}"#)
        let back = try JSONMapper().decode(Employee.self, from: ours)
        #expect(back.name == "Ada" && back.badge == 7)
        let plist = try PropertyListMapper().encode(employee, format: .binary)
        let fromPlist = try PropertyListDecoder().decode(Employee.self, from: Data(plist))
        #expect(fromPlist.name == "Ada" && fromPlist.badge == 7)
    }

    @Test func aDecodeThroughASubclassMetatypeMakesTheSubclass() throws {
        let json = #"{"badge":3,"super":{"name":"Bo"}}"#
        let type: Person.Type = Employee.self
        let decoded = try JSONMapper().decode(type, from: json)
        #expect(decoded is Employee)
        #expect((decoded as? Employee)?.badge == 3)
        #expect(try JSONDecoder().decode(type, from: Data(json.utf8)) is Employee)
    }

    struct Wrapper: Encodable {
        enum Keys: String, CodingKey { case first, boxed, last, list }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(1, forKey: .first)
            // The super encoder is dropped before its single value is written.
            var single = container.superEncoder(forKey: .boxed).singleValueContainer()
            try container.encode(3, forKey: .last)
            try single.encode("kept")
            _ = container.superEncoder()
            var unkeyed = container.nestedUnkeyedContainer(forKey: .list)
            var element = unkeyed.superEncoder().singleValueContainer()
            try element.encode(9)
        }
    }

    @Test func valuesWrittenThroughASuperEncoderAreNeverLost() throws {
        let ours = try cartographJSON(Wrapper())
        #expect(ours == (try foundationJSON(Wrapper())))
        #expect(ours.contains(#""boxed":"kept""#))
        #expect(ours.contains(#""super":{}"#))
    }
}
