// swift-tools-version:6.0
import PackageDescription

// Expenses on Bindery: the app (view model + scene) is a library so tests can drive it; the
// executable serves it (auto-rendered: no HTML of its own).
let package = Package(
    name: "Expenses",
    dependencies: [
        // Your own package names Bindery by URL instead:
        // .package(url: "https://github.com/OWNER/bindery.git", branch: "main"),
        .package(name: "bindery", path: "../.."),
    ],
    targets: [
        .target(name: "Expenses", dependencies: [
            .product(name: "Bindery", package: "bindery"),
            .product(name: "RxWidgets", package: "bindery"),
            .product(name: "RxCore", package: "bindery"),
        ]),
        .executableTarget(name: "ExpensesServer", dependencies: [
            "Expenses",
            .product(name: "Bindery", package: "bindery"),
        ]),
        .testTarget(name: "ExpensesTests", dependencies: [
            "Expenses",
            .product(name: "BinderyTesting", package: "bindery"),
            .product(name: "Bindery", package: "bindery"),
            .product(name: "RxWidgets", package: "bindery"),
            .product(name: "RxCore", package: "bindery"),
            .product(name: "RxTesting", package: "bindery"),
        ]),
    ],
    swiftLanguageModes: [.v6]
)
