import CLibUV
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension TCPConnection {
    /// Opens an outgoing TCP connection to `address`. Returns the connection at once;
    /// `completion` runs on the loop thread when it is established (nil) or has failed
    /// (e.g. `ECONNREFUSED`, or `ECANCELED` when you close it first: that is how to give
    /// up on a slow connect). Do not read or write before `completion(nil)`; close the
    /// connection after a failure. Loop-confined.
    ///
    /// - Throws: ``UVError`` when libuv refuses the attempt at once.
    public static func connect(to address: SocketAddress, on loop: EventLoop,
                               _ completion: @escaping (UVError?) -> Void) throws(UVError) -> TCPConnection {
        loop.preconditionLoopConfined()
        let connection = try TCPConnection(unconnectedOn: loop)
        let request = ConnectRequest(completion: completion)
        request.submit()
        let rc = address.withSockAddr { uv_tcp_connect(request.request, connection.handle, $0, connectCallback) }
        guard rc == 0 else {
            request.abandon()
            connection.close()
            throw UVError(code: rc, operation: "connect to \(address)")
        }
        return connection
    }

    /// Opens an outgoing connection to the Unix-domain stream socket at `path`.
    ///
    /// libuv's `uv_tcp_open` adopts any connected stream socket, so a Unix socket is
    /// served by the same handle and API as TCP (``setNoDelay(_:)`` and the addresses do
    /// not apply). The local `connect(2)` is made at once (it does not wait on a network);
    /// `completion(nil)` then runs in a later loop turn, as for TCP. Loop-confined.
    ///
    /// - Throws: ``UVError`` when the socket cannot be created or connected (e.g.
    ///   `ENOENT`, `ECONNREFUSED`, or `EINVAL` for a path longer than `sun_path`).
    public static func connect(unixSocketPath path: String, on loop: EventLoop,
                               _ completion: @escaping (UVError?) -> Void) throws(UVError) -> TCPConnection {
        loop.preconditionLoopConfined()
        let operation = "connect to unix socket \(path)"
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let pathBytes = Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard !pathBytes.isEmpty, pathBytes.count < capacity else {
            throw UVError(code: bindery_uv_einval(), operation: operation)
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: pathBytes)
            raw[pathBytes.count] = 0
        }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw UVError(code: -errno, operation: operation) }
        let rc = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard rc == 0 else {
            let error = UVError(code: -errno, operation: operation)
            Glibc.close(fd)
            throw error
        }
        let connection: TCPConnection
        do {
            connection = try TCPConnection(unconnectedOn: loop)
        } catch {
            Glibc.close(fd)
            throw error
        }
        let openRC = uv_tcp_open(connection.handle, fd)
        guard openRC == 0 else {
            Glibc.close(fd)
            connection.close()
            throw UVError(code: openRC, operation: operation)
        }
        loop.scheduleTimer(after: .zero) { [weak connection] in
            completion(connection == nil || connection!.isClosed
                       ? UVError(code: bindery_uv_ecanceled(), operation: operation) : nil)
        }
        return connection
    }
}

/// A `uv_connect_t` and its completion; retained by the request's `data` until the
/// callback.
private final class ConnectRequest {
    let request: UnsafeMutablePointer<uv_connect_t>
    private let completion: (UVError?) -> Void

    init(completion: @escaping (UVError?) -> Void) {
        self.completion = completion
        request = .allocate(capacity: 1)
        request.initialize(to: uv_connect_t())
    }

    func submit() {
        request.pointee.data = Unmanaged.passRetained(self).toOpaque()
    }

    func abandon() {
        request.deallocate()
        Unmanaged.passUnretained(self).release()
    }

    func complete(status: Int32) {
        request.deallocate()
        completion(status < 0 ? UVError(code: status, operation: "connect") : nil)
    }
}

private let connectCallback: uv_connect_cb = { request, status in
    guard let request, let data = request.pointee.data else { return }
    Unmanaged<ConnectRequest>.fromOpaque(data).takeRetainedValue().complete(status: status)
}
