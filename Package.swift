// swift-tools-version: 6.2
import CompilerPluginSupport
import PackageDescription

/// Cartograph: JSON and property lists mapped into Swift models at C speed.
///
/// Layers (see README.md): `CModules/` hold the system-library targets for
/// yajl, jansson and libplist; `Sources/Cartograph` holds the thin C-facing
/// layer, the Document and its views, values and the writer.
///
/// The server integrations are products of this package behind traits, so
/// that they can be added by URL (SwiftPM takes URL dependencies only on root
/// packages) and cost nothing when unused: a Hummingbird service writes
/// `.package(url: …, from: "0.1.0", traits: ["Hummingbird"])` and never
/// fetches Vapor; users of the core library fetch neither, since a
/// dependency used only under a disabled trait is not resolved.
let package = Package(
    name: "Cartograph",
    // Synchronization.Mutex, Int128 and UInt128 need the Swift 6.0 runtime:
    // macOS 15 and its siblings (Linux has no such floor).
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    // The benchmark and the demo are executable targets of this package
    // (`swift run cartograph-bench`, `scripts/demo`), not products: a
    // dependent package has no use for them.
    products: [
        .library(name: "Cartograph", targets: ["Cartograph"]),
        .executable(name: "cartograph", targets: ["CartographCLI"]),
        .library(name: "CartographHummingbird", targets: ["CartographHummingbird"]),
        .library(name: "CartographVapor", targets: ["CartographVapor"])
    ],
    traits: [
        .trait(name: "Hummingbird", description: "Builds CartographHummingbird: request decoding and response encoding for Hummingbird 2."),
        .trait(name: "Vapor", description: "Builds CartographVapor: content coders for Vapor 4."),
        .default(enabledTraits: [])
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        // Only under the Hummingbird / Vapor traits. Hummingbird without its
        // default traits: swift-configuration and full Foundation are not needed.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.0.0", traits: []),
        .package(url: "https://github.com/apple/swift-nio", from: "2.80.0"),
        .package(url: "https://github.com/vapor/vapor", from: "4.100.0"),
        // Only for `swift package generate-documentation` (scripts/docs); a
        // plugin adds nothing to the library's build or to its users' builds.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.4.0"),
        // The @Mappable macro's implementation (a compiler plugin: it runs at
        // build time and is not linked into the library).
        .package(url: "https://github.com/swiftlang/swift-syntax", from: "603.0.0")
    ],
    targets: [
        .systemLibrary(
            name: "CYajl",
            path: "CModules/CYajl",
            pkgConfig: "yajl",
            providers: [.apt(["libyajl-dev"]), .brew(["yajl"])]
        ),
        .systemLibrary(
            name: "CJansson",
            path: "CModules/CJansson",
            pkgConfig: "jansson",
            providers: [.apt(["libjansson-dev"]), .brew(["jansson"])]
        ),
        .systemLibrary(
            name: "CPlist",
            path: "CModules/CPlist",
            pkgConfig: "libplist-2.0",
            providers: [.apt(["libplist-dev"]), .brew(["libplist"])]
        ),
        .target(
            name: "CCartographShims",
            path: "CModules/CCartographShims"
        ),
        // yajl's callbacks writing the tape in C (the parse's hot path).
        .target(
            name: "CCartographTape",
            dependencies: ["CYajl"],
            path: "CModules/CCartographTape"
        ),
        // @Mappable: model property tables written at compile time. The
        // expansions live in a plain library that the plugin and the macro
        // tests share: a test target that depends on a `.macro` target makes
        // SwiftPM build the whole test product, and every dependency of it
        // (SwiftNIO, Vapor, BoringSSL), a second time for the host.
        .target(
            name: "CartographMacroSupport",
            dependencies: [
                .product(name: "SwiftSyntaxMacros", package: "swift-syntax")
            ]
        ),
        .macro(
            name: "CartographMacros",
            dependencies: [
                "CartographMacroSupport",
                .product(name: "SwiftSyntaxMacros", package: "swift-syntax"),
                .product(name: "SwiftCompilerPlugin", package: "swift-syntax")
            ]
        ),
        .target(
            name: "Cartograph",
            dependencies: ["CYajl", "CJansson", "CPlist", "CCartographShims", "CCartographTape", "CartographMacros"],
            // Every use of a pointer, `Unmanaged`, a bit cast or unchecked
            // exclusivity must be marked `unsafe` (SE-0458), so the compiler
            // finds each one; `scripts/unsafe-perimeter` then checks that the
            // marks stay inside `Sources/Cartograph/Unsafe/` and the files
            // it still lists. `Lifetimes` lets a reader keep a `Span` of its
            // input (a `~Escapable` struct) instead of a pointer: the
            // language steering group has promised that what this
            // experimental flag spells today keeps compiling for two more
            // releases, which is why swift-nio enables it too
            // (forums.swift.org/t/78638).
            swiftSettings: [.strictMemorySafety(), .enableExperimentalFeature("Lifetimes")]
        ),
        .executableTarget(
            name: "CartographCLI",
            dependencies: [
                "Cartograph",
                .product(name: "ArgumentParser", package: "swift-argument-parser")
            ]
        ),
        .target(
            name: "CorpusModels",
            dependencies: ["Cartograph"],
            path: "Sources/CorpusModels"
        ),
        // What both integrations share: body formats and error messages.
        .target(
            name: "CartographHTTP",
            dependencies: ["Cartograph"]
        ),
        .target(
            name: "CartographHummingbird",
            dependencies: [
                "CartographHTTP",
                "Cartograph",
                .product(name: "Hummingbird", package: "hummingbird", condition: .when(traits: ["Hummingbird"])),
                .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: ["Hummingbird"])),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio", condition: .when(traits: ["Hummingbird"]))
            ]
        ),
        .target(
            name: "CartographVapor",
            dependencies: [
                "CartographHTTP",
                "Cartograph",
                .product(name: "Vapor", package: "vapor", condition: .when(traits: ["Vapor"])),
                .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: ["Vapor"]))
            ]
        ),
        // Named as their commands: SwiftPM gives a root package's executable
        // targets products of their own name, so `swift run cartograph-bench`
        // works while dependents see no such product.
        .executableTarget(
            name: "cartograph-demo",
            dependencies: ["Cartograph"],
            path: "Sources/CartographDemo"
        ),
        .executableTarget(
            name: "cartograph-bench",
            dependencies: ["Cartograph", "CorpusModels", "CYajl", "CJansson", "CPlist", "CCartographTape"],
            path: "Sources/CartographBench"
        ),
        // The server `scripts/bench-http` drives with wrk (both traits).
        .executableTarget(
            name: "cartograph-http-bench",
            dependencies: [
                "Cartograph",
                "CartographHummingbird",
                "CartographVapor",
                .product(name: "Hummingbird", package: "hummingbird", condition: .when(traits: ["Hummingbird"])),
                .product(name: "Vapor", package: "vapor", condition: .when(traits: ["Vapor"])),
                .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: ["Hummingbird", "Vapor"]))
            ],
            path: "Sources/CartographHTTPBench"
        ),
        .testTarget(
            name: "CartographTests",
            dependencies: ["Cartograph", "CorpusModels", "HTTPTestSupport"],
            resources: [.copy("Fixtures")]
        ),
        // The macro's expansions and diagnostics, asserted as source.
        .testTarget(
            name: "CartographMacroTests",
            dependencies: [
                "CartographMacroSupport",
                .product(name: "SwiftSyntaxMacroExpansion", package: "swift-syntax"),
                .product(name: "SwiftSyntaxMacrosTestSupport", package: "swift-syntax")
            ]
        ),
        // Live-server tests of the integrations (127.0.0.1 only); empty
        // unless their trait is enabled (scripts/test enables both).
        .target(name: "HTTPTestSupport", path: "Tests/HTTPTestSupport"),
        .testTarget(
            name: "CartographHummingbirdTests",
            dependencies: [
                "CartographHummingbird",
                "HTTPTestSupport",
                .product(name: "Hummingbird", package: "hummingbird", condition: .when(traits: ["Hummingbird"]))
            ]
        ),
        .testTarget(
            name: "CartographVaporTests",
            dependencies: [
                "CartographVapor",
                "HTTPTestSupport",
                .product(name: "Vapor", package: "vapor", condition: .when(traits: ["Vapor"]))
            ]
        )
    ]
)
