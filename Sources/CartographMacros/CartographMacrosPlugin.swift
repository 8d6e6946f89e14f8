import SwiftCompilerPlugin
import SwiftSyntaxMacros

/// The compiler plugin that serves Cartograph's macros.
@main
struct CartographMacrosPlugin: CompilerPlugin {
    let providingMacros: [any Macro.Type] = [MappableMacro.self, MappedAttribute.self]
}
