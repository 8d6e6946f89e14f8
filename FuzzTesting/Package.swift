// swift-tools-version: 6.0
import PackageDescription

// libFuzzer targets for Cartograph (scripts/fuzz builds and runs them).

/// A fuzz target, its own `main` handing control to libFuzzer (FuzzSupport).
/// libFuzzer's runtime is linked into the fuzz targets alone:
/// `-sanitize=fuzzer` given to the whole build also reached the `@Mappable`
/// macro plugin, a host executable, which then failed to link. Everything
/// else (Cartograph included) gets ASan and libFuzzer's coverage
/// instrumentation from scripts/fuzz.
func fuzzTarget(_ name: String) -> Target {
    .executableTarget(
        name: name, dependencies: ["FuzzSupport", .product(name: "Cartograph", package: "Cartograph")],
        swiftSettings: [.unsafeFlags(["-sanitize=fuzzer"])], linkerSettings: [.unsafeFlags(["-sanitize=fuzzer"])])
}

let package = Package(
    name: "FuzzTesting",
    dependencies: [
        .package(name: "Cartograph", path: "..")
    ],
    targets: [
        .target(name: "FuzzSupport", dependencies: [.product(name: "Cartograph", package: "Cartograph")]),
        fuzzTarget("FuzzJSONDocument"),
        fuzzTarget("FuzzMapping"),
        fuzzTarget("FuzzRoundTrip"),
        fuzzTarget("FuzzChunked"),
        fuzzTarget("FuzzPropertyList"),
        // CodableProbe.swift is a symbolic link to the test suite's copy.
        fuzzTarget("FuzzCodableDifferential"),
        fuzzTarget("FuzzKeyTemplates")
    ]
)
