import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxMacros

/// `@Mappable`: writes a model's property table, the compiler's list of its
/// properties with the rules its default mapping gives each, so that
/// mappings name properties from declarations instead of guessing at run
/// time, and the conformance that registers the type alone.
///
/// ```swift
/// @Mappable class User { var firstName: String?; @Mapped("dob", transform: .iso8601) var birthday: Date? }
/// // expands, in the class body, to
/// class var mappableProperties: [Cartograph.MappableProperty] {
///     func own<Root: User>(_: Root.Type) -> [Cartograph.MappableProperty] {
///         [Cartograph.MappableProperty("firstName", \Root.firstName),
///          Cartograph.MappableProperty("birthday", \Root.birthday, rules: {
///              [Cartograph.Map(\Root.birthday, "dob", transform: .iso8601)] })]
///     }
///     return own(Self.self)
/// }
/// required init() {}
/// // and `extension User: Cartograph.MappableModel {}`.
/// ```
///
/// Key paths are formed on a generic `Root` bound to the dynamic `Self`, so a
/// subclass's table holds its superclass's properties as key paths of the
/// subclass (`\Root.firstName` with `Root == Admin` equals `\Admin.firstName`).
/// A subclass of a class that already has a table (the compiler tells the
/// macro: the conformance is then not missing) overrides the table and
/// starts from `super`'s. Structs and final classes get a `static` table.
///
/// An attribute's arguments are copied into the rule it becomes
/// (`@Mapped("dob", transform: .iso8601)` → `Map(\Root.birthday, "dob", transform: .iso8601)`),
/// so the compiler checks them against `Map`'s overloads for the
/// property's type; the macro itself never guesses a type.
public struct MappableMacro: MemberMacro, ExtensionMacro {
    public static func expansion(
        of node: AttributeSyntax, providingMembersOf declaration: some DeclGroupSyntax, conformingTo protocols: [TypeSyntax],
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        guard let kind = ModelKind(declaration) else {
            context.diagnose(Diagnostic(node: node, message: MappableMessage.notAType))
            return []
        }
        let items = StoredProperty.all(in: declaration, kind: kind, context: context)
        let access = kind.tableAccess(declaration.modifiers)
        let root = kind.isClass ? "Root" : "Self"
        let list = TableItem.body(items, root: root, isClass: kind.isClass)
        // The superclass has a table already when the conformance is not missing.
        let inherits = kind.isClass && protocols.isEmpty
        var members: [DeclSyntax] = []
        if !kind.isClass {
            members.append("\(raw: access)static var mappableProperties: [Cartograph.MappableProperty] {\n    \(raw: list)\n}")
        } else {
            let modifier = (inherits ? "override " : "") + access + (kind.isFinal ? "static" : "class")
            let start = inherits ? "super.mappableProperties + " : ""
            members.append(
                """
                \(raw: modifier) var mappableProperties: [Cartograph.MappableProperty] {
                    func own<Root: \(raw: kind.name)>(_: Root.Type) -> [Cartograph.MappableProperty] {
                        \(raw: list)
                    }
                    return \(raw: start)own(Self.self)
                }
                """)
        }
        if let initializer = EmptyInitializer.needed(declaration, kind: kind, inherits: inherits, access: access, node: node, context: context) {
            members.append(initializer)
        }
        return members
    }

    public static func expansion(
        of node: AttributeSyntax, attachedTo declaration: some DeclGroupSyntax, providingExtensionsOf type: some TypeSyntaxProtocol,
        conformingTo protocols: [TypeSyntax], in context: some MacroExpansionContext
    ) throws -> [ExtensionDeclSyntax] {
        guard ModelKind(declaration) != nil, !protocols.isEmpty else { return [] }
        return [try ExtensionDeclSyntax("extension \(type.trimmed): Cartograph.MappableModel {}")]
    }

    /// A Swift string literal for a property name (an identifier: nothing to escape once backticks are removed).
    static func literal(_ name: String) -> String {
        "\"" + name + "\""
    }
}

