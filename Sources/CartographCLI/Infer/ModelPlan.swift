/// A Swift model type to generate: its name, its properties (one per key
/// seen in the samples, in first-seen order) and the types nested in it.
final class ModelPlan {
    /// A property and the key it reads.
    struct Property {
        let key: String
        let name: String
        let type: InferredType
        /// Missing from some samples or null in some.
        let isOptional: Bool
    }

    let name: String
    /// The name qualified by the types it is nested in (`Root.Order.Customer`).
    let path: String
    private(set) var properties: [Property] = []
    private(set) var nested: [ModelPlan] = []
    private(set) var enums: [EnumPlan] = []
    /// Closed sets of strings become enums (`--enums`).
    let makesEnums: Bool

    /// The models planned so far, by shape: one type for the same shape
    /// wherever it appears (a `User` and an `Owner` with the same members are
    /// one type, named where it was first seen).
    final class Shapes {
        var plans: [String: ModelPlan] = [:]
    }

    /// Plans the model for the objects merged in `shape`. `enclosing` holds the
    /// names of the types this one is nested in: nested names avoid them so
    /// that a name always means one type.
    init(name: String, shape: ValueShape, enclosing: Set<String> = [], path: String? = nil, shapes: Shapes = Shapes(), makesEnums: Bool = false) {
        self.name = name
        self.path = path ?? name
        self.makesEnums = makesEnums
        var propertyNames: Set<String> = []
        var typeNames = enclosing.union([name])
        let ancestors = enclosing.union([name])
        for (key, member) in shape.members {
            let type = resolve(
                member, suggested: SwiftNames.type(key), elementName: SwiftNames.elementType(key),
                typeNames: &typeNames, ancestors: ancestors, shapes: shapes)
            let property = SwiftNames.unique(SwiftNames.property(key), in: &propertyNames)
            properties.append(Property(key: key, name: property, type: type, isOptional: shape.isOptional(member: member)))
        }
    }

    /// The type for the values merged in `shape`: one kind of value gives its
    /// Swift type; none, or several, give `JSONValue`.
    ///
    /// The file must compile, and quickly: types nest at most
    /// ``maxTypeNesting`` deep and a property's type holds at most
    /// ``maxBrackets`` nested arrays and maps (`brackets`: how many enclose
    /// this value already); deeper values are kept as `JSONValue`. Swift's
    /// parser stops at 256 levels, and its type checker took 7 s on one
    /// property of 24 nested arrays and over two minutes on 100 (16 levels:
    /// 0.2 s; 100 nested types: 3.5 s).
    private func resolve(
        _ shape: ValueShape, suggested: String, elementName: String, typeNames: inout Set<String>,
        ancestors: Set<String>, shapes: Shapes, brackets: Int = 0
    ) -> InferredType {
        switch shape.soleKind {
        case nil: return .json
        case .bool: return .bool
        case .number: return shape.doubles > 0 ? .double : shape.bigIntegers > 0 ? .decimal : .int
        case .string:
            if shape.dates == shape.strings { return .date }
            guard makesEnums, shape.isEnumLike, let values = shape.stringValues else { return .string }
            let plan = EnumPlan(name: SwiftNames.unique(suggested, in: &typeNames), values: values)
            enums.append(plan)
            return .enumeration(plan)
        case .null: return .json
        case .array:
            guard brackets < Self.maxBrackets else { return .json }
            guard let element = shape.element else { return .array(.json) }
            let type = resolve(
                element, suggested: elementName, elementName: elementName, typeNames: &typeNames, ancestors: ancestors,
                shapes: shapes, brackets: brackets + 1)
            return .array(element.nulls > 0 && type != .json ? .optional(type) : type)
        case .object:
            if shape.members.isEmpty { return .json }
            if shape.isMap {
                guard brackets < Self.maxBrackets else { return .json }
                let values = shape.mapValues
                let type = resolve(
                    values, suggested: elementName, elementName: elementName, typeNames: &typeNames, ancestors: ancestors,
                    shapes: shapes, brackets: brackets + 1)
                return .map(values.nulls > 0 && type != .json ? .optional(type) : type)
            }
            guard ancestors.count < Self.maxTypeNesting else { return .json }
            let name = SwiftNames.unique(suggested, in: &typeNames)
            let plan = ModelPlan(name: name, shape: shape, enclosing: ancestors, path: path + "." + name, shapes: shapes, makesEnums: makesEnums)
            // A shape planned before is that type again; its nested types were
            // found equal to that type's as they were planned, so none is lost.
            if let existing = shapes.plans[plan.signature] {
                typeNames.remove(name)
                return .model(existing)
            }
            shapes.plans[plan.signature] = plan
            nested.append(plan)
            return .model(plan)
        }
    }

