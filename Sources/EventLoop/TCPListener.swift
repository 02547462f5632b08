import CLibUV
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A listening TCP socket (`uv_tcp_t` + `uv_listen`) that hands each accepted connection
/// to a handler.
///
/// Loop-confined (see ``EventLoop``); the handler runs on the loop thread. The listener
/// keeps itself and its loop alive until ``close(_:)`` completes.
public final class TCPListener {
    /// The loop the listener runs on.
    public let loop: EventLoop

    /// The address the socket is bound to. When you asked for port 0 this holds the port
    /// the system chose.
    public let localAddress: SocketAddress

    /// Called with errors from accepting (e.g. `EMFILE` when out of file descriptors);
    /// the listener keeps listening. With none set, such errors are dropped.
    public var onAcceptError: ((UVError) -> Void)?

    private let handle: UnsafeMutablePointer<uv_tcp_t>
    private var onAccept: ((TCPConnection) -> Void)?
    private var onClosed: (() -> Void)?

    /// `true` once ``close(_:)`` has been called.
    public private(set) var isClosed = false

    /// Binds to `host`:`port` and listens. Loop-confined.
    ///
    /// - Parameters:
    ///   - host: a numeric IPv4 or IPv6 address (`"127.0.0.1"`, `"0.0.0.0"`, `"::1"`,
    ///     `"::"`, which on Linux also accepts IPv4), or a name resolved at once, blocking
    ///     (`"localhost"`; the first address returned is used).
    ///   - port: 0 lets the system choose; read it from ``port``.
    ///   - backlog: the kernel's queue of not-yet-accepted connections.
    ///   - onAccept: gets each new connection, not yet reading. The connection stays open
    ///     until you close it.
    /// - Throws: ``UVError``, e.g. `EADDRINUSE`, `EADDRNOTAVAIL`, `EACCES`, `EAI_NONAME`.
    public convenience init(loop: EventLoop, host: String, port: Int, backlog: Int32 = 511,
                            onAccept: @escaping (TCPConnection) -> Void) throws(UVError) {
        loop.preconditionLoopConfined()
        let address: SocketAddress
        do throws(UVError) {
            address = try SocketAddress(host: host, port: port)
        } catch {
            address = try Self.resolve(host: host, port: port, loop: loop)
        }
        try self.init(loop: loop, address: address, backlog: backlog, onAccept: onAccept)
    }

    /// Binds to `address` and listens. Loop-confined. See
    /// ``init(loop:host:port:backlog:onAccept:)``.
    public init(loop: EventLoop, address: SocketAddress, backlog: Int32 = 511,
                onAccept: @escaping (TCPConnection) -> Void) throws(UVError) {
        loop.preconditionLoopConfined()
        let handle = UnsafeMutablePointer<uv_tcp_t>.allocate(capacity: 1)
        handle.initialize(to: uv_tcp_t())
        let initRC = uv_tcp_init(loop.uvLoop, handle)
        guard initRC == 0 else {
            handle.deallocate()
            throw UVError(code: initRC, operation: "create socket for \(address)")
        }
        let bound: SocketAddress
        do throws(UVError) {
            try UVError.check(address.withSockAddr { uv_tcp_bind(handle, $0, 0) }, "bind \(address)")
            // data is still nil: the connection callback ignores connections until init ends
            // (none can arrive before the loop polls again anyway).
            try UVError.check(uv_listen(bindery_tcp_stream(handle), backlog, listenerConnectionCallback),
                              "listen on \(address)")
            guard let local = SocketAddress.read({ uv_tcp_getsockname(handle, $0, $1) }) else {
                throw UVError(code: bindery_uv_einval(), operation: "read bound address of \(address)")
            }
            bound = local
        } catch {
            uv_close(bindery_tcp_handle(handle), freeUnownedTCPHandle)
            throw error
        }
        self.loop = loop
        self.handle = handle
        self.localAddress = bound
        self.onAccept = onAccept
        handle.pointee.data = Unmanaged.passRetained(self).toOpaque()
    }

    /// The bound port (the system's choice when you asked for port 0).
    public var port: Int { localAddress.port }

    /// Stops listening; `onClosed` runs on the loop thread once libuv has let go of the
    /// socket. Connections already accepted are not affected. Calling it again does
    /// nothing. Loop-confined.
    public func close(_ onClosed: (() -> Void)? = nil) {
        loop.preconditionLoopConfined()
        guard !isClosed else { return }
        isClosed = true
        onAccept = nil
        onAcceptError = nil
        self.onClosed = onClosed
        uv_close(bindery_tcp_handle(handle), listenerCloseCallback)
    }

    fileprivate func accept(status: Int32) {
        guard !isClosed, let onAccept else { return }
        guard status == 0 else {
            onAcceptError?(UVError(code: status, operation: "accept on \(localAddress)"))
            return
        }
        do throws(UVError) {
            onAccept(try TCPConnection(acceptingFrom: bindery_tcp_stream(handle), loop: loop))
        } catch {
            onAcceptError?(error)
        }
    }

    fileprivate func didClose() {
        let onClosed = self.onClosed
        self.onClosed = nil
        handle.deallocate()
        onClosed?()
    }

    /// Resolves a host name synchronously (uv_getaddrinfo without a callback).
    private static func resolve(host: String, port: Int, loop: EventLoop) throws(UVError) -> SocketAddress {
        var request = uv_getaddrinfo_t()
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        let rc = uv_getaddrinfo(loop.uvLoop, &request, nil, host, String(port), &hints)
        try UVError.check(rc, "resolve \(host)")
        defer { uv_freeaddrinfo(request.addrinfo) }
        var entry = request.addrinfo
        while let current = entry {
            if let address = current.pointee.ai_addr, let resolved = SocketAddress(UnsafePointer(address)) {
                return resolved
            }
            entry = current.pointee.ai_next
        }
        throw UVError(code: bindery_uv_einval(), operation: "resolve \(host): no IPv4 or IPv6 address")
    }
}

private let listenerConnectionCallback: uv_connection_cb = { server, status in
    guard let server, let data = server.pointee.data else { return }
    Unmanaged<TCPListener>.fromOpaque(data).takeUnretainedValue().accept(status: status)
}

private let listenerCloseCallback: uv_close_cb = { handle in
    guard let handle, let data = handle.pointee.data else { return }
    let listener = Unmanaged<TCPListener>.fromOpaque(data)
    listener.takeUnretainedValue().didClose()
    listener.release()
}

/// Close callback for a TCP handle that failed to open and has no owner object.
let freeUnownedTCPHandle: uv_close_cb = { handle in
    UnsafeMutableRawPointer(handle)?.deallocate()
}
