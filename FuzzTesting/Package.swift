// swift-tools-version: 6.0
import PackageDescription

/// libFuzzer targets for Cartograph (build with -sanitize=fuzzer,address; see scripts/fuzz).
let package = Package(
    name: "FuzzTesting",
    dependencies: [
        .package(name: "Cartograph", path: "..")
    ],
    targets: [
        .target(name: "FuzzSupport", dependencies: [.product(name: "Cartograph", package: "Cartograph")]),
        .executableTarget(name: "FuzzJSONDocument", dependencies: ["FuzzSupport", .product(name: "Cartograph", package: "Cartograph")]),
        .executableTarget(name: "FuzzMapping", dependencies: ["FuzzSupport", .product(name: "Cartograph", package: "Cartograph")]),
        .executableTarget(name: "FuzzRoundTrip", dependencies: ["FuzzSupport", .product(name: "Cartograph", package: "Cartograph")]),
        .executableTarget(name: "FuzzChunked", dependencies: ["FuzzSupport", .product(name: "Cartograph", package: "Cartograph")]),
        .executableTarget(name: "FuzzPropertyList", dependencies: ["FuzzSupport", .product(name: "Cartograph", package: "Cartograph")]),
        // CodableProbe.swift is a symbolic link to the test suite's copy.
        .executableTarget(name: "FuzzCodableDifferential", dependencies: ["FuzzSupport", .product(name: "Cartograph", package: "Cartograph")])
    ]
)
