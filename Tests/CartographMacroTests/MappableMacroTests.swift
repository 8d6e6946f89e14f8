import CartographMacroSupport
import SwiftSyntaxMacroExpansion
import SwiftSyntaxMacrosTestSupport
import XCTest

/// `@Mappable`'s expansions, asserted as source, and the diagnostics it
/// gives for what a mapping could not fill.
final class MappableMacroTests: XCTestCase {
    /// As the compiler calls it for a type without a table: the conformance is missing.
    let fresh: [String: MacroSpec] = [
        "Mappable": MacroSpec(type: MappableMacro.self, conformances: ["MappableModel"]),
        "Mapped": MacroSpec(type: MappedAttribute.self),
        "MapIgnore": MacroSpec(type: MappedAttribute.self)
    ]
    /// As the compiler calls it for a subclass of a class with a table: nothing is missing.
    let inheriting: [String: MacroSpec] = [
        "Mappable": MacroSpec(type: MappableMacro.self, conformances: []),
        "Mapped": MacroSpec(type: MappedAttribute.self),
        "MapIgnore": MacroSpec(type: MappedAttribute.self)
    ]

    func testAStructListsItsStoredPropertiesAndLeavesComputedAndStaticOnesOut() {
        assertMacroExpansion(
            """
            @Mappable struct Place {
                var name = ""
                var lat: Double?
                let id: Int = 0
                var label: String { name }
                static var count = 0
                lazy var cache = 0
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
                    lazy var cache = 0
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

                extension Place: Cartograph.MappableModel {
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
                            Cartograph.MappableProperty("firstName", \\Root.firstName, get: {
                                    $0.firstName
                                }, set: {
                                    $0.firstName = $1
                                }),
                            Cartograph.MappableProperty("manager", \\Root.manager, weak: true, get: {
                                    $0.manager
                                }, set: {
                                    $0.manager = $1
                                }),
                            Cartograph.MappableProperty("email", \\Root.email, get: {
                                    $0.email
                                }, set: {
                                    $0.email = $1
                                }),
                        ]
                        }
                        return own(Self.self)
                    }
                }

                extension User: Cartograph.MappableModel {
                }
                """,
            macroSpecs: fresh)
    }

    func testARootClassWithoutInitializersGetsRequiredInit() {
        assertMacroExpansion(
            """
            @Mappable class User: Codable {
                var name: String?
            }
            """,
            expandedSource: """
                class User: Codable {
                    var name: String?

                    class var mappableProperties: [Cartograph.MappableProperty] {
                        func own<Root: User>(_: Root.Type) -> [Cartograph.MappableProperty] {
                            [
                            Cartograph.MappableProperty("name", \\Root.name, get: {
                                    $0.name
                                }, set: {
                                    $0.name = $1
                                }),
                        ]
                        }
                        return own(Self.self)
                    }

                    required init() {
                    }
                }

                extension User: Cartograph.MappableModel {
                }
                """,
            macroSpecs: fresh)
    }

    func testAStructWithItsOwnInitializersGetsInitAndOneWithoutKeepsItsMemberwiseInit() {
        assertMacroExpansion(
            """
            @Mappable public struct Point {
                var x = 0
                public init(x: Int) { self.x = x }
            }
            """,
            expandedSource: """
                public struct Point {
                    var x = 0
                    public init(x: Int) { self.x = x }

                    public static var mappableProperties: [Cartograph.MappableProperty] {
                        [
                            Cartograph.MappableProperty("x", \\Self.x),
                        ]
                    }

                    public init() {
                    }
                }

                extension Point: Cartograph.MappableModel {
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
                            Cartograph.MappableProperty("level", \\Root.level, get: {
                                    $0.level
                                }, set: {
                                    $0.level = $1
                                }),
                        ]
                        }
                        return super.mappableProperties + own(Self.self)
                    }
                }
                """,
            macroSpecs: inheriting)
    }

