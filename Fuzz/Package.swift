// swift-tools-version:6.0
import PackageDescription

// The libFuzzer targets, built by `make fuzz*` (docs/Fuzzing.md):
//     swift build --package-path Fuzz --scratch-path .build-fuzz -c release \
//         --sanitize=fuzzer --sanitize=address --product <target>
// A package of its own so that `--sanitize=fuzzer` (which links libFuzzer's `main` into
// every executable it builds) reaches only these executables, never `bindery`, `wsecho` or
// the test runner; the modules under test come from the root package's products by name.

// The entry point is `@_cdecl("LLVMFuzzerTestOneInput")` and libFuzzer supplies `main`:
// -parse-as-library keeps main.swift from defining one. lld: gold warns about every ASan
// symbol.
let fuzzer: [SwiftSetting] = [.unsafeFlags(["-parse-as-library"])]
let lld: [LinkerSetting] = [.unsafeFlags(["-use-ld=lld"])]

let package = Package(
    name: "BinderyFuzz",
    dependencies: [.package(name: "Bindery", path: "..")],
    targets: [
        // Frames and messages: HTTPServer's FrameParser, MessageAssembler, UTF8Validator.
        .executableTarget(name: "WebSocketFrameFuzz", dependencies: [.product(name: "HTTPServer", package: "Bindery")],
                          path: "WebSocketFrameParser", exclude: ["seeds"], swiftSettings: fuzzer, linkerSettings: lld),
        // HTTPServer's HTTPRequestParser.
        .executableTarget(name: "HTTPParserFuzz", dependencies: [.product(name: "HTTPServer", package: "Bindery")],
                          path: "HTTPParserFuzz", swiftSettings: fuzzer, linkerSettings: lld),
        // Redis' RESP2 parser and encoder.
        .executableTarget(name: "RESPParserFuzz", dependencies: [.product(name: "Redis", package: "Bindery")],
                          path: "RESPParser", exclude: ["seeds"], swiftSettings: fuzzer, linkerSettings: lld),
        // The demo's scenes: a target of the root package but not a product, so compiled
        // here from the same folder (BinderyDemo is a link to ../Sources/BinderyDemo).
        .target(name: "BinderyDemo", dependencies: [
                    .product(name: "Bindery", package: "Bindery"),
                    .product(name: "RxCore", package: "Bindery"),
                    .product(name: "RxWidgets", package: "Bindery"),
                ], path: "BinderyDemo"),
        // The one wire codec, both directions (BinderyProtocol, through the Bindery product).
        .executableTarget(name: "CodecFuzz", dependencies: [.product(name: "Bindery", package: "Bindery")],
                          path: "CodecFuzz", swiftSettings: fuzzer, linkerSettings: lld),
        // The whole message path: frames -> JSON -> session -> a demo scene -> patches.
        .executableTarget(name: "MessageFuzz", dependencies: [
                              "BinderyDemo",
                              .product(name: "Bindery", package: "Bindery"),
                              .product(name: "HTTPServer", package: "Bindery"),
                              .product(name: "RxCore", package: "Bindery"),
                              .product(name: "RxWidgets", package: "Bindery"),
                          ], path: "MessageFuzz", swiftSettings: fuzzer, linkerSettings: lld),
    ],
    swiftLanguageModes: [.v6]
)
