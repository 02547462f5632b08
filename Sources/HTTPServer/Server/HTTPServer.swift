import EventLoop

/// An HTTP/1.1 server on an ``EventLoop``: accepts connections, parses requests strictly
/// (``HTTPRequestParser``), routes them (``Router``) and writes responses, with the
/// limits and timeouts of ``Configuration``.
///
/// **Loop-confined**: create it, start it and shut it down on the loop thread (or before
/// the loop first runs); handlers run on the loop thread. Checked with `precondition`.
///
/// ```swift
/// let router = Router()
/// router.get("/healthz") { _, responder in responder.respond(.text("ok\n")) }
/// let server = HTTPServer(loop: loop, configuration: .init(), router: router)
/// try server.start(host: "127.0.0.1", port: 8080)
/// ```
public final class HTTPServer {
    /// The loop everything runs on.
    public let loop: EventLoop
    /// Limits and timeouts (fixed once created).
    public let configuration: Configuration
    /// The routes.
    public let router: Router

    /// The shared `Date` header value.
    let dateCache = HTTPDateCache()
    private var listener: TCPListener?
    private var connections: [ObjectIdentifier: HTTPConnection] = [:]
    /// Connections answered `503` and lingering until the client hangs up.
    private var refusals: [ObjectIdentifier: HTTPConnection] = [:]
    /// Connections accepted so far (their serial numbers).
    private var accepted: UInt64 = 0
    private var shutdownHooks: [(@escaping () -> Void) -> Void] = []
    private var pendingShutdownHooks = 0
    private var shutdownCompletion: (() -> Void)?
    private var shutdownDeadline: LoopTimer?
    private var shutdownFinished = false

    /// Called on the loop thread once for every request answered (or given up), for access
    /// logs and metrics; also for requests refused before routing (bad request heads, `503`
    /// for too many connections). Set it before ``start(host:port:)``.
    public var onAccess: ((HTTPAccessRecord) -> Void)?

    /// `true` once ``shutdown(timeout:completion:)`` has been called.
    public private(set) var isShuttingDown = false

    /// A server that is not listening yet.
    public init(loop: EventLoop, configuration: Configuration = Configuration(), router: Router) {
        self.loop = loop
        self.configuration = configuration
        self.router = router
    }

    /// Binds and starts accepting connections.
    ///
    /// - Parameters:
    ///   - host: numeric address or name (see `TCPListener`); `127.0.0.1` by default.
    ///   - port: 0 lets the system choose; read ``port`` afterwards.
    /// - Throws: `UVError` (e.g. `EADDRINUSE`).
    ///
    /// `SIGPIPE` is already ignored, process-wide, by ``EventLoop/init()``: a write to a
    /// connection the client has already reset fails with `EPIPE` instead of killing the
    /// process.
    public func start(host: String = "127.0.0.1", port: Int = 0) throws {
        checkLoop()
        precondition(listener == nil, "HTTPServer.start called twice")
        listener = try TCPListener(loop: loop, host: host, port: port, backlog: configuration.backlog) { [weak self] tcp in
            guard let self else {
                tcp.close()
                return
            }
            accept(tcp)
        }
    }

    /// The bound port (0 before ``start(host:port:)``).
    public var port: Int { listener?.port ?? 0 }

    /// The bound address, nil before ``start(host:port:)``.
    public var localAddress: SocketAddress? { listener?.localAddress }

    /// Open HTTP connections (upgraded ones are no longer counted).
    public var connectionCount: Int {
        checkLoop()
        return connections.count
    }

    /// Registers work to do when shutdown begins, e.g. the WebSocket layer sending close
    /// 1001 to its connections. The hook runs on the loop thread and calls `done` when
    /// finished; ``shutdown(timeout:completion:)`` waits for it (up to its timeout).
    public func onShutdown(_ hook: @escaping (_ done: @escaping () -> Void) -> Void) {
        checkLoop()
        shutdownHooks.append(hook)
    }

