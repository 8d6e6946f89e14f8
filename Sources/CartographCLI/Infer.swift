import ArgumentParser
import Cartograph

/// `cartograph infer FILE... --name Model [--codable | --mapping]`
struct Infer: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print Swift model types inferred from sample JSON or property lists.",
        discussion: """
            Every file is a sample of the model; a file holding a top-level array gives one \
            sample per element. Keys missing or null in some samples become optionals; \
            nested objects become nested types (arrays name theirs in the singular); \
            strings that are all ISO 8601 dates become Date; integers beyond 64 bits become \
            Decimal; values of mixed kinds become JSONValue; snake_case and kebab-case keys \
            become camelCase properties. Objects whose keys are data (ids, more than 40 \
            keys, keys that differ from sample to sample) become dictionaries, the top level \
            too when its values are records (typealias Model = [String: ModelItem]). \
            --codable (the default) writes Codable types with \
            CodingKeys where names differ; --mapping writes Mappable types with a Mapping. \
            Exit status: 0 on success, 1 when a sample is invalid or not an object, 2 for a \
            usage error or an unreadable file.
            """
    )

    @Argument(help: "Sample files (JSON or property lists); - or nothing reads standard input.")
    var files: [String] = []

    @Option(help: "The name of the top-level model type.")
    var name = "Model"

    @Flag(help: "Write Codable types (the default) or Mappable types with a registered Mapping.")
    var style: InferStyle = .codable

    @Option(help: "json, plist, or auto (detect from the bytes, the default).")
    var format: InputFormatOption = .auto

    @Flag(help: "Strings that take 2 to 10 values, each seen at least twice on average, become String enums.")
    var enums = false

    @Option(help: "The access level of the generated types: internal (the default) or public (with a public init).")
    var access: ModelSourceWriter.Access = .internal

    func validate() throws {
        guard let first = name.first, first.isLetter || first == "_", name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") })
        else { throw ValidationError("--name must be a Swift type name, such as Order") }
    }

    func run() throws {
        let (shape, samples, arrays, _) = try Samples.read(files, format: format)
        let reserved = SwiftNames.reservedTypes.contains(name) || SwiftNames.keywords.contains(name)
        let plan = RootPlan.plan(name: reserved ? name + "Model" : name, shape: shape, makesEnums: enums)
        try Output.standard.write(
            Array(ModelSourceWriter(style: style.writerStyle, access: access).source(for: plan, samples: samples, arrays: arrays).utf8))
    }
}

/// The samples `infer` and `schema` read: every object merged into one shape.
enum Samples {
    /// Reads every file (standard input when none); `arrays`: some file
    /// held a top-level array of samples; `allArrays`: every file did.
    static func read(_ files: [String], format: InputFormatOption) throws -> (shape: ValueShape, samples: Int, arrays: Bool, allArrays: Bool) {
        let shape = ValueShape()
        var samples = 0
        var arrays = 0
        let files = files.isEmpty ? ["-"] : files
        for file in files {
            let label = file == "-" ? "<stdin>" : file
            let root: Node
            do {
                root = try format.format.document(try InputFile.read(file), options: ParseOptions()).root
            } catch let error as CartographError {
                InputFile.warn(error.report(file: label))
                throw ExitStatus.invalidInput
            } catch let error as InputFile.ReadError {
                InputFile.warn(error.description)
                throw ExitStatus.usage
            }
            let objects: [Node]
            switch root.kind {
            case .object: objects = [root]
            case .array:
                arrays += 1
                objects = Array(try root.array())
            default: objects = []
            }
            guard !objects.isEmpty, objects.allSatisfy({ $0.kind == .object }) else {
                InputFile.warn("\(label): a sample must be an object or an array of objects")
                throw ExitStatus.invalidInput
            }
            for object in objects { try shape.add(object) }
            samples += objects.count
        }
        return (shape, samples, arrays > 0, arrays == files.count)
    }
}

/// `--codable` or `--mapping`.
enum InferStyle: String, EnumerableFlag {
    case codable, mapping

    var writerStyle: ModelSourceWriter.Style { self == .codable ? .codable : .mapping }
}