/// `@Mapped`, `@MapIgnore` and `@MapParent`: markers that `@Mappable` reads on the
/// properties of the type it expands; on their own they add nothing.
public struct MappedAttribute: PeerMacro {
    public static func expansion(
        of node: AttributeSyntax, providingPeersOf declaration: some DeclSyntaxProtocol, in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        if !declaration.is(VariableDeclSyntax.self) {
            context.diagnose(Diagnostic(node: node, message: MappableMessage.attributeNotOnProperty(node.attributeName.trimmedDescription)))
        }
        return []
    }
}

/// What `@Mappable` is attached to.
struct ModelKind {
    let name: String
    let isClass: Bool
    let isFinal: Bool
    /// The names in the inheritance clause (a superclass first, if any; syntax cannot tell).
    let inherited: [String]

    init?(_ declaration: some DeclGroupSyntax) {
        inherited = declaration.inheritanceClause?.inheritedTypes.map { $0.type.trimmedDescription } ?? []
        if let type = declaration.as(ClassDeclSyntax.self) {
            // A generic class is named with its parameters (`Box<Element>`) in `Root`'s constraint.
            let parameters = type.genericParameterClause?.parameters.map(\.name.text) ?? []
            name = type.name.text + (parameters.isEmpty ? "" : "<" + parameters.joined(separator: ", ") + ">")
            isClass = true
            isFinal = type.modifiers.contains { $0.name.tokenKind == .keyword(.final) }
        } else if let type = declaration.as(StructDeclSyntax.self) {
            name = type.name.text
            isClass = false
            isFinal = true
        } else {
            return nil
        }
    }

    /// The table's access: as visible as the type (`open` classes give `public`
    /// tables that subclasses elsewhere can override only if `open`).
    func tableAccess(_ modifiers: DeclModifierListSyntax) -> String {
        for modifier in modifiers {
            switch modifier.name.tokenKind {
            case .keyword(.open): return isFinal ? "public " : "open "
            case .keyword(.public): return "public "
            case .keyword(.package): return "package "
            default: continue
            }
        }
        return ""
    }

    /// Whether the inheritance clause may name a superclass: a class's first
    /// inherited type that is not a protocol the standard library or
    /// Cartograph is known to declare.
    var mayHaveSuperclass: Bool {
        guard isClass, let first = inherited.first else { return false }
        let name = first.hasPrefix("@unchecked ") ? String(first.dropFirst("@unchecked ".count)) : first
        return !Self.knownProtocols.contains(name)
    }

    static let knownProtocols: Set<String> = [
        "AnyObject", "Sendable", "Codable", "Decodable", "Encodable", "Hashable", "Equatable", "Comparable", "Identifiable",
        "CustomStringConvertible", "CustomDebugStringConvertible", "Mappable", "Cartograph.Mappable", "MappableProperties",
        "Cartograph.MappableProperties", "MappableModel", "Cartograph.MappableModel", "Swift.Sendable", "Swift.Codable"
    ]
}

/// The `init()` a mapping makes each model with, written by the macro when
/// the type would not have a usable one.
enum EmptyInitializer {
    /// Whether `initializer` is the `init()` a mapping makes models with
    /// (a failable `init?()` is not).
    static func isPlain(_ initializer: InitializerDeclSyntax) -> Bool {
        initializer.signature.parameterClause.parameters.isEmpty && initializer.optionalMark == nil
    }

    static func needed(
        _ declaration: some DeclGroupSyntax, kind: ModelKind, inherits: Bool, access: String, node: AttributeSyntax,
        context: some MacroExpansionContext
    ) -> DeclSyntax? {
        let initializers = TableItem.declarations(in: declaration.memberBlock.members).compactMap { $0.as(InitializerDeclSyntax.self) }
        let empty = initializers.first(where: isPlain)
        let designated = initializers.filter { !$0.modifiers.contains { $0.name.tokenKind == .keyword(.convenience) } }
        // `public init()` for a public type's public conformance.
        let access = access == "open " ? "public " : access
        if !kind.isClass {
            // Without initializers the compiler writes `init()`; an explicit
            // one removes it (and writing one here would remove the memberwise one).
            if initializers.isEmpty, !access.isEmpty {
                // That `init()` is internal, too hidden for a public
                // conformance, and one declared in the extension would
                // clash with it: the type has to declare its own.
                context.diagnose(Diagnostic(node: Syntax(node), message: MappableMessage.hiddenInit(kind.name, access: access)))
                return nil
            }
            return empty != nil || initializers.isEmpty ? nil : "\(raw: access)init() {}"
        }
        if let empty {
            if !kind.isFinal, !empty.modifiers.contains(where: { $0.name.tokenKind == .keyword(.required) }) {
                context.diagnose(Diagnostic(node: Syntax(empty), message: MappableMessage.initNotRequired(kind.name)))
            }
            return nil
        }
        if inherits {
            // A subclass of a @Mappable class inherits `required init()`
            // unless it declares designated initializers of its own.
            return designated.isEmpty ? nil : "\(raw: access)required init() { super.init() }"
        }
        if kind.mayHaveSuperclass {
            if kind.isFinal, designated.isEmpty { return nil }
            context.diagnose(Diagnostic(node: Syntax(node), message: MappableMessage.needsInit(kind.name, kind.inherited[0], final: kind.isFinal)))
            return nil
        }
        if kind.isFinal { return designated.isEmpty ? nil : "\(raw: access)init() {}" }
        return "\(raw: access)required init() {}"
    }
}

