// swift-tools-version:6.0
import PackageDescription

// TodoMVC on Bindery: the app (view model + scene) is a library so tests can drive it; the
// executable serves it with the page in Public/.
let package = Package(
    name: "TodoMVC",
    dependencies: [
        // Your own package names Bindery by URL instead:
        // .package(url: "https://github.com/OWNER/bindery.git", branch: "main"),
        .package(name: "bindery", path: "../.."),
    ],
    targets: [
        .target(name: "TodoMVC", dependencies: [
            .product(name: "Bindery", package: "bindery"),
            .product(name: "RxWidgets", package: "bindery"),
            .product(name: "RxCore", package: "bindery"),
        ]),
        .executableTarget(name: "TodoMVCServer", dependencies: [
            "TodoMVC",
            .product(name: "Bindery", package: "bindery"),
        ]),
        .testTarget(name: "TodoMVCTests", dependencies: [
            "TodoMVC",
            .product(name: "BinderyTesting", package: "bindery"),
            .product(name: "Bindery", package: "bindery"),
            .product(name: "RxWidgets", package: "bindery"),
            .product(name: "RxCore", package: "bindery"),
            .product(name: "RxTesting", package: "bindery"),
        ]),
    ],
    swiftLanguageModes: [.v6]
)
