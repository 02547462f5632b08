// swift-tools-version: 6.1
// Benchmarks for RxCore, side by side with OpenCombine. A separate package so the root
// package (and its CI) never resolves package-benchmark or OpenCombine.
//
//   swift package --package-path Benchmarks benchmark     # wall clock, mallocs, ARC
//   Benchmarks/callgrind.sh                               # instructions per event
import PackageDescription

let package = Package(
    name: "BinderyBenchmarks",
    dependencies: [
        // The root package (RxCore). Named explicitly: a path dependency's identity is
        // otherwise its folder name, which differs between clones and worktrees.
        .package(name: "Bindery", path: ".."),
        // package-benchmark (now named `benchmark`; the old `package-benchmark` identity
        // makes its plugin print a deprecation notice). Only the MallocInterposer trait:
        // the default RuntimeInterposer trait pulls swift-runtime-interposer, which the
        // offline package mirror does not have.
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
        .package(url: "https://github.com/OpenCombine/OpenCombine", from: "0.14.0"),
    ],
    targets: [
        // The scenarios, shared by the package-benchmark suite and `InstructionCounts`.
        // Each runs N events through a pipeline built once, so setup cancels out.
        .target(
            name: "Scenarios",
            dependencies: [
                .product(name: "RxCore", package: "Bindery"),
                .product(name: "OpenCombine", package: "OpenCombine"),
            ]
        ),
        // Runs one scenario N times on the main thread; `callgrind.sh` runs it under
        // valgrind. No package-benchmark dependency, so malloc is glibc's, not the
        // interposer's.
        .executableTarget(
            name: "InstructionCounts",
            dependencies: ["Scenarios"]
        ),
        .executableTarget(
            name: "RxBenchmarks",
            dependencies: [
                "Scenarios",
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/RxBenchmarks",
            plugins: [
                .plugin(name: "BenchmarkPlugin", package: "benchmark"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
