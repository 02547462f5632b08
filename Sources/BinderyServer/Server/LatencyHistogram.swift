import BinderyCluster
import BinderyProtocol
import BinderyRuntime
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The event-to-answer latency histogram (`bindery_event_duration_seconds`): cumulative
/// Prometheus buckets from 50 µs to 1 s, plain integers on the loop.
///
/// Not a swift-metrics `Timer`: one `Timer.recordNanoseconds` into swift-prometheus's
/// histogram (a lock and `Duration` arithmetic) plus two `ContinuousClock.now` cost about
/// 1,330 instructions per echo event, 5 % of the echo path (callgrind-server.sh: 24,595
/// against 23,418 instructions per event). With this one everything this server adds to
/// the echo path (the histogram, the access-log hook, the missing-value check) is about
/// 200 instructions per event, 0.8 %. It is rendered into the same `/metrics` text.
/// Loop-confined.
package final class LatencyHistogram {
    /// Upper bounds in nanoseconds (`le`), ascending.
    static let bounds: [Int64] = [50_000, 100_000, 250_000, 500_000, 1_000_000, 2_500_000, 5_000_000,
                                  10_000_000, 25_000_000, 100_000_000, 250_000_000, 1_000_000_000]
    /// The same bounds in seconds, as the `le` labels.
    static let labels = ["0.00005", "0.0001", "0.00025", "0.0005", "0.001", "0.0025", "0.005",
                         "0.01", "0.025", "0.1", "0.25", "1"]

    /// Observations at or under each bound (not yet cumulative), then over the last.
    private var counts = [Int](repeating: 0, count: bounds.count + 1)
    private var sumNanoseconds: Int64 = 0
    private var count = 0

    /// Now on the monotonic clock, in nanoseconds.
    @inline(__always)
    static func now() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Int64(time.tv_sec) &* 1_000_000_000 &+ Int64(time.tv_nsec)
    }

    /// Records one observation. Not inlined: the message handler stays small enough for
    /// the session's `receive(text:)` to be inlined into it.
    @inline(never)
    func record(nanoseconds: Int64) {
        var index = 0
        let bounds = Self.bounds
        while index < bounds.count, nanoseconds > bounds[index] { index += 1 }
        counts[index] += 1
        sumNanoseconds &+= nanoseconds
        count += 1
    }

    /// The Prometheus text for `name` (HELP, TYPE, cumulative buckets, sum, count).
    func render(name: String, help: String) -> String {
        var out = "# HELP \(name) \(help)\n# TYPE \(name) histogram\n"
        var cumulative = 0
        for (index, label) in Self.labels.enumerated() {
            cumulative += counts[index]
            out += "\(name)_bucket{le=\"\(label)\"} \(cumulative)\n"
        }
        out += "\(name)_bucket{le=\"+Inf\"} \(count)\n"
        out += "\(name)_sum \(Double(sumNanoseconds) / 1e9)\n\(name)_count \(count)\n"
        return out
    }
}
