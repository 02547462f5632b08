import EventLoop
import Foundation
import Redis
import XCTest
#if canImport(Glibc)
import Glibc
#endif
import LoopTestSupport

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
