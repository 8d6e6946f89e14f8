// swift-tools-version: 6.0
import PackageDescription

/// Cartograph: JSON and property lists mapped into Swift models at C speed.
///
/// Layers (see README.md): `CModules/` hold the system-library targets for
/// yajl, jansson and libplist; `Sources/Cartograph` holds the thin C-facing
/// layer, the Document and its views, values and the writer.
let package = Package(
    name: "Cartograph",
    // Synchronization.Mutex, Int128 and UInt128 need the Swift 6.0 runtime:
    // macOS 15 and its siblings (Linux has no such floor).
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "Cartograph", targets: ["Cartograph"]),
        .executable(name: "cartograph", targets: ["CartographCLI"]),
        .executable(name: "cartograph-bench", targets: ["CartographBench"]),
        .executable(name: "cartograph-demo", targets: ["CartographDemo"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        // Only for `swift package generate-documentation` (scripts/docs); a
        // plugin adds nothing to the library's build or to its users' builds.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.4.0"),
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
        .target(
            name: "Cartograph",
            dependencies: ["CYajl", "CJansson", "CPlist", "CCartographShims"]
        ),
        .executableTarget(
            name: "CartographCLI",
            dependencies: [
                "Cartograph",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .target(
            name: "CorpusModels",
            dependencies: ["Cartograph"],
            path: "Sources/CorpusModels"
        ),
        .executableTarget(
            name: "CartographDemo",
            dependencies: ["Cartograph"]
        ),
        .executableTarget(
            name: "CartographBench",
            dependencies: ["Cartograph", "CorpusModels", "CYajl", "CJansson", "CPlist"]
        ),
        .testTarget(
            name: "CartographTests",
            dependencies: ["Cartograph", "CorpusModels"],
            resources: [.copy("Fixtures")]
        ),
    ]
)
