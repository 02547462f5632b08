import EventLoop
import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// How long any test waits for something that should happen at once.
let testTimeout: TimeInterval = 5

/// A flag one thread opens and others wait for. Built on NSCondition (pthread), which
/// ThreadSanitizer understands; DispatchSemaphore's uncontended path on Linux is plain
/// atomics in an uninstrumented library, so TSan would miss the hand-off.
final class Gate: @unchecked Sendable {
    private let condition = NSCondition()
    private var isOpen = false

    func open() {
        condition.lock()
        isOpen = true
        condition.broadcast()
        condition.unlock()
    }

    /// Waits until opened; `false` on timeout.
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

/// Values appended from any thread, read after the fact.
final class Recorder<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [Value] = []
    private var waiters: [(count: Int, gate: Gate)] = []

    func append(_ value: Value) {
        lock.lock()
        storage.append(value)
        let ready = waiters.filter { storage.count >= $0.count }
        waiters.removeAll { storage.count >= $0.count }
        lock.unlock()
        ready.forEach { $0.gate.open() }
    }

    var values: [Value] {
        lock.lock()
        defer { lock.unlock() }
        return storage
    }

    /// Waits until at least `count` values were appended; `false` on timeout.
    func wait(for count: Int, timeout: TimeInterval = testTimeout) -> Bool {
        let gate = Gate()
        lock.lock()
        if storage.count >= count {
            lock.unlock()
            return true
        }
        waiters.append((count, gate))
        lock.unlock()
        return gate.wait(timeout: timeout)
    }
}

/// A value that is only touched on the loop thread (the tests keep loop-confined objects
/// such as listeners here). The loop, not the type system, serialises access.
final class LoopBox<Value>: @unchecked Sendable {
    var value: Value
    init(_ value: Value) { self.value = value }
}

/// A weak reference readable from the test thread (to check that objects are released).
final class WeakBox<Object: AnyObject>: @unchecked Sendable {
    private let lock = NSLock()
    private weak var object: Object?
    var value: Object? {
        get { lock.lock(); defer { lock.unlock() }; return object }
        set { lock.lock(); object = newValue; lock.unlock() }
    }
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
        // Returns once run() has installed the loop and is turning.
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

    /// Stops the loop and waits for `run()` to return.
    func stop(file: StaticString = #filePath, line: UInt = #line) {
        loop.stop()
        XCTAssertTrue(finished.wait(), "run() did not return after stop()", file: file, line: line)
    }
}

struct TestError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Monotonic time in nanoseconds (CLOCK_MONOTONIC, the clock uv_hrtime reads).
func monotonicNanoseconds() -> UInt64 {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
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

/// A blocking POSIX TCP client, so the server side is tested against the kernel and not
/// against itself.
final class TestClient: @unchecked Sendable {
    let fd: Int32

    /// Connects to `host`:`port` (numeric IPv4 or IPv6).
    init(host: String = "127.0.0.1", port: Int) throws {
        let isIPv6 = host.contains(":")
        fd = socket(isIPv6 ? AF_INET6 : AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw TestError("socket: errno \(errno)") }
        // Never hang a test on a silent server.
        var timeout = timeval(tv_sec: Int(testTimeout), tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let rc: Int32
        if isIPv6 {
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = in_port_t(UInt16(port).bigEndian)
            inet_pton(AF_INET6, host, &address.sin6_addr)
            rc = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size))
                }
            }
        } else {
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            inet_pton(AF_INET, host, &address.sin_addr)
            rc = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
        }
        guard rc == 0 else {
            let error = errno
            Glibc.close(fd)
            throw TestError("connect to \(host):\(port): errno \(error)")
        }
    }

    deinit {
        Glibc.close(fd)
    }

    /// The client's own port.
    var localPort: Int {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { _ = getsockname(fd, $0, &length) }
        }
        return withUnsafeBytes(of: &storage) { raw in
            // sin_port and sin6_port sit at the same offset, right after the family.
            Int(UInt16(bigEndian: raw.load(fromByteOffset: 2, as: UInt16.self)))
        }
    }

    func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard sent > 0 else { throw TestError("send: errno \(errno)") }
            offset += sent
        }
    }

    /// Reads until end of stream (or `limit` bytes).
    func receiveUntilEOF(limit: Int = .max) throws -> [UInt8] {
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while received.count < limit {
            let wanted = min(chunk.count, limit - received.count)
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, wanted, 0) }
            if count == 0 { return received }
            guard count > 0 else { throw TestError("recv: errno \(errno) after \(received.count) bytes") }
            received += chunk[..<count]
        }
        return received
    }

    /// Reads exactly `count` bytes.
    func receive(count: Int) throws -> [UInt8] {
        let bytes = try receiveUntilEOF(limit: count)
        guard bytes.count == count else { throw TestError("EOF after \(bytes.count) of \(count) bytes") }
        return bytes
    }

    /// Sends FIN.
    func shutdownWrite() {
        Glibc.shutdown(fd, Int32(SHUT_WR))
    }
}
