// Bindery's RxCore beside OpenCombine (and a plain closure for the Binder), one benchmark
// per scenario and peer: `swift package --package-path Benchmarks benchmark`.
//
// Each benchmark iteration builds the pipeline, then measures 1,000 events
// (scalingFactor .kilo: the table shows per-event figures, marked `*`).
//
// package-benchmark runs benchmark closures on a concurrency-pool thread, and its async
// main parks the process main thread in `dispatch_main` (the main queue is then drained by
// a pool thread), so nothing here can run on the process main thread. The Binder scenarios
// (e, e2) install `CurrentThreadLoop`, which makes the benchmark thread MainScheduler's
// loop thread, as the libuv loop thread is in the server. For (e) the authoritative figure
// is `callgrind.sh`'s, measured on the real main thread with no loop installed.
import Benchmark
import Scenarios

let benchmarks: @Sendable () -> Void = {
    // No `.instructions` (the VM has no hardware counters: that is what callgrind.sh is
    // for), no `.cpuTotal` (10 ms resolution), no ARC counts (they need package-benchmark's
    // RuntimeInterposer trait, whose package the offline mirror does not have).
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .throughput, .mallocCountTotal],
        timeUnits: .nanoseconds,
        warmupIterations: 5,
        scalingFactor: .kilo,
        maxDuration: .seconds(1),
        maxIterations: 2_000
    )

    for scenario in allScenarios {
        for peer in scenario.peers {
            Benchmark("\(scenario.title) \(peer.name)") { benchmark in
                let measure = {
                    let runner = peer.make()
                    let events = benchmark.scaledIterations.count
                    benchmark.startMeasurement()
                    blackHole(runner.run(events))
                    benchmark.stopMeasurement()
                }
                if scenario.needsLoopThread {
                    CurrentThreadLoop.run(measure)
                } else {
                    measure()
                }
            }
        }
    }
}
