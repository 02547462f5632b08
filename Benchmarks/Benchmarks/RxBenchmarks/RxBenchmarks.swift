// Bindery's RxCore beside OpenCombine (and a plain closure for the Binder), one benchmark
// per scenario and peer: `swift package --package-path Benchmarks benchmark`.
//
// Each benchmark iteration builds the pipeline, then measures 1,000 events
// (scalingFactor .kilo: the table shows per-event figures, marked `*`). package-benchmark
// runs benchmark closures on a concurrency-pool thread; every scenario hops to the main
// thread (the main queue, which the async main drains), because MainScheduler, and so
// the Binder scenarios, treat the process main thread as the loop thread.
import Benchmark
import Dispatch
import Foundation
import Scenarios

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .cpuTotal, .throughput, .mallocCountTotal, .instructions],
        timeUnits: .nanoseconds,
        warmupIterations: 5,
        scalingFactor: .kilo,
        maxDuration: .seconds(1),
        maxIterations: 2_000
    )

    for scenario in allScenarios {
        for peer in scenario.peers {
            Benchmark("\(scenario.title) \(peer.name)") { benchmark in
                DispatchQueue.main.sync {
                    precondition(Thread.isMainThread)
                    let runner = peer.make()
                    let events = benchmark.scaledIterations.count
                    benchmark.startMeasurement()
                    blackHole(runner.run(events))
                    benchmark.stopMeasurement()
                }
            }
        }
    }
}