/// A property the table lists: a stored instance property, or a computed
/// one marked `@Mapped`.
struct StoredProperty {
    /// The name as written in source (backticks kept), for the key path.
    let identifier: String
    /// The name without backticks, for the table.
    let name: String
    let isWeak: Bool
    /// A `var`, or a computed property with a setter.
    let isWritable: Bool
    /// `@Mapped`'s arguments as written (nil without the attribute).
    let mapped: LabeledExprListSyntax?
    /// `@MapIgnore`'s direction as written (`.both` when none is given; nil without the attribute).
    let ignored: String?
    /// Marked `@MapParent`: the rule gives it the containing model.
    let isParent: Bool

    /// The table entry: the default rule from `MappableProperty`'s own
    /// initializers, or the attributes' rules. A class's writable property
    /// gets its accessors too (`get: { $0.name }, set: { $0.name = $1 }`):
    /// its rules call them instead of the key-path runtime, which is slow on
    /// classes (``AccessorSlot``); they run the same getter and setter.
    func entry(root: String, isClass: Bool) -> String {
        let keyPath = "\\\(root).\(identifier)"
        let accessors =
            isClass && isWritable && !isParent ? ", get: { $0.\(identifier) }, set: { $0.\(identifier) = $1 }" : ""
        let head =
            "Cartograph.MappableProperty(\(MappableMacro.literal(name)), \(keyPath)\(isWeak ? ", weak: true" : "")\(accessors)"
        if isParent { return head + ", rules: { [Cartograph.ParentReference(\(keyPath))] })" }
        guard mapped != nil || ignored != nil else { return head + ")" }
        var rules: [String] = []
        let arguments = mapped.map { $0.trimmedDescription } ?? ""
        if ignored.map(Self.isBoth) != true {
            if isWritable {
                rules.append("Cartograph.Map(\(keyPath)\(arguments.isEmpty ? "" : ", " + arguments))")
            } else {
                rules.append("Cartograph.Getter(\(arguments)) { $0.\(identifier) }")
            }
        }
        if let ignored {
            rules.append("Cartograph.Ignore(\(keyPath)\(Self.isBoth(ignored) ? "" : ", on: " + ignored))")
        }
        return head + ", rules: { [" + rules.joined(separator: ", ") + "] })"
    }

    static func isBoth(_ direction: String) -> Bool {
        direction.isEmpty || direction == ".both" || direction.hasSuffix("MappingDirection.both")
    }

    /// The listed properties of `declaration`, in declaration order, with
    /// the `#if` clauses they are declared in; what a mapping could not
    /// fill is diagnosed.
    static func all(in declaration: some DeclGroupSyntax, kind: ModelKind, context: some MacroExpansionContext) -> [TableItem] {
        let declaresEmptyInit = TableItem.declarations(in: declaration.memberBlock.members).contains { member in
            member.as(InitializerDeclSyntax.self).map(EmptyInitializer.isPlain) ?? false
        }
        return items(in: declaration.memberBlock.members, kind: kind, declaresEmptyInit: declaresEmptyInit, context: context)
    }

