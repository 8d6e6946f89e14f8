import Cartograph
import Foundation

/// Checks schemas with validators Cartograph did not write: PyPI's
/// `jsonschema` (draft 2020-12, formats checked) and
/// `openapi-spec-validator`, which `scripts/setup` installs in a virtual
/// environment (`CARTOGRAPH_PYTHON` names another interpreter).
enum OutsideValidator {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    static var python: String {
        if let given = ProcessInfo.processInfo.environment["CARTOGRAPH_PYTHON"] { return given }
        let cache = ProcessInfo.processInfo.environment["XDG_CACHE_HOME"] ?? NSHomeDirectory() + "/.cache"
        return cache + "/cartograph-python/bin/python"
    }

    /// The errors `jsonschema` finds in each instance (empty: valid); throws
    /// when the schema itself is not a valid 2020-12 schema.
    static func errors(in instances: [JSONValue], against schema: JSONValue) throws -> [[String]] {
        let script = """
            import json, sys
            from jsonschema import Draft202012Validator
            schema = json.load(open(sys.argv[1]))
            Draft202012Validator.check_schema(schema)
            validator = Draft202012Validator(schema, format_checker=Draft202012Validator.FORMAT_CHECKER)
            print(json.dumps([[error.message for error in validator.iter_errors(i)] for i in json.load(open(sys.argv[2]))]))
            """
        let output = try run(script, files: [schema, .array(instances)])
        return try JSONMapper().decode([[String]].self, from: output)
    }

    /// Whether `openapi-spec-validator` accepts the document (nil) or what it says.
    static func openAPIProblem(_ document: JSONValue) throws -> String? {
        let script = """
            import json, sys
            from openapi_spec_validator import validate
            try:
                validate(json.load(open(sys.argv[1])))
                print(json.dumps(None))
            except Exception as error:
                print(json.dumps(str(error)[:2000]))
            """
        return try JSONMapper().decode(String?.self, from: try run(script, files: [document]))
    }

    private static func run(_ script: String, files: [JSONValue]) throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cartograph-schema-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var paths: [String] = []
        for (number, file) in files.enumerated() {
            let url = directory.appendingPathComponent("\(number).json")
            try Data(try file.encoded()).write(to: url)
            paths.append(url.path)
        }
        guard FileManager.default.isExecutableFile(atPath: python) else {
            throw Failure(description: "no Python with the validators at \(python): run scripts/setup")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = ["-c", script] + paths
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let out = output.fileHandleForReading.readDataToEndOfFile()
        let err = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(description: "validator exited \(process.terminationStatus): \(String(decoding: err, as: UTF8.self))")
        }
        return String(decoding: out, as: UTF8.self)
    }
}
