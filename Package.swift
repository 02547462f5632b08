// swift-tools-version:6.0
import PackageDescription

// Release builds drop the run-time exclusivity checks (about 13 % of the instructions on
// the echo path, Benchmarks/README.md); debug and test builds keep them. SwiftPM refuses
// unsafe flags in a package depended on by version (a user's `.package(url:from:)`), so a
// checkout of Bindery (a dependency by URL lives in `.build/checkouts/`) builds without
// them; this repository and packages naming it by path keep them.
let isCheckout = Context.packageDirectory.contains("/checkouts/")
// Cross-module optimisation lets the echo path inline across the Bindery layers as it did
// when they were one module (Benchmarks/README.md: instructions per event).
let hotPath: [SwiftSetting] = isCheckout ? [] : [.unsafeFlags(["-enforce-exclusivity=unchecked", "-cross-module-optimization"],
                                                              .when(configuration: .release))]

let package = Package(
    name: "Bindery",
    products: [
        .library(name: "RxCore", targets: ["RxCore"]),
        .library(name: "RxTesting", targets: ["RxTesting"]),
        .library(name: "RxBlocking", targets: ["RxBlocking"]),
        .library(name: "EventLoop", targets: ["EventLoop"]),
        .library(name: "RxWidgets", targets: ["RxWidgets"]),
        .library(name: "UIKitCompat", targets: ["UIKitCompat"]),
        .library(name: "HTTPServer", targets: ["HTTPServer"]),
        .library(name: "Redis", targets: ["Redis"]),
        .library(name: "Bindery", targets: ["Bindery"]),
        .library(name: "BinderyTesting", targets: ["BinderyTesting"]),
    ],
    dependencies: [
        // The ecosystem's command line, logging and metrics APIs (Bindery's standard flags,
        // users' own log handlers and metrics backends).
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
    ],
    targets: [
        // Layer 0: libuv through pkg-config (Debian: libuv1-dev).
        .systemLibrary(
            name: "CLibUV",
            pkgConfig: "libuv",
            providers: [.apt(["libuv1-dev"])]
        ),
        // SHA-1 for the WebSocket handshake from OpenSSL's libcrypto (Debian: libssl-dev).
        .systemLibrary(
            name: "CCrypto",
            pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"])]
        ),
        // The embedded session store (`--store sqlite:PATH`) on Debian's libsqlite3
        // (libsqlite3-dev): no package to build, unlike GRDB.
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        // Layer 1: the Rx grammar, pure Swift, no libuv.
        .target(name: "RxCore", swiftSettings: hotPath),
        // Layer 1: the libuv loop; installs itself as RxCore's main run loop.
        .target(name: "EventLoop", dependencies: ["CLibUV", "RxCore"], swiftSettings: hotPath),
        // Virtual time for users' tests (RxTest's API).
        .target(name: "RxTesting", dependencies: ["RxCore"]),
        // Blocking operators for tests and scripts (RxBlocking's API).
        .target(name: "RxBlocking", dependencies: ["RxCore"]),
        // Layer 2: server-side widget models with RxCocoa's reactive extensions.
        .target(name: "RxWidgets", dependencies: ["RxCore"], swiftSettings: hotPath),
        // UIKit names as typealiases, so RxCocoa-era code ports by changing imports.
        .target(name: "UIKitCompat", dependencies: ["RxWidgets", "RxCore"]),
        // Layer 2: HTTP/1.1 and RFC 6455 WebSocket on the loop.
        .target(name: "HTTPServer", dependencies: ["EventLoop", "CCrypto"], swiftSettings: hotPath),
        // Layer 2: a RESP2 Redis client on the loop (the session store's transport).
        .target(name: "Redis", dependencies: ["EventLoop"], swiftSettings: hotPath),
        // Measures RedisConnection beside redis-benchmark (Benchmarks/README.md).
        .executableTarget(name: "redis-bench", dependencies: ["Redis", "EventLoop"], swiftSettings: hotPath),
        .executableTarget(name: "wsecho", dependencies: ["HTTPServer", "EventLoop"]),
        // Layer 3, bottom up; the compiler keeps the arrows pointing down (docs/Architecture.md).
        // The wire protocol: messages, their one JSON codec.
        .target(name: "BinderyProtocol", dependencies: ["RxCore", "RxWidgets"], swiftSettings: hotPath),
        // Scenes, sessions, hosts: no Redis, HTTP or logging.
        .target(name: "BinderyRuntime", dependencies: ["BinderyProtocol", "RxCore", "RxWidgets"], swiftSettings: hotPath),
        // Durable sessions and shared scenes across processes, on Redis (or SQLite, one process).
        .target(name: "BinderyCluster", dependencies: [
                    "BinderyRuntime", "BinderyProtocol", "RxCore", "RxWidgets", "EventLoop", "Redis", "CSQLite",
                    .product(name: "CoreMetrics", package: "swift-metrics"),
                ], swiftSettings: hotPath),
        // The HTTP app, its API, the command line, logs and metrics. Its browser client
        // (Client/: bindery.js, bindery.css, index.html, scene.html) is a resource, served
        // by BinderyApp under the app's own public directory.
        .target(name: "BinderyServer", dependencies: [
                    "BinderyCluster", "BinderyRuntime", "BinderyProtocol", "RxCore", "RxWidgets", "HTTPServer",
                    "EventLoop", "Redis",
                    .product(name: "ArgumentParser", package: "swift-argument-parser"),
                    .product(name: "Logging", package: "swift-log"),
                    .product(name: "CoreMetrics", package: "swift-metrics"),
                    .product(name: "Prometheus", package: "swift-prometheus"),
                ],
                resources: [.copy("Client")], swiftSettings: hotPath),
        // What apps import: the four above under one name.
        .target(name: "Bindery", dependencies: ["BinderyServer", "BinderyCluster", "BinderyRuntime", "BinderyProtocol"]),
        // The demo app's scenes (RxCocoa-style view controllers), registered by `bindery`.
        .target(name: "BinderyDemo", dependencies: ["Bindery", "RxCore", "RxWidgets"], swiftSettings: hotPath),
        // Drive a scene in-process for users' tests (like Phoenix's LiveViewTest).
        .target(name: "BinderyTesting", dependencies: ["Bindery", "RxCore", "RxWidgets", "RxTesting"]),
        .executableTarget(name: "bindery", dependencies: ["Bindery", "BinderyDemo"]),

        .testTarget(name: "RxCoreTests", dependencies: ["RxCore", "RxTesting"]),
        .testTarget(name: "RxTestingTests", dependencies: ["RxCore", "RxTesting"]),
        .testTarget(name: "RxBlockingTests", dependencies: ["RxBlocking", "RxCore", "RxTesting", "EventLoop"]),
        // Helpers shared by the loop-level test targets.
        .target(name: "LoopTestSupport", dependencies: ["EventLoop"], path: "Tests/LoopTestSupport"),
        .testTarget(name: "EventLoopTests", dependencies: ["EventLoop", "RxCore", "LoopTestSupport"]),
        .testTarget(name: "RxWidgetsTests", dependencies: ["RxWidgets", "RxCore", "RxTesting"]),
        .testTarget(name: "UIKitCompatTests", dependencies: ["UIKitCompat", "RxWidgets", "RxCore", "RxTesting", "Bindery", "BinderyTesting"]),
        .testTarget(name: "RedisTests", dependencies: ["Redis", "EventLoop", "LoopTestSupport"]),
        .testTarget(name: "HTTPServerTests", dependencies: ["HTTPServer", "EventLoop"]),
        .testTarget(name: "BinderyTests", dependencies: ["Bindery", "BinderyTesting", "RxWidgets", "RxCore", "RxTesting", "HTTPServer", "EventLoop",
                                                  "Redis", "LoopTestSupport"]),
        .testTarget(name: "BinderyDemoTests", dependencies: ["BinderyDemo", "BinderyTesting", "Bindery", "RxWidgets", "RxCore", "RxTesting"]),
        .testTarget(name: "BinderyTestingTests", dependencies: ["BinderyTesting", "Bindery", "RxWidgets", "RxCore", "RxTesting"]),
    ],
    swiftLanguageModes: [.v6]
)
