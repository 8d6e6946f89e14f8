// swift-tools-version: 6.1
import PackageDescription

/// A small Hummingbird service that maps its models with Cartograph and
/// serves JSON and property lists. Run it with `swift run` in this folder.
///
/// It depends on Cartograph as a user's service would — a service outside
/// this repository writes
/// `.package(url: "https://github.com/…/Cartograph", from: "0.1.0", traits: ["Hummingbird"])` —
/// here by path; the `Hummingbird` trait builds `CartographHummingbird`,
/// and Vapor is never fetched.
let package = Package(
    name: "HummingbirdService",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "Cartograph", path: "../..", traits: ["Hummingbird"]),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.0.0", traits: [])
    ],
    targets: [
        .executableTarget(
            name: "BookService",
            dependencies: [
                .product(name: "Cartograph", package: "Cartograph"),
                .product(name: "CartographHummingbird", package: "Cartograph"),
                .product(name: "Hummingbird", package: "hummingbird")
            ]
        )
    ]
)
