import EventLoop

/// The open connections of one or more WebSocket routes, so they can be closed together
/// (graceful shutdown sends 1001 "going away" to each).
///
/// Loop-confined: connections join and leave on the loop thread. A connection leaves
/// when its socket has closed; the group holds no other state per connection.
public final class WebSocketGroup {
    private var connections: [ObjectIdentifier: WebSocketConnection] = [:]
    private var drained: [() -> Void] = []

    /// `true` once ``closeAll(code:reason:completion:)`` was called: new upgrades are
    /// refused with 503.
    public private(set) var isClosing = false

    /// An empty group.
    public init() {}

    /// The number of connections whose socket is still open.
    public var count: Int { connections.count }

    /// The open connections (a snapshot).
    public var all: [WebSocketConnection] { Array(connections.values) }

    /// Adds a connection; it leaves the group by itself once closed.
    public func add(_ connection: WebSocketConnection) {
        guard connection.state != .closed else { return }
        let id = ObjectIdentifier(connection)
        connections[id] = connection
        connection.onSocketClosed = { [weak self] in self?.remove(id) }
    }

    /// Starts the closing handshake on every connection (each bounded by its close
    /// timeout) and calls `completion` on the loop thread once all sockets are closed.
    public func closeAll(code: WebSocketCloseCode = .goingAway, reason: String = "server shutting down",
                         completion: (() -> Void)? = nil) {
        isClosing = true
        if let completion { drained.append(completion) }
        for connection in Array(connections.values) { connection.close(code: code, reason: reason) }
        finishIfDrained()
    }

    /// Makes `server`'s graceful shutdown close this group's connections with 1001 and
    /// wait for them (within the server's shutdown timeout). Loop-confined.
    public func closeOnShutdown(of server: HTTPServer) {
        server.onShutdown { [self] done in closeAll(code: .goingAway, reason: "server shutting down", completion: done) }
    }

    private func remove(_ id: ObjectIdentifier) {
        connections[id] = nil
        finishIfDrained()
    }

    private func finishIfDrained() {
        guard connections.isEmpty, !drained.isEmpty else { return }
        let callbacks = drained
        drained = []
        callbacks.forEach { $0() }
    }
}
