// Throughput and latency of RedisConnection, shaped like redis-benchmark's SET test so the
// two can be compared on one machine (Benchmarks/README.md, "Redis client"):
//
//   redis-bench <url> [requests] [clients] [pipeline]
//
// `clients` connections on one loop (redis-benchmark is also one event loop); each keeps
// `pipeline` SETs in flight, sending the next batch when the last reply of one arrives
// (what redis-benchmark -P does). Prints requests/s and the per-command latency p50/p99
// (send to reply). Same key and 3-byte value as redis-benchmark's defaults.
import EventLoop
import Redis
#if canImport(Glibc)
import Glibc
#endif

let arguments = CommandLine.arguments
guard arguments.count >= 2 else {
    print("usage: redis-bench <redis://host:port | redis+unix:///path> [requests] [clients] [pipeline]")
    exit(2)
}
let url = arguments[1]
let requests = arguments.count > 2 ? Int(arguments[2])! : 100_000
let clients = arguments.count > 3 ? Int(arguments[3])! : 1
let pipeline = arguments.count > 4 ? Int(arguments[4])! : 1

/// The run's state; touched only on the loop thread (this one, inside `loop.run()`).
final class Bench {
    let loop: EventLoop
    let url: String
    let requests: Int
    let clients: Int
    let pipeline: Int
    let command = ["SET", "key:__rand_int__", "xxx"]
    var connections: [RedisConnection] = []
    var connected = 0
    var sent = 0
    var done = 0
    var latencies: [Int64] = []
    var started = ContinuousClock.now
    var finished = ContinuousClock.now

    init(url: String, requests: Int, clients: Int, pipeline: Int) throws {
        loop = try EventLoop()
        self.url = url
        self.requests = requests
        self.clients = clients
        self.pipeline = pipeline
        latencies.reserveCapacity(requests)
    }

    func run() throws {
        for _ in 0..<clients {
            let connection = try RedisConnection(url: url, loop: loop)
            connection.onStateChange = { [self] state in
                if case .waitingToReconnect(_, _, let reason) = state { fatalError("cannot connect: \(reason)") }
                guard state == .connected else { return }
                connected += 1
                if connected == clients {
                    started = .now
                    for connection in connections { sendBatch(connection) }
                }
            }
            connections.append(connection)
            connection.connect()
        }
        loop.run()
    }

    /// Sends the next batch of `pipeline` commands on `connection`.
    func sendBatch(_ connection: RedisConnection) {
        let count = min(pipeline, requests - sent)
        guard count > 0 else { return }
        sent += count
        var outstanding = count
        for _ in 0..<count {
            let sentAt = ContinuousClock.now
            connection.send(command) { [self] result in
                guard case .success = result else { fatalError("SET failed: \(result)") }
                latencies.append(nanoseconds(sentAt.duration(to: .now)))
                done += 1
                outstanding -= 1
                if done == requests {
                    finished = .now
                    for connection in connections { connection.close() }
                    loop.stop()
                } else if outstanding == 0 {
                    sendBatch(connection)
                }
            }
        }
    }

    func report() {
        let seconds = Double(nanoseconds(started.duration(to: finished))) / 1e9
        latencies.sort()
        func percentile(_ p: Double) -> Double {
            Double(latencies[min(latencies.count - 1, Int(Double(latencies.count) * p))]) / 1e6
        }
        print("SET: \(requests) requests, \(clients) clients, pipeline \(pipeline): "
              + "\(Int(Double(requests) / seconds)) requests/s, p50 \(percentile(0.5)) ms, p99 \(percentile(0.99)) ms")
    }
}

func nanoseconds(_ duration: Duration) -> Int64 {
    duration.components.seconds * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000
}

let bench = try Bench(url: url, requests: requests, clients: clients, pipeline: pipeline)
try bench.run()
bench.report()