    /// How deep generated types nest (the root is level 1); deeper objects are `JSONValue`.
    static let maxTypeNesting = 64
    /// How many arrays and maps one property's type nests; deeper values are `JSONValue`.
    static let maxBrackets = 16

    /// The model's shape: keys, types and optionality of its properties
    /// (nested models by identity, which are already shared).
    var signature: String {
        properties.map { "\($0.key)\u{1}\($0.type.signature)\u{1}\($0.isOptional)" }.joined(separator: "\u{2}")
    }

    /// Whether this model or one nested in it has an enum.
    var usesEnums: Bool { !enums.isEmpty || nested.contains { $0.usesEnums } }

    /// Whether this model or one nested in it uses a type.
    func uses(_ test: (InferredType) -> Bool) -> Bool {
        properties.contains { $0.type.contains(test) } || nested.contains { $0.uses(test) }
    }
}

/// A `String` enum for a closed set of strings: its cases in first-seen order.
final class EnumPlan {
    let name: String
    /// Case names and the strings they stand for.
    let cases: [(name: String, raw: String)]

    init(name: String, values: [String]) {
        self.name = name
        var taken: Set<String> = []
        cases = values.map { (SwiftNames.unique(SwiftNames.property($0.isEmpty ? "empty" : $0), in: &taken), $0) }
    }
}

/// The Swift type of a property.
indirect enum InferredType: Equatable {
    case bool, int, decimal, double, string, date, json
    case array(InferredType)
    /// An object whose keys are data (``ValueShape/isMap``): `[String: Value]`.
    case map(InferredType)
    /// A closed set of strings (`--enums`).
    case enumeration(EnumPlan)
    /// An array element that was null in some samples.
    case optional(InferredType)
    case model(ModelPlan)

    /// The type as written in `scope`: a model nested directly in it by its
    /// name, one shared from elsewhere by its qualified name.
    func source(in scope: ModelPlan) -> String {
        switch self {
        case .array(let element): return "[\(element.source(in: scope))]"
        case .map(let value): return "[String: \(value.source(in: scope))]"
        case .optional(let wrapped): return "\(wrapped.source(in: scope))?"
        case .model(let plan): return scope.nested.contains { $0 === plan } ? plan.name : plan.path
        default: return source
        }
    }

    /// A value to start a non-optional property from, as written in `scope`.
    func initialValue(in scope: ModelPlan) -> String {
        if case .model = self { return "\(source(in: scope))()" }
        return initialValue
    }

    /// The type's shape, for ``ModelPlan/signature``.
    var signature: String {
        switch self {
        case .model(let plan): return "model:\(ObjectIdentifier(plan).hashValue)"
        case .enumeration(let plan): return "enum:" + plan.cases.map(\.raw).joined(separator: "\u{1}")
        case .array(let element): return "[\(element.signature)]"
        case .map(let value): return "[:\(value.signature)]"
        case .optional(let wrapped): return "\(wrapped.signature)?"
        default: return source
        }
    }

    /// The type as Swift source.
    var source: String {
        switch self {
        case .bool: return "Bool"
        case .int: return "Int"
        case .decimal: return "Decimal"
        case .double: return "Double"
        case .string: return "String"
        case .date: return "Date"
        case .json: return "JSONValue"
        case .array(let element): return "[\(element.source)]"
        case .map(let value): return "[String: \(value.source)]"
        case .optional(let wrapped): return "\(wrapped.source)?"
        case .model(let plan): return plan.name
        case .enumeration(let plan): return plan.name
        }
    }

    /// A value to start a non-optional property from (mappings start each
    /// model from `init()`).
    var initialValue: String {
        switch self {
        case .bool: return "false"
        case .int, .decimal, .double: return "0"
        case .string: return "\"\""
        case .date: return "Date(timeIntervalSince1970: 0)"
        case .json: return ".null"
        case .array: return "[]"
        case .map: return "[:]"
        case .optional: return "nil"
        case .model(let plan): return "\(plan.name)()"
        case .enumeration(let plan): return ".\(plan.cases[0].name)"
        }
    }

    /// Whether this type or one inside it passes the test.
    func contains(_ test: (InferredType) -> Bool) -> Bool {
        if test(self) { return true }
        switch self {
        case .array(let inner), .map(let inner), .optional(let inner): return inner.contains(test)
        default: return false
        }
    }

    static func == (lhs: InferredType, rhs: InferredType) -> Bool {
        switch (lhs, rhs) {
        case (.bool, .bool), (.int, .int), (.decimal, .decimal), (.double, .double), (.string, .string), (.date, .date), (.json, .json):
            return true
        case (.array(let a), .array(let b)), (.map(let a), .map(let b)), (.optional(let a), .optional(let b)): return a == b
        case (.model(let a), .model(let b)): return a === b
        case (.enumeration(let a), .enumeration(let b)): return a === b
        default: return false
        }
    }
}