    /// Shuts down gracefully: stops accepting, closes idle keep-alive connections at
    /// once, lets in-flight responses finish (each then closes its connection), and runs
    /// the shutdown hooks. `completion` runs on the loop thread when all of that is done,
    /// or after `timeout`, when whatever is left is closed (pending responders get
    /// `onClose(.shutdown)`). Calling it again does nothing (its completion is not called).
    public func shutdown(timeout: Duration = .seconds(10), completion: (() -> Void)? = nil) {
        checkLoop()
        guard !isShuttingDown else { return }
        isShuttingDown = true
        shutdownCompletion = completion
        listener?.close()
        shutdownDeadline = loop.scheduleTimer(after: timeout) { [self] in
            shutdownDeadline = nil
            for connection in Array(connections.values) { connection.close(.shutdown) }
            pendingShutdownHooks = 0
            finishShutdownIfDone()
        }
        pendingShutdownHooks = shutdownHooks.count
        for hook in shutdownHooks {
            var called = false
            hook { [self] in
                guard !called else { return }
                called = true
                if pendingShutdownHooks > 0 { pendingShutdownHooks -= 1 }
                finishShutdownIfDone()
            }
        }
        for connection in Array(connections.values) { connection.beginShutdown() }
        finishShutdownIfDone()
    }

    private func finishShutdownIfDone() {
        guard isShuttingDown, !shutdownFinished, connections.isEmpty, pendingShutdownHooks == 0 else { return }
        shutdownFinished = true
        shutdownDeadline?.close()
        shutdownDeadline = nil
        let completion = shutdownCompletion
        shutdownCompletion = nil
        completion?()
    }

    // MARK: - Connections

    private func accept(_ tcp: TCPConnection) {
        if isShuttingDown {
            tcp.close()
            return
        }
        accepted += 1
        let connection = HTTPConnection(tcp: tcp, server: self, serial: accepted)
        if connections.count >= configuration.maxConnections, let stalled = connectionToDrop() {
            // Full: a connection the server is only waiting on makes room, so clients that
            // hold slots without asking (slowloris) cannot lock the others out.
            stalled.close(.clientClosed)
        }
        if connections.count >= configuration.maxConnections {
            // Refusals linger briefly; bound them too, or a flood would pile them up. At the
            // bound the oldest goes (its answer went out long ago), so a newcomer always
            // gets its 503 rather than a bare close.
            if refusals.count >= configuration.maxConnections,
               let oldest = refusals.values.min(by: { $0.serial < $1.serial }) {
                oldest.close(.clientClosed)
            }
            refusals[ObjectIdentifier(connection)] = connection
            connection.refuse()
            return
        }
        connections[ObjectIdentifier(connection)] = connection
        connection.start()
    }

    /// The best-ranked connection to drop (see ``HTTPConnection/evictionRank(now:)``), the
    /// oldest of its rank.
    private func connectionToDrop() -> HTTPConnection? {
        var best: (rank: Int, serial: UInt64, connection: HTTPConnection)?
        let now = ContinuousClock.now
        for connection in connections.values {
            guard let rank = connection.evictionRank(now: now) else { continue }
            if let current = best, (current.rank, current.serial) <= (rank, connection.serial) { continue }
            best = (rank, connection.serial, connection)
        }
        return best?.connection
    }

    /// A connection closed, was refused and is done, or was upgraded.
    func forget(_ connection: HTTPConnection) {
        if connections.removeValue(forKey: ObjectIdentifier(connection)) == nil {
            refusals.removeValue(forKey: ObjectIdentifier(connection))
            return
        }
        finishShutdownIfDone()
    }

    private func checkLoop(_ function: StaticString = #function) {
        precondition(!loop.isRunning || loop.isLoopThread, "HTTPServer.\(function) is loop-confined: call it on the event loop thread")
    }
}
