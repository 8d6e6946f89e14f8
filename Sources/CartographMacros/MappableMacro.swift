import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxMacros

/// `@Mappable`: writes a model's property table, the compiler's list of its
/// stored properties, so that mappings name properties from declarations
/// instead of guessing at run time.
///
/// ```swift
/// @Mappable class User { var firstName: String?; weak var manager: User?; required init() {} }
/// // expands, in the class body, to
/// class var mappableProperties: [Cartograph.MappableProperty] {
///     func own<Root: User>(_: Root.Type) -> [Cartograph.MappableProperty] {
///         [Cartograph.MappableProperty("firstName", \Root.firstName),
///          Cartograph.MappableProperty("manager", \Root.manager, weak: true)]
///     }
///     return own(Self.self)
/// }
/// // and `extension User: Cartograph.MappableProperties {}`.
/// ```
///
/// Key paths are formed on a generic `Root` bound to the dynamic `Self`, so a
/// subclass's table holds its superclass's properties as key paths of the
/// subclass (`\Root.firstName` with `Root == Admin` equals `\Admin.firstName`).
/// A subclass of a class that already has a table (the compiler tells the
/// macro: the conformance is then not missing) overrides the table and
/// starts from `super`'s. Structs and final classes get a `static` table.
public struct MappableMacro: MemberMacro, ExtensionMacro {
    public static func expansion(
        of node: AttributeSyntax, providingMembersOf declaration: some DeclGroupSyntax, conformingTo protocols: [TypeSyntax],
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        guard let kind = ModelKind(declaration) else {
            context.diagnose(Diagnostic(node: node, message: MappableMessage.notAType))
            return []
        }
        let properties = StoredProperty.all(in: declaration, kind: kind, context: context)
        let access = kind.tableAccess(declaration.modifiers)
        let entries = properties.map { property -> String in
            let root = kind.isClass ? "Root" : "Self"
            return "Cartograph.MappableProperty(\(literal(property.name)), \\\(root).\(property.identifier)\(property.isWeak ? ", weak: true" : ""))"
        }
        let list = entries.isEmpty ? "[]" : "[\n" + entries.map { "        " + $0 }.joined(separator: ",\n") + ",\n    ]"
        if !kind.isClass {
            return ["\(raw: access)static var mappableProperties: [Cartograph.MappableProperty] {\n    \(raw: list)\n}"]
        }
        // The superclass has a table already when the conformance is not missing.
        let inherits = protocols.isEmpty
        let modifier = (inherits ? "override " : "") + access + (kind.isFinal ? "static" : "class")
        let start = inherits ? "super.mappableProperties + " : ""
        return [
            """
            \(raw: modifier) var mappableProperties: [Cartograph.MappableProperty] {
                func own<Root: \(raw: kind.name)>(_: Root.Type) -> [Cartograph.MappableProperty] {
                    \(raw: list)
                }
                return \(raw: start)own(Self.self)
            }
            """
        ]
    }

    public static func expansion(
        of node: AttributeSyntax, attachedTo declaration: some DeclGroupSyntax, providingExtensionsOf type: some TypeSyntaxProtocol,
        conformingTo protocols: [TypeSyntax], in context: some MacroExpansionContext
    ) throws -> [ExtensionDeclSyntax] {
        guard ModelKind(declaration) != nil, !protocols.isEmpty else { return [] }
        return [try ExtensionDeclSyntax("extension \(type.trimmed): Cartograph.MappableProperties {}")]
    }

    /// A Swift string literal for a property name (names are identifiers: no escaping needed beyond backticks removed).
    static func literal(_ name: String) -> String {
        "\"" + name + "\""
    }
}

/// What `@Mappable` is attached to.
struct ModelKind {
    let name: String
    let isClass: Bool
    let isFinal: Bool
    let isStruct: Bool

