// swift-tools-version:6.0
import PackageDescription

// TodoMVC on Bindery: the app (view model + scene) is a library so tests can drive it; the
// executable serves it with the page in Public/.
let package = Package(
    name: "TodoMVC",
    dependencies: [
        // Your own package names Bindery by URL instead:
        // .package(url: "https://github.com/<owner>/bindery.git", branch: "main"),
        .package(name: "Bindery", path: "../.."),
    ],
    targets: [
        .target(name: "TodoMVC", dependencies: [
            .product(name: "Bindery", package: "Bindery"),
            .product(name: "RxWidgets", package: "Bindery"),
            .product(name: "RxCore", package: "Bindery"),
        ]),
        .executableTarget(name: "TodoMVCServer", dependencies: [
            "TodoMVC",
            .product(name: "Bindery", package: "Bindery"),
            .product(name: "EventLoop", package: "Bindery"),
        ]),
        .testTarget(name: "TodoMVCTests", dependencies: [
            "TodoMVC",
            .product(name: "BinderyTesting", package: "Bindery"),
            .product(name: "Bindery", package: "Bindery"),
            .product(name: "RxWidgets", package: "Bindery"),
        ]),
    ],
    swiftLanguageModes: [.v6]
)
