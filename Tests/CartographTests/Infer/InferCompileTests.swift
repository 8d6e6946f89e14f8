import Foundation
import HTTPTestSupport
import Testing

/// Every file `cartograph infer` prints compiles: seeded samples whose keys
/// are keywords, standard-library, Foundation and Cartograph names, the
/// names infer generates itself, digits, Unicode, punctuation and empty
/// keys, with deep and wide nesting, in every style, inferred one by one and
/// type-checked together by `swiftc` against the Cartograph module just built.
@Suite(.serialized) struct InferCompileTests {
    static let keys = [
        // Keywords and names Swift gives meaning to.
        "class", "struct", "self", "Self", "init", "Type", "Protocol", "default", "rawValue", "hashValue", "description", "some",
        "any", "_", "__", "where", "case", "throws", "async", "await", "actor", "macro", "Sendable", "sendable", "equatable",
        // Types and protocols the generated code names.
        "Equatable", "Codable", "codable", "Hashable", "String", "string", "Int", "int", "Double", "Bool", "Date", "date", "URL",
        "Data", "Array", "Optional", "Error", "Never", "Any", "Void", "Decimal", "UUID", "JSONValue", "json_value", "Mapping",
        "mapping", "Map", "map", "Ignore", "Transform", "Mappable", "Cartograph", "Foundation", "Swift", "CodingKeys", "coding_keys",
        "CodingKey", "Decodable", "Encodable",
        // Names infer writes itself.
        "Item", "item", "items", "Model", "model", "Root", "root", "value", "value2", "Value", "_2fa", "Item2", "Sample0",
        // Digits, Unicode, punctuation, the empty key.
        "1", "2fa", "007", "é", "日本", "🐧", "ñandú", "Ω", "", " ", "a-b", "a b", "$ref", "@type", "x.y", "café_au_lait", "ID", "id"
    ]

    /// A random value: objects draw from ``keys``; strings are sometimes
    /// dates or one of a few values (for `--enums`).
    static func value(depth: Int, using generator: inout SeededGenerator) -> String {
        let choice = depth > 5 ? Int.random(in: 0..<5, using: &generator) : Int.random(in: 0..<9, using: &generator)
        switch choice {
        case 0: return ["\"red\"", "\"green\"", "\"blue\""].randomElement(using: &generator)!
        case 1: return "\"2024-0\(Int.random(in: 1...9, using: &generator))-01T12:00:00Z\""
        case 2: return String(Int.random(in: -1000...1000, using: &generator))
        case 3: return ["true", "null", "1.5", "\"text\"", "12345678901234567890123"].randomElement(using: &generator)!
        case 4: return "\"\(keys.randomElement(using: &generator)!)\""
        case 5, 6:
            return "[" + (0..<Int.random(in: 0...3, using: &generator)).map { _ in value(depth: depth + 1, using: &generator) }.joined(separator: ",")
                + "]"
        default: return object(depth: depth + 1, using: &generator)
        }
    }

    static func object(depth: Int, using generator: inout SeededGenerator) -> String {
        let members = (0..<Int.random(in: 1...7, using: &generator)).map { _ in
            "\(jsonString(keys.randomElement(using: &generator)!)): \(value(depth: depth, using: &generator))"
        }
        return "{" + members.joined(separator: ",") + "}"
    }

    static func jsonString(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }

