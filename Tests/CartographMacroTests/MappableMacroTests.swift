import CartographMacros
import SwiftSyntaxMacroExpansion
import SwiftSyntaxMacrosTestSupport
import XCTest

/// `@Mappable`'s expansions, asserted as source, and the diagnostics it
/// gives for what a mapping could not fill.
final class MappableMacroTests: XCTestCase {
    /// As the compiler calls it for a type without a table: the conformance is missing.
    let fresh = ["Mappable": MacroSpec(type: MappableMacro.self, conformances: ["MappableProperties"])]
    /// As the compiler calls it for a subclass of a class with a table: nothing is missing.
    let inheriting = ["Mappable": MacroSpec(type: MappableMacro.self, conformances: [])]

    func testAStructListsItsStoredPropertiesAndLeavesComputedAndStaticOnesOut() {
        assertMacroExpansion(
            """
            @Mappable struct Place {
                var name = ""
                var lat: Double?
                let id: Int = 0
                var label: String { name }
                static var count = 0
                var `default` = 1
            }
            """,
            expandedSource: """
            struct Place {
                var name = ""
                var lat: Double?
                let id: Int = 0
                var label: String { name }
                static var count = 0
                var `default` = 1

                static var mappableProperties: [Cartograph.MappableProperty] {
                    [
                        Cartograph.MappableProperty("name", \\Self.name),
                        Cartograph.MappableProperty("lat", \\Self.lat),
                        Cartograph.MappableProperty("id", \\Self.id),
                        Cartograph.MappableProperty("default", \\Self.`default`),
                    ]
                }
            }

            extension Place: Cartograph.MappableProperties {
            }
            """,
            macroSpecs: fresh)
    }

    func testAClassTableIsRootedAtTheDynamicSelfWithWeakAndObservedProperties() {
        assertMacroExpansion(
            """
            @Mappable public class User {
                public var firstName: String?
                weak var manager: User?
                var email = "" { didSet { } }
                public required init() {}
            }
            """,
            expandedSource: """
            public class User {
                public var firstName: String?
                weak var manager: User?
                var email = "" { didSet { } }
                public required init() {}

                public class var mappableProperties: [Cartograph.MappableProperty] {
                    func own<Root: User>(_: Root.Type) -> [Cartograph.MappableProperty] {
                        [
                        Cartograph.MappableProperty("firstName", \\Root.firstName),
                        Cartograph.MappableProperty("manager", \\Root.manager, weak: true),
                        Cartograph.MappableProperty("email", \\Root.email),
                    ]
                    }
                    return own(Self.self)
                }
            }

            extension User: Cartograph.MappableProperties {
            }
            """,
            macroSpecs: fresh)
    }

    func testASubclassOfAClassWithATableOverridesItStartingFromSuper() {
        assertMacroExpansion(
            """
            @Mappable class Admin: User {
                var level = 0
            }
            """,
            expandedSource: """
            class Admin: User {
                var level = 0

                override class var mappableProperties: [Cartograph.MappableProperty] {
                    func own<Root: Admin>(_: Root.Type) -> [Cartograph.MappableProperty] {
                        [
                        Cartograph.MappableProperty("level", \\Root.level),
                    ]
                    }
                    return super.mappableProperties + own(Self.self)
                }
            }
            """,
            macroSpecs: inheriting)
    }

    func testWhatAMappingCannotFillIsAnErrorThatSaysWhatToWrite() {
        assertMacroExpansion(
            """
            @Mappable class Account {
                let id: Int
                var balance: Double
                var note: String?
            }
            """,
            expandedSource: """
            class Account {
                let id: Int
                var balance: Double
                var note: String?

                class var mappableProperties: [Cartograph.MappableProperty] {
                    func own<Root: Account>(_: Root.Type) -> [Cartograph.MappableProperty] {
                        [
                        Cartograph.MappableProperty("balance", \\Root.balance),
                        Cartograph.MappableProperty("note", \\Root.note),
                    ]
                    }
                    return own(Self.self)
                }
            }

            extension Account: Cartograph.MappableProperties {
            }
            """,
            diagnostics: [
                DiagnosticSpec(message: "'id' is a 'let' of a class, which a mapping cannot fill: declare it 'var id'", line: 2, column: 9),
                DiagnosticSpec(
                    message: "'balance' has no default value: give it one ('var balance: … = …') or make it optional, so that 'required init() {}' can make the model a mapping fills",
                    line: 3, column: 9),
            ],
            macroSpecs: fresh)
    }

    func testAnEnumIsRefused() {
        assertMacroExpansion(
            """
            @Mappable enum Kind {
                case a
            }
            """,
            expandedSource: """
            enum Kind {
                case a
            }
            """,
            diagnostics: [DiagnosticSpec(message: "@Mappable applies to a struct or a class", line: 1, column: 1)],
            macroSpecs: fresh)
    }
}
