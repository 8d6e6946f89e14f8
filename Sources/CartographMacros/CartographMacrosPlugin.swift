import CartographMacroSupport
import SwiftCompilerPlugin
import SwiftSyntax
import SwiftSyntaxMacros

/// The compiler plugin that serves Cartograph's macros.
@main
struct CartographMacrosPlugin: CompilerPlugin {
    let providingMacros: [any Macro.Type] = [MappableMacro.self, MappedAttribute.self]
}

// The compiler finds a macro by module and type name
// (`#externalMacro(module: "CartographMacros", type: "MappableMacro")`), so
// the types it names live in this module; they hand every expansion to
// CartographMacroSupport, which the macro tests call directly.

/// `@Mappable`: see `CartographMacroSupport.MappableMacro`.
public struct MappableMacro: MemberMacro, ExtensionMacro {
    public static func expansion(
        of node: AttributeSyntax, providingMembersOf declaration: some DeclGroupSyntax, conformingTo protocols: [TypeSyntax],
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        try CartographMacroSupport.MappableMacro.expansion(
            of: node, providingMembersOf: declaration, conformingTo: protocols, in: context)
    }

    public static func expansion(
        of node: AttributeSyntax, attachedTo declaration: some DeclGroupSyntax, providingExtensionsOf type: some TypeSyntaxProtocol,
        conformingTo protocols: [TypeSyntax], in context: some MacroExpansionContext
    ) throws -> [ExtensionDeclSyntax] {
        try CartographMacroSupport.MappableMacro.expansion(
            of: node, attachedTo: declaration, providingExtensionsOf: type, conformingTo: protocols, in: context)
    }
}

/// `@Mapped`, `@MapIgnore` and `@MapParent`: see `CartographMacroSupport.MappedAttribute`.
public struct MappedAttribute: PeerMacro {
    public static func expansion(
        of node: AttributeSyntax, providingPeersOf declaration: some DeclSyntaxProtocol, in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        try CartographMacroSupport.MappedAttribute.expansion(of: node, providingPeersOf: declaration, in: context)
    }
}