    /// Samples built to reach limits: deep objects, deep arrays, deep maps,
    /// a wide object, and keys that collide once converted.
    static var edgeSamples: [String] {
        let deepObjects = String(repeating: "{\"a\":", count: 300) + "1" + String(repeating: "}", count: 300)
        let deepArrays = "{\"a\":" + String(repeating: "[", count: 60) + "1" + String(repeating: "]", count: 60) + "}"
        let deepMixed = String(repeating: "{\"list\":[", count: 90) + "1" + String(repeating: "]}", count: 90)
        let wide = "{" + (0..<400).map { "\"key_\($0)\": \($0)" }.joined(separator: ",") + "}"
        let colliding =
            #"{"user_id": 1, "userId": 2, "USER_ID": 3, "user-id": 4, "user id": 5, "User": {"a": 1}, "user": {"b": 2}, "users": [{"c": 1}]}"#
        // Closed string sets whose values are names Swift or an enum gives meaning to.
        let values = [
            ["rawValue", "hashValue", "init", "self", "default"], ["Type", "", "1", "a-b", "allCases"], ["description", "case", "mapping", "_", "é"]
        ]
        let enums =
            "["
            + (0..<10).map { row in
                "{" + values.enumerated().map { "\"kind\($0.offset)\": \"\($0.element[row % 5])\"" }.joined(separator: ",") + "}"
            }.joined(separator: ",") + "]"
        // A top level keyed by ids, its records named with keywords and the names infer writes (a dictionary of `…Item`).
        let keyedByID =
            #"{"1": {"class": 1, "self": "x", "Item": {"a": 1}, "items": [{"b": "c"}]}, "007": {"class": 2, "Type": {"a": 2}, "self": null},"#
            + #" "42": {"class": 3, "self": "y", "kind": "red"}, "43": {"class": 4, "kind": "red"}, "44": {"class": 5, "kind": "blue"}}"#
        return [deepObjects, deepArrays, deepMixed, wide, colliding, enums, keyedByID]
    }

    @Test func everyInferredFileCompiles() throws {
        var generator = SeededGenerator(seed: 0x1_4F3E)
        var samples = Self.edgeSamples
        for _ in 0..<30 { samples.append(Self.object(depth: 0, using: &generator)) }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cartograph-infer-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let variants: [[String]] = [["--codable"], ["--mapping"], ["--codable", "--enums", "--access", "public"], ["--mapping", "--enums"]]
        var sources: [URL] = []
        for (index, sample) in samples.enumerated() {
            let input = directory.appendingPathComponent("sample\(index).json")
            try Data(sample.utf8).write(to: input)
            // Each sample in two of the four styles (all four for the edge samples).
            let chosen = index < Self.edgeSamples.count ? variants : [variants[index % 4], variants[(index + 1) % 4]]
            for (number, variant) in chosen.enumerated() {
                let name = "Sample\(index)V\(number)"
                let run = try CLITests.run(["infer", input.path, "--name", name] + variant)
                #expect(run.status == 0, "\(sample): \(run.errors)")
                let source = directory.appendingPathComponent("\(name).swift")
                try Data(run.output.utf8).write(to: source)
                sources.append(source)
            }
        }
        let result = try Self.typecheck(sources)
        #expect(result.status == 0, "\(result.errors.prefix(4000))")
    }

    /// `swiftc -typecheck` of `files` against the Cartograph module of this build.
    static func typecheck(_ files: [URL]) throws -> CLITests.Run {
        let build = CLITests.executable.deletingLastPathComponent()
        let package = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let modules = package.appendingPathComponent("CModules")
        var arguments = ["swiftc", "-typecheck", "-I", build.appendingPathComponent("Modules").path]
        for map in [
            modules.appendingPathComponent("CYajl/module.modulemap"), modules.appendingPathComponent("CJansson/module.modulemap"),
            modules.appendingPathComponent("CPlist/module.modulemap"), build.appendingPathComponent("CCartographShims.build/module.modulemap"),
            build.appendingPathComponent("CCartographTape.build/module.modulemap")
        ] {
            arguments += ["-Xcc", "-fmodule-map-file=\(map.path)"]
        }
        for include in try Self.output(["pkg-config", "--cflags-only-I", "yajl", "jansson", "libplist-2.0"]).split(separator: " ") {
            arguments += ["-Xcc", String(include)]
        }
        return try Self.run(arguments + files.map(\.path))
    }

    static func output(_ arguments: [String]) throws -> String {
        try run(arguments).output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    static func run(_ arguments: [String]) throws -> CLITests.Run {
        // Output and errors to files (ChildProcess): a compiler's many diagnostics would fill a pipe read only at the end.
        let ended = try ChildProcess.run(URL(fileURLWithPath: "/usr/bin/env"), arguments)
        return CLITests.Run(
            status: ended.status, output: String(decoding: ended.output, as: UTF8.self), errors: String(decoding: ended.errors, as: UTF8.self))
    }
}
