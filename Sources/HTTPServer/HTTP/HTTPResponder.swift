import EventLoop

/// Answers one request: once with a whole ``HTTPResponse``, or as a stream (Server-Sent
/// Events, large files).
///
/// **Loop-confined**: call it on the loop thread (``loop``), now or later — a handler may
/// keep the responder and answer after asynchronous work, hopping back with
/// `loop.execute`. Calls are checked with a `precondition`.
///
/// Responses on a connection go out in request order: the connection parses no further
/// (pipelined) request until this one is answered. Every request must eventually be
/// answered, or the connection stays busy until it closes.
///
/// If the connection closes first (client gone, stream dropped for backpressure, server
/// shutdown) ``onClose`` runs and later calls do nothing and return `false`.
public final class HTTPResponder {
    /// Why a connection closed before its response was complete.
    public enum CloseReason: Sendable, Equatable {
        /// The client closed its side or the connection failed.
        case clientClosed
        /// A streaming write would have exceeded the outgoing buffer limit: the client is
        /// not reading fast enough, so the stream was dropped and the connection closed.
        case backpressure
        /// The server shut down before the response was complete.
        case shutdown
    }

    enum State {
        case pending
        case streaming(ResponseHead.Framing, remaining: Int)
        case done
    }

    /// The loop this responder belongs to.
    public let loop: EventLoop
    /// The request's method (`HEAD` responses carry headers only).
    public let method: String
    /// The request's version (HTTP/1.0 cannot use chunked streams).
    public let version: HTTPVersion
    /// Runs once, on the loop thread, if the connection closes before the response is
    /// complete. Streams should stop producing when it runs.
    public var onClose: ((CloseReason) -> Void)?

    weak var connection: HTTPConnection?
    var keepAlive: Bool
    /// A Server-Sent Events stream: it has no end the client waits for, so the client's
    /// EOF (even a half-close) means it left and ends the stream at once.
    var isEventStream = false
    var state = State.pending
    /// For the access record (``HTTPServer/onAccess``): the request, its route, when it
    /// was dispatched, what was sent.
    var path = "-"
    var route: String?
    var started = ContinuousClock.now
    var status = 0
    var bytesSent = 0
    private var recorded = false

    init(connection: HTTPConnection, method: String, version: HTTPVersion, keepAlive: Bool) {
        self.loop = connection.tcp.loop
        self.connection = connection
        self.method = method
        self.version = version
        self.keepAlive = keepAlive
    }

    /// `true` once the response is complete or the connection is gone.
    public var isClosed: Bool {
        if case .done = state { return true }
        return connection == nil
    }

    /// Sends `response`. Only the first call (or ``startStream(status:headers:)``)
    /// counts; later ones return `false`.
    @discardableResult
    public func respond(_ response: HTTPResponse) -> Bool {
        check()
        guard case .pending = state, let connection else { return false }
        return connection.send(response, for: self)
    }

    /// Starts a streamed response: sends the status and headers now, the body through
    /// ``write(_:completion:)`` and ``end()``.
    ///
    /// With a `Content-Length` in `headers` exactly that many bytes must be written.
    /// Without one, HTTP/1.1 uses chunked encoding (the connection stays usable) and
    /// HTTP/1.0 sends until the connection closes.
    ///
    /// Backpressure: a write that would take the connection's queued bytes past
    /// ``HTTPServer/Configuration/maxOutgoingBufferBytes`` drops the stream and closes
    /// the connection (``onClose`` gets `.backpressure`). To send large data without
    /// being dropped, write the next chunk from the previous write's completion.
    @discardableResult
    public func startStream(status: Int = 200, headers: HTTPHeaders = [:]) -> Bool {
        check()
        guard case .pending = state, let connection else { return false }
        return connection.startStream(status: status, headers: headers, for: self)
    }

