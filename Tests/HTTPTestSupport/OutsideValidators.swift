import Foundation

/// Validators Cartograph did not write, for the schema tests of every test
/// target: PyPI's `jsonschema` (draft 2020-12, formats checked) and
/// `openapi-spec-validator`, which `scripts/setup` installs in a virtual
/// environment (`CARTOGRAPH_PYTHON` names another interpreter).
public enum OutsideValidators {
    /// The validators could not run (scripts/setup installs them).
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// The interpreter with the validators.
    public static var python: String {
        let environment = ProcessInfo.processInfo.environment
        if let given = environment["CARTOGRAPH_PYTHON"] { return given }
        return (environment["XDG_CACHE_HOME"] ?? NSHomeDirectory() + "/.cache") + "/cartograph-python/bin/python"
    }

    /// The errors `jsonschema` finds in each instance, as a JSON array of
    /// arrays of messages (empty: valid); throws when the schema itself is
    /// not a valid 2020-12 schema.
    public static func schemaErrors(instances: Data, schema: Data) throws -> Data {
        let script = """
            import json, sys
            from jsonschema import Draft202012Validator
            schema = json.load(open(sys.argv[1]))
            Draft202012Validator.check_schema(schema)
            validator = Draft202012Validator(schema, format_checker=Draft202012Validator.FORMAT_CHECKER)
            print(json.dumps([[error.message for error in validator.iter_errors(i)] for i in json.load(open(sys.argv[2]))]))
            """
        return try run(script, files: [schema, instances])
    }

    /// What `openapi-spec-validator` says of an OpenAPI document: nil when it is valid.
    public static func openAPIProblem(_ document: Data) throws -> String? {
        let script = """
            import json, sys
            from openapi_spec_validator import validate
            try:
                validate(json.load(open(sys.argv[1])))
            except Exception as error:
                print(str(error)[:2000])
            """
        let text = String(decoding: try run(script, files: [document]), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return text.isEmpty ? nil : text
    }

    /// Runs `script` with the files (written to a temporary directory) as its arguments; its standard output.
    private static func run(_ script: String, files: [Data]) throws -> Data {
        guard FileManager.default.isExecutableFile(atPath: python) else {
            throw Failure(description: "no Python with the validators at \(python): run scripts/setup")
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cartograph-validators-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var paths: [String] = []
        for (number, file) in files.enumerated() {
            let url = directory.appendingPathComponent("\(number).json")
            try file.write(to: url)
            paths.append(url.path)
        }
        let ended = try ChildProcess.run(URL(fileURLWithPath: python), ["-c", script] + paths)
        guard ended.status == 0 else {
            throw Failure(description: "validator exited \(ended.status): \(String(decoding: ended.errors, as: UTF8.self))")
        }
        return ended.output
    }
}
