import EventLoop
import Foundation
import Redis
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// How long a test waits for something that should happen at once.
let testTimeout: TimeInterval = 10

struct TestError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// A flag one thread opens and others wait for (NSCondition, which TSan understands).
final class Gate: @unchecked Sendable {
    private let condition = NSCondition()
    private var isOpen = false

    func open() {
        condition.lock()
        isOpen = true
        condition.broadcast()
        condition.unlock()
    }

    func wait(timeout: TimeInterval = testTimeout) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        while !isOpen {
            if !condition.wait(until: deadline) { return isOpen }
        }
        return true
    }
}

/// A value only touched on the loop thread; the loop serialises access.
final class LoopBox<Value>: @unchecked Sendable {
    var value: Value
    init(_ value: Value) { self.value = value }
}

/// Values appended from any thread, read after the fact.
final class Recorder<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [Value] = []

    func append(_ value: Value) {
        lock.lock()
        storage.append(value)
        lock.unlock()
    }

    var values: [Value] {
        lock.lock()
        defer { lock.unlock() }
        return storage
    }

    /// Polls until at least `count` values are in; false on timeout.
    func wait(for count: Int, timeout: TimeInterval = testTimeout) -> Bool {
        eventually(timeout: timeout) { values.count >= count }
    }
}

/// Polls `condition` until it holds or `timeout` passes.
func eventually(timeout: TimeInterval = testTimeout, _ condition: () -> Bool) -> Bool {
    let deadline = Date(timeIntervalSinceNow: timeout)
    while !condition() {
        if Date() > deadline { return false }
        usleep(2_000)
    }
    return true
}

/// An event loop running on a background thread for the length of a test.
final class LoopThread: @unchecked Sendable {
    let loop: EventLoop
    private let finished = Gate()

    init() throws {
        loop = try EventLoop()
        let loop = self.loop
        let finished = self.finished
        let thread = Thread {
            loop.run()
            finished.open()
        }
        thread.name = "event loop"
        thread.start()
        let started = Gate()
        loop.execute { started.open() }
        guard started.wait() else { throw TestError("event loop did not start") }
    }

    /// Runs `body` on the loop thread and returns its result.
    func sync<Result: Sendable>(_ body: @escaping @Sendable () throws -> Result) throws -> Result {
        let done = Gate()
        let result = LoopBox<Swift.Result<Result, any Error>?>(nil)
        loop.execute {
            result.value = Swift.Result { try body() }
            done.open()
        }
        guard done.wait() else { throw TestError("loop did not run the work in time") }
        return try result.value!.get()
    }

    func stop() {
        loop.stop()
        XCTAssertTrue(finished.wait(), "run() did not return after stop()")
    }
}

/// A real `redis-server` (Debian's) in the foreground on a free TCP port and a Unix
/// socket in a temporary directory, without persistence; stopped by PID.
final class RedisServerProcess: @unchecked Sendable {
    let port: Int
    let directory: URL
    var socketPath: String { directory.appendingPathComponent("redis.sock").path }
    private var process: Process?

    static var binary: String? {
        ["/usr/bin/redis-server", "/usr/local/bin/redis-server"].first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Starts the server; throws XCTSkip when redis-server is not installed.
    init() throws {
        guard Self.binary != nil else { throw XCTSkip("redis-server is not installed (apt-get install redis-server)") }
        port = try Self.freePort()
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("bindery-redis-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try start()
    }

    deinit {
        stop(signal: SIGTERM)
        try? FileManager.default.removeItem(at: directory)
    }

    /// Starts (or restarts) the server on the same port and socket; returns once it accepts.
    func start() throws {
        try? FileManager.default.removeItem(atPath: socketPath)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.binary!)
        process.arguments = ["--port", "\(port)", "--bind", "127.0.0.1", "--unixsocket", socketPath,
                             "--save", "", "--appendonly", "no", "--daemonize", "no", "--dir", directory.path,
                             "--logfile", directory.appendingPathComponent("redis.log").path]
        try process.run()
        self.process = process
        guard eventually({ FileManager.default.fileExists(atPath: socketPath) && Self.accepts(port: port) }) else {
            throw TestError("redis-server did not start on port \(port)")
        }
    }

    /// Stops the server with `signal` (SIGKILL: no goodbye) and waits for it to exit.
    func stop(signal: Int32 = SIGKILL) {
        guard let process, process.isRunning else { return }
        kill(process.processIdentifier, signal)
        process.waitUntilExit()
        self.process = nil
    }

    var tcpURL: String { "redis://127.0.0.1:\(port)" }
    var unixURL: String { "redis+unix://\(socketPath)" }

    private static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let rc = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer -> Int32 in
                guard bind(fd, pointer, length) == 0 else { return -1 }
                return getsockname(fd, pointer, &length)
            }
        }
        guard rc == 0 else { throw TestError("no free port: errno \(errno)") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    private static func accepts(port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }
}

/// A RedisConnection owned by a test, used on its loop.
final class ClientBox: @unchecked Sendable {
    let runner: LoopThread
    var connection: RedisConnection!
    let states = Recorder<RedisConnection.State>()

    init(_ runner: LoopThread, url: String, configuration: RedisConnection.Configuration = .init()) throws {
        self.runner = runner
        try runner.sync { [self] in
            connection = try RedisConnection(url: url, loop: runner.loop, configuration: configuration)
            connection.onStateChange = { [states] in states.append($0) }
            connection.connect()
        }
    }

    var state: RedisConnection.State { (try? runner.sync { [self] in connection.state }) ?? .idle }

    func waitUntilConnected(timeout: TimeInterval = testTimeout) -> Bool {
        eventually(timeout: timeout) { state == .connected }
    }

    /// Sends one command and waits for its result.
    func call(_ command: [String], timeout: Duration? = nil) throws -> Result<RESPValue, RedisError> {
        let result = Recorder<Result<RESPValue, RedisError>>()
        try runner.sync { [self] in connection.send(command, timeout: timeout) { result.append($0) } }
        guard result.wait(for: 1) else { throw TestError("no reply to \(command)") }
        return result.values[0]
    }

    func close() {
        _ = try? runner.sync { [self] in connection.close() }
    }
}