    /// The table items of one list of members: a property for each stored
    /// variable, and a conditional item for each `#if` (the macro cannot
    /// tell which clause is active, so the table keeps the clauses and the
    /// compiler picks one, as it does for the declarations).
    private static func items(
        in members: MemberBlockItemListSyntax, kind: ModelKind, declaresEmptyInit: Bool, context: some MacroExpansionContext
    ) -> [TableItem] {
        var items: [TableItem] = []
        for member in members {
            if let conditional = member.decl.as(IfConfigDeclSyntax.self) {
                let clauses = conditional.clauses.map { clause in
                    var nested: [TableItem] = []
                    if case .decls(let list) = clause.elements {
                        nested = Self.items(in: list, kind: kind, declaresEmptyInit: declaresEmptyInit, context: context)
                    }
                    return TableItem.Clause(
                        keyword: clause.poundKeyword.text, condition: clause.condition?.trimmedDescription, items: nested)
                }
                // A `#if` without a property in any clause adds nothing to the table.
                if clauses.contains(where: { !$0.items.isEmpty }) { items.append(.conditional(clauses)) }
                continue
            }
            guard let variable = member.decl.as(VariableDeclSyntax.self) else { continue }
            items += properties(of: variable, kind: kind, declaresEmptyInit: declaresEmptyInit, context: context).map { .property($0) }
        }
        return items
    }

    /// The listed properties one variable declaration declares.
    private static func properties(
        of variable: VariableDeclSyntax, kind: ModelKind, declaresEmptyInit: Bool, context: some MacroExpansionContext
    ) -> [StoredProperty] {
        let modifiers = variable.modifiers.map(\.name.tokenKind)
        if modifiers.contains(.keyword(.static)) || modifiers.contains(.keyword(.class)) || modifiers.contains(.keyword(.lazy)) { return [] }
        let isWeak = modifiers.contains(.keyword(.weak)) || modifiers.contains(.keyword(.unowned))
        let isLet = variable.bindingSpecifier.tokenKind == .keyword(.let)
        let mapped = attribute(named: "Mapped", in: variable.attributes)
        let ignore = attribute(named: "MapIgnore", in: variable.attributes)
        let parentAttribute = attribute(named: "MapParent", in: variable.attributes)
        let parent = parentAttribute != nil
        let marked = mapped ?? ignore ?? parentAttribute
        // An override (an observer added in a subclass) is the superclass's
        // property, already in the table `super` gives; its rules are the superclass's to give.
        if modifiers.contains(.keyword(.override)) {
            if let marked {
                let name = variable.bindings.first?.pattern.trimmedDescription ?? "?"
                context.diagnose(Diagnostic(node: Syntax(marked), message: MappableMessage.attributeOnOverride(name)))
            }
            return []
        }
        let bindings = Array(variable.bindings)
        var properties: [StoredProperty] = []
        for (index, binding) in bindings.enumerated() {
            // `var a, b: Int?` declares both optional: a binding without a
            // type takes the next one written after it.
            let type = bindings[index...].lazy.compactMap(\.typeAnnotation).first?.type
            // `var (x, y) = (0, 0)` declares two stored properties.
            let identifiers = Self.identifiers(in: binding.pattern)
            if identifiers.count > 1, let marked {
                context.diagnose(Diagnostic(node: Syntax(marked), message: MappableMessage.attributeOnTuple))
                return []
            }
            for identifier in identifiers {
                let name = identifier.hasPrefix("`") ? String(identifier.dropFirst().dropLast()) : identifier
                var isWritable = !isLet
                if let accessors = binding.accessorBlock, let computed = computedAccessors(accessors) {
                    // Computed: mapped only when asked for.
                    guard marked != nil else { continue }
                    isWritable = computed
                } else {
                    // A class's `let` is never filled: listed only when an
                    // attribute says it is written and not read, or left out.
                    if isLet, kind.isClass, (mapped == nil && ignore == nil) || parent {
                        context.diagnose(Diagnostic(node: Syntax(binding), message: MappableMessage.letInClass(name)))
                        continue
                    }
                    let isOptional = !isLet && identifiers.count == 1 && (type.map(isOptionalType) ?? false)
                    if binding.initializer == nil, !isOptional, !declaresEmptyInit {
                        context.diagnose(Diagnostic(node: Syntax(binding), message: MappableMessage.noDefault(name, kind: kind, isLet: isLet)))
                    }
                }
                if !isWritable, let arguments = mapped?.arguments?.as(LabeledExprListSyntax.self),
                    arguments.contains(where: { $0.label != nil && $0.label?.text != "nilEncoding" })
                {
                    context.diagnose(Diagnostic(node: Syntax(arguments), message: MappableMessage.readOnlyOptions(name)))
                    continue
                }
                properties.append(
                    StoredProperty(
                        identifier: identifier, name: name, isWeak: isWeak, isWritable: isWritable,
                        mapped: mapped.map { $0.arguments?.as(LabeledExprListSyntax.self) ?? LabeledExprListSyntax([]) },
                        ignored: ignore.map { $0.arguments?.as(LabeledExprListSyntax.self)?.first?.expression.trimmedDescription ?? "" },
                        isParent: parent))
            }
        }
        return properties
    }

