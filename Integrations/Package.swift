// swift-tools-version: 6.1
import PackageDescription

/// Server integrations for Cartograph, kept out of the core package so that
/// the library itself does not pull in SwiftNIO and a web framework.
let package = Package(
    name: "CartographIntegrations",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "CartographHummingbird", targets: ["CartographHummingbird"]),
        .library(name: "CartographVapor", targets: ["CartographVapor"]),
    ],
    dependencies: [
        .package(name: "Cartograph", path: ".."),
        // No default traits: swift-configuration and full Foundation are not needed here.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.0.0", traits: []),
        .package(url: "https://github.com/apple/swift-nio", from: "2.80.0"),
        .package(url: "https://github.com/vapor/vapor", from: "4.100.0"),
    ],
    targets: [
        // What both integrations share: body formats and error messages.
        .target(
            name: "CartographHTTP",
            dependencies: [.product(name: "Cartograph", package: "Cartograph")]
        ),
        .target(
            name: "CartographHummingbird",
            dependencies: [
                "CartographHTTP",
                .product(name: "Cartograph", package: "Cartograph"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ]
        ),
        .target(
            name: "CartographVapor",
            dependencies: [
                "CartographHTTP",
                .product(name: "Cartograph", package: "Cartograph"),
                .product(name: "Vapor", package: "vapor"),
                .product(name: "NIOCore", package: "swift-nio"),
            ]
        ),
        // URLSession requests and bodies both integrations' tests send.
        .target(name: "HTTPTestSupport", path: "Tests/HTTPTestSupport"),
        .testTarget(
            name: "CartographVaporTests",
            dependencies: ["CartographVapor", "HTTPTestSupport", .product(name: "Vapor", package: "vapor")]
        ),
        .testTarget(
            name: "CartographHummingbirdTests",
            dependencies: [
                "CartographHummingbird",
                "HTTPTestSupport",
                .product(name: "Hummingbird", package: "hummingbird"),
            ]
        ),
    ]
)
