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
import LoopTestSupport

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
