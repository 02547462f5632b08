import EventLoop
import Foundation
import HTTPServer
import XCTest
#if canImport(Glibc)
import Glibc
#endif

// Helpers are prefixed `HTTP` so they cannot clash with the WebSocket tests in this module.

/// How long a test waits for something that should happen at once.
let httpTestTimeout: TimeInterval = 5

/// A flag one thread opens and others wait for.
final class HTTPTestGate: @unchecked Sendable {
    private let condition = NSCondition()
    private var isOpen = false

    func open() {
        condition.lock()
        isOpen = true
        condition.broadcast()
        condition.unlock()
    }

    func wait(timeout: TimeInterval = httpTestTimeout) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        while !isOpen {
            if !condition.wait(until: deadline) { return isOpen }
        }
        return true
    }
}

/// A value touched only on the loop thread (or guarded by its lock when read from the test).
final class HTTPTestBox<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: Value
    init(_ value: Value) { storage = value }
    var value: Value {
        get { lock.lock(); defer { lock.unlock() }; return storage }
        set { lock.lock(); storage = newValue; lock.unlock() }
    }
}

/// An event loop on a background thread with an `HTTPServer` on 127.0.0.1.
final class HTTPTestServer: @unchecked Sendable {
    let loop: EventLoop
    let server: HTTPServer
    let port: Int
    private let finished = HTTPTestGate()

    init(configuration: HTTPServer.Configuration = .init(), setUp: (Router) -> Void) throws {
        loop = try EventLoop()
        let router = Router()
        setUp(router)
        // Set up before the loop runs (allowed on the creating thread).
        server = HTTPServer(loop: loop, configuration: configuration, router: router)
        try server.start(host: "127.0.0.1", port: 0)
        port = server.port
        let loop = self.loop
        let finished = self.finished
        let thread = Thread {
            loop.run()
            finished.open()
        }
        thread.name = "http test loop"
        thread.start()
        let started = HTTPTestGate()
        loop.execute { started.open() }
        guard started.wait() else { throw HTTPTestError("event loop did not start") }
    }

    /// Runs `body` on the loop thread and waits for it.
    func sync<Result: Sendable>(_ body: @escaping @Sendable (HTTPServer) -> Result) throws -> Result {
        let done = HTTPTestGate()
        let box = HTTPTestBox<Result?>(nil)
        let server = LoopOnly(server)
        loop.execute {
            box.value = body(server.value)
            done.open()
        }
        guard done.wait() else { throw HTTPTestError("loop did not run the work in time") }
        return box.value!
    }

    /// Shuts the server down (bounded) and stops the loop.
    func stop(file: StaticString = #filePath, line: UInt = #line) {
        let closed = HTTPTestGate()
        let server = LoopOnly(server)
        loop.execute {
            if server.value.isShuttingDown {
                closed.open()
            } else {
                server.value.shutdown(timeout: .milliseconds(500)) { closed.open() }
            }
        }
        XCTAssertTrue(closed.wait(), "shutdown did not complete", file: file, line: line)
        loop.stop()
        XCTAssertTrue(finished.wait(), "run() did not return after stop()", file: file, line: line)
    }
}

/// Carries a loop-confined object to the loop thread.
struct LoopOnly<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

struct HTTPTestError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// A blocking POSIX TCP client, for requests curl would refuse to send.
final class HTTPRawClient {
    let fd: Int32

