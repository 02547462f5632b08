import BinderyCluster
import BinderyProtocol
import BinderyRuntime
import CoreMetrics
import Prometheus
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// What `GET /metrics` exposes besides the session counters of ``Metrics``: HTTP
/// requests by route and status (swift-metrics counters backed by a swift-prometheus
/// registry), process metrics (RSS, open descriptors, CPU seconds, start time), build
/// info, and the event-to-answer latency histogram (a loop-confined one: a swift-metrics
/// `Timer` costs 5 % of the echo path, see `LatencyHistogram`).
///
/// ``registry`` is the app's Prometheus registry: ``BinderyServer`` bootstraps
/// swift-metrics with ``factory`` so an app's own `Counter(label:)`s appear on `/metrics`
/// too. Loop-confined, like ``Metrics``.
public final class ServerMetrics {
    /// The Prometheus registry rendered by `/metrics`.
    public let registry: PrometheusCollectorRegistry
    /// A swift-metrics factory writing into ``registry``.
    public let factory: PrometheusMetricsFactory

    /// WebSocket message received to answer sent, per message.
    let eventLatency = LatencyHistogram()
    private var requestCounters: [String: CoreMetrics.Counter] = [:]
    private let residentMemory: Prometheus.Gauge
    private let virtualMemory: Prometheus.Gauge
    private let openFileDescriptors: Prometheus.Gauge
    private let maxFileDescriptors: Prometheus.Gauge
    private let cpuSeconds: Prometheus.Counter

    /// Metrics in `registry`, with build info for `version`.
    public init(registry: PrometheusCollectorRegistry = PrometheusCollectorRegistry(), version: String = BinderyApp.version) {
        self.registry = registry
        factory = PrometheusMetricsFactory(registry: registry)
        residentMemory = registry.makeGauge(descriptor: .named("process_resident_memory_bytes", help: "Resident memory size in bytes."))
        virtualMemory = registry.makeGauge(descriptor: .named("process_virtual_memory_bytes", help: "Virtual memory size in bytes."))
        openFileDescriptors = registry.makeGauge(descriptor: .named("process_open_fds", help: "Number of open file descriptors."))
        maxFileDescriptors = registry.makeGauge(descriptor: .named("process_max_fds", help: "Maximum number of open file descriptors."))
        cpuSeconds = registry.makeCounter(descriptor: .named("process_cpu_seconds_total",
                                                             help: "Total user and system CPU time spent in seconds."))
        registry.makeGauge(descriptor: .named("process_start_time_seconds", help: "Start time of the process since the Unix epoch in seconds."))
            .set(ProcessInfoReader.startTime())
        registry.makeGauge(descriptor: .named("bindery_build_info", help: "Bindery's version (the value is always 1)."),
                           labels: [("version", version)]).set(1.0)
    }

    /// Counts one HTTP request answered on `route` (a route pattern, `static` or `none`).
    func countRequest(route: String, status: Int) {
        let key = "\(status) \(route)"
        if let counter = requestCounters[key] {
            counter.increment()
            return
        }
        let counter = CoreMetrics.Counter(label: "bindery_http_requests_total",
                                          dimensions: [("route", route), ("status", String(status))], factory: factory)
        requestCounters[key] = counter
        counter.increment()
    }

    /// The registry's exposition text, process metrics read now.
    func renderRegistry() -> String {
        let process = ProcessInfoReader.read()
        residentMemory.set(process.residentBytes)
        virtualMemory.set(process.virtualBytes)
        openFileDescriptors.set(process.openDescriptors)
        maxFileDescriptors.set(process.maxDescriptors)
        cpuSeconds.reset()
        cpuSeconds.increment(by: process.cpuSeconds)
        return eventLatency.render(name: "bindery_event_duration_seconds",
                                   help: "WebSocket client message received to its answer sent, in seconds.")
            + registry.emitToString()
    }
}

/// Linux `/proc` and `getrusage` figures for the process metrics.
enum ProcessInfoReader {
    struct Figures {
        var residentBytes = 0.0
        var virtualBytes = 0.0
        var openDescriptors = 0.0
        var maxDescriptors = 0.0
        var cpuSeconds = 0.0
    }

    static func read() -> Figures {
        var figures = Figures()
        let page = Double(sysconf(Int32(_SC_PAGESIZE)))
        if let statm = contents("/proc/self/statm")?.split(separator: " "), statm.count > 1 {
            figures.virtualBytes = (Double(statm[0]) ?? 0) * page
            figures.residentBytes = (Double(statm[1]) ?? 0) * page
        }
        if let directory = opendir("/proc/self/fd") {
            var count = 0
            while readdir(directory) != nil { count += 1 }
            closedir(directory)
            figures.openDescriptors = Double(max(0, count - 3))  // ".", ".." and the directory's own
        }
        var limit = rlimit()
        if getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 { figures.maxDescriptors = Double(limit.rlim_cur) }
        var usage = rusage()
        if getrusage(RUSAGE_SELF.rawValue, &usage) == 0 {
            figures.cpuSeconds = Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
                + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1_000_000
        }
        return figures
    }

    /// When the process started, in seconds since the Unix epoch (`/proc/self/stat`'s
    /// start time after boot plus `/proc/stat`'s boot time); now if those cannot be read.
    static func startTime() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        let fallback = Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
        guard let stat = contents("/proc/self/stat"), let close = stat.lastIndex(of: ")"),
              let boot = contents("/proc/stat")?.split(separator: "\n").first(where: { $0.hasPrefix("btime ") }),
              let bootTime = Double(boot.dropFirst(6).trimmingPrefix(" ")) else { return fallback }
        // Fields after the command's ")": state is field 3, starttime field 22.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 19, let ticks = Double(fields[19]) else { return fallback }
        return bootTime + ticks / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// A small text file's contents.
    static func contents(_ path: String) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: 4096)
        var total = 0
        while total < bytes.count {
            let got = bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + total, $0.count - total) }
            if got < 0 && errno == EINTR { continue }
            guard got > 0 else { break }
            total += got
        }
        return String(decoding: bytes[..<total], as: UTF8.self)
    }
}

extension MetricNameDescriptor {
    /// A metric named exactly `name` (the standard process metrics' names carry their unit).
    fileprivate static func named(_ name: String, help: String) -> MetricNameDescriptor {
        MetricNameDescriptor(metricName: name, unitName: "", helpText: help)
    }
}