    init?(_ declaration: some DeclGroupSyntax) {
        if let type = declaration.as(ClassDeclSyntax.self) {
            // A generic class is named with its parameters (`Box<Element>`) in `Root`'s constraint.
            let parameters = type.genericParameterClause?.parameters.map(\.name.text) ?? []
            name = type.name.text + (parameters.isEmpty ? "" : "<" + parameters.joined(separator: ", ") + ">")
            isClass = true
            isStruct = false
            isFinal = type.modifiers.contains { $0.name.tokenKind == .keyword(.final) }
        } else if let type = declaration.as(StructDeclSyntax.self) {
            name = type.name.text
            isClass = false
            isStruct = true
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
}

/// A stored instance property the table lists.
struct StoredProperty {
    /// The name as written in source (backticks kept), for the key path.
    let identifier: String
    /// The name without backticks, for the table.
    let name: String
    let isWeak: Bool

    /// The stored instance properties of `declaration`, in declaration order;
    /// computed and static properties are left out, and what a mapping could
    /// not fill is diagnosed.
    static func all(in declaration: some DeclGroupSyntax, kind: ModelKind, context: some MacroExpansionContext) -> [StoredProperty] {
        let declaresEmptyInit = declaration.memberBlock.members.contains { member in
            guard let initializer = member.decl.as(InitializerDeclSyntax.self) else { return false }
            return initializer.signature.parameterClause.parameters.isEmpty
        }
        var properties: [StoredProperty] = []
        for member in declaration.memberBlock.members {
            guard let variable = member.decl.as(VariableDeclSyntax.self) else { continue }
            let modifiers = variable.modifiers.map(\.name.tokenKind)
            if modifiers.contains(.keyword(.static)) || modifiers.contains(.keyword(.class)) || modifiers.contains(.keyword(.lazy)) { continue }
            let isWeak = modifiers.contains(.keyword(.weak)) || modifiers.contains(.keyword(.unowned))
            let isLet = variable.bindingSpecifier.tokenKind == .keyword(.let)
            for binding in variable.bindings {
                guard let pattern = binding.pattern.as(IdentifierPatternSyntax.self) else { continue }
                if let accessors = binding.accessorBlock, isComputed(accessors) { continue }
                let identifier = pattern.identifier.text
                let name = identifier.hasPrefix("`") ? String(identifier.dropFirst().dropLast()) : identifier
                if isLet, kind.isClass {
                    context.diagnose(Diagnostic(node: Syntax(binding), message: MappableMessage.letInClass(name)))
                    continue
                }
                let isOptional = binding.typeAnnotation.map { isOptionalType($0.type) } ?? false
                if binding.initializer == nil, !isOptional, !isLet, !declaresEmptyInit {
                    context.diagnose(Diagnostic(node: Syntax(binding), message: MappableMessage.noDefault(name, kind: kind)))
                }
                properties.append(StoredProperty(identifier: identifier, name: name, isWeak: isWeak))
            }
        }
        return properties
    }

    /// Whether an accessor block makes a computed property (a getter), not
    /// a stored one with observers (`willSet`/`didSet`).
    static func isComputed(_ accessors: AccessorBlockSyntax) -> Bool {
        switch accessors.accessors {
        case .getter: return true
        case .accessors(let list):
            return list.contains { $0.accessorSpecifier.tokenKind != .keyword(.willSet) && $0.accessorSpecifier.tokenKind != .keyword(.didSet) }
        }
    }

    static func isOptionalType(_ type: TypeSyntax) -> Bool {
        if type.is(OptionalTypeSyntax.self) || type.is(ImplicitlyUnwrappedOptionalTypeSyntax.self) { return true }
        if let identifier = type.as(IdentifierTypeSyntax.self) { return identifier.name.text == "Optional" }
        return false
    }
}

/// The macro's diagnostics: each says what to write.
enum MappableMessage: DiagnosticMessage {
    case notAType
    case letInClass(String)
    case noDefault(String, kind: ModelKind)

    var message: String {
        switch self {
        case .notAType:
            return "@Mappable applies to a struct or a class"
        case .letInClass(let name):
            return "'\(name)' is a 'let' of a class, which a mapping cannot fill: declare it 'var \(name)'"
        case .noDefault(let name, let kind):
            return "'\(name)' has no default value: give it one ('var \(name): … = …') or make it optional, so that "
                + (kind.isClass ? "'required init() {}'" : "'init()'") + " can make the model a mapping fills"
        }
    }

    var diagnosticID: MessageID {
        switch self {
        case .notAType: return MessageID(domain: "Cartograph", id: "notAType")
        case .letInClass: return MessageID(domain: "Cartograph", id: "letInClass")
        case .noDefault: return MessageID(domain: "Cartograph", id: "noDefault")
        }
    }

    var severity: DiagnosticSeverity { .error }
}
