// swift-tools-version:6.0
import PackageDescription

// Expenses on Bindery: the app (view model + scene) is a library so tests can drive it; the
// executable serves it (auto-rendered: no HTML of its own).
let package = Package(
    name: "Expenses",
    dependencies: [
        // Your own package names Bindery by URL instead:
        // .package(url: "https://github.com/<owner>/bindery.git", branch: "main"),
        .package(name: "Bindery", path: "../.."),
    ],
    targets: [
        .target(name: "Expenses", dependencies: [
            .product(name: "Bindery", package: "Bindery"),
            .product(name: "RxWidgets", package: "Bindery"),
            .product(name: "RxCore", package: "Bindery"),
        ]),
        .executableTarget(name: "ExpensesServer", dependencies: [
            "Expenses",
            .product(name: "Bindery", package: "Bindery"),
            .product(name: "EventLoop", package: "Bindery"),
        ]),
        .testTarget(name: "ExpensesTests", dependencies: [
            "Expenses",
            .product(name: "BinderyTesting", package: "Bindery"),
            .product(name: "Bindery", package: "Bindery"),
            .product(name: "RxWidgets", package: "Bindery"),
        ]),
    ],
    swiftLanguageModes: [.v6]
)
