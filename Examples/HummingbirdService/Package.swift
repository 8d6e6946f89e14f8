// swift-tools-version: 6.1
import PackageDescription

/// A small Hummingbird service that maps its models with Cartograph and
/// serves JSON and property lists. Run it with `swift run` in this folder.
let package = Package(
    name: "HummingbirdService",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(name: "CartographIntegrations", path: "../../Integrations"),
        .package(name: "Cartograph", path: "../.."),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.0.0", traits: []),
    ],
    targets: [
        .executableTarget(
            name: "BookService",
            dependencies: [
                .product(name: "Cartograph", package: "Cartograph"),
                .product(name: "CartographHummingbird", package: "CartographIntegrations"),
                .product(name: "Hummingbird", package: "hummingbird"),
            ]
        ),
    ]
)
