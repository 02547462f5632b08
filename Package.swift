// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Bindery",
    products: [
        .library(name: "RxCore", targets: ["RxCore"]),
        .library(name: "RxTesting", targets: ["RxTesting"]),
        .library(name: "EventLoop", targets: ["EventLoop"]),
    ],
    targets: [
        // Layer 0: libuv through pkg-config (Debian: libuv1-dev).
        .systemLibrary(
            name: "CLibUV",
            pkgConfig: "libuv",
            providers: [.apt(["libuv1-dev"])]
        ),
        // Layer 1: the Rx grammar, pure Swift, no libuv.
        .target(name: "RxCore"),
        // Layer 1: the libuv loop; installs itself as RxCore's main run loop.
        .target(name: "EventLoop", dependencies: ["CLibUV", "RxCore"]),
        // Virtual time for users' tests (RxTest's API).
        .target(name: "RxTesting", dependencies: ["RxCore"]),
        // Layer 2: HTTP/1.1 and WebSocket on the loop.
        .target(name: "HTTPServer", dependencies: ["EventLoop"]),
        .executableTarget(name: "bindery", dependencies: ["EventLoop", "RxCore"]),

        .testTarget(name: "RxCoreTests", dependencies: ["RxCore", "RxTesting"]),
        .testTarget(name: "RxTestingTests", dependencies: ["RxCore", "RxTesting"]),
        .testTarget(name: "EventLoopTests", dependencies: ["EventLoop", "RxCore"]),
        .testTarget(name: "HTTPServerTests", dependencies: ["HTTPServer", "EventLoop"]),
    ],
    swiftLanguageModes: [.v6]
)