    init(port: Int, timeout: TimeInterval = httpTestTimeout) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw HTTPTestError("socket: errno \(errno)") }
        var time = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - timeout.rounded(.down)) * 1_000_000))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        inet_pton(AF_INET, "127.0.0.1", &address.sin_addr)
        let rc = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard rc == 0 else {
            Glibc.close(fd)
            throw HTTPTestError("connect: errno \(errno)")
        }
    }

    deinit { Glibc.close(fd) }

    /// Sends everything; false if the peer is gone.
    @discardableResult
    func send(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard sent > 0 else { return false }
            offset += sent
        }
        return true
    }

    @discardableResult
    func send(_ text: String) -> Bool { send(Array(text.utf8)) }

    /// Bytes received but not yet returned by a `receive` call.
    private var pending: [UInt8] = []

    /// Receives more into `pending`; false on EOF, error or timeout.
    private func fill() -> Bool {
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return false }
        pending += chunk[..<count]
        return true
    }

    private func take(_ count: Int) -> [UInt8] {
        let taken = Array(pending.prefix(count))
        pending.removeFirst(taken.count)
        return taken
    }

    /// Reads until the server closes (or the receive timeout); returns what arrived.
    func receiveAll(limit: Int = 16 << 20) -> [UInt8] {
        while pending.count < limit, fill() {}
        return take(limit)
    }

    /// `true` if the server closed the connection (EOF or reset) within the timeout.
    func isClosedByPeer() -> Bool {
        var chunk = [UInt8](repeating: 0, count: 256 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count == 0 { return true }
            if count < 0 { return errno == ECONNRESET }
        }
    }

    /// Reads until `marker` has arrived `times` times (or timeout/close); returns
    /// everything received so far.
    func receive(until marker: String, times: Int = 1) -> String {
        let needle = Array(marker.utf8)
        while occurrences(of: needle, in: pending) < times, fill() {}
        return String(decoding: take(pending.count), as: UTF8.self)
    }

    /// Reads one response head (through the blank line); body bytes stay pending.
    func receiveHead() -> String {
        let end: [UInt8] = [13, 10, 13, 10]
        while true {
            if let range = firstRange(of: end, in: pending) {
                return String(decoding: take(range.upperBound), as: UTF8.self)
            }
            guard fill() else { return String(decoding: take(pending.count), as: UTF8.self) }
        }
    }

    /// Reads exactly `count` bytes (fewer if the server closes or times out).
    func receiveBytes(_ count: Int) -> [UInt8] {
        while pending.count < count, fill() {}
        return take(count)
    }

    /// Reads one response with a Content-Length body (head without the blank line).
    func receiveResponse() -> (head: String, body: String) {
        let head = receiveHead()
        // Characters would count "\r\n" as one: trim bytes.
        let headPart = head.hasSuffix("\r\n\r\n") ? String(decoding: head.utf8.dropLast(4), as: UTF8.self) : head
        let length = headPart.split(separator: "\r\n")
            .first { $0.lowercased().hasPrefix("content-length:") }
            .flatMap { Int($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) } ?? 0
        return (headPart, String(decoding: receiveBytes(length), as: UTF8.self))
    }

    func shutdownWrite() { Glibc.shutdown(fd, Int32(SHUT_WR)) }
}

func firstRange(of needle: [UInt8], in haystack: [UInt8]) -> Range<Int>? {
    guard !needle.isEmpty, haystack.count >= needle.count else { return nil }
    for index in 0...(haystack.count - needle.count) where haystack[index..<(index + needle.count)].elementsEqual(needle) {
        return index..<(index + needle.count)
    }
    return nil
}

func occurrences(of needle: [UInt8], in haystack: [UInt8]) -> Int {
    guard !needle.isEmpty, haystack.count >= needle.count else { return 0 }
    var count = 0
    var index = 0
    while index <= haystack.count - needle.count {
        if haystack[index..<(index + needle.count)].elementsEqual(needle) {
            count += 1
            index += needle.count
        } else {
            index += 1
        }
    }
    return count
}

/// Runs curl; returns its stdout, stderr and exit status. Bounded by `--max-time`.
func runCurl(_ arguments: [String], maxTime: Int = 10) throws -> (stdout: String, stderr: String, status: Int32) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
    process.arguments = ["--silent", "--show-error", "--max-time", String(maxTime), "--noproxy", "*"] + arguments
    let out = Pipe(), err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    let errData = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (String(decoding: outData, as: UTF8.self), String(decoding: errData, as: UTF8.self), process.terminationStatus)
}

/// `true` when curl is installed (the curl tests skip otherwise).
let curlAvailable = FileManager.default.isExecutableFile(atPath: "/usr/bin/curl")