    /// The names a binding's pattern declares, in order: one for `x`,
    /// each element's for a tuple pattern (`_` declares none).
    static func identifiers(in pattern: PatternSyntax) -> [String] {
        if let identifier = pattern.as(IdentifierPatternSyntax.self) { return [identifier.identifier.text] }
        if let tuple = pattern.as(TuplePatternSyntax.self) { return tuple.elements.flatMap { identifiers(in: $0.pattern) } }
        return []
    }

    /// The attribute `name` (or `Cartograph.name`) among `attributes`.
    static func attribute(named name: String, in attributes: AttributeListSyntax) -> AttributeSyntax? {
        for element in attributes {
            guard case .attribute(let attribute) = element else { continue }
            let written = attribute.attributeName.trimmedDescription
            if written == name || written == "Cartograph." + name { return attribute }
        }
        return nil
    }

    /// For a computed property's accessors, whether it has a setter; nil
    /// for a stored property with observers (`willSet`/`didSet` only).
    static func computedAccessors(_ accessors: AccessorBlockSyntax) -> Bool? {
        switch accessors.accessors {
        case .getter: return false
        case .accessors(let list):
            let kinds = list.map(\.accessorSpecifier.tokenKind)
            if kinds.allSatisfy({ $0 == .keyword(.willSet) || $0 == .keyword(.didSet) }) { return nil }
            return kinds.contains(.keyword(.set))
        }
    }

    static func isOptionalType(_ type: TypeSyntax) -> Bool {
        if type.is(OptionalTypeSyntax.self) || type.is(ImplicitlyUnwrappedOptionalTypeSyntax.self) { return true }
        if let identifier = type.as(IdentifierTypeSyntax.self) { return identifier.name.text == "Optional" }
        if let member = type.as(MemberTypeSyntax.self) { return member.baseType.trimmedDescription == "Swift" && member.name.text == "Optional" }
        return false
    }
}

/// One item of a property table, in declaration order: a property, or the
/// clauses of a `#if` with the items each declares.
enum TableItem {
    case property(StoredProperty)
    case conditional([Clause])

    /// A `#if`, `#elseif` or `#else` clause.
    struct Clause {
        let keyword: String
        let condition: String?
        let items: [TableItem]
    }

    /// The table's expression: an array literal, or where a `#if` holds
    /// properties, statements that build the array clause by clause (an
    /// array literal cannot hold a `#if`).
    static func body(_ items: [TableItem], root: String, isClass: Bool) -> String {
        let plain = items.compactMap { item -> StoredProperty? in
            if case .property(let property) = item { return property }
            return nil
        }
        if plain.count == items.count { return literal(plain, root: root, isClass: isClass, indent: "    ") }
        var lines = ["var properties: [Cartograph.MappableProperty] = []"]
        statements(items, root: root, isClass: isClass, into: &lines)
        lines.append("return properties")
        return lines.joined(separator: "\n")
    }

    private static func literal(_ properties: [StoredProperty], root: String, isClass: Bool, indent: String) -> String {
        let entries = properties.map { $0.entry(root: root, isClass: isClass) }
        return entries.isEmpty ? "[]" : "[\n" + entries.map { indent + "    " + $0 }.joined(separator: ",\n") + ",\n" + indent + "]"
    }