    func testASubclassLeavesItsOverridesToTheSuperclassTableAndRefusesAttributesOnThem() {
        assertMacroExpansion(
            """
            @Mappable class Admin: User {
                override var name: String? { didSet { seen = true } }
                @Mapped("lvl") override var level: Int { didSet {} }
                @MapIgnore var seen = false
            }
            """,
            expandedSource: """
                class Admin: User {
                    override var name: String? { didSet { seen = true } }
                    override var level: Int { didSet {} }
                    var seen = false

                    override class var mappableProperties: [Cartograph.MappableProperty] {
                        func own<Root: Admin>(_: Root.Type) -> [Cartograph.MappableProperty] {
                            [
                            Cartograph.MappableProperty("seen", \\Root.seen, get: {
                                    $0.seen
                                }, set: {
                                    $0.seen = $1
                                }, rules: {
                                    [Cartograph.Ignore(\\Root.seen)]
                                }),
                        ]
                        }
                        return super.mappableProperties + own(Self.self)
                    }
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message: "'level' overrides a property the superclass's table already lists: put the attribute on the superclass's declaration",
                    line: 3, column: 5)
            ],
            macroSpecs: inheriting)
    }

    func testASubclassWithItsOwnInitializersGetsRequiredInitCallingSuper() {
        assertMacroExpansion(
            """
            @Mappable final class Admin: User {
                var level = 0
                init(level: Int) { self.level = level; super.init() }
            }
            """,
            expandedSource: """
                final class Admin: User {
                    var level = 0
                    init(level: Int) { self.level = level; super.init() }

                    override static var mappableProperties: [Cartograph.MappableProperty] {
                        func own<Root: Admin>(_: Root.Type) -> [Cartograph.MappableProperty] {
                            [
                            Cartograph.MappableProperty("level", \\Root.level, get: {
                                    $0.level
                                }, set: {
                                    $0.level = $1
                                }),
                        ]
                        }
                        return super.mappableProperties + own(Self.self)
                    }

                    required init() {
                        super.init()
                    }
                }
                """,
            macroSpecs: inheriting)
    }

    func testAttributesBecomeTheRulesTheyDescribeWithTheirArgumentsAsWritten() {
        assertMacroExpansion(
            """
            @Mappable final class Event {
                @Mapped("dob", transform: .iso8601) var birthday: Date?
                @Mapped(decode: "legacy.name", encode: "name", required: true) var name = ""
                @MapIgnore var cache = 0
                @MapIgnore(.encode) var password: String?
                @Mapped(nilEncoding: .null) var note: String?
                @Mapped("full_name") var fullName: String { name }
                @Mapped var title: String { get { name } set { name = newValue } }
                var hidden: Int { 1 }
            }
            """,
            expandedSource: """
                final class Event {
                    var birthday: Date?
                    var name = ""
                    var cache = 0
                    var password: String?
                    var note: String?
                    var fullName: String { name }
                    var title: String { get { name } set { name = newValue } }
                    var hidden: Int { 1 }

                    static var mappableProperties: [Cartograph.MappableProperty] {
                        func own<Root: Event>(_: Root.Type) -> [Cartograph.MappableProperty] {
                            [
                            Cartograph.MappableProperty("birthday", \\Root.birthday, get: {
                                    $0.birthday
                                }, set: {
                                    $0.birthday = $1
                                }, rules: {
                                    [Cartograph.Map(\\Root.birthday, "dob", transform: .iso8601)]
                                }),
                            Cartograph.MappableProperty("name", \\Root.name, get: {
                                    $0.name
                                }, set: {
                                    $0.name = $1
                                }, rules: {
                                    [Cartograph.Map(\\Root.name, decode: "legacy.name", encode: "name", required: true)]
                                }),
                            Cartograph.MappableProperty("cache", \\Root.cache, get: {
                                    $0.cache
                                }, set: {
                                    $0.cache = $1
                                }, rules: {
                                    [Cartograph.Ignore(\\Root.cache)]
                                }),
                            Cartograph.MappableProperty("password", \\Root.password, get: {
                                    $0.password
                                }, set: {
                                    $0.password = $1
                                }, rules: {
                                    [Cartograph.Map(\\Root.password), Cartograph.Ignore(\\Root.password, on: .encode)]
                                }),
                            Cartograph.MappableProperty("note", \\Root.note, get: {
                                    $0.note
                                }, set: {
                                    $0.note = $1
                                }, rules: {
                                    [Cartograph.Map(\\Root.note, nilEncoding: .null)]
                                }),
                            Cartograph.MappableProperty("fullName", \\Root.fullName, rules: {
                                    [Cartograph.Getter("full_name") {
                                            $0.fullName
                                        }]
                                }),
                            Cartograph.MappableProperty("title", \\Root.title, get: {
                                    $0.title
                                }, set: {
                                    $0.title = $1
                                }, rules: {
                                    [Cartograph.Map(\\Root.title)]
                                }),
                        ]
                        }
                        return own(Self.self)
                    }
                }

                extension Event: Cartograph.MappableModel {
                }
                """,
            macroSpecs: fresh)
    }

    func testWhatAMappingCannotFillIsAnErrorThatSaysWhatToWrite() {
        assertMacroExpansion(
            """
            @Mappable class Account {
                let id: Int
                var balance: Double
                var note: String?
                required init() {}
            }
            """,
            expandedSource: """
                class Account {
                    let id: Int
                    var balance: Double
                    var note: String?
                    required init() {}

                    class var mappableProperties: [Cartograph.MappableProperty] {
                        func own<Root: Account>(_: Root.Type) -> [Cartograph.MappableProperty] {
                            [
                            Cartograph.MappableProperty("balance", \\Root.balance, get: {
                                    $0.balance
                                }, set: {
                                    $0.balance = $1
                                }),
                            Cartograph.MappableProperty("note", \\Root.note, get: {
                                    $0.note
                                }, set: {
                                    $0.note = $1
                                }),
                        ]
                        }
                        return own(Self.self)
                    }
                }

                extension Account: Cartograph.MappableModel {
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message:
                        "'id' is a 'let' of a class, which a mapping cannot fill: declare it 'var id' (or mark it @MapIgnore, or @Mapped to write it and never read it)",
                    line: 2, column: 9)
            ],
            macroSpecs: fresh)
        assertMacroExpansion(
            """
            @Mappable struct Total {
                var balance: Double
                let currency: String
            }
            """,
            expandedSource: """
                struct Total {
                    var balance: Double
                    let currency: String

                    static var mappableProperties: [Cartograph.MappableProperty] {
                        [
                            Cartograph.MappableProperty("balance", \\Self.balance),
                            Cartograph.MappableProperty("currency", \\Self.currency),
                        ]
                    }
                }

                extension Total: Cartograph.MappableModel {
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message:
                        "'balance' has no default value: give it one ('var balance: … = …') or make it optional, so that 'init()' can make the model a mapping fills",
                    line: 2, column: 9),
                DiagnosticSpec(
                    message:
                        "'currency' has no default value: give it one ('let currency: … = …'), so that 'init()' can make the model a mapping fills",
                    line: 3, column: 9)
            ],
            macroSpecs: fresh)
    }

    func testInitializersAMappingCannotUseAreErrorsThatSayWhatToWrite() {
        assertMacroExpansion(
            """
            @Mappable class Account {
                var note: String?
                init() {}
            }
            """,
            expandedSource: """
                class Account {
                    var note: String?
                    init() {}

                    class var mappableProperties: [Cartograph.MappableProperty] {
                        func own<Root: Account>(_: Root.Type) -> [Cartograph.MappableProperty] {
                            [
                            Cartograph.MappableProperty("note", \\Root.note, get: {
                                    $0.note
                                }, set: {
                                    $0.note = $1
                                }),
                        ]
                        }
                        return own(Self.self)
                    }
                }

                extension Account: Cartograph.MappableModel {
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message: "a mapping makes each 'Account' (and each subclass) with 'init()': declare it 'required init()'", line: 3, column: 5)
            ],
            macroSpecs: fresh)
        assertMacroExpansion(
            """
            @Mappable class Account: Entity {
                var note: String?
            }
            """,
            expandedSource: """
                class Account: Entity {
                    var note: String?

                    class var mappableProperties: [Cartograph.MappableProperty] {
                        func own<Root: Account>(_: Root.Type) -> [Cartograph.MappableProperty] {
                            [
                            Cartograph.MappableProperty("note", \\Root.note, get: {
                                    $0.note
                                }, set: {
                                    $0.note = $1
                                }),
                        ]
                        }
                        return own(Self.self)
                    }
                }

                extension Account: Cartograph.MappableModel {
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message:
                        "'Account' may inherit from 'Entity', which is not @Mappable: declare 'required init() { … }' yourself (with 'override' if 'Entity' has an 'init()')",
                    line: 1, column: 1)
            ],
            macroSpecs: fresh)
    }

    func testOptionsOnAReadOnlyPropertyAndAttributesOffPropertiesAreRefused() {
        assertMacroExpansion(
            """
            @Mappable struct Label {
                @Mapped("t", required: true) var text: String { "x" }
                @Mapped func make() {}
            }
            """,
            expandedSource: """
                struct Label {
                    var text: String { "x" }
                    func make() {}

                    static var mappableProperties: [Cartograph.MappableProperty] {
                        []
                    }
                }

                extension Label: Cartograph.MappableModel {
                }
                """,
            diagnostics: [
                DiagnosticSpec(message: "@Mapped applies to a property of a @Mappable type", line: 3, column: 5),
                DiagnosticSpec(
                    message: "'text' is read-only, so it is written and never read: @Mapped can give it only a key and 'nilEncoding'", line: 2,
                    column: 13)
            ],
            macroSpecs: fresh)
    }

    /// The macro cannot tell which `#if` clause is active: the table keeps
    /// the clauses, so the compiler lists the properties it compiles.
    func testPropertiesUnderIfConfigKeepTheirClausesInTheTable() {
        assertMacroExpansion(
            """
            @Mappable struct Probe {
                var id = 0
                #if DEBUG
                var trace = ""
                #elseif os(Linux)
                #if arch(x86_64)
                var lane = 1
                #endif
                #else
                func note() {}
                #endif
                var name = ""
            }
            """,
            expandedSource: """
                struct Probe {
                    var id = 0
                    #if DEBUG
                    var trace = ""
                    #elseif os(Linux)
                    #if arch(x86_64)
                    var lane = 1
                    #endif
                    #else
                    func note() {}
                    #endif
                    var name = ""

                    static var mappableProperties: [Cartograph.MappableProperty] {
                        var properties: [Cartograph.MappableProperty] = []
                        properties += [
                            Cartograph.MappableProperty("id", \\Self.id),
                        ]
                        #if DEBUG
                        properties += [
                            Cartograph.MappableProperty("trace", \\Self.trace),
                        ]
                        #elseif os(Linux)
                        #if arch(x86_64)
                        properties += [
                            Cartograph.MappableProperty("lane", \\Self.lane),
                        ]
                        #endif
                        #else
                        #endif
                        properties += [
                            Cartograph.MappableProperty("name", \\Self.name),
                        ]
                        return properties
                    }
                }

                extension Probe: Cartograph.MappableModel {
                }
                """,
            macroSpecs: fresh)
    }

    /// A class's initializer under `#if` still counts: no second `init()` is written.
    func testAnInitializerUnderIfConfigIsSeen() {
        assertMacroExpansion(
            """
            @Mappable class Node {
                #if DEBUG
                required init() {}
                #else
                required init() { precondition(true) }
                #endif
            }
            """,
            expandedSource: """
                class Node {
                    #if DEBUG
                    required init() {}
                    #else
                    required init() { precondition(true) }
                    #endif

                    class var mappableProperties: [Cartograph.MappableProperty] {
                        func own<Root: Node>(_: Root.Type) -> [Cartograph.MappableProperty] {
                            []
                        }
                        return own(Self.self)
                    }
                }

                extension Node: Cartograph.MappableModel {
                }
                """,
            macroSpecs: fresh)
    }

    /// `var a, b: Int?` declares both optional (no default needed), and a
    /// tuple pattern declares each of its names.
    func testEveryBindingOfADeclarationIsListed() {
        assertMacroExpansion(
            """
            @Mappable struct Pair {
                var low, high: Int?
                var (x, y) = (0, 0)
                var z: Swift.Optional<Int>
                @Mapped("w") var (u, v) = (1, 2)
            }
            """,
            expandedSource: """
                struct Pair {
                    var low, high: Int?
                    var (x, y) = (0, 0)
                    var z: Swift.Optional<Int>
                    var (u, v) = (1, 2)

                    static var mappableProperties: [Cartograph.MappableProperty] {
                        [
                            Cartograph.MappableProperty("low", \\Self.low),
                            Cartograph.MappableProperty("high", \\Self.high),
                            Cartograph.MappableProperty("x", \\Self.x),
                            Cartograph.MappableProperty("y", \\Self.y),
                            Cartograph.MappableProperty("z", \\Self.z),
                        ]
                    }
                }

                extension Pair: Cartograph.MappableModel {
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message: "an attribute on a tuple pattern would apply to each of its properties: declare them one by one", line: 5,
                    column: 5)
            ],
            macroSpecs: fresh)
    }

    /// A public struct without initializers has only the compiler's
    /// internal `init()`, which a public conformance cannot use.
    func testAPublicStructWithoutInitializersIsToldToDeclareOne() {
        assertMacroExpansion(
            """
            @Mappable public struct Mark {
                public var x = 0
            }
            """,
            expandedSource: """
                public struct Mark {
                    public var x = 0

                    public static var mappableProperties: [Cartograph.MappableProperty] {
                        [
                            Cartograph.MappableProperty("x", \\Self.x),
                        ]
                    }
                }

                extension Mark: Cartograph.MappableModel {
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message:
                        "a mapping makes each 'Mark' with 'init()', which the compiler writes internal: declare 'public init() {}' (and the memberwise initializer, if it is used, since declaring one removes it)",
                    line: 1, column: 1)
            ],
            macroSpecs: fresh)
    }

    /// `init?()` is not the `init()` a mapping uses: the macro writes one,
    /// and a property it could not fill is still an error at the property.
    func testAFailableEmptyInitializerDoesNotExcuseAPropertyWithoutDefault() {
        assertMacroExpansion(
            """
            @Mappable struct Reading {
                var value: Int
                init?() { return nil }
            }
            """,
            expandedSource: """
                struct Reading {
                    var value: Int
                    init?() { return nil }

                    static var mappableProperties: [Cartograph.MappableProperty] {
                        [
                            Cartograph.MappableProperty("value", \\Self.value),
                        ]
                    }

                    init() {
                    }
                }

                extension Reading: Cartograph.MappableModel {
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message:
                        "'value' has no default value: give it one ('var value: … = …') or make it optional, so that 'init()' can make the model a mapping fills",
                    line: 2, column: 9)
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
