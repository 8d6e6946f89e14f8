import Cartograph
import Foundation
import HTTPTestSupport

/// The outside validators (``OutsideValidators``) over Cartograph's values.
enum OutsideValidator {
    /// A test's own failure to find what it checks.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// The errors `jsonschema` finds in each instance (empty: valid); throws
    /// when the schema itself is not a valid 2020-12 schema.
    static func errors(in instances: [JSONValue], against schema: JSONValue) throws -> [[String]] {
        let output = try OutsideValidators.schemaErrors(
            instances: Data(try JSONValue.array(instances).encoded()), schema: Data(try schema.encoded()))
        return try JSONMapper().decode([[String]].self, from: Array(output))
    }

    /// Whether `openapi-spec-validator` accepts the document (nil) or what it says.
    static func openAPIProblem(_ document: JSONValue) throws -> String? {
        try OutsideValidators.openAPIProblem(Data(try document.encoded()))
    }
}