    /// Appends `properties += [...]` for each run of properties and a `#if`
    /// block for each conditional item.
    private static func statements(_ items: [TableItem], root: String, isClass: Bool, into lines: inout [String]) {
        var run: [StoredProperty] = []
        func flush() {
            guard !run.isEmpty else { return }
            lines.append("properties += " + literal(run, root: root, isClass: isClass, indent: ""))
            run = []
        }
        for item in items {
            switch item {
            case .property(let property): run.append(property)
            case .conditional(let clauses):
                flush()
                for clause in clauses {
                    lines.append(clause.keyword + (clause.condition.map { " " + $0 } ?? ""))
                    statements(clause.items, root: root, isClass: isClass, into: &lines)
                }
                lines.append("#endif")
            }
        }
        flush()
    }

    /// Every declaration of a member list, those in each `#if` clause
    /// included (whether the clause is active cannot be told here).
    static func declarations(in members: MemberBlockItemListSyntax) -> [DeclSyntax] {
        members.flatMap { member -> [DeclSyntax] in
            guard let conditional = member.decl.as(IfConfigDeclSyntax.self) else { return [member.decl] }
            return conditional.clauses.flatMap { clause -> [DeclSyntax] in
                if case .decls(let list) = clause.elements { return declarations(in: list) }
                return []
            }
        }
    }
}

/// The macro's diagnostics: each says what to write.
enum MappableMessage: DiagnosticMessage {
    case notAType
    case letInClass(String)
    case noDefault(String, kind: ModelKind, isLet: Bool)
    case initNotRequired(String)
    case needsInit(String, String, final: Bool)
    case readOnlyOptions(String)
    case attributeNotOnProperty(String)
    case attributeOnOverride(String)
    case attributeOnTuple
    case hiddenInit(String, access: String)

    var message: String {
        switch self {
        case .notAType:
            return "@Mappable applies to a struct or a class"
        case .letInClass(let name):
            return "'\(name)' is a 'let' of a class, which a mapping cannot fill: declare it 'var \(name)'"
                + " (or mark it @MapIgnore, or @Mapped to write it and never read it)"
        case .noDefault(let name, let kind, let isLet):
            return "'\(name)' has no default value: give it one ('\(isLet ? "let" : "var") \(name): … = …')"
                + (isLet ? "" : " or make it optional") + ", so that "
                + (kind.isClass && !kind.isFinal ? "'required init()'" : "'init()'") + " can make the model a mapping fills"
        case .initNotRequired(let name):
            return "a mapping makes each '\(name)' (and each subclass) with 'init()': declare it 'required init()'"
        case .needsInit(let name, let inherited, let final):
            return "'\(name)' may inherit from '\(inherited)', which is not @Mappable: declare '"
                + (final ? "init()" : "required init()") + " { … }' yourself (with 'override' if '\(inherited)' has an 'init()')"
        case .readOnlyOptions(let name):
            return "'\(name)' is read-only, so it is written and never read: @Mapped can give it only a key and 'nilEncoding'"
        case .attributeNotOnProperty(let attribute):
            return "@\(attribute) applies to a property of a @Mappable type"
        case .attributeOnOverride(let name):
            return "'\(name)' overrides a property the superclass's table already lists: put the attribute on the superclass's declaration"
        case .attributeOnTuple:
            return "an attribute on a tuple pattern would apply to each of its properties: declare them one by one"
        case .hiddenInit(let name, let access):
            return "a mapping makes each '\(name)' with 'init()', which the compiler writes internal: declare '\(access)init() {}'"
                + " (and the memberwise initializer, if it is used, since declaring one removes it)"
        }
    }

    var diagnosticID: MessageID {
        let id: String
        switch self {
        case .notAType: id = "notAType"
        case .letInClass: id = "letInClass"
        case .noDefault: id = "noDefault"
        case .initNotRequired: id = "initNotRequired"
        case .needsInit: id = "needsInit"
        case .readOnlyOptions: id = "readOnlyOptions"
        case .attributeNotOnProperty: id = "attributeNotOnProperty"
        case .attributeOnOverride: id = "attributeOnOverride"
        case .attributeOnTuple: id = "attributeOnTuple"
        case .hiddenInit: id = "hiddenInit"
        }
        return MessageID(domain: "Cartograph", id: id)
    }

    var severity: DiagnosticSeverity { .error }
}
