// The one redis-server launcher of the Swift tests (RedisTests, BinderyTests).
import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A real `redis-server` (Debian's) in the foreground on a Unix socket in a temporary
/// directory, without RDB snapshots; stopped by PID. `tcp`: also on a free port of
/// 127.0.0.1. `appendOnly`: the append-only file fsync'd on every write, so a SIGKILL and
/// a restart keep the data. Throws XCTSkip when redis-server is not installed.
package final class RedisServer: @unchecked Sendable {
    /// The TCP port, 0 without `tcp`.
    package let port: Int
    package let directory: URL
    package let appendOnly: Bool
    package var socketPath: String { directory.appendingPathComponent("redis.sock").path }
    package var tcpURL: String { "redis://127.0.0.1:\(port)" }
    package var unixURL: String { "redis+unix://\(socketPath)" }
    private var process: Process?

    package static var binary: String? {
        ["/usr/bin/redis-server", "/usr/local/bin/redis-server"].first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    package init(tcp: Bool = false, appendOnly: Bool = false) throws {
        guard Self.binary != nil else { throw XCTSkip("redis-server is not installed (apt-get install redis-server)") }
        port = tcp ? try Self.freePort() : 0
        self.appendOnly = appendOnly
        // /tmp, not TMPDIR: a Unix socket path has at most 107 bytes.
        directory = URL(fileURLWithPath: "/tmp").appendingPathComponent("bindery-redis-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try start()
    }

    deinit {
        stop(signal: SIGTERM)
        try? FileManager.default.removeItem(at: directory)
    }

    /// Starts (or restarts) the server on the same socket and port; returns once it
    /// answers PING (with the append-only file loaded).
    package func start() throws {
        try? FileManager.default.removeItem(atPath: socketPath)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.binary!)
        var arguments = ["--port", "\(port)", "--unixsocket", socketPath, "--save", "", "--daemonize", "no",
                         "--dir", directory.path, "--logfile", directory.appendingPathComponent("redis.log").path]
        arguments += port == 0 ? [] : ["--bind", "127.0.0.1"]
        arguments += appendOnly ? ["--appendonly", "yes", "--appendfsync", "always"] : ["--appendonly", "no"]
        process.arguments = arguments
        try process.run()
        self.process = process
        guard eventually({ Self.pong(socketPath) && (port == 0 || Self.accepts(port: port)) }) else {
            throw TestError("redis-server did not start (\(directory.path)/redis.log)")
        }
    }

    /// Stops the server with `signal` (SIGKILL: no goodbye) and waits for it to exit.
    package func stop(signal: Int32 = SIGKILL) {
        guard let process, process.isRunning else { return }
        kill(process.processIdentifier, signal)
        process.waitUntilExit()
        self.process = nil
    }

    /// Whether the server on `path` answers PING with PONG (not LOADING while it reads
    /// its append-only file).
    private static func pong(_ path: String) -> Bool {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var timeout = timeval(tv_sec: 1, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { return false }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) == 0
            }
        }
        guard connected, write(fd, "PING\r\n", 6) == 6 else { return false }
        var reply = [UInt8](repeating: 0, count: 64)
        let n = read(fd, &reply, reply.count)
        return n > 0 && String(decoding: reply[0..<n], as: UTF8.self).hasPrefix("+PONG")
    }

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