    /// Writes a chunk of a streamed response; `completion` runs on the loop thread with
    /// `true` once the kernel has taken it, `false` if the connection closed first.
    /// Returns `false` (and does not call `completion`) when there is no open stream, when
    /// the chunk exceeds a declared `Content-Length`, or when the stream was dropped for
    /// backpressure. Empty chunks are ignored.
    @discardableResult
    public func write(_ bytes: [UInt8], completion: ((Bool) -> Void)? = nil) -> Bool {
        check()
        guard case .streaming = state, let connection else { return false }
        return connection.writeStream(bytes, for: self, completion: completion)
    }

    /// Writes UTF-8 text to a streamed response (see ``write(_:completion:)``).
    @discardableResult
    public func write(_ text: String) -> Bool {
        write(Array(text.utf8))
    }

    /// Ends a streamed response. If a declared `Content-Length` was not reached the
    /// connection is closed, since the client cannot tell the body is short otherwise.
    public func end() {
        check()
        guard case .streaming = state, let connection else { return }
        connection.endStream(for: self)
    }

    /// Bytes queued on the connection that the kernel has not taken yet.
    public var bufferedByteCount: Int {
        check()
        return connection?.tcp.writeQueueSize ?? 0
    }

    // MARK: - Server-Sent Events

    /// Starts a Server-Sent Events stream (`text/event-stream`, `Cache-Control:
    /// no-cache`); then use ``sendEvent(_:event:id:)``.
    ///
    /// The connection keeps reading while the stream is open: the client's EOF (a close
    /// or a half-close; an SSE client sends nothing after its request) ends the stream at
    /// once through ``onClose``, without waiting for a write to fail. Returns `false` (and
    /// closes the connection) if the client had already closed its side.
    @discardableResult
    public func startEventStream(headers: HTTPHeaders = [:]) -> Bool {
        check()
        guard case .pending = state else { return false }
        isEventStream = true
        var headers = headers
        headers.replaceOrAdd(name: "Content-Type", value: "text/event-stream; charset=utf-8")
        headers.replaceOrAdd(name: "Cache-Control", value: "no-cache")
        return startStream(status: 200, headers: headers)
    }

    /// Sends one event; multi-line `data` becomes several `data:` lines.
    @discardableResult
    public func sendEvent(_ data: String, event: String? = nil, id: String? = nil) -> Bool {
        var text = ""
        if let event { text += "event: \(Self.singleLine(event))\n" }
        if let id { text += "id: \(Self.singleLine(id))\n" }
        for line in data.split(separator: "\n", omittingEmptySubsequences: false) {
            text += "data: \(line)\n"
        }
        return write(text + "\n")
    }

    /// Sends an SSE comment (`: text`), e.g. as a keep-alive.
    @discardableResult
    public func sendComment(_ comment: String = "") -> Bool {
        write(": \(Self.singleLine(comment))\n\n")
    }

    private static func singleLine(_ text: String) -> String {
        String(text.filter { $0 != "\n" && $0 != "\r" })
    }

    // MARK: - Internal

    /// Hands this request's access record to the server's hook, once.
    func record(_ server: HTTPServer, remoteAddress: SocketAddress?) {
        guard !recorded else { return }
        recorded = true
        guard let onAccess = server.onAccess else { return }
        onAccess(HTTPAccessRecord(method: method, path: path, route: route, status: status == 0 ? 499 : status,
                                  bytes: bytesSent, duration: ContinuousClock.now - started, remoteAddress: remoteAddress))
    }

    /// The connection closed before the response was complete.
    func connectionClosed(_ reason: CloseReason) {
        guard !isClosedForGood else { return }
        isClosedForGood = true
        if let server = connection?.server { record(server, remoteAddress: connection?.remoteAddress) }
        if case .done = state {} else {
            state = .done
            let onClose = self.onClose
            self.onClose = nil
            onClose?(reason)
        }
        connection = nil
    }

    private var isClosedForGood = false

    @inline(__always)
    private func check(_ function: StaticString = #function) {
        precondition(!loop.isRunning || loop.isLoopThread, "HTTPResponder.\(function) is loop-confined: call it on the event loop thread")
    }
}
